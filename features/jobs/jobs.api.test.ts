import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../platform/db/client.server.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import {
  createJobQueue,
  HEARTBEAT_MS,
  type JobInfo,
  KEEP_DONE_MS,
  KEEP_FAILED_MS,
  retryDelayMs,
  STALE_AFTER_MS,
} from "./jobs.service.server.ts";

let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
});
afterAll(() => t?.close());

/** A clock the test moves by hand. */
function manualClock(start = "2026-03-02T08:00:00Z") {
  let current = new Date(start);
  return {
    now: () => current,
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
  };
}

let queueCounter = 0;
/** A queue name no other test uses, so tests never see each other's jobs. */
const uniqueQueue = (name: string) => `test.${name}.${++queueCounter}`;

type JobRecord = {
  status: string;
  attempts: number;
  payload: unknown;
  run_at: Date;
  last_error: string | null;
  finished_at: Date | null;
  locked_at: Date | null;
};

async function jobRecord(id: number): Promise<JobRecord> {
  const result = (await db.execute(
    sql`SELECT status, attempts, payload, run_at, last_error, finished_at, locked_at FROM jobs WHERE id = ${id}`,
  )) as unknown as { rows: JobRecord[] };
  const row = result.rows[0];
  return { ...row, run_at: new Date(row.run_at), finished_at: row.finished_at && new Date(row.finished_at) };
}

