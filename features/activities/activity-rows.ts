/** An activity row as the member's pages show it, and the columns and streams a processed track gives it. */
import type { ActivitySport, ActivitySummary } from "./activities.contract.ts";
import type { ActivityStartPrecision, activities } from "./activities.tables.ts";
import type { ActivityTrack } from "./activity-track.ts";

export type ActivityRow = typeof activities.$inferSelect;

export const stravaActivityUrl = (externalId: string) => `https://www.strava.com/activities/${externalId}`;

export function summary(row: ActivityRow): ActivitySummary {
  return {
    id: row.id,
    provider: row.provider,
    name: row.name,
    sport: row.sport as ActivitySport,
    startedAt: row.startedAt.toISOString(),
    startPrecision: row.startPrecision as ActivityStartPrecision,
    distance: row.distance,
    movingTime: row.movingTime,
    elapsedTime: row.elapsedTime,
    elevationGain: row.elevationGain,
    averageHeartRate: row.averageHeartRate,
    courseId: row.courseId,
    resultId: row.resultId,
    stravaUrl: row.provider === "strava" && row.externalId ? stravaActivityUrl(row.externalId) : null,
  };
}

/** Columns an activity takes from its processed track. */
export function trackColumns(built: ActivityTrack) {
  return {
    elevationGain: built.track.elevationGain,
    elevationLoss: built.track.elevationLoss,
    startLat: built.track.start.lat,
    startLng: built.track.start.lng,
    averageHeartRate: built.averageHeartRate,
    maxHeartRate: built.maxHeartRate,
  };
}

export function streamRow(activityId: number, built: ActivityTrack) {
  return {
    activityId,
    points: built.track.points,
    breaks: built.track.breaks,
    profile: built.track.profile,
    splits: built.splits,
    heartRate: built.heartRate,
  };
}
