import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";

/**
 * A small job queue in the `jobs` table (decision 009). Jobs are claimed one at a time with
 * `FOR UPDATE SKIP LOCKED`, so any number of workers — in one process or in several server
 * instances against one PostgreSQL — never run the same job twice at once. A queue may run several
 * of its jobs side by side (`register(…, { concurrency })`): mail spends its time waiting on the
 * SMTP server, not on this process.
 *
 * Leases: a running job's `locked_at` is renewed every HEARTBEAT_MS while its handler runs; a job
 * whose heartbeat stopped for STALE_AFTER_MS belongs to a process that died and is run again.
 * Delivery is therefore at least once, so handlers should be idempotent. `attempts` doubles as the
 * lease's fencing token: a worker that lost its lease (frozen longer than STALE_AFTER_MS, then woke
 * up) can no longer renew it nor write the job's outcome, and its handler sees `job.signal` aborted.
 */

/** What a handler learns about the job it runs (the payload comes as its first argument). */
export type JobInfo = {
  id: number;
  queue: string;
  /** This run included: 1 on the first run. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  createdAt: Date;
  /** Aborted when this worker lost the job's lease (another worker took it over): stop before side effects. */
  signal: AbortSignal;
};

/** A transaction opened with `db.transaction()`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type JobHandler<P = unknown> = (payload: P, job: JobInfo) => Promise<void>;

export type RegisterOptions = {
  /** Jobs of this queue this process runs side by side (default 1: one after the other). */
  concurrency?: number;
};

export type EnqueueOptions = {
  /** Not before this time (default: now). */
  runAt?: Date;
  /** Runs before the job is marked failed (default 5, the column's default). */
  maxAttempts?: number;
  /** The caller's transaction: the job exists only if that transaction commits. */
  tx?: Db | Tx;
};

export type JobQueueOptions = {
  /** Replaces the database's now() for due dates, backoff and staleness, so tests can move time. */
  clock?: () => Date;
  /** Interval between polls when idle (default 1000 ms). */
  pollMs?: number;
  /** Interval between lease renewals of running jobs (default HEARTBEAT_MS). */
  heartbeatMs?: number;
  log?: (message: string, error?: unknown) => void;
};

export type JobQueue = ReturnType<typeof createJobQueue>;

/** A running job whose lease was not renewed for this long belongs to a process that died: it is run again. */
export const STALE_AFTER_MS = 30_000;
/** How often a running job renews its lease (`locked_at`): six renewals fit in STALE_AFTER_MS. */
export const HEARTBEAT_MS = 5_000;
/** Finished jobs are kept this long for inspection, then deleted: done ones a week, failed a month. */
export const KEEP_DONE_MS = 7 * 24 * 3_600_000;
export const KEEP_FAILED_MS = 30 * 24 * 3_600_000;
const PURGE_EVERY_MS = 3_600_000;
/** A job enqueued in a caller's transaction is visible only after commit: wake a bit later. */
const TX_WAKE_DELAY_MS = 100;
/** A pass that keeps finding work still looks for abandoned jobs this often. */
const RECLAIM_EVERY_MS = 5_000;

/** Delay before retry number `attempts` + 1: 5 s, 20 s, 80 s, 320 s, … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 4 ** Math.max(attempts - 1, 0), 3_600_000);
}

type JobRow = {
  id: number | string;
  queue: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  run_at: Date | string;
  created_at: Date | string;
};

/** A job this process runs: its lease is identified by (id, attempts). */
type Lease = { id: number; attempts: number; controller: AbortController };

/** Rows of a raw query: PGlite and node-postgres results differ in type but both carry `rows`. */
async function queryRows<T>(db: Pick<Db | Tx, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.stack || error.message : String(error);
  return text.slice(0, 4000);
}

