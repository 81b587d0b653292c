/**
 * Strava's activities brought here: the sync jobs (a member's history page by page, or what is new
 * since), the periodic catch-up, and the push subscription's events, each checked with Strava
 * before anything is stored or deleted (decision 031). Requests go through the shared rate budget.
 */
import { timingSafeEqual } from "node:crypto";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import type { JobInfo } from "../jobs/jobs.service.server.ts";
import { type StravaEvent, sportOfStrava } from "./activities.contract.ts";
import { activities, activityStreams, stravaConnections } from "./activities.tables.ts";
import { type ActivityRow, streamRow, trackColumns } from "./activity-rows.ts";
import { type ActivityTrack, buildActivityTrack, samplesFromStreams } from "./activity-track.ts";
import { INTERACTIVE_RESERVE, RateLimited } from "./rate-budget.server.ts";
import { STRAVA_PAGE_SIZE, type StravaActivity, type StravaClient, StravaError } from "./strava-client.server.ts";
import type { StravaConnectionStore, StravaDeps } from "./strava-connections.server.ts";
import { type EventPayload, STRAVA_EVENT_QUEUE, STRAVA_SYNC_QUEUE, type SyncPayload } from "./strava-queues.ts";

/**
 * Push events one address may post a minute: Strava sends every event of the subscription from a
 * few servers; anyone else is refused beyond this (429, which Strava retries).
 */
export const STRAVA_WEBHOOK_LIMIT: Limit = { max: 300, windowSeconds: 60 };
/**
 * Events about one connected athlete that may cost Strava requests in an hour; beyond, they are
 * acknowledged and dropped (the periodic catch-up reads what was missed).
 */
export const STRAVA_ATHLETE_EVENT_LIMIT: Limit = { max: 60, windowSeconds: 60 * 60 };

