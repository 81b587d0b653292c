/**
 * The alerts' jobs: the weekly digest (Thursday morning, before the weekend's plans), the daily
 * registration reminder and the per-change followers' mail. Like the nightly editions job, each
 * periodic job books its next run itself; only servers that run jobs schedule them.
 */
import type { FastifyInstance } from "fastify";
import type { JobQueue } from "../jobs/jobs.service.server.ts";
import { DIGEST_QUEUE, EVENT_CHANGED_QUEUE, REGISTRATION_QUEUE } from "./alerts.service.server.ts";

/** The next day at `hourUtc` o'clock UTC (strictly after `now`). */
export function nextDailyRun(now: Date, hourUtc: number): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc));
  if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/** The next `weekday` (0 = Sunday) at `hourUtc` o'clock UTC, strictly after `now`. */
export function nextWeeklyRun(now: Date, weekday: number, hourUtc: number): Date {
  const next = nextDailyRun(now, hourUtc);
  next.setUTCDate(next.getUTCDate() + ((weekday - next.getUTCDay() + 7) % 7));
  return next;
}

/** Digest: Thursdays 06:00 UTC (7 or 8 a.m. in France). Reminders: daily 05:00 UTC. */
const DIGEST_AT = (now: Date) => nextWeeklyRun(now, 4, 6);
const REMINDERS_AT = (now: Date) => nextDailyRun(now, 5);

export function registerAlertJobs(app: FastifyInstance, jobs: JobQueue, clock: () => Date, schedule: boolean) {
  const periodic = (queue: string, nextRun: (now: Date) => Date, run: () => Promise<number>) => {
    jobs.register(queue, async () => {
      // The next run is booked first (this run counts as active), so a failing run never stops it.
      if ((await jobs.active(queue)) <= 1) {
        await jobs.enqueue(queue, {}, { runAt: nextRun(new Date(clock().getTime() + 60_000)) });
      }
      const sent = await run();
      if (sent) app.log.info({ queue, sent }, "alert mails queued");
    });
  };
  periodic(DIGEST_QUEUE, DIGEST_AT, () => app.services.alerts.sendDigests());
  periodic(REGISTRATION_QUEUE, REMINDERS_AT, () => app.services.alerts.sendRegistrationReminders());
  jobs.register<{ eventId: number; change: "cancelled" | "postponed"; at: string }>(EVENT_CHANGED_QUEUE, async (p) => {
    await app.services.alerts.notifyFollowers(p);
  });
  if (!schedule) return;
  app.addHook("onReady", async () => {
    for (const [queue, nextRun] of [
      [DIGEST_QUEUE, DIGEST_AT],
      [REGISTRATION_QUEUE, REMINDERS_AT],
    ] as const) {
      if ((await jobs.active(queue)) === 0) await jobs.enqueue(queue, {}, { runAt: nextRun(clock()) });
    }
  });
}
