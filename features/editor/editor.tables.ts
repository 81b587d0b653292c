import {
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
import { events } from "../events/events.tables.ts";

/**
 * Members who proved they organise an event (a code mailed to the event's contact address):
 * their edits go live at once. Member ids point at accounts' users (no cross-domain foreign key).
 */
export const eventOrganizers = pgTable(
  "event_organizers",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    /** The address the code went to. */
    email: text("email").notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index("event_organizers_user_idx").on(t.userId)],
);

/** "I am the organiser": a 5-digit code (hashed) waiting to be typed back. */
export const organizerClaims = pgTable(
  "organizer_claims",
  {
    id: serial("id").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    email: text("email").notNull(),
    secretHash: varchar("secret_hash", { length: 64 }).notNull(),
    attempts: smallint("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("organizer_claims_event_user_idx").on(t.eventId, t.userId)],
);

/** Edits by members who neither own nor organise the event, waiting for the organiser or an admin. */
export const eventChangeRequests = pgTable(
  "event_change_requests",
  {
    id: serial("id").primaryKey(),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    /** The whole proposed event form (see editor.contract.ts). */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** pending, accepted or rejected */
    status: varchar("status", { length: 12 }).notNull().default("pending"),
    message: text("message"),
    decidedBy: integer("decided_by"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_change_requests_event_idx").on(t.eventId, t.status)],
);