describe("job queue", () => {
  it("runs due jobs in run_at order, then id order, and leaves future jobs alone", async () => {
    const clock = manualClock();
    const jobs = createJobQueue(db, { clock: clock.now });
    const queue = uniqueQueue("order");
    const seen: string[] = [];
    jobs.register<{ name: string }>(queue, async ({ name }) => {
      seen.push(name);
    });
    const at = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000);
    await jobs.enqueue(queue, { name: "b" }, { runAt: at(-5) });
    await jobs.enqueue(queue, { name: "c" }, { runAt: at(-5) });
    await jobs.enqueue(queue, { name: "a" }, { runAt: at(-10) });
    await jobs.enqueue(queue, { name: "now" });
    await jobs.enqueue(queue, { name: "later" }, { runAt: at(30) });

    expect(await jobs.drain()).toBe(4);
    expect(seen).toEqual(["a", "b", "c", "now"]);

    clock.advance(30 * 60_000);
    expect(await jobs.drain()).toBe(1);
    expect(seen.at(-1)).toBe("later");
  });

  it("claims only the queues this process handles", async () => {
    const jobs = createJobQueue(db, { clock: manualClock().now });
    const handled = uniqueQueue("handled");
    const other = uniqueQueue("other");
    jobs.register(handled, async () => {});
    const otherId = await jobs.enqueue(other, {});
    await jobs.enqueue(handled, {});
    expect(await jobs.drain()).toBe(1);
    expect((await jobRecord(otherId)).status).toBe("pending");
  });

  it("passes the payload and the attempt number, then wipes the payload once done", async () => {
    const clock = manualClock();
    const jobs = createJobQueue(db, { clock: clock.now });
    const queue = uniqueQueue("payload");
    const calls: { payload: unknown; job: JobInfo }[] = [];
    jobs.register(queue, async (payload, job) => {
      calls.push({ payload, job });
    });
    const id = await jobs.enqueue(queue, { code: "12345", nested: { list: [1, 2] } }, { maxAttempts: 3 });
    await jobs.drain();
    expect(calls).toHaveLength(1);
    expect(calls[0].payload).toEqual({ code: "12345", nested: { list: [1, 2] } });
    expect(calls[0].job).toMatchObject({ id, queue, attempts: 1, maxAttempts: 3 });
    const record = await jobRecord(id);
    expect(record).toMatchObject({ status: "done", attempts: 1, payload: {}, last_error: null, locked_at: null });
    expect(record.finished_at?.toISOString()).toBe(clock.now().toISOString());
  });

  it("retries a failed job after a growing delay", async () => {
    const clock = manualClock();
    const jobs = createJobQueue(db, { clock: clock.now });
    const queue = uniqueQueue("retry");
    let failuresLeft = 2;
    jobs.register(queue, async () => {
      if (failuresLeft-- > 0) throw new Error("SMTP said no");
    });
    const id = await jobs.enqueue(queue, { secret: "x" });

    expect(await jobs.drain()).toBe(1);
    let record = await jobRecord(id);
    expect(record).toMatchObject({ status: "pending", attempts: 1, payload: { secret: "x" } });
    expect(record.last_error).toContain("SMTP said no");
    expect(record.run_at.getTime() - clock.now().getTime()).toBe(5_000);

    clock.advance(4_999);
    expect(await jobs.drain()).toBe(0);
    clock.advance(1);
    expect(await jobs.drain()).toBe(1);
    record = await jobRecord(id);
    expect(record).toMatchObject({ status: "pending", attempts: 2 });
    expect(record.run_at.getTime() - clock.now().getTime()).toBe(20_000);

    clock.advance(20_000);
    expect(await jobs.drain()).toBe(1);
    expect(await jobRecord(id)).toMatchObject({ status: "done", attempts: 3, payload: {} });
  });

  it("backs off 5 s × 4^(attempts − 1), at most one hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([
      5_000, 20_000, 80_000, 320_000, 1_280_000, 3_600_000, 3_600_000,
    ]);
  });

  it("marks a job failed after its last attempt", async () => {
    const clock = manualClock();
    const log: string[] = [];
    const jobs = createJobQueue(db, { clock: clock.now, log: (message) => log.push(message) });
    const queue = uniqueQueue("fail");
    let runs = 0;
    jobs.register(queue, async () => {
      runs++;
      throw new Error(`broken ${runs}`);
    });
    const id = await jobs.enqueue(queue, {}, { maxAttempts: 2 });
    await jobs.drain();
    clock.advance(retryDelayMs(1));
    await jobs.drain();
    clock.advance(24 * 3_600_000);
    expect(await jobs.drain()).toBe(0);

    expect(runs).toBe(2);
    const record = await jobRecord(id);
    expect(record).toMatchObject({ status: "failed", attempts: 2, locked_at: null });
    expect(record.last_error).toContain("broken 2");
    expect(record.finished_at).not.toBeNull();
    expect(log).toHaveLength(2);
  });

  it("never runs a job twice when two workers drain at the same time", async () => {
    const queue = uniqueQueue("concurrent");
    // Two queues stand for two server instances sharing the database.
    const workers = [createJobQueue(db), createJobQueue(db)];
    const runsById = new Map<number, number>();
    const ranBy = [0, 0];
    workers.forEach((worker, index) => {
      worker.register<{ n: number }>(queue, async (_payload, job) => {
        runsById.set(job.id, (runsById.get(job.id) ?? 0) + 1);
        ranBy[index]++;
        await sleep(2);
      });
    });
    const ids: number[] = [];
    for (let n = 0; n < 30; n++) ids.push(await workers[0].enqueue(queue, { n }));

    const counts = await Promise.all([workers[0].drain(), workers[1].drain(), workers[0].drain()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
    expect([...runsById.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect([...runsById.values()].every((runs) => runs === 1)).toBe(true);
    expect(ranBy[0]).toBeGreaterThan(0);
    expect(ranBy[1]).toBeGreaterThan(0);
  });

  it("runs again a job left running by a process that died, but not one still being worked on", async () => {
    const clock = manualClock();
    const jobs = createJobQueue(db, { clock: clock.now });
    const queue = uniqueQueue("stale");
    const ran: number[] = [];
    jobs.register(queue, async (_payload, job) => {
      ran.push(job.id);
    });
    const stale = await jobs.enqueue(queue, {});
    const busy = await jobs.enqueue(queue, {});
    const exhausted = await jobs.enqueue(queue, {}, { maxAttempts: 1 });
    const lockedAgo = (ms: number) => new Date(clock.now().getTime() - ms).toISOString();
    await db.execute(
      sql`UPDATE jobs SET status = 'running', attempts = 1, locked_at = ${lockedAgo(STALE_AFTER_MS + 1000)}::timestamptz
          WHERE id IN (${stale}, ${exhausted})`,
    );
    await db.execute(
      sql`UPDATE jobs SET status = 'running', attempts = 1, locked_at = ${lockedAgo(STALE_AFTER_MS - 1000)}::timestamptz
          WHERE id = ${busy}`,
    );

    expect(await jobs.drain()).toBe(1);
    expect(ran).toEqual([stale]);
    expect(await jobRecord(stale)).toMatchObject({ status: "done", attempts: 2 });
    expect(await jobRecord(busy)).toMatchObject({ status: "running", attempts: 1 });
    const gaveUp = await jobRecord(exhausted);
    expect(gaveUp.status).toBe("failed");
    expect(gaveUp.last_error).toContain("abandoned");
  });

  it("reclaims a job 30 s after its heartbeat stopped, not 10 minutes", () => {
    expect(STALE_AFTER_MS).toBe(30_000);
    // Several renewals fit in the stale delay: one late heartbeat does not lose the job.
    expect(STALE_AFTER_MS / HEARTBEAT_MS).toBeGreaterThanOrEqual(5);
  });

  it("keeps a long job's lease alive with its heartbeat, however long it runs", async () => {
    const clock = manualClock();
    const queue = uniqueQueue("heartbeat");
    // Worker A renews its leases every 10 ms of real time, at the (shared) test clock's time.
    const worker = createJobQueue(db, { clock: clock.now, heartbeatMs: 10 });
    const other = createJobQueue(db, { clock: clock.now });
    let runs = 0;
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const handler = async () => {
      runs++;
      started();
      await gate;
    };
    worker.register(queue, handler);
    other.register(queue, handler);
    const id = await worker.enqueue(queue, {});
    const draining = worker.drain();
    await running;
    // Ten minutes pass, 20 s at a time; after each step a heartbeat renews the lease.
    for (let step = 0; step < 30; step++) {
      clock.advance(20_000);
      const expected = clock.now().toISOString();
      for (let i = 0; i < 500; i++) {
        const lockedAt = (await jobRecord(id)).locked_at;
        if (lockedAt && new Date(lockedAt).toISOString() === expected) break;
        await sleep(5);
      }
      expect(await other.drain()).toBe(0);
    }
    finish();
    expect(await draining).toBe(1);
    expect(runs).toBe(1);
    expect(await jobRecord(id)).toMatchObject({ status: "done", attempts: 1 });
    // Thirty steps, each waiting for a heartbeat written by a timer: on a loaded machine with a real
    // PostgreSQL (CI, two cores) the heartbeats come late and the steps add up past Vitest's 30 s.
  }, 120_000);

  it("hands the job of a frozen worker to another one, which alone records the outcome", async () => {
    const queue = uniqueQueue("takeover");
    // A's heartbeats still run but write a time that stopped (a frozen or cut-off process, seen
    // from the database): its lease goes stale for everyone else.
    const frozen = manualClock();
    const clock = manualClock();
    const a = createJobQueue(db, { clock: frozen.now, heartbeatMs: 10 });
    const b = createJobQueue(db, { clock: clock.now });
    let signalOfA: AbortSignal | undefined;
    let releaseA!: () => void;
    const gateA = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    let startedA!: () => void;
    const runningA = new Promise<void>((resolve) => {
      startedA = resolve;
    });
    a.register(queue, async (_payload, job) => {
      signalOfA = job.signal;
      startedA();
      await gateA;
      throw new Error("A woke up late and failed");
    });
    const ranByB: number[] = [];
    b.register(queue, async (_payload, job) => {
      ranByB.push(job.attempts);
    });
    const id = await b.enqueue(queue, { secret: "s" });
    const drainingA = a.drain();
    await runningA;

    clock.advance(STALE_AFTER_MS - 1000);
    expect(await b.drain()).toBe(0);
    clock.advance(2000);
    expect(await b.drain()).toBe(1);
    expect(ranByB).toEqual([2]);
    expect(await jobRecord(id)).toMatchObject({ status: "done", attempts: 2, payload: {} });

    // A's next heartbeat finds its lease gone and aborts its handler's signal.
    for (let i = 0; i < 500 && !signalOfA?.aborted; i++) await sleep(5);
    expect(signalOfA?.aborted).toBe(true);
    // Its late failure changes nothing: the job stays done, no retry is scheduled.
    releaseA();
    await drainingA;
    expect(await jobRecord(id)).toMatchObject({ status: "done", attempts: 2, last_error: null });
    expect(await b.drain()).toBe(0);
  });

  it("runs up to a queue's concurrency of jobs at once, never more", async () => {
    const queue = uniqueQueue("concurrency");
    const jobs = createJobQueue(db);
    let inFlight = 0;
    let maxInFlight = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reachedBound!: () => void;
    const atBound = new Promise<void>((resolve) => {
      reachedBound = resolve;
    });
    jobs.register(
      queue,
      async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        if (inFlight === 4) reachedBound();
        await gate;
        inFlight--;
      },
      { concurrency: 4 },
    );
    for (let n = 0; n < 10; n++) await jobs.enqueue(queue, { n });
    const draining = jobs.drain();
    await atBound;
    release();
    expect(await draining).toBe(10);
    expect(maxInFlight).toBe(4);
    const result = (await db.execute(
      sql`SELECT count(*)::int AS n FROM jobs WHERE queue = ${queue} AND status = 'done'`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(result.rows[0].n)).toBe(10);
  });

  it("starts a job enqueued while others run without waiting for them to finish", async () => {
    const queue = uniqueQueue("wake-busy");
    const jobs = createJobQueue(db, { pollMs: 60_000 });
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let slowStarted!: () => void;
    const slowRunning = new Promise<void>((resolve) => {
      slowStarted = resolve;
    });
    let quickDone!: () => void;
    const quickRan = new Promise<void>((resolve) => {
      quickDone = resolve;
    });
    jobs.register<{ kind: string }>(
      queue,
      async ({ kind }) => {
        if (kind === "slow") {
          slowStarted();
          await slowGate;
        } else quickDone();
      },
      { concurrency: 2 },
    );
    jobs.start();
    await jobs.enqueue(queue, { kind: "slow" });
    await slowRunning;
    await jobs.enqueue(queue, { kind: "quick" });
    // Resolves only if the quick job ran while the slow one still holds its slot.
    await quickRan;
    releaseSlow();
    await jobs.stop();
  });

  it("enqueues inside the caller's transaction: nothing survives a rollback", async () => {
    const jobs = createJobQueue(db);
    const queue = uniqueQueue("tx");
    let committedId = 0;
    await db.transaction(async (tx) => {
      committedId = await jobs.enqueue(queue, { kept: true }, { tx });
    });
    await expect(
      db.transaction(async (tx) => {
        await jobs.enqueue(queue, { kept: false }, { tx });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const result = (await db.execute(sql`SELECT id, payload FROM jobs WHERE queue = ${queue}`)) as unknown as {
      rows: { id: number; payload: unknown }[];
    };
    expect(result.rows.map((row) => [Number(row.id), row.payload])).toEqual([[committedId, { kept: true }]]);
  });

  it("wakes at once on enqueue when started, and stop() waits for the running job", async () => {
    // A poll interval far longer than the test: only the wake-up can run the job in time.
    const jobs = createJobQueue(db, { pollMs: 60_000 });
    const queue = uniqueQueue("wake");
    let finished = false;
    let startedRunning!: () => void;
    const running = new Promise<void>((resolve) => {
      startedRunning = resolve;
    });
    jobs.register(queue, async () => {
      startedRunning();
      await sleep(100);
      finished = true;
    });
    jobs.start();
    await sleep(50); // let the first (empty) pass finish
    const id = await jobs.enqueue(queue, {});
    await running;
    await jobs.stop();
    expect(finished).toBe(true);
    expect((await jobRecord(id)).status).toBe("done");
  });

  it("polls for jobs that became due without a wake-up", async () => {
    const jobs = createJobQueue(db, { pollMs: 20 });
    const queue = uniqueQueue("poll");
    let ran = false;
    jobs.register(queue, async () => {
      ran = true;
    });
    // Enqueued by "another instance": this queue is not woken.
    await createJobQueue(db).enqueue(queue, {});
    jobs.start();
    for (let i = 0; i < 100 && !ran; i++) await sleep(10);
    await jobs.stop();
    expect(ran).toBe(true);
  });
});

describe("job table upkeep", () => {
  it("deletes done jobs after a week and failed ones after a month", async () => {
    const clock = manualClock();
    const jobs = createJobQueue(db, { clock: clock.now });
    const queue = uniqueQueue("purge");
    jobs.register(queue, async () => {});
    const ago = (ms: number) => new Date(clock.now().getTime() - ms).toISOString();
    const insert = async (status: string, finishedAgo: number) => {
      const result = (await db.execute(
        sql`INSERT INTO jobs (queue, payload, status, finished_at)
            VALUES (${queue}, '{}'::jsonb, ${status}::job_status, ${ago(finishedAgo)}::timestamptz) RETURNING id`,
      )) as unknown as { rows: { id: number }[] };
      return Number(result.rows[0].id);
    };
    const oldDone = await insert("done", KEEP_DONE_MS + 1000);
    const recentDone = await insert("done", KEEP_DONE_MS - 1000);
    const oldFailed = await insert("failed", KEEP_FAILED_MS + 1000);
    const recentFailed = await insert("failed", KEEP_DONE_MS + 1000);

    await jobs.drain();
    const result = (await db.execute(sql`SELECT id FROM jobs WHERE queue = ${queue} ORDER BY id`)) as unknown as {
      rows: { id: number }[];
    };
    const left = result.rows.map((row) => Number(row.id));
    expect(left).toEqual([recentDone, recentFailed]);
    expect(left).not.toContain(oldDone);
    expect(left).not.toContain(oldFailed);
  });
});
