import { index, integer, pgTable, serial, smallint, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { events } from "../events/events.tables.ts";

/**
 * "I am the organiser": a 5-digit code (hashed) waiting to be typed back. Written and read by
 * organizer.service.server.ts only (decision 047: declared in editor.tables.ts before).
 */
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
