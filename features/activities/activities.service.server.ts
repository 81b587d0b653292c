/**
 * Members' activities, one service object composed of: the Strava connection
 * (strava-connect.service.server.ts) and sync — jobs, push events, rate budget
 * (strava-sync.service.server.ts, over strava-connections.server.ts) — uploaded files
 * (activity-uploads.service.server.ts), and the member's lists and pages, "your race" matching,
 * linking to a course and making a result (member-activities.service.server.ts). Here: the account
 * hooks and the admin's overview, which span both. Every read and write is scoped to the member who
 * owns the activity: another member, or an admin through any route, gets ITEM_NOT_FOUND (decision 031).
 */
import { count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { users } from "../identity/identity.tables.ts";
import type { AdminActivities } from "./activities.contract.ts";
import { activities, activityStreams, stravaConnections } from "./activities.tables.ts";
import { summary } from "./activity-rows.ts";
import { activityUploadsService } from "./activity-uploads.service.server.ts";
import { memberActivitiesService } from "./member-activities.service.server.ts";
import { stravaConnectService } from "./strava-connect.service.server.ts";
import { type Enqueue, type StravaDeps, stravaConnectionStore } from "./strava-connections.server.ts";
import { stravaSyncService } from "./strava-sync.service.server.ts";

export { stravaActivityUrl } from "./activity-rows.ts";
export { ACTIVITY_UPLOAD_LIMIT } from "./activity-uploads.service.server.ts";
export { ACTIVITIES_PAGE_SIZE, MATCH_DISTANCE_SHARE, MATCH_RADIUS_M } from "./member-activities.service.server.ts";
export {
  CATCHUP_EVERY_MS,
  type EventPayload,
  STRAVA_CATCHUP_QUEUE,
  STRAVA_EVENT_QUEUE,
  STRAVA_SYNC_QUEUE,
  type SyncPayload,
} from "./strava-queues.ts";
export { STRAVA_ATHLETE_EVENT_LIMIT, STRAVA_WEBHOOK_LIMIT } from "./strava-sync.service.server.ts";

export type ActivitiesDeps = StravaDeps & {
  enqueue?: Enqueue;
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
};

export function activitiesService(db: Db, clock: () => Date, deps: ActivitiesDeps) {
  const store = stravaConnectionStore(db, clock, deps);
  const { budget, strava, box, connectionOf } = store;

  return {
    ...stravaConnectService(db, clock, deps, store),
    ...stravaSyncService(db, clock, deps, store),
    ...activityUploadsService(db, clock),
    ...memberActivitiesService(db, clock, deps),

    // -------------------------------------------------------------------------------------------
    // Account hooks

    /** Account disabled: the connection is revoked at Strava (best effort) and every activity deleted. */
    async eraseMember(userId: number, tx: Executor = db): Promise<void> {
      const connection = await connectionOf(userId, tx);
      if (connection) {
        // Not awaited inside the caller's transaction: Strava's answer must not hold it open.
        const token = box.open(connection.accessToken);
        void strava.deauthorize(token).catch(() => undefined);
      }
      await tx.delete(activities).where(eq(activities.userId, userId));
      await tx.delete(stravaConnections).where(eq(stravaConnections.userId, userId));
    },

    /** GDPR export: the activities and the connection (never its tokens). */
    async exportMember(userId: number) {
      const connection = await connectionOf(userId);
      const list = await db
        .select()
        .from(activities)
        .where(eq(activities.userId, userId))
        .orderBy(desc(activities.startedAt));
      const streams = list.length
        ? await db
            .select()
            .from(activityStreams)
            .where(
              inArray(
                activityStreams.activityId,
                list.map((a) => a.id),
              ),
            )
        : [];
      const byId = new Map(streams.map((s) => [s.activityId, s]));
      return {
        strava: connection
          ? {
              athleteId: connection.athleteId,
              scope: connection.scope,
              connectedAt: connection.createdAt.toISOString(),
              lastSyncAt: connection.lastSyncAt?.toISOString() ?? null,
            }
          : null,
        activities: list.map((a) => ({
          ...summary(a),
          elevationLoss: a.elevationLoss,
          maxHeartRate: a.maxHeartRate,
          start: a.startLat !== null ? { lat: a.startLat, lng: a.startLng } : null,
          track: byId.get(a.id)?.points ?? [],
          splits: byId.get(a.id)?.splits ?? [],
        })),
      };
    },

    // -------------------------------------------------------------------------------------------
    // Admin

    /** Counts per member and provider, failed syncs, the rate-limit state: never an activity's content. */
    async adminOverview(): Promise<AdminActivities> {
      const members = await rows<{
        user_id: number;
        name: string;
        strava: number;
        files: number;
        sync_state: string | null;
      }>(
        db,
        sql`SELECT u.id AS user_id, trim(u.first_name || ' ' || u.last_name) AS name,
                   count(a.id) FILTER (WHERE a.provider = 'strava')::int AS strava,
                   count(a.id) FILTER (WHERE a.provider = 'file')::int AS files,
                   sc.sync_state::text AS sync_state
            FROM users u
            LEFT JOIN activities a ON a.user_id = u.id
            LEFT JOIN strava_connections sc ON sc.user_id = u.id
            WHERE a.id IS NOT NULL OR sc.user_id IS NOT NULL
            GROUP BY u.id, sc.sync_state
            ORDER BY count(a.id) DESC, u.id
            LIMIT 200`,
      );
      const failed = await db
        .select({
          userId: stravaConnections.userId,
          first: users.firstName,
          last: users.lastName,
          lastError: stravaConnections.lastError,
          at: stravaConnections.lastSyncAt,
        })
        .from(stravaConnections)
        .innerJoin(users, eq(users.id, stravaConnections.userId))
        .where(eq(stravaConnections.syncState, "failed"));
      const [waiting] = await db
        .select({ n: count() })
        .from(stravaConnections)
        .where(eq(stravaConnections.syncState, "waiting"));
      const state = await budget.state();
      return {
        members: members.map((m) => ({
          userId: m.user_id,
          name: m.name,
          strava: m.strava,
          files: m.files,
          syncState: (m.sync_state as AdminActivities["members"][number]["syncState"]) ?? null,
        })),
        failedSyncs: failed.map((f) => ({
          userId: f.userId,
          name: `${f.first} ${f.last}`.trim(),
          lastError: f.lastError,
          at: f.at?.toISOString() ?? null,
        })),
        rateLimit: {
          shortLimit: state.shortLimit,
          shortUsage: state.shortUsage,
          dailyLimit: state.dailyLimit,
          dailyUsage: state.dailyUsage,
          refused: state.refused,
          lastRefusedAt: state.lastRefusedAt?.toISOString() ?? null,
          waitingSyncs: Number(waiting?.n ?? 0),
        },
      };
    },
  };
}
export type ActivitiesService = ReturnType<typeof activitiesService>;