export function createJobQueue(db: Db, options: JobQueueOptions = {}) {
  const { clock, pollMs = 1000, heartbeatMs = HEARTBEAT_MS, log = () => {} } = options;
  const handlers = new Map<string, { handler: JobHandler; concurrency: number }>();

  /** The time the queue reasons in: the injected clock, else the database's. */
  const now = (): SQL => (clock ? sql`${clock().toISOString()}::timestamptz` : sql`now()`);
  const later = (ms: number): SQL => sql`(${now()} + ${ms} * interval '1 millisecond')`;

  async function enqueue(queue: string, payload: unknown, opts: EnqueueOptions = {}): Promise<number> {
    const runAt = opts.runAt ? sql`${opts.runAt.toISOString()}::timestamptz` : now();
    const maxAttempts = opts.maxAttempts ?? 5;
    const [row] = await queryRows<{ id: number | string }>(
      opts.tx ?? db,
      sql`INSERT INTO jobs (queue, payload, max_attempts, run_at)
          VALUES (${queue}, ${JSON.stringify(payload ?? null)}::jsonb, ${maxAttempts}, ${runAt})
          RETURNING id`,
    );
    wake(opts.tx ? TX_WAKE_DELAY_MS : 0);
    return Number(row.id);
  }

  function register<P>(queue: string, handler: JobHandler<P>, registerOptions: RegisterOptions = {}): void {
    const concurrency = Math.max(1, Math.floor(registerOptions.concurrency ?? 1));
    handlers.set(queue, { handler: handler as JobHandler, concurrency });
  }

  // Leases held by this process, renewed together by one timer while any job runs.
  const leases = new Map<number, Lease>();
  let heartbeat: NodeJS.Timeout | undefined;

  async function renewLeases(): Promise<void> {
    const held = [...leases.values()];
    if (held.length === 0) return;
    const pairs = sql.join(
      held.map((lease) => sql`(${lease.id}::bigint, ${lease.attempts}::int)`),
      sql`, `,
    );
    const renewed = await queryRows<{ id: number | string }>(
      db,
      sql`UPDATE jobs SET locked_at = ${now()}
          WHERE status = 'running' AND (id, attempts) IN (${pairs})
          RETURNING id`,
    );
    const kept = new Set(renewed.map((row) => Number(row.id)));
    for (const lease of held) {
      // Reclaimed by another worker while this one was frozen: its handler should stop.
      if (!kept.has(lease.id) && leases.get(lease.id) === lease) {
        log(`jobs: lost the lease of job ${lease.id} (taken over after a stale heartbeat)`);
        lease.controller.abort(new Error(`job ${lease.id}: lease lost`));
      }
    }
  }

  function hold(lease: Lease): void {
    leases.set(lease.id, lease);
    if (!heartbeat) {
      heartbeat = setInterval(() => {
        renewLeases().catch((error: unknown) => log("jobs: heartbeat failed", error));
      }, heartbeatMs);
      heartbeat.unref();
    }
  }

  function release(lease: Lease): void {
    if (leases.get(lease.id) === lease) leases.delete(lease.id);
    if (leases.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  }

  /** Puts jobs of dead processes back in line, or fails them when they have no attempt left. */
  async function reclaimStale(): Promise<void> {
    await db.execute(
      sql`UPDATE jobs
          SET status = CASE WHEN attempts < max_attempts THEN 'pending'::job_status ELSE 'failed'::job_status END,
              locked_at = NULL,
              last_error = 'abandoned while running (the process stopped?)',
              finished_at = CASE WHEN attempts < max_attempts THEN NULL ELSE ${now()} END,
              payload = CASE WHEN attempts < max_attempts THEN payload ELSE '{}'::jsonb END
          WHERE status = 'running' AND locked_at < ${later(-STALE_AFTER_MS)}`,
    );
  }

  let lastPurge = Number.NEGATIVE_INFINITY;
  /** Deletes old finished jobs, at most once an hour per process, so the table stays small. */
  async function purgeFinished(): Promise<void> {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    await db.execute(
      sql`DELETE FROM jobs
          WHERE (status = 'done' AND finished_at < ${later(-KEEP_DONE_MS)})
             OR (status = 'failed' AND finished_at < ${later(-KEEP_FAILED_MS)})`,
    );
  }

  /** Takes the next due job among `queues`, or null. */
  async function claim(queues: string[]): Promise<JobRow | null> {
    if (queues.length === 0) return null;
    const [row] = await queryRows<JobRow>(
      db,
      sql`UPDATE jobs SET status = 'running', locked_at = ${now()}, attempts = attempts + 1
          WHERE id = (
            SELECT id FROM jobs
            WHERE status = 'pending' AND run_at <= ${now()} AND queue IN ${queues}
            ORDER BY run_at, id
            FOR UPDATE SKIP LOCKED
            LIMIT 1
          )
          RETURNING id, queue, payload, attempts, max_attempts, run_at, created_at`,
    );
    return row ?? null;
  }

  async function run(row: JobRow): Promise<void> {
    const lease: Lease = { id: Number(row.id), attempts: Number(row.attempts), controller: new AbortController() };
    const job: JobInfo = {
      id: lease.id,
      queue: row.queue,
      attempts: lease.attempts,
      maxAttempts: row.max_attempts,
      runAt: new Date(row.run_at),
      createdAt: new Date(row.created_at),
      signal: lease.controller.signal,
    };
    const { handler } = handlers.get(job.queue)!;
    hold(lease);
    let failure: { error: unknown } | undefined;
    try {
      await handler(row.payload, job);
    } catch (error) {
      failure = { error };
    } finally {
      release(lease);
    }
    // Every outcome is written only while the lease is still ours (same attempt, still running).
    const ours = sql`id = ${job.id} AND status = 'running' AND attempts = ${job.attempts}`;
    if (!failure) {
      // Payloads may carry secrets (codes, reset links): nothing of them is kept once done.
      await db.execute(
        sql`UPDATE jobs SET status = 'done', finished_at = ${now()}, locked_at = NULL, last_error = NULL,
              payload = '{}'::jsonb
            WHERE ${ours}`,
      );
      return;
    }
    const retry = job.attempts < job.maxAttempts;
    log(`jobs: ${job.queue} job ${job.id} failed (attempt ${job.attempts}/${job.maxAttempts})`, failure.error);
    const lastError = errorText(failure.error);
    await db.execute(
      retry
        ? sql`UPDATE jobs SET status = 'pending', locked_at = NULL, last_error = ${lastError},
                run_at = ${later(retryDelayMs(job.attempts))}
              WHERE ${ours}`
        : // A job that gave up keeps no secrets either (codes, links): only its error stays.
          sql`UPDATE jobs SET status = 'failed', locked_at = NULL, last_error = ${lastError}, finished_at = ${now()},
                payload = '{}'::jsonb
              WHERE ${ours}`,
    );
  }

  // Jobs started by the current pass, per queue, and a way for wake() to interrupt its waiting.
  const inFlight = new Map<string, number>();
  let nudge: (() => void) | undefined;
  /** Counts wake-ups, so a pass that was claiming when one came looks again instead of waiting. */
  let wakeups = 0;

  /** Queues with a free slot. */
  function openQueues(): string[] {
    return [...handlers].filter(([queue, { concurrency }]) => (inFlight.get(queue) ?? 0) < concurrency).map(([q]) => q);
  }

  /**
   * Claims due jobs and runs them — up to each queue's concurrency at once — while `keepGoing()`
   * holds, until none is due and none runs; returns how many ran.
   */
  async function processDue(keepGoing: () => boolean): Promise<number> {
    await reclaimStale();
    let lastReclaim = Date.now();
    await purgeFinished();
    let count = 0;
    const running = new Set<Promise<void>>();
    try {
      for (;;) {
        let exhausted = false;
        let seen = wakeups;
        while (keepGoing()) {
          const queues = openQueues();
          if (queues.length === 0) break;
          seen = wakeups;
          const row = await claim(queues);
          if (!row) {
            exhausted = true;
            break;
          }
          count++;
          inFlight.set(row.queue, (inFlight.get(row.queue) ?? 0) + 1);
          const task: Promise<void> = run(row)
            .catch((error: unknown) => log(`jobs: recording the outcome of job ${row.id} failed`, error))
            .finally(() => {
              inFlight.set(row.queue, (inFlight.get(row.queue) ?? 1) - 1);
              running.delete(task);
            });
          running.add(task);
        }
        if (running.size === 0) break;
        // A job enqueued while the last claim was on its way: claim again rather than wait for it.
        if (exhausted && wakeups !== seen && keepGoing()) continue;
        // Wait for a slot to free up, or (when the queue was empty) for a wake-up.
        const woken = new Promise<void>((resolve) => {
          nudge = resolve;
        });
        await Promise.race(exhausted && keepGoing() ? [...running, woken] : [...running]);
        nudge = undefined;
        if (keepGoing() && Date.now() - lastReclaim >= RECLAIM_EVERY_MS) {
          lastReclaim = Date.now();
          await reclaimStale();
        }
      }
    } finally {
      // A claim that failed (database gone?) still lets the jobs already started finish.
      await Promise.allSettled(running);
      nudge = undefined;
    }
    return count;
  }

  /** Runs every due job now (tests, command-line tools); returns how many ran. */
  function drain(): Promise<number> {
    return processDue(() => true);
  }

  // The background worker: one pass at a time, started by the poll timer or by wake().
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let timerDue = Number.POSITIVE_INFINITY;
  let pass: Promise<void> | undefined;
  let wokenDuringPass = false;

  /** Runs a pass after `delayMs`, unless one is already scheduled sooner. */
  function schedule(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (timer && due >= timerDue) return;
    clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(() => {
      timer = undefined;
      timerDue = Number.POSITIVE_INFINITY;
      runPass();
    }, delayMs);
    // The worker alone must not keep the process alive (tests, scripts).
    timer.unref();
  }

  function runPass(): void {
    if (!started) return;
    if (pass) {
      wokenDuringPass = true;
      wakeups++;
      nudge?.();
      return;
    }
    pass = (async () => {
      do {
        wokenDuringPass = false;
        try {
          await processDue(() => started);
        } catch (error) {
          log("jobs: polling failed", error);
        }
      } while (wokenDuringPass && started);
    })().finally(() => {
      pass = undefined;
      if (started) schedule(wokenDuringPass ? 0 : pollMs);
    });
  }

  /** Looks for due jobs after `delayMs` instead of at the next poll. */
  function wake(delayMs = 0): void {
    if (!started) return;
    if (pass && delayMs === 0) {
      wokenDuringPass = true;
      wakeups++;
      nudge?.();
    } else schedule(delayMs);
  }

  function start(): void {
    if (started) return;
    started = true;
    schedule(0);
  }

  /** Stops polling and waits for the jobs in progress, if any, to finish. */
  async function stop(): Promise<void> {
    started = false;
    clearTimeout(timer);
    timer = undefined;
    timerDue = Number.POSITIVE_INFINITY;
    nudge?.();
    await pass;
  }

  /**
   * The queue at a glance (the admin dashboard): jobs waiting (due or later), running, and failed
   * in the last `failedWithinMs` (default a day), per queue.
   */
  async function stats(failedWithinMs = 24 * 3_600_000): Promise<{
    pending: number;
    running: number;
    failed: number;
    byQueue: { queue: string; pending: number; running: number; failed: number }[];
  }> {
    const list = await queryRows<{ queue: string; pending: number; running: number; failed: number }>(
      db,
      sql`SELECT queue,
                 count(*) FILTER (WHERE status = 'pending')::int AS pending,
                 count(*) FILTER (WHERE status = 'running')::int AS running,
                 count(*) FILTER (WHERE status = 'failed' AND finished_at >= ${later(-failedWithinMs)})::int AS failed
          FROM jobs WHERE status IN ('pending', 'running', 'failed')
          GROUP BY queue ORDER BY queue`,
    );
    const byQueue = list
      .map((r) => ({
        queue: r.queue,
        pending: Number(r.pending),
        running: Number(r.running),
        failed: Number(r.failed),
      }))
      .filter((r) => r.pending + r.running + r.failed > 0);
    const sum = (key: "pending" | "running" | "failed") => byQueue.reduce((total, r) => total + r[key], 0);
    return { pending: sum("pending"), running: sum("running"), failed: sum("failed"), byQueue };
  }

  /** Jobs of a queue waiting or running: a recurring job schedules its next run only when none is. */
  async function active(queue: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM jobs WHERE queue = ${queue} AND status IN ('pending', 'running')`,
    );
    return Number(row?.n ?? 0);
  }

  return { enqueue, register, start, stop, drain, wake, active, stats };
}
