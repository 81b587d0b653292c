import { index, integer, jsonb, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { ALERT_KINDS } from "../../shared/constants.ts";
import { events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";

/** "Alert me": a saved search whose new matching races are mailed weekly. */
export const savedSearches = pgTable(
  "saved_searches",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The search's query string as the search page writes it (`sport=trail&place=74010&radius=50`). */
    query: text("query").notNull(),
    /** What the member sees in the account area and in the mail ("Trail autour d'Annecy"). */
    label: text("label").notNull(),
    locale: text("locale").notNull().default("fr"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Races published after this moment are "new" for the next digest. */
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("saved_searches_user_query_idx").on(t.userId, t.query)],
);

export const alertKind = pgEnum("alert_kind", ALERT_KINDS);

/** Each mail an alert sent (or decided to send), so that none goes twice. */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: alertKind("kind").notNull(),
    eventId: integer("event_id").references(() => events.id, { onDelete: "cascade" }),
    savedSearchId: integer("saved_search_id").references(() => savedSearches.id, { onDelete: "cascade" }),
    /** What makes this delivery unique within its kind: a date, a status change… */
    key: text("key").notNull(),
    detail: jsonb("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("alert_deliveries_unique_idx").on(t.userId, t.kind, t.key),
    index("alert_deliveries_event_idx").on(t.eventId),
  ],
);

/** Which mails a member has turned off (one-click unsubscribe from any alert mail). */
export const alertPreferences = pgTable("alert_preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** Kinds turned off. */
  muted: text("muted").array().notNull().default([]),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
