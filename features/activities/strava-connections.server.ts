/**
 * A member's Strava connection: the API client and its shared rate budget, the tokens sealed with
 * the app secret and refreshed before they expire, the sync state claimed before a sync is queued,
 * and everything Strava brought deleted at once.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Config } from "../../platform/config.server.ts";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { secretBox } from "../identity/secrets.server.ts";
import { activities, stravaConnections } from "./activities.tables.ts";
import { type RateBudget, rateBudget } from "./rate-budget.server.ts";
import { REFRESH_MARGIN_MS, type StravaClient, stravaClient } from "./strava-client.server.ts";
import { STRAVA_SYNC_QUEUE, type SyncPayload } from "./strava-queues.ts";

export type Connection = typeof stravaConnections.$inferSelect;

export type StravaDeps = {
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
};

export type Enqueue = (queue: string, payload: unknown, options?: { runAt?: Date; tx?: Executor }) => Promise<number>;

export function stravaConnectionStore(db: Db, clock: () => Date, deps: StravaDeps & { enqueue?: Enqueue }) {
  const budget: RateBudget = rateBudget(db, clock);
  const strava: StravaClient = stravaClient(deps.config, budget);
  const box = secretBox(deps.secret, "strava-tokens");
  const enqueue = async (queue: string, payload: unknown, options?: { runAt?: Date; tx?: Executor }) => {
    if (!deps.enqueue) throw new Error("activities: no job queue");
    return deps.enqueue(queue, payload, options);
  };

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

  /** Everything Strava brought for a member (disconnect, deauthorization). */
  async function deleteStravaData(userId: number, tx: Executor = db): Promise<number> {
    const deleted = await tx
      .delete(activities)
      .where(and(eq(activities.userId, userId), eq(activities.provider, "strava")))
      .returning({ id: activities.id });
    await tx.delete(stravaConnections).where(eq(stravaConnections.userId, userId));
    return deleted.length;
  }

  async function setSync(userId: number, changes: Partial<Connection>): Promise<void> {
    await db.update(stravaConnections).set(changes).where(eq(stravaConnections.userId, userId));
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

  return { budget, strava, box, enqueue, connectionOf, accessToken, deleteStravaData, setSync, startSync };
}
export type StravaConnectionStore = ReturnType<typeof stravaConnectionStore>;
