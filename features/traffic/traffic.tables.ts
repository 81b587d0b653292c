import { date, doublePrecision, integer, pgTable, primaryKey, timestamp, varchar } from "drizzle-orm/pg-core";

/**
 * The server's own counters, one row per hour (UTC), added to once a minute by every server
 * instance: requests, errors, a latency histogram (LATENCY_BOUNDS_MS) and the sum of one CPU and
 * memory sample per minute (averages are sum / samples). Kept across restarts for the dashboard's
 * 24-hour and 30-day charts; rows older than TRAFFIC_KEEP_DAYS are deleted.
 */
export const trafficHours = pgTable("traffic_hours", {
  hour: timestamp("hour", { withTimezone: true }).primaryKey(),
  requests: integer("requests").notNull().default(0),
  serverErrors: integer("server_errors").notNull().default(0),
  clientErrors: integer("client_errors").notNull().default(0),
  latencyBuckets: integer("latency_buckets").array().notNull(),
  cpuSum: doublePrecision("cpu_sum").notNull().default(0),
  memorySum: doublePrecision("memory_sum").notNull().default(0),
  samples: integer("samples").notNull().default(0),
});

/**
 * Page views without cookies nor personal data (like Plausible): the page's path, the host of the
 * site the visitor came from ('' for none or this site) and the day. No address, no user agent,
 * no member: nothing here tells one visitor from another.
 */
export const pageViews = pgTable(
  "page_views",
  {
    day: date("day").notNull(),
    path: varchar("path", { length: 200 }).notNull(),
    referrerHost: varchar("referrer_host", { length: 100 }).notNull().default(""),
    views: integer("views").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path, t.referrerHost] })],
);
