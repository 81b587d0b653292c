import { sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { cpuMeter, memoryStats } from "./system-stats.server.ts";
import { BUCKETS, type MeterBatch, percentileMs, type TrafficMeter } from "./traffic-meter.ts";

/** Hourly rows and daily page views are kept this long (the dashboard shows 30 days). */
export const TRAFFIC_KEEP_DAYS = 90;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type TrafficPoint = {
  /** Start of the hour or the day (ISO). */
  at: string;
  requests: number;
  serverErrors: number;
  clientErrors: number;
  /** 95th percentile of the answers' latency (a histogram bucket's bound), null without requests. */
  p95Ms: number | null;
  /** Average CPU busy share (0–100) over the samples of the period, null without samples. */
  cpuPercent: number | null;
  memoryPercent: number | null;
};

type HourRow = {
  hour: string | Date;
  requests: number;
  server_errors: number;
  client_errors: number;
  latency_buckets: number[] | string;
  cpu_sum: number;
  memory_sum: number;
  samples: number;
};

/** PGlite and node-postgres both give int[] as arrays; a text form ("{1,2}") is read too. */
function intArray(value: number[] | string): number[] {
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, "").split(",").filter(Boolean).map(Number);
}

export function trafficService(
  db: Db,
  clock: () => Date,
  deps: { meter: TrafficMeter; cpu?: () => number; memory?: () => { usedPercent: number } },
) {
  const { meter } = deps;
  const cpu = deps.cpu ?? cpuMeter();
  const memory = deps.memory ?? memoryStats;

  async function write(batch: MeterBatch, now: Date, sample: { cpu: number; memory: number } | null) {
    const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS).toISOString();
    const buckets = sql`ARRAY[${sql.join(
      batch.buckets.map((n) => sql`${n}::int`),
      sql`, `,
    )}]::int[]`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO traffic_hours AS t (hour, requests, server_errors, client_errors, latency_buckets, cpu_sum, memory_sum, samples)
        VALUES (${hour}::timestamptz, ${batch.requests}, ${batch.serverErrors}, ${batch.clientErrors}, ${buckets},
                ${sample?.cpu ?? 0}, ${sample?.memory ?? 0}, ${sample ? 1 : 0})
        ON CONFLICT (hour) DO UPDATE SET
          requests = t.requests + excluded.requests,
          server_errors = t.server_errors + excluded.server_errors,
          client_errors = t.client_errors + excluded.client_errors,
          latency_buckets = ARRAY(SELECT coalesce(a, 0) + coalesce(b, 0)
                                  FROM unnest(t.latency_buckets, excluded.latency_buckets) AS u(a, b)),
          cpu_sum = t.cpu_sum + excluded.cpu_sum,
          memory_sum = t.memory_sum + excluded.memory_sum,
          samples = t.samples + excluded.samples`);
      if (batch.views.size > 0) {
        const day = now.toISOString().slice(0, 10);
        const values = sql.join(
          [...batch.views].map(([key, n]) => {
            const [path, host] = key.split("\n");
            return sql`(${day}::date, ${path}, ${host ?? ""}, ${n}::int)`;
          }),
          sql`, `,
        );
        await tx.execute(sql`
          INSERT INTO page_views AS v (day, path, referrer_host, views) VALUES ${values}
          ON CONFLICT (day, path, referrer_host) DO UPDATE SET views = v.views + excluded.views`);
      }
    });
  }

  function points(list: HourRow[], from: number, step: number, count: number): TrafficPoint[] {
    const slots = Array.from({ length: count }, (_, i) => ({
      at: from + i * step,
      requests: 0,
      serverErrors: 0,
      clientErrors: 0,
      buckets: new Array<number>(BUCKETS).fill(0),
      cpu: 0,
      memory: 0,
      samples: 0,
    }));
    for (const row of list) {
      const index = Math.floor((new Date(row.hour).getTime() - from) / step);
      const slot = slots[index];
      if (!slot) continue;
      slot.requests += Number(row.requests);
      slot.serverErrors += Number(row.server_errors);
      slot.clientErrors += Number(row.client_errors);
      intArray(row.latency_buckets).forEach((n, i) => {
        slot.buckets[i] = (slot.buckets[i] ?? 0) + n;
      });
      slot.cpu += Number(row.cpu_sum);
      slot.memory += Number(row.memory_sum);
      slot.samples += Number(row.samples);
    }
    const round = (n: number) => Math.round(n * 10) / 10;
    return slots.map((s) => ({
      at: new Date(s.at).toISOString(),
      requests: s.requests,
      serverErrors: s.serverErrors,
      clientErrors: s.clientErrors,
      p95Ms: percentileMs(s.buckets),
      cpuPercent: s.samples ? round(s.cpu / s.samples) : null,
      memoryPercent: s.samples ? round(s.memory / s.samples) : null,
    }));
  }

  return {
    meter,

    /**
     * Writes what the meter counted since the last flush, with one CPU and memory sample, into the
     * hour's row and the day's page views (once a minute, and when the server stops). A failed
     * write keeps the counts for the next one.
     */
    async flush(options: { sample?: boolean } = {}): Promise<void> {
      const batch = meter.take();
      const sample = options.sample === false ? null : { cpu: cpu(), memory: memory().usedPercent };
      if (batch.requests === 0 && batch.views.size === 0 && !sample) return;
      try {
        await write(batch, clock(), sample);
      } catch (error) {
        meter.putBack(batch);
        throw error;
      }
    },

    /** Deletes rows older than TRAFFIC_KEEP_DAYS (the nightly job). */
    async purge(): Promise<void> {
      const before = new Date(clock().getTime() - TRAFFIC_KEEP_DAYS * DAY_MS);
      await db.execute(sql`DELETE FROM traffic_hours WHERE hour < ${before.toISOString()}::timestamptz`);
      await db.execute(sql`DELETE FROM page_views WHERE day < ${before.toISOString().slice(0, 10)}::date`);
    },

    /** The last 24 hours hour by hour and the last 30 days day by day (UTC), the current ones included. */
    async history(): Promise<{ hours: TrafficPoint[]; days: TrafficPoint[] }> {
      const now = clock().getTime();
      const hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
      const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
      const from = dayStart - 29 * DAY_MS;
      const list = await rows<HourRow>(
        db,
        sql`SELECT hour, requests, server_errors, client_errors, latency_buckets, cpu_sum, memory_sum, samples
            FROM traffic_hours WHERE hour >= ${new Date(from).toISOString()}::timestamptz ORDER BY hour`,
      );
      return {
        hours: points(list, hourStart - 23 * HOUR_MS, HOUR_MS, 24),
        days: points(list, from, DAY_MS, 30),
      };
    },

    /** The pages people looked at most and where they came from, over the last `days` days (today included). */
    async audience(days = 30, limit = 10) {
      const since = new Date(Math.floor(clock().getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS)
        .toISOString()
        .slice(0, 10);
      const today = clock().toISOString().slice(0, 10);
      const [pages, referrers, totals] = await Promise.all([
        rows<{ path: string; views: number }>(
          db,
          sql`SELECT path, sum(views)::int AS views FROM page_views WHERE day >= ${since}::date
              GROUP BY path ORDER BY sum(views) DESC, path LIMIT ${limit}`,
        ),
        rows<{ host: string; views: number }>(
          db,
          sql`SELECT referrer_host AS host, sum(views)::int AS views FROM page_views
              WHERE day >= ${since}::date AND referrer_host <> ''
              GROUP BY referrer_host ORDER BY sum(views) DESC, referrer_host LIMIT ${limit}`,
        ),
        rows<{ today: number; period: number }>(
          db,
          sql`SELECT coalesce(sum(views) FILTER (WHERE day = ${today}::date), 0)::int AS today,
                     coalesce(sum(views), 0)::int AS period
              FROM page_views WHERE day >= ${since}::date`,
        ),
      ]);
      return {
        days,
        viewsToday: Number(totals[0]?.today ?? 0),
        views: Number(totals[0]?.period ?? 0),
        topPages: pages.map((p) => ({ path: p.path, views: Number(p.views) })),
        topReferrers: referrers.map((r) => ({ host: r.host, views: Number(r.views) })),
      };
    },
  };
}
export type TrafficService = ReturnType<typeof trafficService>;
