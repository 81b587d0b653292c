/**
 * The `activities-sync` part of `npm run bench` (issue 14): a member connects Strava and the first
 * sync reads a history of 1,000 activities, each with its streams (latlng, altitude, time,
 * distance, heart rate for half of them), from the local fake Strava (tests/support/strava-api.ts)
 * through the real sync jobs (registerActivityJobs, the job queue, the activities service, the
 * shared rate budget) on embedded PGlite, under Strava's application limits (200 requests per
 * 15 minutes, 2,000 a day).
 *
 * Time is simulated: one clock, shared by the fake Strava, the rate budget and the job queue,
 * runs with real time and jumps forward whenever every job left is booked for later (a job the
 * budget refused books itself for the window's reopening): nobody sleeps for real, and the
 * simulated elapsed time is what a member would wait. 429s counted by the fake Strava should be
 * 0: the budget must refuse before Strava does.
 */
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { registerActivityJobs } from "../features/activities/activities.jobs.server.ts";
import { activitiesService } from "../features/activities/activities.service.server.ts";
import {
  INTERACTIVE_RESERVE,
  SHORT_WINDOW_MS,
  STRAVA_DAILY_LIMIT,
  STRAVA_SHORT_LIMIT,
} from "../features/activities/rate-budget.server.ts";
import { users } from "../features/identity/identity.tables.ts";
import { createJobQueue } from "../features/jobs/jobs.service.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { type FakeActivity, makeRunStreams, startStravaApi } from "../tests/support/strava-api.ts";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** A Monday at 07:00 UTC, the start of a 15-minute window: the figures do not depend on the hour the bench runs. */
const SIMULATED_START = Date.parse("2026-03-02T07:00:00Z");
const ATHLETE = 31_337;
/** Seconds between two stream samples (Strava's "high" resolution of a watch recording every 1–2 s). */
const SAMPLE_EVERY_S = 2;

export type ActivitiesSyncFigures = {
  activities: number;
  withStreams: number;
  streamPoints: number;
  stravaRequests: number;
  listRequests: number;
  streamRequests: number;
  tooManyRequests: number;
  budgetRefusals: number;
  /** Times the sync had to wait for a window to reopen. */
  waits: number;
  /** The 15-minute windows the sync's requests fell in. */
  windows: number;
  maxRequestsInAWindow: number;
  simulatedMs: number;
  realMs: number;
  peakHeapMb: number;
  maxRssMb: number;
  /** Activities synced when each wait began: the progress a member sees. */
  progress: { atMinute: number; done: number; resumesAtMinute: number }[];
};

/** The member's history on Strava: runs (and some rides) back in time, distances 5–25 km. */
function history(n: number) {
  const made: { activity: FakeActivity; streams: () => ReturnType<typeof makeRunStreams> }[] = [];
  for (let i = 0; i < n; i++) {
    const km = 5 + ((i * 7) % 21);
    const pace = 300 + ((i * 13) % 60);
    const lat = 45.5 + ((i * 37) % 100) / 100;
    const lng = 5.5 + ((i * 53) % 100) / 100;
    const start = new Date(SIMULATED_START - (i + 1) * 26 * 3_600_000);
    const heartRate = i % 2 === 0;
    made.push({
      activity: {
        id: 9_000_000 + i,
        name: `Sortie ${i + 1}`,
        sport_type: i % 10 === 9 ? "TrailRun" : "Run",
        start_date: start.toISOString(),
        distance: km * 1000,
        moving_time: km * pace,
        elapsed_time: km * pace + 60,
        total_elevation_gain: 40,
        start_latlng: [lat, lng],
        ...(heartRate ? { average_heartrate: 145, max_heartrate: 171 } : {}),
        manual: false,
        private: i % 17 === 0,
      },
      streams: () => makeRunStreams({ lat, lng, distanceKm: km, paceSPerKm: pace, stepS: SAMPLE_EVERY_S, heartRate }),
    });
  }
  return made;
}

