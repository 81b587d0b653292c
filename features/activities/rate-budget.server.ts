/**
 * Strava's rate limits, shared by every server instance through one PostgreSQL row (decision 031).
 *
 * Strava counts the application's requests in 15-minute windows starting at :00, :15, :30 and :45
 * and in UTC days (defaults 200 and 2,000), and tells the counts in every answer
 * (`X-RateLimit-Limit: 200,2000`, `X-RateLimit-Usage: 12,340`). Before each request a caller takes
 * one unit with a single conditional UPDATE (atomic across instances); when the window or the day
 * is spent, `take` throws RateLimited with the time it reopens, and background jobs reschedule
 * themselves for then instead of failing. After each answer `observe` raises the counts to what
 * Strava reports (requests made by another deployment with the same app, or before a restart).
 */
import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";

export const STRAVA_SHORT_LIMIT = 200;
export const STRAVA_DAILY_LIMIT = 2_000;
export const SHORT_WINDOW_MS = 15 * 60_000;
const DAY_MS = 24 * 3_600_000;
/** Units of each window kept for members waiting on a page (webhook events, a first page). */
export const INTERACTIVE_RESERVE = 10;

export class RateLimited extends Error {
  override name = "RateLimited";
  constructor(readonly retryAt: Date) {
    super(`Strava rate limit reached: retry at ${retryAt.toISOString()}`);
  }
}

export type RateLimitState = {
  shortLimit: number;
  shortUsage: number;
  shortWindow: Date;
  dailyLimit: number;
  dailyUsage: number;
  day: Date;
  refused: number;
  lastRefusedAt: Date | null;
};

export const windowStart = (at: Date) => new Date(Math.floor(at.getTime() / SHORT_WINDOW_MS) * SHORT_WINDOW_MS);
export const dayStart = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** "200,2000" → [200, 2000]; anything else → null. */
function pair(value: string | null): [number, number] | null {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(value ?? "");
  return match ? [Number(match[1]), Number(match[2])] : null;
}

type Row = {
  short_limit: number;
  short_usage: number;
  short_window: Date | string;
  daily_limit: number;
  daily_usage: number;
  day: Date | string;
  refused: number;
  last_refused_at: Date | string | null;
};

async function rows<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

function toState(row: Row, now: Date): RateLimitState {
  const win = windowStart(now);
  const day = dayStart(now);
  const shortWindow = new Date(row.short_window);
  const rowDay = new Date(row.day);
  return {
    shortLimit: row.short_limit,
    shortUsage: shortWindow.getTime() < win.getTime() ? 0 : row.short_usage,
    shortWindow: win,
    dailyLimit: row.daily_limit,
    dailyUsage: rowDay.getTime() < day.getTime() ? 0 : row.daily_usage,
    day,
    refused: row.refused,
    lastRefusedAt: row.last_refused_at ? new Date(row.last_refused_at) : null,
  };
}

export function rateBudget(db: Db, clock: () => Date, provider = "strava") {
  async function ensureRow(now: Date) {
    await db.execute(
      sql`INSERT INTO provider_rate_limits (provider, short_limit, short_window, daily_limit, day)
          VALUES (${provider}, ${STRAVA_SHORT_LIMIT}, ${windowStart(now).toISOString()}::timestamptz,
                  ${STRAVA_DAILY_LIMIT}, ${dayStart(now).toISOString()}::timestamptz)
          ON CONFLICT (provider) DO NOTHING`,
    );
  }

  async function state(): Promise<RateLimitState> {
    const now = clock();
    await ensureRow(now);
    const [row] = await rows<Row>(db, sql`SELECT * FROM provider_rate_limits WHERE provider = ${provider}`);
    return toState(row as Row, now);
  }

  return {
    state,

    /**
     * Takes one request's unit, or throws RateLimited with the time the window (or the day) opens
     * again. `reserve` units of each window stay for interactive callers.
     */
    async take(options: { reserve?: number } = {}): Promise<void> {
      const reserve = options.reserve ?? 0;
      const now = clock();
      await ensureRow(now);
      const win = sql`${windowStart(now).toISOString()}::timestamptz`;
      const day = sql`${dayStart(now).toISOString()}::timestamptz`;
      const taken = await rows<{ provider: string }>(
        db,
        sql`UPDATE provider_rate_limits SET
              short_usage = CASE WHEN short_window < ${win} THEN 1 ELSE short_usage + 1 END,
              short_window = GREATEST(short_window, ${win}),
              daily_usage = CASE WHEN day < ${day} THEN 1 ELSE daily_usage + 1 END,
              day = GREATEST(day, ${day}),
              updated_at = ${now.toISOString()}::timestamptz
            WHERE provider = ${provider}
              AND (short_window < ${win} OR short_usage < short_limit - ${reserve})
              AND (day < ${day} OR daily_usage < daily_limit - ${Math.min(reserve, 1)})
            RETURNING provider`,
      );
      if (taken.length > 0) return;
      const current = await state();
      const dayFull = current.dailyUsage >= current.dailyLimit - Math.min(reserve, 1);
      throw new RateLimited(
        new Date((dayFull ? current.day.getTime() + DAY_MS : current.shortWindow.getTime() + SHORT_WINDOW_MS) + 1_000),
      );
    },

    /**
     * Brings the counts up to Strava's headers; a 429 marks the window (or the day, when its count
     * is spent) as full and returns the RateLimited to throw.
     */
    async observe(headers: Headers, status: number): Promise<RateLimited | null> {
      const limits = pair(headers.get("x-ratelimit-limit"));
      const usage = pair(headers.get("x-ratelimit-usage"));
      const now = clock();
      if (limits && usage) {
        await ensureRow(now);
        const win = sql`${windowStart(now).toISOString()}::timestamptz`;
        const day = sql`${dayStart(now).toISOString()}::timestamptz`;
        await db.execute(
          sql`UPDATE provider_rate_limits SET
                short_limit = ${limits[0]}, daily_limit = ${limits[1]},
                short_usage = CASE WHEN short_window < ${win} THEN ${usage[0]} ELSE GREATEST(short_usage, ${usage[0]}) END,
                short_window = GREATEST(short_window, ${win}),
                daily_usage = CASE WHEN day < ${day} THEN ${usage[1]} ELSE GREATEST(daily_usage, ${usage[1]}) END,
                day = GREATEST(day, ${day}),
                updated_at = ${now.toISOString()}::timestamptz
              WHERE provider = ${provider}`,
        );
      }
      if (status !== 429) return null;
      await ensureRow(now);
      const dayFull = limits && usage ? usage[1] >= limits[1] : false;
      await db.execute(
        sql`UPDATE provider_rate_limits SET
              short_usage = GREATEST(short_usage, short_limit),
              daily_usage = CASE WHEN ${dayFull} THEN GREATEST(daily_usage, daily_limit) ELSE daily_usage END,
              refused = refused + 1, last_refused_at = ${now.toISOString()}::timestamptz
            WHERE provider = ${provider}`,
      );
      const reopens = dayFull ? dayStart(now).getTime() + DAY_MS : windowStart(now).getTime() + SHORT_WINDOW_MS;
      return new RateLimited(new Date(reopens + 1_000));
    },
  };
}
export type RateBudget = ReturnType<typeof rateBudget>;
