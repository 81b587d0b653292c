/**
 * What other features ask of the activities (decision 047): a member's own activity with its
 * recorded line (a poster's source). Owner only, as the activity's page; the activities' tables are
 * read and written in this feature.
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { activities, activityStreams } from "./activities.tables.ts";

/** The member's activity, its figures and its stored line, or null (not theirs, or no line). */
export async function ownActivityWithLine(db: Executor, userId: number, activityId: number) {
  const [row] = await db
    .select({
      name: activities.name,
      startedAt: activities.startedAt,
      distance: activities.distance,
      movingTime: activities.movingTime,
      elapsedTime: activities.elapsedTime,
      elevationGain: activities.elevationGain,
      courseId: activities.courseId,
      resultId: activities.resultId,
      points: activityStreams.points,
      breaks: activityStreams.breaks,
    })
    .from(activities)
    .innerJoin(activityStreams, eq(activityStreams.activityId, activities.id))
    .where(and(eq(activities.id, activityId), eq(activities.userId, userId)));
  return row ?? null;
}
