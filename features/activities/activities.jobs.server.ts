/**
 * The activities' jobs: a Strava sync page (history or catch-up), a push event to fetch, and the
 * periodic catch-up (every CATCHUP_EVERY_MS, booking its next run itself like the other periodic
 * jobs; only servers that run jobs schedule it).
 */
import type { FastifyInstance } from "fastify";
import type { JobQueue } from "../jobs/jobs.service.server.ts";
import {
  CATCHUP_EVERY_MS,
  type EventPayload,
  STRAVA_CATCHUP_QUEUE,
  STRAVA_EVENT_QUEUE,
  STRAVA_SYNC_QUEUE,
  type SyncPayload,
} from "./activities.service.server.ts";

export function registerActivityJobs(app: FastifyInstance, jobs: JobQueue, clock: () => Date, schedule: boolean) {
  jobs.register<SyncPayload>(STRAVA_SYNC_QUEUE, (payload, job) => app.services.activities.runSync(payload, job), {
    concurrency: 2,
  });
  jobs.register<EventPayload>(STRAVA_EVENT_QUEUE, (payload) => app.services.activities.runEvent(payload), {
    concurrency: 2,
  });
  jobs.register(STRAVA_CATCHUP_QUEUE, async () => {
    if ((await jobs.active(STRAVA_CATCHUP_QUEUE)) <= 1) {
      await jobs.enqueue(STRAVA_CATCHUP_QUEUE, {}, { runAt: new Date(clock().getTime() + CATCHUP_EVERY_MS) });
    }
    const started = await app.services.activities.catchUpAll();
    if (started) app.log.info({ started }, "strava catch-up syncs queued");
  });
  if (!schedule) return;
  app.addHook("onReady", async () => {
    if ((await jobs.active(STRAVA_CATCHUP_QUEUE)) === 0) {
      await jobs.enqueue(STRAVA_CATCHUP_QUEUE, {}, { runAt: new Date(clock().getTime() + CATCHUP_EVERY_MS) });
    }
  });
}
