/** What only the accounts feature keeps: former profile addresses, social sign-in links, mailed codes, account logs. */
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { users } from "../identity/identity.tables.ts";

/**
 * Profile addresses a member had before a change of name (issue 26 item 6): /membre/{slug} answers
 * them with a 301 to the current one. Filled by a trigger on users.slug (migration 0022); a member
 * given one of their former slugs again takes it back, and no one else is given it.
 */
export const userFormerSlugs = pgTable(
  "user_former_slugs",
  {
    slug: varchar("slug", { length: 80 }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("user_former_slugs_user_idx").on(t.userId)],
);

/** Accounts at Google, Facebook or Strava linked to a member. */
export const userIdentities = pgTable(
  "user_identities",
  {
    provider: varchar("provider", { length: 16 }).notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index("user_identities_user_idx").on(t.userId)],
);

/** One-time secrets sent by mail: 5-digit email codes and password-reset links (hashed). */
export const userTokens = pgTable(
  "user_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** verify_email, change_email, reset_password */
    purpose: varchar("purpose", { length: 16 }).notNull(),
    /** SHA-256 of the code or link token. */
    secretHash: varchar("secret_hash", { length: 64 }).notNull(),
    /** The address the code was sent to. */
    email: text("email").notNull(),
    attempts: smallint("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("user_tokens_user_purpose_idx").on(t.userId, t.purpose)],
);

/** Security-relevant account events, kept for the member's data export and the admin. */
export const userLogs = pgTable(
  "user_logs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: varchar("type", { length: 32 }).notNull(),
    ip: varchar("ip", { length: 64 }),
    data: jsonb("data"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("user_logs_user_idx").on(t.userId)],
);
