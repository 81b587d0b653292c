/**
 * Identity's tables: members (users, with their role and the state of their address), their
 * sessions, and the rate-limit counters sign-in and uploads share. Every feature that keeps
 * something per member references users.id from here.
 */
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";

export const userRole = pgEnum("user_role", ["member", "organiser", "admin"]);
/** Spec section 4: unverified, pending change of email, verified. */
export const emailStatus = pgEnum("email_status", ["unverified", "pending_change", "verified"]);

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    /** Stored as typed; uniqueness and lookups are on lower(email). */
    email: text("email").notNull(),
    emailStatus: emailStatus("email_status").notNull().default("unverified"),
    /** The new address while a change of email waits for its code. */
    pendingEmail: text("pending_email"),
    /** argon2id PHC string; null for accounts created through social sign-in only. */
    passwordHash: text("password_hash"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    /** Pseudo or organisation name. */
    pseudo: text("pseudo").notNull().default(""),
    slug: varchar("slug", { length: 80 }).notNull().unique(),
    gender: varchar("gender", { length: 8 }),
    city: text("city"),
    country: varchar("country", { length: 2 }),
    presentation: text("presentation"),
    objectives: text("objectives"),
    sports: text("sports").array().notNull().default(sql`'{}'::text[]`),
    /** Best times in seconds. */
    best10k: integer("best_10k"),
    bestHalf: integer("best_half"),
    bestMarathon: integer("best_marathon"),
    publicProfile: boolean("public_profile").notNull().default(false),
    /** Storage key of the profile photo (user/…webp). */
    photo: text("photo"),
    role: userRole("role").notNull().default("member"),
    locale: varchar("locale", { length: 2 }).notNull().default("fr"),
    newsletter: boolean("newsletter").notNull().default(false),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /**
     * Erased by an admin (decision 048): every personal field is cleared and the row stays, disabled,
     * for the orders that must keep their buyer's account for the accounts.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
    loginCount: integer("login_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

/** Database sessions: the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    id: varchar("id", { length: 64 }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** "Remember me": a lasting cookie instead of a browser-session one. */
    persistent: boolean("persistent").notNull().default(false),
    ip: varchar("ip", { length: 64 }),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Fixed-window counters shared by every server instance (login, register, codes, recovery). */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull().default(0),
});
