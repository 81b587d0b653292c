import { sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import type { AppVersion } from "../../platform/version.server.ts";
import { cpuInfo, cpuMeter, diskStats, memoryStats, uptimes } from "../traffic/system-stats.server.ts";
import type { TrafficService } from "../traffic/traffic.service.server.ts";
import { percentileMs } from "../traffic/traffic-meter.ts";
import type { BusinessFigures, Dashboard } from "./admin.contract.ts";
import type { AdminCounts } from "./admin-sections.ts";

/**
 * What the composition root gives the admin area (server/admin-figures.server.ts): the counts of
 * what waits and the business figures, each read by the feature that owns the data.
 */
export type AdminPorts = {
  /** What waits for an admin, but the failed jobs (read from `jobs`). */
  waiting: () => Promise<Omit<AdminCounts, "failedJobs">>;
  /** The job queue at a glance: read once per dashboard, for its figures and for the counts. */
  jobs: () => Promise<BusinessFigures["jobs"]>;
  /** The business figures, but the jobs. */
  business: () => Promise<Omit<BusinessFigures, "jobs">>;
};

export function adminService(
  db: Db,
  clock: () => Date,
  deps: AdminPorts & { traffic: TrafficService; dataDir: string; version: AppVersion },
) {
  const cpu = cpuMeter();
  // The first reading on the dashboard covers the time since the server started.
  cpu();
  const startedAt = new Date(Date.now() - process.uptime() * 1000).toISOString();

  async function databaseBytes(): Promise<number | null> {
    try {
      const [row] = await rows<{ bytes: number | string }>(
        db,
        sql`SELECT pg_database_size(current_database())::bigint AS bytes`,
      );
      return row ? Number(row.bytes) : null;
    } catch {
      return null;
    }
  }

  async function counts(jobs?: Promise<BusinessFigures["jobs"]>): Promise<AdminCounts> {
    const [waiting, queue] = await Promise.all([deps.waiting(), jobs ?? deps.jobs()]);
    return { ...waiting, failedJobs: queue.failed };
  }

  return {
    /** The admin menu's counts (GET /api/admin/counts). */
    counts: () => counts(),

    /** GET /api/admin/dashboard: the machine, the traffic, the business, what waits. */
    async dashboard(): Promise<Dashboard> {
      const recent = deps.traffic.meter.lastMinutes(5);
      const requests = recent.reduce((sum, m) => sum + m.requests, 0);
      const serverErrors = recent.reduce((sum, m) => sum + m.serverErrors, 0);
      const buckets = recent.reduce<number[]>(
        (sum, m) => sum.map((n, i) => n + (m.buckets[i] ?? 0)),
        new Array(recent[0]?.buckets.length ?? 0).fill(0),
      );
      const jobs = deps.jobs();
      const [history, audience, business, queue, waiting, dbBytes] = await Promise.all([
        deps.traffic.history(),
        deps.traffic.audience(),
        deps.business(),
        jobs,
        counts(jobs),
        databaseBytes(),
      ]);
      return {
        generatedAt: clock().toISOString(),
        version: deps.version,
        cpu: { percent: Math.round(cpu() * 10) / 10, ...cpuInfo() },
        memory: memoryStats(),
        disk: { data: diskStats(deps.dataDir), databaseBytes: dbBytes },
        traffic: {
          requestsPerMinute: Math.round((requests / recent.length) * 10) / 10,
          errorRate: requests ? serverErrors / requests : 0,
          p95Ms: percentileMs(buckets),
          hours: history.hours,
          days: history.days,
          audience,
        },
        uptime: { ...uptimes(), startedAt },
        business: { ...business, jobs: queue },
        counts: waiting,
      };
    },
  };
}
export type AdminService = ReturnType<typeof adminService>;