export function stravaSyncService(
  db: Db,
  clock: () => Date,
  deps: Pick<StravaDeps, "config">,
  store: StravaConnectionStore,
) {
  const { strava, enqueue, connectionOf, accessToken, deleteStravaData, setSync, startSync } = store;
  const limiter = rateLimiter(db, clock);

  /** Inserts or updates a Strava activity from its summary; returns its row. */
  async function upsertStrava(userId: number, activity: StravaActivity): Promise<ActivityRow> {
    const now = clock();
    const latlng = activity.start_latlng && activity.start_latlng.length === 2 ? activity.start_latlng : null;
    const values = {
      userId,
      provider: "strava" as const,
      externalId: String(activity.id),
      name: (activity.name ?? "").trim().slice(0, 200) || "Strava",
      sport: sportOfStrava(activity.sport_type ?? activity.type),
      startedAt: new Date(activity.start_date),
      distance: Math.round(activity.distance ?? 0),
      movingTime: activity.moving_time ?? null,
      elapsedTime: activity.elapsed_time ?? null,
      elevationGain: activity.total_elevation_gain != null ? Math.round(activity.total_elevation_gain) : null,
      startLat: latlng?.[0] ?? null,
      startLng: latlng?.[1] ?? null,
      averageHeartRate: activity.average_heartrate != null ? Math.round(activity.average_heartrate) : null,
      maxHeartRate: activity.max_heartrate != null ? Math.round(activity.max_heartrate) : null,
      updatedAt: now,
    };
    const { userId: _u, provider: _p, externalId: _e, ...changes } = values;
    const [row] = await db
      .insert(activities)
      .values({ ...values, createdAt: now })
      .onConflictDoUpdate({
        target: [activities.userId, activities.provider, activities.externalId],
        targetWhere: sql`${activities.externalId} IS NOT NULL`,
        set: changes,
      })
      .returning();
    return row as ActivityRow;
  }

  /** Reads and stores the streams of an activity that has none yet (outdoor, recorded). */
  async function storeStreams(row: ActivityRow, token: string, reserve: number): Promise<void> {
    if (row.startLat === null || !row.externalId) return;
    const [existing] = await db
      .select({ id: activityStreams.activityId })
      .from(activityStreams)
      .where(eq(activityStreams.activityId, row.id));
    if (existing) return;
    let data: Awaited<ReturnType<StravaClient["streams"]>>;
    try {
      data = await strava.streams(token, Number(row.externalId), reserve);
    } catch (error) {
      // No streams (a manual entry, an activity deleted meanwhile): the summary stays.
      if (error instanceof StravaError && error.notFound) return;
      throw error;
    }
    let built: ActivityTrack;
    try {
      built = buildActivityTrack(samplesFromStreams(data, row.startedAt.getTime()));
    } catch {
      return;
    }
    await db.transaction(async (tx) => {
      await tx.insert(activityStreams).values(streamRow(row.id, built)).onConflictDoNothing();
      // D+ smoothed like course tracks; distance and times stay Strava's.
      const { startLat: _lat, startLng: _lng, ...columns } = trackColumns(built);
      await tx
        .update(activities)
        .set({
          elevationGain: columns.elevationGain ?? row.elevationGain,
          elevationLoss: columns.elevationLoss,
          averageHeartRate: columns.averageHeartRate ?? row.averageHeartRate,
          maxHeartRate: columns.maxHeartRate ?? row.maxHeartRate,
        })
        .where(eq(activities.id, row.id));
    });
  }

  /** A sync job's failure as the member's page and the admin's view show it (never a token). */
  const reasonOf = (error: unknown) =>
    error instanceof StravaError ? error.message : error instanceof Error ? error.name : "error";

  /**
   * One page of a member's Strava history (or of what is new since the last activity), then the
   * next page as another job. On Strava's rate limit the job books itself for when the window
   * opens again ("waiting") instead of failing.
   */
  async function runSync(payload: SyncPayload, job?: Pick<JobInfo, "signal">): Promise<void> {
    const connection = await connectionOf(payload.userId);
    // Disconnected meanwhile, or a newer sync took over: nothing to do.
    if (!connection || connection.syncPage !== payload.page) return;
    await setSync(payload.userId, { syncState: "syncing", resumeAt: null });
    try {
      const token = await accessToken(connection);
      let after: number | undefined;
      if (payload.mode === "catchup") {
        const [latest] = await db
          .select({ at: sql<Date>`max(${activities.startedAt})` })
          .from(activities)
          .where(and(eq(activities.userId, payload.userId), eq(activities.provider, "strava")));
        // A day back: activities uploaded late (a watch synced the next morning) are seen too.
        after = latest?.at ? Math.floor(new Date(latest.at).getTime() / 1000) - 86_400 : undefined;
      }
      const list = await strava.activities(
        token,
        { page: payload.page, perPage: STRAVA_PAGE_SIZE, after },
        INTERACTIVE_RESERVE,
      );
      for (const [index, item] of list.entries()) {
        if (job?.signal.aborted) return;
        const row = await upsertStrava(payload.userId, item);
        if (!item.manual) await storeStreams(row, token, INTERACTIVE_RESERVE);
        // The item's place in the whole sync: a page read again after a wait for the rate limit
        // does not count its first items twice.
        const done = (payload.page - 1) * STRAVA_PAGE_SIZE + index + 1;
        await db
          .update(stravaConnections)
          .set({ syncDone: sql`GREATEST(${stravaConnections.syncDone}, ${done})` })
          .where(eq(stravaConnections.userId, payload.userId));
      }
      if (list.length < STRAVA_PAGE_SIZE) {
        await setSync(payload.userId, {
          syncState: "idle",
          syncPage: 0,
          lastSyncAt: clock(),
          lastError: null,
          ...(payload.mode === "history" ? { historyDone: clock() } : {}),
        });
        return;
      }
      await setSync(payload.userId, { syncPage: payload.page + 1 });
      await enqueue(STRAVA_SYNC_QUEUE, { ...payload, page: payload.page + 1 } satisfies SyncPayload);
    } catch (error) {
      if (error instanceof RateLimited) {
        await setSync(payload.userId, { syncState: "waiting", resumeAt: error.retryAt });
        await enqueue(STRAVA_SYNC_QUEUE, payload, { runAt: error.retryAt });
        return;
      }
      await setSync(payload.userId, { syncState: "failed", lastError: reasonOf(error), syncPage: 0 });
      // A grant revoked at Strava will not come back by retrying.
      if (error instanceof StravaError && error.unauthorized) return;
      throw error;
    }
  }

  return {
    runSync,

    /** The periodic catch-up: a sync of what is new for every member whose history is read. */
    async catchUpAll(): Promise<number> {
      const connected = await db
        .select({ userId: stravaConnections.userId })
        .from(stravaConnections)
        .where(and(isNotNull(stravaConnections.historyDone), eq(stravaConnections.syncState, "idle")));
      let started = 0;
      for (const { userId } of connected) if (await startSync(userId, "catchup")) started++;
      return started;
    },

    // -------------------------------------------------------------------------------------------
    // Push subscription

    /** The subscription's validation request: the challenge back when the verify token is ours. */
    verifyWebhook(query: { mode?: string; token?: string; challenge?: string }): string {
      const expected = deps.config.STRAVA_WEBHOOK_VERIFY_TOKEN;
      const given = query.token ?? "";
      const same =
        expected !== "" &&
        given.length === expected.length &&
        timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      if (query.mode !== "subscribe" || !same || !query.challenge) throw new ApiError("FORBIDDEN");
      return query.challenge;
    },

    /**
     * One push event, posted by Strava or by anyone pretending to be (Strava signs nothing). Only
     * events of our subscription count (STRAVA_SUBSCRIPTION_ID set and equal to the event's
     * `subscription_id`; otherwise FORBIDDEN, nothing done), and even those are only hints: a job
     * reads the activity, or the athlete, again from Strava with the member's token, and deletes
     * only what Strava confirms is gone (decision 031). Limited per sending address and, for the
     * Strava requests they cost, per athlete. Events about athletes not connected here are ignored.
     */
    async receiveEvent(event: StravaEvent, from: { ip: string }): Promise<"ignored" | "queued"> {
      await limiter.hit(`strava-webhook:ip:${from.ip}`, STRAVA_WEBHOOK_LIMIT);
      const expected = deps.config.STRAVA_SUBSCRIPTION_ID;
      if (expected === "" || String(event.subscription_id) !== expected) throw new ApiError("FORBIDDEN");
      const deauthorized = event.object_type === "athlete";
      if (deauthorized && String(event.updates?.authorized) !== "false") return "ignored";
      const [connection] = await db
        .select({ userId: stravaConnections.userId })
        .from(stravaConnections)
        .where(eq(stravaConnections.athleteId, event.owner_id));
      if (!connection) return "ignored";
      const perAthlete = `strava-event:athlete:${event.owner_id}`;
      if (await limiter.full(perAthlete, STRAVA_ATHLETE_EVENT_LIMIT)) return "ignored";
      await limiter.record(perAthlete, STRAVA_ATHLETE_EVENT_LIMIT);
      const payload: EventPayload = deauthorized
        ? { athleteId: event.owner_id, deauthorized: true }
        : { athleteId: event.owner_id, activityId: event.object_id };
      await enqueue(STRAVA_EVENT_QUEUE, payload);
      return "queued";
    },

    /**
     * The job of a push event, checked with Strava. An activity event reads the activity: found, it
     * is stored (its streams too when new); 404, our copy goes. A deauthorization asks Strava for
     * the athlete: only a grant Strava refuses disconnects the member and deletes their activities.
     */
    async runEvent(payload: EventPayload): Promise<void> {
      const [connection] = await db
        .select()
        .from(stravaConnections)
        .where(eq(stravaConnections.athleteId, payload.athleteId));
      if (!connection) return;
      try {
        const token = await accessToken(connection);
        // Still authorised: the event was not Strava's word, or the member came back since.
        if ("deauthorized" in payload) {
          await strava.athlete(token);
          return;
        }
        let item: StravaActivity;
        try {
          item = await strava.activity(token, payload.activityId);
        } catch (error) {
          // Gone or made invisible to us: our copy goes too.
          if (error instanceof StravaError && error.notFound) {
            await db
              .delete(activities)
              .where(
                and(
                  eq(activities.userId, connection.userId),
                  eq(activities.provider, "strava"),
                  eq(activities.externalId, String(payload.activityId)),
                ),
              );
            return;
          }
          throw error;
        }
        const row = await upsertStrava(connection.userId, item);
        if (!item.manual) await storeStreams(row, token, 0);
      } catch (error) {
        if (error instanceof RateLimited) {
          await enqueue(STRAVA_EVENT_QUEUE, payload, { runAt: error.retryAt });
          return;
        }
        if (error instanceof StravaError && error.grantRevoked && "deauthorized" in payload) {
          await db.transaction((tx) => deleteStravaData(connection.userId, tx));
          return;
        }
        if (error instanceof StravaError && error.unauthorized) {
          await setSync(connection.userId, { syncState: "failed", lastError: error.message });
          return;
        }
        throw error;
      }
    },
  };
}
