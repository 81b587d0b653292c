import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, smallint, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";

/** One member's rating of one edition (an event row): overall 1–5 and optional criteria 1–5. */
export const ratings = pgTable(
  "ratings",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    overall: smallint("overall").notNull(),
    course: smallint("course"),
    organisation: smallint("organisation"),
    atmosphere: smallint("atmosphere"),
    value: smallint("value"),
    difficulty: smallint("difficulty"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("ratings_user_event_idx").on(t.userId, t.eventId),
    index("ratings_event_idx").on(t.eventId),
    check("ratings_overall_range", sql`${t.overall} BETWEEN 1 AND 5`),
    check(
      "ratings_criteria_range",
      sql`coalesce(${t.course}, 1) BETWEEN 1 AND 5 AND coalesce(${t.organisation}, 1) BETWEEN 1 AND 5 AND coalesce(${t.atmosphere}, 1) BETWEEN 1 AND 5 AND coalesce(${t.value}, 1) BETWEEN 1 AND 5 AND coalesce(${t.difficulty}, 1) BETWEEN 1 AND 5`,
    ),
  ],
);
