import { date, integer, pgTable, primaryKey, varchar } from "drizzle-orm/pg-core";
import { events } from "./events.tables.ts";

/**
 * Clicks on an event's external links through `/redirect/{type}/{id}/{slug?}`, one counter per
 * event, link type and day (Paris calendar day). Crawlers are not counted.
 */
export const eventLinkClicks = pgTable(
  "event_link_clicks",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** One of LINK_TYPES (event-detail.contract.ts). */
    type: varchar("type", { length: 16 }).notNull(),
    day: date("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.type, t.day] })],
);
