import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { events } from "./events.tables.ts";

/*
 * Who may edit an event besides its owner and the admins, and the edits proposed by anyone else:
 * the tables event-access.server.ts judges by. The editor (features/editor) and the organisers'
 * claims (features/organizers) write them.
 */

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
