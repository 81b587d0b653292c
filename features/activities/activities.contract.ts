/** The activities API's shapes (features/activities): what the member's pages and the API share. */
import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { isRealDay, rowId } from "../../shared/input.ts";
import { ACTIVITY_PROVIDERS, ACTIVITY_START_PRECISIONS, STRAVA_SYNC_STATES } from "./activities.tables.ts";

export const ACTIVITY_SPORTS = ["run", "trail", "ride", "walk", "hike", "swim", "other"] as const;
export type ActivitySport = (typeof ACTIVITY_SPORTS)[number];
export const ACTIVITY_PERIODS = ["week", "month", "year", "all"] as const;
export type ActivityPeriod = (typeof ACTIVITY_PERIODS)[number];
/** Files one upload may carry. */
export const ACTIVITY_FILES_PER_UPLOAD = 10;

/** Strava's sport types as Dossard's sports. */
export function sportOfStrava(sportType: string | null | undefined): ActivitySport {
  switch (sportType) {
    case "Run":
    case "VirtualRun":
      return "run";
    case "TrailRun":
      return "trail";
    case "Ride":
    case "MountainBikeRide":
    case "GravelRide":
    case "EBikeRide":
    case "EMountainBikeRide":
    case "VirtualRide":
      return "ride";
    case "Walk":
      return "walk";
    case "Hike":
      return "hike";
    case "Swim":
      return "swim";
    default:
      return "other";
  }
}

const point = z.tuple([z.number(), z.number(), z.number().nullable()]);

export const activitySummarySchema = z.object({
  id: z.number().int(),
  provider: z.enum(ACTIVITY_PROVIDERS),
  name: z.string(),
  sport: z.enum(ACTIVITY_SPORTS),
  startedAt: z.string(),
  /** "time": started at `startedAt`; "day": on that day, time unknown; "none": day unknown too. */
  startPrecision: z.enum(ACTIVITY_START_PRECISIONS),
  distance: z.number().int(),
  movingTime: z.number().int().nullable(),
  elapsedTime: z.number().int().nullable(),
  elevationGain: z.number().int().nullable(),
  averageHeartRate: z.number().int().nullable(),
  courseId: z.number().int().nullable(),
  resultId: z.number().int().nullable(),
  /** The activity on Strava (attribution link), for Strava ones. */
  stravaUrl: z.string().nullable(),
});
export type ActivitySummary = z.infer<typeof activitySummarySchema>;

export const activityTotalSchema = z.object({
  /** First day of the week (Monday), month or year, YYYY-MM-DD. */
  period: z.string(),
  count: z.number().int(),
  distance: z.number().int(),
  movingTime: z.number().int(),
  elevationGain: z.number().int(),
});
export type ActivityTotal = z.infer<typeof activityTotalSchema>;

export const activitiesQuerySchema = z.object({
  sport: z.enum(ACTIVITY_SPORTS).optional(),
  period: z.enum(ACTIVITY_PERIODS).default("all"),
  /** Totals per week, month or year. */
  totals: z.enum(["week", "month", "year"]).default("month"),
  page: z.coerce.number().int().min(1).max(1000).default(1),
});
export type ActivitiesQuery = z.infer<typeof activitiesQuerySchema>;

export const activitiesResponseSchema = z.object({
  activities: z.array(activitySummarySchema),
  total: z.number().int(),
  pageSize: z.number().int(),
  totals: z.array(activityTotalSchema),
});
export type ActivitiesResponse = z.infer<typeof activitiesResponseSchema>;

export const courseMatchSchema = z.object({
  courseId: z.number().int(),
  courseName: z.string(),
  distance: z.number().int().nullable(),
  eventId: z.number().int(),
  eventName: z.string(),
  eventSlug: z.string(),
  startDate: z.string(),
  /** How far the activity started from the course's start (or the event's place), metres. */
  startGap: z.number().int(),
});
export type CourseMatch = z.infer<typeof courseMatchSchema>;

