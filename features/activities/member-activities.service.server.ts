/**
 * A member's own activities: the list with its totals, an activity's page, "your race" matching,
 * the day of an untimed file, linking to a course and making a result of it. Scoped to the member
 * who owns the activity: anyone else gets ITEM_NOT_FOUND (decision 031).
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { SportKey } from "../../shared/constants.ts";
import { parisToday, zonedTime } from "../../shared/zoned-time.ts";
import { courseWithEvent } from "../events/event-reads.server.ts";
import { users } from "../identity/identity.tables.ts";
import type { TrackPoint } from "../maps/geometry.ts";
import { TRACK_PROFILE_SAMPLES } from "../tracks/track-processing.ts";
import { segmentedProfile } from "../tracks/track-stats.ts";
import type {
  ActivitiesQuery,
  ActivitiesResponse,
  ActivityDetail,
  ActivitySport,
  CourseMatch,
} from "./activities.contract.ts";
import { activities, activityStreams } from "./activities.tables.ts";
import { type ActivityRow, summary } from "./activity-rows.ts";

/** "Your race": the activity started this close to the course's start (or the event's place)… */
export const MATCH_RADIUS_M = 5_000;
/** …and its distance is within this share of the course's. */
export const MATCH_DISTANCE_SHARE = 0.1;
export const ACTIVITIES_PAGE_SIZE = 30;

/**
 * The races an activity of each sport may have been ("your race"): a run or a trail run on foot
 * races, a ride on cycling races; other sports (a swim, a walk, "other": a TCX of Sport="Other",
 * a multisport file) on none, rather than on a running race held that day.
 */
const FOOT_RACES: readonly SportKey[] = ["running", "marathon", "half_marathon", "trail", "short_trail", "ultra_trail"];
const RACE_SPORTS: Partial<Record<ActivitySport, readonly SportKey[]>> = {
  run: FOOT_RACES,
  trail: FOOT_RACES,
  ride: ["cycling", "mtb"],
};

/**
 * The chart's profile: the stored one, or for a recording of several segments one read from its
 * line, segment by segment, so that the chart can leave the gaps out.
 */
function activityProfile(stream: { points: TrackPoint[]; breaks: number[]; profile: [number, number][] } | undefined) {
  if (!stream?.breaks.length) return { profile: stream?.profile ?? [], profileBreaks: [] };
  const { profile, breaks } = segmentedProfile(stream.points, stream.breaks, TRACK_PROFILE_SAMPLES);
  return { profile, profileBreaks: breaks };
}

