/**
 * Connecting a member's Strava account: the signed connect link, the callback keeping the tokens
 * (sealed) and queuing the first sync, the connection's status, "sync now", and disconnecting
 * (the grant revoked at Strava, every activity it brought deleted).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import type { StravaStatus } from "./activities.contract.ts";
import { activities, stravaConnections } from "./activities.tables.ts";
import { STRAVA_ACTIVITY_SCOPE, type StravaClient } from "./strava-client.server.ts";
import type { StravaConnectionStore, StravaDeps } from "./strava-connections.server.ts";

/** The connect link is valid this long. */
const STATE_TTL_MS = 10 * 60_000;

export function stravaConnectService(db: Db, clock: () => Date, deps: StravaDeps, store: StravaConnectionStore) {
  const { budget, strava, box, connectionOf, deleteStravaData, startSync } = store;
  const redirectUri = `${deps.config.PUBLIC_URL}/api/strava/callback`;

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
  };
}