export const activityDetailSchema = activitySummarySchema.extend({
  elevationLoss: z.number().int().nullable(),
  maxHeartRate: z.number().int().nullable(),
  start: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  points: z.array(point),
  /** Indexes in `points` where a new segment of the recording starts. */
  breaks: z.array(z.number().int()),
  /** [distance m, elevation m], the distance without the gaps between segments. */
  profile: z.array(z.tuple([z.number(), z.number()])),
  /** Indexes in `profile` where a new segment starts. */
  profileBreaks: z.array(z.number().int()),
  splits: z.array(
    z.object({
      km: z.number(),
      distance: z.number().int(),
      seconds: z.number().int(),
      elevationGain: z.number().int().nullable(),
      heartRate: z.number().int().nullable(),
    }),
  ),
  heartRate: z.array(z.tuple([z.number(), z.number()])),
  course: z.object({ id: z.number().int(), name: z.string(), eventName: z.string(), eventSlug: z.string() }).nullable(),
  /** Catalogue courses this may have been ("your race"), when it is linked to none. */
  matches: z.array(courseMatchSchema),
});
export type ActivityDetail = z.infer<typeof activityDetailSchema>;

const code = (c: ErrorCode) => ({ message: c });

/** The first day an activity may be dated. */
export const ACTIVITY_FIRST_DAY = "1990-01-01";

/**
 * The day of an activity whose file has no time, as the member gives it ("YYYY-MM-DD"): a real
 * day from 1990 on; that it is not still to come is checked against the server's today.
 */
export const activityDaySchema = z
  .string(code("ACTIVITY_DATE_INVALID"))
  .regex(/^\d{4}-\d{2}-\d{2}$/, code("ACTIVITY_DATE_INVALID"))
  .refine((day) => isRealDay(day) && day >= ACTIVITY_FIRST_DAY, code("ACTIVITY_DATE_INVALID"));

export const ACTIVITY_ACTIONS = ["link", "unlink", "result", "date"] as const;
export const activityActionBodySchema = z.object({
  courseId: rowId.optional(),
  /** The `date` action: the day of an activity whose day is unknown. */
  date: activityDaySchema.optional(),
});

export const stravaStatusSchema = z.object({
  /** Strava is set up on this site. */
  available: z.boolean(),
  connected: z.boolean(),
  athleteId: z.number().int().nullable(),
  syncState: z.enum(STRAVA_SYNC_STATES).nullable(),
  /** Activities read by the running (or last) sync. */
  syncDone: z.number().int(),
  resumeAt: z.string().nullable(),
  lastSyncAt: z.string().nullable(),
  historyDone: z.boolean(),
  failed: z.boolean(),
  activityCount: z.number().int(),
});
export type StravaStatus = z.infer<typeof stravaStatusSchema>;

export const uploadOutcomeSchema = z.object({
  fileName: z.string(),
  activity: activitySummarySchema.optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export const uploadResponseSchema = z.object({ files: z.array(uploadOutcomeSchema) });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

/** Strava's push subscription event (https://developers.strava.com/docs/webhooks/). */
export const stravaEventSchema = z.object({
  object_type: z.enum(["activity", "athlete"]),
  object_id: z.number().int().nonnegative(),
  aspect_type: z.enum(["create", "update", "delete"]),
  owner_id: z.number().int().nonnegative(),
  subscription_id: z.number().int().nonnegative(),
  event_time: z.number().int().nonnegative(),
  updates: z.record(z.string(), z.unknown()).optional(),
});
export type StravaEvent = z.infer<typeof stravaEventSchema>;

export const adminActivitiesSchema = z.object({
  members: z.array(
    z.object({
      userId: z.number().int(),
      name: z.string(),
      strava: z.number().int(),
      files: z.number().int(),
      syncState: z.enum(STRAVA_SYNC_STATES).nullable(),
    }),
  ),
  failedSyncs: z.array(
    z.object({
      userId: z.number().int(),
      name: z.string(),
      lastError: z.string().nullable(),
      at: z.string().nullable(),
    }),
  ),
  rateLimit: z.object({
    shortLimit: z.number().int(),
    shortUsage: z.number().int(),
    dailyLimit: z.number().int(),
    dailyUsage: z.number().int(),
    refused: z.number().int(),
    lastRefusedAt: z.string().nullable(),
    waitingSyncs: z.number().int(),
  }),
});
export type AdminActivities = z.infer<typeof adminActivitiesSchema>;
