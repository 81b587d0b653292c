import { sql } from "drizzle-orm";
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { courses, type TrackPoint } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { results } from "../results/results.tables.ts";

export const ACTIVITY_PROVIDERS = ["strava", "file"] as const;
export const ACTIVITY_START_PRECISIONS = ["time", "day", "none"] as const;
export type ActivityStartPrecision = (typeof ACTIVITY_START_PRECISIONS)[number];
export const STRAVA_SYNC_STATES = ["idle", "queued", "syncing", "waiting", "failed"] as const;

export const activityProvider = pgEnum("activity_provider", ACTIVITY_PROVIDERS);
export const stravaSyncState = pgEnum("strava_sync_state", STRAVA_SYNC_STATES);

/**
 * A member's Strava connection for activities (separate from signing in with Strava): the grant's
 * tokens, sealed (features/accounts/secrets.server.ts secretBox, decision 031), and the state of
 * the sync the member's page shows.
 */
export const stravaConnections = pgTable(
  "strava_connections",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    athleteId: bigint("athlete_id", { mode: "number" }).notNull(),
    scope: text("scope").notNull(),
    accessToken: text("access_token").notNull(),
    refreshToken: text("refresh_token").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    syncState: stravaSyncState("sync_state").notNull().default("idle"),
    /** Activities read by the running (or last) sync, and the page of history it is at. */
    syncDone: integer("sync_done").notNull().default(0),
    syncPage: integer("sync_page").notNull().default(0),
    /** When a sync waiting for Strava's rate limit goes on. */
    resumeAt: timestamp("resume_at", { withTimezone: true }),
    /** The first sync read the whole history: later ones only read what is new. */
    historyDone: timestamp("history_done", { withTimezone: true }),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    /** Why the last sync failed (never a token): for the member's page and the admin's view. */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("strava_connections_athlete_idx").on(t.athleteId)],
);

/** One imported activity (a Strava activity or a GPX/TCX/FIT file), visible to its owner only. */
export const activities = pgTable(
  "activities",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: activityProvider("provider").notNull(),
    /** Strava's activity id; null for files. */
    externalId: varchar("external_id", { length: 32 }),
    /** "gpx", "tcx" or "fit" for files. */
    fileKind: varchar("file_kind", { length: 8 }),
    name: text("name").notNull(),
    /** ACTIVITY_SPORTS (activities.contract.ts). */
    sport: varchar("sport", { length: 16 }).notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /**
     * What `started_at` knows (ACTIVITY_START_PRECISIONS): "time", recorded (Strava, a timed file);
     * "day", the day the member gave for a file without times (noon in Paris, the time unknown);
     * "none", nothing: a file without times uploaded before issue 26 item 5 was dated at its upload,
     * so its day is not shown as one and it is never matched to a race until the member gives it.
     */
    startPrecision: varchar("start_precision", { length: 8 }).notNull().default("time"),
    /** Metres and seconds. */
    distance: integer("distance").notNull().default(0),
    movingTime: integer("moving_time"),
    elapsedTime: integer("elapsed_time"),
    /** Metres, smoothed like course tracks; null when unknown. */
    elevationGain: integer("elevation_gain"),
    elevationLoss: integer("elevation_loss"),
    startLat: doublePrecision("start_lat"),
    startLng: doublePrecision("start_lng"),
    averageHeartRate: smallint("average_heart_rate"),
    maxHeartRate: smallint("max_heart_rate"),
    /** The course the member said this was (never set automatically). */
    courseId: integer("course_id").references(() => courses.id, { onDelete: "set null" }),
    /** The result the member made of it. */
    resultId: integer("result_id").references(() => results.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("activities_user_started_idx").on(t.userId, t.startedAt),
    uniqueIndex("activities_external_idx")
      .on(t.userId, t.provider, t.externalId)
      .where(sql`${t.externalId} IS NOT NULL`),
  ],
);

/** A kilometre of an activity: its time, elevation gain and mean heart rate. */
/** `km`: where the split ends, in km (whole ones, the last to a tenth). */
export type ActivitySplit = {
  km: number;
  distance: number;
  seconds: number;
  elevationGain: number | null;
  heartRate: number | null;
};

/**
 * The recorded track of an activity, stored like a course track (simplified line, elevation profile)
 * plus what only activities have: splits per km and a heart-rate series.
 */
export const activityStreams = pgTable("activity_streams", {
  activityId: integer("activity_id")
    .primaryKey()
    .references(() => activities.id, { onDelete: "cascade" }),
  points: jsonb("points").$type<TrackPoint[]>().notNull(),
  /** Indexes in `points` where a new segment of the recording starts (GPX <trkseg>, TCX <Track>). */
  breaks: jsonb("breaks").$type<number[]>().notNull().default([]),
  profile: jsonb("profile").$type<[number, number][]>().notNull().default([]),
  splits: jsonb("splits").$type<ActivitySplit[]>().notNull().default([]),
  /** [distance m, beats per minute] samples; empty without a heart-rate record. */
  heartRate: jsonb("heart_rate").$type<[number, number][]>().notNull().default([]),
});

/**
 * Strava's application-wide rate limits as this site has used them, one row shared by every server
 * instance (decision 031): each request takes a unit in the current 15-minute window and day, and
 * Strava's X-RateLimit-Usage headers bring the counts up to what Strava has seen.
 */
export const providerRateLimits = pgTable("provider_rate_limits", {
  provider: varchar("provider", { length: 16 }).primaryKey(),
  shortLimit: integer("short_limit").notNull(),
  shortUsage: integer("short_usage").notNull().default(0),
  shortWindow: timestamp("short_window", { withTimezone: true }).notNull(),
  dailyLimit: integer("daily_limit").notNull(),
  dailyUsage: integer("daily_usage").notNull().default(0),
  day: timestamp("day", { withTimezone: true }).notNull(),
  /** Requests Strava refused with 429, and when it last did. */
  refused: integer("refused").notNull().default(0),
  lastRefusedAt: timestamp("last_refused_at", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
