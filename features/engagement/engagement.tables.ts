import { sql } from "drizzle-orm";
import {
  bigint,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { CALENDAR_STATUSES } from "../../shared/constants.ts";
import { courses, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";

/** A member's saved races (the heart on cards and event pages). */
export const favorites = pgTable(
  "favorites",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.eventId] }), index("favorites_event_idx").on(t.eventId)],
);

export const calendarStatus = pgEnum("calendar_status", CALENDAR_STATUSES);

/** A course in a member's season: planned, registered, done or did not start, with a target time. */
export const calendarEntries = pgTable(
  "calendar_entries",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** The course's event, kept for the per-event counts and the planning's joins. */
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    status: calendarStatus("status").notNull().default("planned"),
    /** Seconds. */
    targetTime: integer("target_time"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("calendar_entries_user_course_idx").on(t.userId, t.courseId),
    index("calendar_entries_event_idx").on(t.eventId),
    index("calendar_entries_course_idx").on(t.courseId),
  ],
);

/** The private, revocable address of a member's planning as an iCalendar feed. */
export const calendarFeeds = pgTable("calendar_feeds", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Random, URL-safe; resetting it replaces the row, so the old address stops working. */
  token: text("token").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastFetchedAt: timestamp("last_fetched_at", { withTimezone: true }),
});

/** Page views per event, counted in memory and added here in batches (never on the page's path). */
export const eventViews = pgTable("event_views", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id, { onDelete: "cascade" }),
  views: bigint("views", { mode: "number" }).notNull().default(sql`0`),
});
