/**
 * The server's counters in memory, between two writes (traffic.service.server.ts flushes them once
 * a minute): requests by outcome, a latency histogram, page views by path and referring host, and
 * the requests of the last hour minute by minute (the dashboard's "live" figures).
 */

/** Upper bounds (ms) of the latency histogram's buckets; one more bucket holds the slower ones. */
export const LATENCY_BOUNDS_MS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000] as const;
export const BUCKETS = LATENCY_BOUNDS_MS.length + 1;
/** Distinct (path, referrer) pairs held between two flushes: a flood of made-up paths stops here. */
const MAX_VIEW_KEYS = 20_000;
const MINUTE_MS = 60_000;

export type MeterBatch = {
  requests: number;
  serverErrors: number;
  clientErrors: number;
  buckets: number[];
  /** `path\nreferrerHost` → views. */
  views: Map<string, number>;
};

export type Minute = { at: number; requests: number; serverErrors: number; buckets: number[] };

export function bucketOf(ms: number): number {
  const index = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return index === -1 ? LATENCY_BOUNDS_MS.length : index;
}

/** The latency under which `share` of the requests fell (a bucket's upper bound), or null without requests. */
export function percentileMs(buckets: readonly number[], share = 0.95): number | null {
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i] ?? 0;
    if (seen >= share * total) return LATENCY_BOUNDS_MS[i] ?? LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] * 2;
  }
  return null;
}

export function createTrafficMeter(now: () => number = Date.now) {
  let batch = emptyBatch();
  /** The last 60 minutes, oldest first (the current minute last). */
  const minutes: Minute[] = [];

  function emptyBatch(): MeterBatch {
    return { requests: 0, serverErrors: 0, clientErrors: 0, buckets: new Array(BUCKETS).fill(0), views: new Map() };
  }

  function currentMinute(): Minute {
    const at = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
    const last = minutes[minutes.length - 1];
    if (last && last.at === at) return last;
    const minute = { at, requests: 0, serverErrors: 0, buckets: new Array(BUCKETS).fill(0) };
    minutes.push(minute);
    while (minutes.length > 0 && (minutes[0]?.at ?? 0) <= at - 60 * MINUTE_MS) minutes.shift();
    return minute;
  }

  return {
    /** One answered request: its status and how long it took. */
    record(status: number, ms: number) {
      const bucket = bucketOf(ms);
      batch.requests++;
      batch.buckets[bucket] = (batch.buckets[bucket] ?? 0) + 1;
      if (status >= 500) batch.serverErrors++;
      else if (status >= 400) batch.clientErrors++;
      const minute = currentMinute();
      minute.requests++;
      minute.buckets[bucket] = (minute.buckets[bucket] ?? 0) + 1;
      if (status >= 500) minute.serverErrors++;
    },

    /** One page seen by a person (the caller leaves out robots, errors and the admin area). */
    pageView(path: string, referrerHost: string) {
      const key = `${path}\n${referrerHost}`;
      if (batch.views.size >= MAX_VIEW_KEYS && !batch.views.has(key)) return;
      batch.views.set(key, (batch.views.get(key) ?? 0) + 1);
    },

    /** What was counted since the last call, and a fresh start. */
    take(): MeterBatch {
      const taken = batch;
      batch = emptyBatch();
      return taken;
    },

    /** Puts a batch back (its write failed): it goes with the next one. */
    putBack(taken: MeterBatch) {
      batch.requests += taken.requests;
      batch.serverErrors += taken.serverErrors;
      batch.clientErrors += taken.clientErrors;
      taken.buckets.forEach((n, i) => {
        batch.buckets[i] = (batch.buckets[i] ?? 0) + n;
      });
      for (const [key, n] of taken.views) batch.views.set(key, (batch.views.get(key) ?? 0) + n);
    },

    /** The last `count` minutes, the current one included, oldest first; minutes without requests too. */
    lastMinutes(count = 5): Minute[] {
      const at = Math.floor(now() / MINUTE_MS) * MINUTE_MS;
      const out: Minute[] = [];
      for (let i = count - 1; i >= 0; i--) {
        const start = at - i * MINUTE_MS;
        out.push(
          minutes.find((m) => m.at === start) ?? {
            at: start,
            requests: 0,
            serverErrors: 0,
            buckets: new Array(BUCKETS).fill(0),
          },
        );
      }
      return out;
    },
  };
}
export type TrafficMeter = ReturnType<typeof createTrafficMeter>;

/**
 * The page a request showed, as the page-view count keeps it: the path without its query, a client
 * navigation's data request (`/x.data`, `/_root.data`) as the page itself; null for what is not a
 * page people look at (the admin area, assets, the API).
 */
export function viewedPath(url: string): string | null {
  let path = url.split("?")[0] ?? "/";
  if (path === "/_root.data") path = "/";
  else if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  path = path.replace(/\/+$/, "") || "/";
  if (/^\/(en\/)?admin(\/|$)/.test(path)) return null;
  if (/^\/(api|assets|build|fonts|images|tiles)\//.test(path) || /\.[a-z0-9]{2,5}$/i.test(path)) return null;
  return path.slice(0, 200);
}

/** The referring site's host, '' when none, unreadable, or this site itself. */
export function referrerHostOf(referer: string | undefined, ownHost: string): string {
  if (!referer) return "";
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host === ownHost.toLowerCase() ? "" : host.slice(0, 100);
  } catch {
    return "";
  }
}