export function memberActivitiesService(
  db: Db,
  clock: () => Date,
  deps: {
    /**
     * Records the member's result on a course inside the transaction (features/results'
     * recordManualIn, given by server/services.server.ts): its checks, its badges. Returns its id.
     */
    recordResult: (
      tx: Executor,
      member: { id: number; firstName: string; lastName: string; pseudo: string },
      courseId: number,
      timeMs: number,
    ) => Promise<number>;
  },
) {
  async function owned(user: { id: number }, id: number, tx: Executor = db): Promise<ActivityRow> {
    const [row] = await tx
      .select()
      .from(activities)
      .where(and(eq(activities.id, id), eq(activities.userId, user.id)));
    if (!row) throw new ApiError("ITEM_NOT_FOUND", { field: "id" });
    return row;
  }

  async function matchesOf(row: ActivityRow): Promise<CourseMatch[]> {
    if (row.startLat === null || row.startLng === null || row.distance <= 0) return [];
    // Never without a day (issue 26 item 5), and only races of the activity's own sport.
    const raceSports = RACE_SPORTS[row.sport as ActivitySport] ?? [];
    if (row.startPrecision === "none" || raceSports.length === 0) return [];
    const day = row.startedAt.toISOString().slice(0, 10);
    const found = await rows<{
      course_id: number;
      course_name: string;
      distance: number | null;
      event_id: number;
      event_name: string;
      slug: string;
      start_date: string;
      gap: number;
    }>(
      db,
      sql`SELECT * FROM (
            SELECT c.id AS course_id, c.name AS course_name, c.distance, e.id AS event_id, e.name AS event_name,
                   e.slug, e.start_date::text AS start_date,
                   earth_distance(ll_to_earth(${row.startLat}, ${row.startLng}),
                                  ll_to_earth(coalesce(t.start_lat, e.lat), coalesce(t.start_lng, e.lng)))::int AS gap
            FROM courses c
            JOIN events e ON e.id = c.event_id
            JOIN sports s ON s.id = e.sport_id
            LEFT JOIN tracks t ON t.course_id = c.id
            WHERE e.status = 'active' AND NOT e.cancelled
              AND s.key IN (${sql.join(
                raceSports.map((key) => sql`${key}`),
                sql`, `,
              )})
              AND ${day}::date BETWEEN e.start_date - 1 AND e.end_date + 1
              AND c.distance BETWEEN ${Math.floor(row.distance * (1 - MATCH_DISTANCE_SHARE))} AND ${Math.ceil(row.distance * (1 + MATCH_DISTANCE_SHARE))}
              AND coalesce(t.start_lat, e.lat) IS NOT NULL
          ) m
          WHERE gap <= ${MATCH_RADIUS_M}
          ORDER BY gap, abs(distance - ${row.distance}), course_id
          LIMIT 5`,
    );
    return found.map((m) => ({
      courseId: m.course_id,
      courseName: m.course_name,
      distance: m.distance,
      eventId: m.event_id,
      eventName: m.event_name,
      eventSlug: m.slug,
      startDate: m.start_date,
      startGap: m.gap,
    }));
  }

  return {
    async list(user: { id: number }, query: ActivitiesQuery): Promise<ActivitiesResponse> {
      const since = (() => {
        const now = clock();
        switch (query.period) {
          case "week":
            return new Date(now.getTime() - 7 * 86_400_000);
          case "month":
            return new Date(now.getTime() - 31 * 86_400_000);
          case "year":
            return new Date(now.getTime() - 366 * 86_400_000);
          default:
            return null;
        }
      })();
      const where = and(
        eq(activities.userId, user.id),
        query.sport ? eq(activities.sport, query.sport) : undefined,
        since ? sql`${activities.startedAt} >= ${since.toISOString()}::timestamptz` : undefined,
      );
      const found = await db
        .select()
        .from(activities)
        .where(where)
        .orderBy(desc(activities.startedAt), desc(activities.id))
        .limit(ACTIVITIES_PAGE_SIZE)
        .offset((query.page - 1) * ACTIVITIES_PAGE_SIZE);
      const [counted] = await db.select({ n: count() }).from(activities).where(where);
      const unit = sql.raw(`'${query.totals}'`);
      const totals = await db
        .select({
          period: sql<string>`date_trunc(${unit}, ${activities.startedAt} AT TIME ZONE 'Europe/Paris')::date::text`,
          count: sql<number>`count(*)::int`,
          distance: sql<number>`coalesce(sum(${activities.distance}), 0)::int`,
          movingTime: sql<number>`coalesce(sum(coalesce(${activities.movingTime}, ${activities.elapsedTime}, 0)), 0)::int`,
          elevationGain: sql<number>`coalesce(sum(${activities.elevationGain}), 0)::int`,
        })
        .from(activities)
        .where(where)
        .groupBy(sql`1`)
        .orderBy(sql`1 DESC`)
        .limit(60);
      return {
        activities: found.map(summary),
        total: Number(counted?.n ?? 0),
        pageSize: ACTIVITIES_PAGE_SIZE,
        totals: totals.map((t) => ({ ...t, count: Number(t.count) })),
      };
    },

    async detail(user: { id: number }, id: number): Promise<ActivityDetail> {
      const row = await owned(user, id);
      const [stream] = await db.select().from(activityStreams).where(eq(activityStreams.activityId, id));
      const linked = row.courseId ? await courseWithEvent(db, row.courseId) : null;
      const course = linked && {
        id: linked.id,
        name: linked.name,
        eventName: linked.eventName,
        eventSlug: linked.eventSlug,
      };
      return {
        ...summary(row),
        elevationLoss: row.elevationLoss,
        maxHeartRate: row.maxHeartRate,
        start: row.startLat !== null && row.startLng !== null ? { lat: row.startLat, lng: row.startLng } : null,
        points: stream?.points ?? [],
        breaks: stream?.breaks ?? [],
        ...activityProfile(stream),
        splits: stream?.splits ?? [],
        heartRate: stream?.heartRate ?? [],
        course: course ?? null,
        matches: row.courseId ? [] : await matchesOf(row),
      };
    },

    async remove(user: { id: number }, id: number): Promise<void> {
      const row = await owned(user, id);
      await db.delete(activities).where(eq(activities.id, row.id));
    },

    /**
     * Gives an activity whose day is unknown (a file without times uploaded before the upload asked
     * for it) the day the member says; an activity whose start was recorded keeps it.
     */
    async setDate(user: { id: number }, id: number, date: string): Promise<ActivityDetail> {
      const row = await owned(user, id);
      if (date > parisToday(clock())) throw new ApiError("ACTIVITY_DATE_INVALID");
      if (row.startPrecision !== "time") {
        await db
          .update(activities)
          .set({ startedAt: zonedTime(date, 12, 0, "Europe/Paris"), startPrecision: "day", updatedAt: clock() })
          .where(eq(activities.id, id));
      }
      return this.detail(user, id);
    },

    /** Links the activity to a course of the catalogue (the member's word; never automatic). */
    async link(user: { id: number }, id: number, courseId: number | null): Promise<ActivityDetail> {
      await owned(user, id);
      if (courseId !== null) {
        const course = await courseWithEvent(db, courseId, { activeOnly: true });
        if (!course) throw new ApiError("ITEM_NOT_FOUND", { field: "courseId" });
      }
      await db.update(activities).set({ courseId, updatedAt: clock() }).where(eq(activities.id, id));
      return this.detail(user, id);
    },

    /** "Make a result of it": the member's manual result on the linked course, from the elapsed time. */
    async makeResult(user: { id: number }, id: number): Promise<{ resultId: number }> {
      return db.transaction(async (tx) => {
        const row = await owned(user, id, tx);
        if (row.resultId !== null) throw new ApiError("RESULT_ALREADY_RECORDED");
        if (row.courseId === null) throw new ApiError("ACTIVITY_NOT_LINKED");
        const seconds = row.elapsedTime ?? row.movingTime;
        if (!seconds) throw new ApiError("ACTIVITY_NOT_LINKED");
        const [member] = await tx
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, pseudo: users.pseudo })
          .from(users)
          .where(eq(users.id, user.id));
        if (!member) throw new ApiError("ITEM_NOT_FOUND", { field: "courseId" });
        const resultId = await deps.recordResult(tx, member, row.courseId, seconds * 1000);
        await tx.update(activities).set({ resultId, updatedAt: clock() }).where(eq(activities.id, id));
        return { resultId };
      });
    },
  };
}