export async function activitiesSyncPart(options: { quick?: boolean; activities?: number } = {}) {
  const n = options.activities ?? (options.quick ? 250 : 1_000);
  let skippedMs = 0;
  let realStart = performance.now();
  const clock = () => new Date(SIMULATED_START + (performance.now() - realStart) + skippedMs);

  const strava = await startStravaApi({ now: () => clock().getTime() });
  const database = await openDatabase({ dataDir: "memory://" });
  try {
    await database.migrate();
    const db = database.db;
    strava.addAthlete(ATHLETE, "Camille", "Bench");
    let streamPoints = 0;
    for (const { activity, streams } of history(n)) {
      strava.addActivity(ATHLETE, activity, () => {
        const made = streams();
        streamPoints += made.time.length;
        return made;
      });
    }
    const [member] = await db
      .insert(users)
      .values({ email: "strava-bench@example.fr", slug: "strava-bench", emailStatus: "verified" })
      .returning({ id: users.id });
    const user = { id: member!.id };

    const jobs = createJobQueue(db, { clock });
    const activities = activitiesService(db, clock, {
      config: {
        PUBLIC_URL: "http://127.0.0.1:3000",
        ...strava.env,
        STRAVA_WEBHOOK_VERIFY_TOKEN: "",
        STRAVA_SUBSCRIPTION_ID: "",
      },
      secret: "the bench's app secret, long enough for HKDF",
      enqueue: jobs.enqueue,
      recordResult: async () => {
        throw new Error("no result in this bench");
      },
    });
    // The jobs exactly as the server registers them (no periodic catch-up: it would only add noise).
    const app = { services: { activities }, log: { info: () => {} } } as unknown as FastifyInstance;
    registerActivityJobs(app, jobs, clock, false);

    let peakHeap = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }, 20);

    log(`activities-sync: ${n} activities with streams on the fake Strava, first sync under its limits…`);
    realStart = performance.now();
    skippedMs = 0;
    const firstRequest = strava.requests.length;
    // Connect as the member's browser does: our link, Strava's page (the fake grants at once), our callback.
    const authorize = await fetch(activities.connectUrl(user, "en"), { redirect: "manual" });
    const back = new URL(String(authorize.headers.get("location")));
    await activities.completeConnect(user, {
      code: back.searchParams.get("code") ?? undefined,
      scope: back.searchParams.get("scope") ?? undefined,
      state: back.searchParams.get("state") ?? undefined,
    });

    const progress: ActivitiesSyncFigures["progress"] = [];
    const minute = (at: number) => Math.round(((at - SIMULATED_START) / 60_000) * 10) / 10;
    for (;;) {
      await jobs.drain();
      const [next] = (
        (await database.db.execute(sql`SELECT min(run_at) AS at FROM jobs WHERE status = 'pending'`)) as unknown as {
          rows: { at: string | Date | null }[];
        }
      ).rows;
      if (!next?.at) break;
      const at = new Date(next.at).getTime();
      const status = await activities.status(user);
      if (status.syncState !== "waiting")
        throw new Error(`activities-sync: a job is booked but the sync is ${status.syncState}`);
      progress.push({ atMinute: minute(clock().getTime()), done: status.syncDone, resumesAtMinute: minute(at) });
      // Every job left is booked for later: time passes without anyone waiting for real.
      skippedMs += Math.max(0, at - clock().getTime());
    }
    const simulatedMs = clock().getTime() - SIMULATED_START;
    const realMs = performance.now() - realStart;
    clearInterval(sampler);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);

    const status = await activities.status(user);
    if (status.syncState !== "idle" || !status.historyDone)
      throw new Error(`activities-sync: the sync ended ${status.syncState} (${status.lastSyncAt ?? "never synced"})`);
    if (status.activityCount !== n)
      throw new Error(`activities-sync: ${status.activityCount} activities, ${n} expected`);
    const [streamRows] = (
      (await database.db.execute(sql`SELECT count(*)::int AS n FROM activity_streams`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    if (Number(streamRows!.n) !== n) throw new Error(`activities-sync: ${streamRows!.n} streams stored, ${n} expected`);

    const api = strava.requests.slice(firstRequest).filter((r) => r.path.startsWith("/api/v3/"));
    // Requests per 15-minute window, by the fake Strava's own record of when each came.
    const perWindow = new Map<number, number>();
    for (const r of api) {
      const window = Math.floor(r.at / SHORT_WINDOW_MS);
      perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    }
    const budget = await activities.budget.state();
    await jobs.stop();
    return {
      activities: n,
      withStreams: Number(streamRows!.n),
      streamPoints,
      stravaRequests: api.length,
      listRequests: api.filter((r) => r.path === "/api/v3/athlete/activities").length,
      streamRequests: api.filter((r) => r.path.endsWith("/streams")).length,
      tooManyRequests: strava.refused,
      budgetRefusals: budget.refused,
      waits: progress.length,
      windows: perWindow.size,
      maxRequestsInAWindow: Math.max(...perWindow.values()),
      simulatedMs,
      realMs: Math.round(realMs),
      peakHeapMb: Math.round(peakHeap / 1024 / 1024),
      // maxRSS is in kilobytes, for the whole run so far.
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      progress,
    } satisfies ActivitiesSyncFigures;
  } finally {
    await database.close();
    await strava.close();
  }
}

const duration = (ms: number) => {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 60
    ? `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`
    : `${minutes} min`;
};

export function activitiesSyncTable(f: ActivitiesSyncFigures): string {
  return [
    "| activities (with streams) | stream points | Strava requests (list + streams) | 429s received | most requests in one window | waits for a window | simulated elapsed | real elapsed | peak heap | max RSS |",
    "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${f.activities} (${f.withStreams}) | ${f.streamPoints.toLocaleString("en-GB")} | ${f.stravaRequests} (${f.listRequests} + ${f.streamRequests}) | **${f.tooManyRequests}** | ${f.maxRequestsInAWindow} | ${f.waits} | **${duration(f.simulatedMs)}** (${f.windows} windows of 15 min) | ${(f.realMs / 1000).toFixed(1)} s | ${f.peakHeapMb} MB | ${f.maxRssMb} MB |`,
    "",
    `Limits: ${STRAVA_SHORT_LIMIT} requests per 15 minutes (${INTERACTIVE_RESERVE} kept for members' interactive requests), ${STRAVA_DAILY_LIMIT.toLocaleString("en-GB")} a day. ` +
      `Progress the member saw at each wait (simulated minutes from the start): ${f.progress
        .map((p) => `${p.done} done at ${p.atMinute}, resumes at ${p.resumesAtMinute}`)
        .join("; ")}.`,
  ].join("\n");
}
