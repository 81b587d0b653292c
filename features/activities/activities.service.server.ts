/**
 * Members' activities: the Strava connection (connect, sync in background jobs, push events,
 * disconnect), uploaded files, the member's lists and pages, "your race" matching, linking to a
 * course and making a result. Every read and write is scoped to the member who owns the activity:
 * another member, or an admin through any route, gets ITEM_NOT_FOUND (decision 031).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Config } from "../../platform/config.server.ts";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError, apiErrorMessage, isErrorCode } from "../../shared/api-error.ts";
import type { Locale, SportKey } from "../../shared/constants.ts";
import { parisToday, zonedTime } from "../../shared/zoned-time.ts";
import { courses, events, type TrackPoint } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import { secretBox } from "../identity/secrets.server.ts";
import type { JobInfo } from "../jobs/jobs.service.server.ts";
import { TRACK_PROFILE_SAMPLES } from "../tracks/track-processing.ts";
import { segmentedProfile } from "../tracks/track-stats.ts";
import {
  ACTIVITY_FILES_PER_UPLOAD,
  type ActivitiesQuery,
  type ActivitiesResponse,
  type ActivityDetail,
  type ActivitySport,
  type ActivitySummary,
  type AdminActivities,
  type CourseMatch,
  type StravaEvent,
  type StravaStatus,
  sportOfStrava,
  type UploadResponse,
} from "./activities.contract.ts";
import { type ActivityStartPrecision, activities, activityStreams, stravaConnections } from "./activities.tables.ts";
import type { ReadActivityFile } from "./activity-files.ts";
import { type ActivityTrack, buildActivityTrack, samplesFromStreams } from "./activity-track.ts";
import { INTERACTIVE_RESERVE, type RateBudget, RateLimited, rateBudget } from "./rate-budget.server.ts";
import {
  REFRESH_MARGIN_MS,
  STRAVA_ACTIVITY_SCOPE,
  STRAVA_PAGE_SIZE,
  type StravaActivity,
  type StravaClient,
  StravaError,
  stravaClient,
} from "./strava-client.server.ts";

export const STRAVA_SYNC_QUEUE = "activities.strava-sync";
export const STRAVA_EVENT_QUEUE = "activities.strava-event";
export const STRAVA_CATCHUP_QUEUE = "activities.strava-catchup";
/** The periodic catch-up: every member's new activities, in case a push event was lost. */
export const CATCHUP_EVERY_MS = 6 * 3_600_000;
/** The connect link is valid this long. */
const STATE_TTL_MS = 10 * 60_000;
/** "Your race": the activity started this close to the course's start (or the event's place)… */
export const MATCH_RADIUS_M = 5_000;
/** …and its distance is within this share of the course's. */
export const MATCH_DISTANCE_SHARE = 0.1;
export const ACTIVITIES_PAGE_SIZE = 30;
/** Upload requests a member may make in an hour (each up to ACTIVITY_FILES_PER_UPLOAD files). */
export const ACTIVITY_UPLOAD_LIMIT: Limit = { max: 30, windowSeconds: 60 * 60 };

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

export type SyncPayload = { userId: number; page: number; mode: "history" | "catchup" };
/** A push event to check with Strava: an activity's, or the athlete's deauthorization. */
export type EventPayload = { athleteId: number } & ({ activityId: number } | { deauthorized: true });

type Connection = typeof stravaConnections.$inferSelect;
type ActivityRow = typeof activities.$inferSelect;

