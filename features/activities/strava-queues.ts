/** The Strava jobs' queues and payloads (features/activities/activities.jobs.server.ts runs them). */
export const STRAVA_SYNC_QUEUE = "activities.strava-sync";
export const STRAVA_EVENT_QUEUE = "activities.strava-event";
export const STRAVA_CATCHUP_QUEUE = "activities.strava-catchup";
/** The periodic catch-up: every member's new activities, in case a push event was lost. */
export const CATCHUP_EVERY_MS = 6 * 3_600_000;

export type SyncPayload = { userId: number; page: number; mode: "history" | "catchup" };
/** A push event to check with Strava: an activity's, or the athlete's deauthorization. */
export type EventPayload = { athleteId: number } & ({ activityId: number } | { deauthorized: true });
