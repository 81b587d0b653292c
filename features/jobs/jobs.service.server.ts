import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.server.ts";

/**
 * A small job queue in the `jobs` table (decision 009). Jobs are claimed one at a time with
 * `FOR UPDATE SKIP LOCKED`, so any number of workers — in one process or in several server
 * instances against one PostgreSQL — never run the same job twice. Delivery is at least once: a
 * job whose process died while running it is run again, so handlers should be idempotent.
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
};

/** A transaction opened with `db.transaction()`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type JobHandler<P = unknown> = (payload: P, job: JobInfo) => Promise<void>;

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
  log?: (message: string, error?: unknown) => void;
};

export type JobQueue = ReturnType<typeof createJobQueue>;

/** A job still `running` after this long belongs to a process that died: it is run again. */
export const STALE_AFTER_MS = 10 * 60_000;
/** How often a running job refreshes `locked_at`, so long jobs are not mistaken for stale ones. */
const HEARTBEAT_MS = 60_000;
/** Finished jobs are kept this long for inspection, then deleted: done ones a week, failed a month. */
export const KEEP_DONE_MS = 7 * 24 * 3_600_000;
export const KEEP_FAILED_MS = 30 * 24 * 3_600_000;
const PURGE_EVERY_MS = 3_600_000;
/** A job enqueued in a caller's transaction is visible only after commit: wake a bit later. */
const TX_WAKE_DELAY_MS = 100;

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
  const { clock, pollMs = 1000, log = () => {} } = options;
  const handlers = new Map<string, JobHandler>();

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

  function register<P>(queue: string, handler: JobHandler<P>): void {
    handlers.set(queue, handler as JobHandler);
  }

  /** Puts jobs of crashed processes back in line, or fails them when they have no attempt left. */
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

  /** Takes the next due job of a queue this process handles, or null. */
  async function claim(): Promise<JobRow | null> {
    const queues = [...handlers.keys()];
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
    const job: JobInfo = {
      id: Number(row.id),
      queue: row.queue,
      attempts: row.attempts,
      maxAttempts: row.max_attempts,
      runAt: new Date(row.run_at),
      createdAt: new Date(row.created_at),
    };
    const handler = handlers.get(job.queue)!;
    const heartbeat = setInterval(() => {
      db.execute(sql`UPDATE jobs SET locked_at = ${now()} WHERE id = ${job.id} AND status = 'running'`).catch(
        (error: unknown) => log(`jobs: heartbeat of job ${job.id} failed`, error),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    let failure: { error: unknown } | undefined;
    try {
      await handler(row.payload, job);
    } catch (error) {
      failure = { error };
    } finally {
      clearInterval(heartbeat);
    }
    if (!failure) {
      // Payloads may carry secrets (codes, reset links): nothing of them is kept once done.
      await db.execute(
        sql`UPDATE jobs SET status = 'done', finished_at = ${now()}, locked_at = NULL, last_error = NULL,
              payload = '{}'::jsonb
            WHERE id = ${job.id}`,
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
              WHERE id = ${job.id}`
        : // A job that gave up keeps no secrets either (codes, links): only its error stays.
          sql`UPDATE jobs SET status = 'failed', locked_at = NULL, last_error = ${lastError}, finished_at = ${now()},
                payload = '{}'::jsonb
              WHERE id = ${job.id}`,
    );
  }

  /** Claims and runs due jobs one after the other while `keepGoing()` holds; returns how many ran. */
  async function processDue(keepGoing: () => boolean): Promise<number> {
    await reclaimStale();
    await purgeFinished();
    let count = 0;
    while (keepGoing()) {
      const row = await claim();
      if (!row) break;
      await run(row);
      count++;
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
    if (pass && delayMs === 0) wokenDuringPass = true;
    else schedule(delayMs);
  }

  function start(): void {
    if (started) return;
    started = true;
    schedule(0);
  }

  /** Stops polling and waits for the job in progress, if any, to finish. */
  async function stop(): Promise<void> {
    started = false;
    clearTimeout(timer);
    timer = undefined;
    timerDue = Number.POSITIVE_INFINITY;
    await pass;
  }

  /** Jobs of a queue waiting or running: a recurring job schedules its next run only when none is. */
  async function active(queue: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM jobs WHERE queue = ${queue} AND status IN ('pending', 'running')`,
    );
    return Number(row?.n ?? 0);
  }

  return { enqueue, register, start, stop, drain, wake, active };
}