export type ActivitiesDeps = {
  config: Pick<
    Config,
    | "PUBLIC_URL"
    | "STRAVA_CLIENT_ID"
    | "STRAVA_CLIENT_SECRET"
    | "STRAVA_AUTHORIZATION_URL"
    | "STRAVA_TOKEN_URL"
    | "STRAVA_API_URL"
    | "STRAVA_DEAUTHORIZE_URL"
    | "STRAVA_WEBHOOK_VERIFY_TOKEN"
    | "STRAVA_SUBSCRIPTION_ID"
  >;
  /** The app secret: seals tokens and signs connect states. */
  secret: string;
  enqueue?: (queue: string, payload: unknown, options?: { runAt?: Date; tx?: Executor }) => Promise<number>;
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

export const stravaActivityUrl = (externalId: string) => `https://www.strava.com/activities/${externalId}`;

function summary(row: ActivityRow): ActivitySummary {
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
function trackColumns(built: ActivityTrack) {
  return {
    elevationGain: built.track.elevationGain,
    elevationLoss: built.track.elevationLoss,
    startLat: built.track.start.lat,
    startLng: built.track.start.lng,
    averageHeartRate: built.averageHeartRate,
    maxHeartRate: built.maxHeartRate,
  };
}

function streamRow(activityId: number, built: ActivityTrack) {
  return {
    activityId,
    points: built.track.points,
    breaks: built.track.breaks,
    profile: built.track.profile,
    splits: built.splits,
    heartRate: built.heartRate,
  };
}

/**
 * The chart's profile: the stored one, or for a recording of several segments one read from its
 * line, segment by segment, so that the chart can leave the gaps out.
 */
function activityProfile(stream: { points: TrackPoint[]; breaks: number[]; profile: [number, number][] } | undefined) {
  if (!stream?.breaks.length) return { profile: stream?.profile ?? [], profileBreaks: [] };
  const { profile, breaks } = segmentedProfile(stream.points, stream.breaks, TRACK_PROFILE_SAMPLES);
  return { profile, profileBreaks: breaks };
}

export function activitiesService(db: Db, clock: () => Date, deps: ActivitiesDeps) {
  const budget: RateBudget = rateBudget(db, clock);
  const limiter = rateLimiter(db, clock);
  const strava: StravaClient = stravaClient(deps.config, budget);
  const box = secretBox(deps.secret, "strava-tokens");
  const redirectUri = `${deps.config.PUBLIC_URL}/api/strava/callback`;
  const enqueue = async (queue: string, payload: unknown, options?: { runAt?: Date; tx?: Executor }) => {
    if (!deps.enqueue) throw new Error("activities: no job queue");
    return deps.enqueue(queue, payload, options);
  };

  // ---------------------------------------------------------------------------------------------
  // Connect state: the member's id and an expiry, signed with the app secret.

  function sign(value: string): string {
    return createHmac("sha256", deps.secret).update(`strava-connect:${value}`).digest("base64url");
  }

  /** `<member>.<expiry>.<nonce>-<page language>.<signature>`: the callback returns to that language. */
  function connectState(userId: number, locale: Locale): string {
    const value = `${userId}.${clock().getTime() + STATE_TTL_MS}.${randomBytes(8).toString("base64url")}-${locale}`;
    return `${value}.${sign(value)}`;
  }

  function checkState(state: string, userId: number): boolean {
    const parts = state.split(".");
    if (parts.length !== 4) return false;
    const value = parts.slice(0, 3).join(".");
    const expected = Buffer.from(sign(value));
    const given = Buffer.from(parts[3]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return Number(parts[0]) === userId && Number(parts[1]) > clock().getTime();
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens

  async function connectionOf(userId: number, tx: Executor = db): Promise<Connection | undefined> {
    const [row] = await tx.select().from(stravaConnections).where(eq(stravaConnections.userId, userId));
    return row;
  }

  /** The connection's access token, refreshed first when it expires within REFRESH_MARGIN_MS. */
  async function accessToken(connection: Connection): Promise<string> {
    if (connection.expiresAt.getTime() - clock().getTime() > REFRESH_MARGIN_MS) return box.open(connection.accessToken);
    const tokens = await strava.refresh(box.open(connection.refreshToken));
    await db
      .update(stravaConnections)
      .set({
        accessToken: box.seal(tokens.accessToken),
        refreshToken: box.seal(tokens.refreshToken),
        expiresAt: tokens.expiresAt,
      })
      .where(eq(stravaConnections.userId, connection.userId));
    return tokens.accessToken;
  }

  // ---------------------------------------------------------------------------------------------
  // Storing activities

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

  /** Everything Strava brought for a member (disconnect, deauthorization). */
  async function deleteStravaData(userId: number, tx: Executor = db): Promise<number> {
    const deleted = await tx
      .delete(activities)
      .where(and(eq(activities.userId, userId), eq(activities.provider, "strava")))
      .returning({ id: activities.id });
    await tx.delete(stravaConnections).where(eq(stravaConnections.userId, userId));
    return deleted.length;
  }

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

  // ---------------------------------------------------------------------------------------------
  // Sync jobs

  async function setSync(userId: number, changes: Partial<Connection>): Promise<void> {
    await db.update(stravaConnections).set(changes).where(eq(stravaConnections.userId, userId));
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

  /** Starts a sync of the member's activities unless one is under way. */
  async function startSync(userId: number, mode: SyncPayload["mode"]): Promise<boolean> {
    const [claimed] = await db
      .update(stravaConnections)
      .set({ syncState: "queued", syncDone: 0, syncPage: 1, resumeAt: null, lastError: null })
      .where(and(eq(stravaConnections.userId, userId), inArray(stravaConnections.syncState, ["idle", "failed"])))
      .returning({ userId: stravaConnections.userId });
    if (!claimed) return false;
    await enqueue(STRAVA_SYNC_QUEUE, { userId, page: 1, mode } satisfies SyncPayload);
    return true;
  }

  return {
    strava,
    budget,

    // -------------------------------------------------------------------------------------------
    // Strava connection

    /** Where the member's browser goes to connect Strava. */
    connectUrl(user: { id: number }, locale: Locale): string {
      if (!strava.enabled) throw new ApiError("STRAVA_UNAVAILABLE");
      return strava.authorizationUrl(connectState(user.id, locale), redirectUri).href;
    },

    /** The page language a connect state was started from (the callback's redirect), if any. */
    stateLocale(state: string | undefined): Locale | null {
      const match = /-(fr|en)\.[^.]*$/.exec(state ?? "");
      return match ? (match[1] as Locale) : null;
    },

    /** The end of Strava's authorisation: tokens kept (sealed), first sync queued. */
    async completeConnect(
      user: { id: number },
      query: { code?: string; scope?: string; state?: string; error?: string },
    ): Promise<void> {
      if (!strava.enabled) throw new ApiError("STRAVA_UNAVAILABLE");
      if (!query.state || !checkState(query.state, user.id)) throw new ApiError("INVALID_TOKEN");
      if (query.error || !query.code) throw new ApiError("OAUTH_FAILURE");
      if (!(query.scope ?? "").split(",").includes(STRAVA_ACTIVITY_SCOPE)) throw new ApiError("STRAVA_SCOPE_MISSING");
      let tokens: Awaited<ReturnType<StravaClient["exchangeCode"]>>;
      try {
        tokens = await strava.exchangeCode(query.code);
      } catch (error) {
        throw new ApiError("STRAVA_FAILURE", { cause: error });
      }
      if (tokens.athleteId === null) throw new ApiError("STRAVA_FAILURE");
      const athleteId = tokens.athleteId;
      await db.transaction(async (tx) => {
        const [other] = await tx
          .select({ userId: stravaConnections.userId })
          .from(stravaConnections)
          .where(eq(stravaConnections.athleteId, athleteId));
        if (other && other.userId !== user.id) throw new ApiError("IDENTITY_ALREADY_LINKED");
        const sealed = {
          athleteId,
          scope: query.scope ?? "",
          accessToken: box.seal(tokens.accessToken),
          refreshToken: box.seal(tokens.refreshToken),
          expiresAt: tokens.expiresAt,
        };
        await tx
          .insert(stravaConnections)
          .values({ userId: user.id, ...sealed, createdAt: clock() })
          .onConflictDoUpdate({ target: stravaConnections.userId, set: sealed });
      });
      const connection = await connectionOf(user.id);
      await startSync(user.id, connection?.historyDone ? "catchup" : "history");
    },

    async status(user: { id: number }): Promise<StravaStatus> {
      const connection = await connectionOf(user.id);
      const [counted] = await db
        .select({ n: count() })
        .from(activities)
        .where(and(eq(activities.userId, user.id), eq(activities.provider, "strava")));
      return {
        available: strava.enabled,
        connected: Boolean(connection),
        athleteId: connection?.athleteId ?? null,
        syncState: connection?.syncState ?? null,
        syncDone: connection?.syncDone ?? 0,
        resumeAt: connection?.resumeAt?.toISOString() ?? null,
        lastSyncAt: connection?.lastSyncAt?.toISOString() ?? null,
        historyDone: Boolean(connection?.historyDone),
        failed: connection?.syncState === "failed",
        activityCount: Number(counted?.n ?? 0),
      };
    },

    /** "Sync now": what is new since the last activity (or the whole history, never read yet). */
    async requestSync(user: { id: number }): Promise<StravaStatus> {
      const connection = await connectionOf(user.id);
      if (!connection) throw new ApiError("STRAVA_NOT_CONNECTED");
      await startSync(user.id, connection.historyDone ? "catchup" : "history");
      return this.status(user);
    },

    /**
     * Revokes the grant at Strava, then deletes the connection and every activity it brought. The
     * data goes even when Strava cannot be reached (`revoked: false`): the member asked for it.
     */
    async disconnect(user: { id: number }): Promise<{ revoked: boolean; deleted: number }> {
      const connection = await connectionOf(user.id);
      if (!connection) throw new ApiError("STRAVA_NOT_CONNECTED");
      let revoked = true;
      try {
        await strava.deauthorize(box.open(connection.accessToken));
      } catch {
        revoked = false;
      }
      const deleted = await db.transaction((tx) => deleteStravaData(user.id, tx));
      return { revoked, deleted };
    },

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

    // -------------------------------------------------------------------------------------------
    // Files

    /** Counts an upload request before its files are read (TOO_MANY_UPLOADS beyond the hour's). */
    async admitUpload(user: { id: number }): Promise<void> {
      await limiter.hit(`upload:activity:${user.id}`, ACTIVITY_UPLOAD_LIMIT, "TOO_MANY_UPLOADS");
    },

    /**
     * Stores the files read by the workers; each outcome (activity or translated error) in order.
     * When no file is readable the whole upload is refused with the first file's error. A file
     * without any time is on the day the member gives (`date`, "YYYY-MM-DD"): without it the whole
     * upload is refused (ACTIVITY_DATE_REQUIRED), nothing stored, and the form asks for it.
     */
    async storeFiles(
      user: { id: number },
      files: { fileName: string; read: ReadActivityFile | null; error: unknown }[],
      locale: Locale,
      date: string | null = null,
    ): Promise<UploadResponse> {
      if (files.length > ACTIVITY_FILES_PER_UPLOAD) throw new ApiError("TOO_MANY_FILES");
      // Nothing readable: the upload is refused as a whole, with the (first) file's own error.
      if (files.every((f) => !f.read)) {
        const first = files[0]?.error;
        throw first instanceof ApiError ? first : new ApiError("ACTIVITY_FILE_INVALID");
      }
      if (date !== null && date > parisToday(clock())) throw new ApiError("ACTIVITY_DATE_INVALID");
      const untimed = files.some((f) => f.read && f.read.startedAt === null);
      if (untimed && date === null) throw new ApiError("ACTIVITY_DATE_REQUIRED");
      const out: UploadResponse["files"] = [];
      for (const file of files) {
        if (!file.read) {
          const code =
            file.error instanceof ApiError && isErrorCode(file.error.code) ? file.error.code : "ACTIVITY_FILE_INVALID";
          out.push({ fileName: file.fileName, error: { code, message: apiErrorMessage(code, locale) } });
          continue;
        }
        const read = file.read;
        const stem = file.fileName.replace(/\.[^.]{1,5}$/, "").trim();
        const now = clock();
        const row = await db.transaction(async (tx) => {
          const [inserted] = await tx
            .insert(activities)
            .values({
              userId: user.id,
              provider: "file",
              fileKind: read.kind,
              name: (read.name ?? stem ?? "").slice(0, 200) || read.kind.toUpperCase(),
              sport: read.sport ?? "run",
              // Never the upload's instant: the recorded start, else noon (Paris) of the member's day.
              startedAt: read.startedAt !== null ? new Date(read.startedAt) : zonedTime(date!, 12, 0, "Europe/Paris"),
              startPrecision: read.startedAt !== null ? "time" : "day",
              distance: read.track.distance,
              movingTime: read.movingTime,
              elapsedTime: read.elapsedTime,
              ...trackColumns(read),
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          await tx.insert(activityStreams).values(streamRow((inserted as ActivityRow).id, read));
          return inserted as ActivityRow;
        });
        out.push({ fileName: file.fileName, activity: summary(row) });
      }
      return { files: out };
    },

    // -------------------------------------------------------------------------------------------
    // The member's activities

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
      const [course] = row.courseId
        ? await db
            .select({ id: courses.id, name: courses.name, eventName: events.name, eventSlug: events.slug })
            .from(courses)
            .innerJoin(events, eq(events.id, courses.eventId))
            .where(eq(courses.id, row.courseId))
        : [];
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
        const [course] = await db
          .select({ id: courses.id })
          .from(courses)
          .innerJoin(events, eq(events.id, courses.eventId))
          .where(and(eq(courses.id, courseId), eq(events.status, "active")));
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
