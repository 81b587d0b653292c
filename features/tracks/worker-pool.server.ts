/**
 * A small bounded pool of worker threads for CPU-bound work that must not run on the event loop
 * (decision 018): a 12.6 MB GPX took 0.5–2.5 s of blocking CPU in the request, and two members
 * uploading in a loop held every other request of the server behind it.
 *
 * - At most `threads` workers, started on demand and stopped after `idleTimeoutMs` without work
 *   (a worker costs about 0.3 s to start and its heap afterwards).
 * - At most `maxQueue` tasks waiting; beyond, `run` refuses with SERVER_BUSY (503) at once, and
 *   `saturated()` lets a route refuse before it reads an upload's body.
 * - A task has `taskTimeoutMs` from the moment a started worker takes it: past it the worker is
 *   terminated (it may be stuck in a loop) and the task answers SERVER_BUSY. A worker that dies
 *   (out of memory under `resourceLimits`, a crash) fails its task with a plain error (500, logged)
 *   and the next task starts a new one; a worker whose module does not load fails what waits.
 * - Workers run `niceIncrement` lower in priority on Linux (worker-entry.mjs), so that on a busy
 *   machine the event loop's thread gets the CPU first.
 *
 * Errors thrown in a worker come back as the same ApiError (code and field), so the answer and its
 * translated message are those of the same code thrown on the main thread.
 */
import { type ResourceLimits, type Transferable, Worker } from "node:worker_threads";
import { ApiError, isErrorCode } from "../../shared/api-error.ts";

export type WorkerPoolOptions = {
  /** The module each worker imports (a file URL; TypeScript is fine, see worker-entry.mjs). */
  module: URL;
  /** The function of that module a task calls with its input (its result is the task's value). */
  exportName: string;
  threads: number;
  maxQueue: number;
  taskTimeoutMs: number;
  idleTimeoutMs: number;
  /** Nice value added to the workers' threads on Linux (0: as the main thread, 19: lowest). */
  niceIncrement: number;
  resourceLimits?: ResourceLimits;
};

export type WorkerPoolStats = {
  /** Workers alive now (idle or busy). */
  threads: number;
  busy: number;
  queued: number;
  /** Workers started since the pool was made. */
  started: number;
  completed: number;
  failed: number;
};

type Task = {
  input: unknown;
  transfer: Transferable[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};

type Slot = {
  worker: Worker;
  /** The worker has imported its module and takes tasks. */
  ready: boolean;
  task: Task | null;
  timeout?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
};

type WorkerMessage =
  | { ready: true }
  | { ok: true; value: unknown }
  | { ok: false; error: { code?: string; field?: string; message: string; stack?: string } };

const ENTRY = new URL("./worker-entry.mjs", import.meta.url);

/** The error a worker reported, as the ApiError it was when it carries a catalogue code. */
function rebuildError(error: { code?: string; field?: string; message: string; stack?: string }): Error {
  if (error.code && isErrorCode(error.code)) return new ApiError(error.code, { field: error.field });
  const rebuilt = new Error(error.message);
  if (error.stack) rebuilt.stack = `${error.stack}\n    (in a worker thread)`;
  return rebuilt;
}

/**
 * The bytes as a Uint8Array that owns its whole buffer, so it can be transferred (not copied): a
 * file read into one buffer already does; a view into a larger one is copied.
 */
export function transferable(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const owned =
    data.byteOffset === 0 && data.buffer instanceof ArrayBuffer && data.byteLength === data.buffer.byteLength;
  return owned ? new Uint8Array(data.buffer as ArrayBuffer) : new Uint8Array(data);
}

export function createWorkerPool<In, Out>(options: WorkerPoolOptions) {
  const slots = new Set<Slot>();
  const queue: Task[] = [];
  const stats = { started: 0, completed: 0, failed: 0 };

  function spawn(): Slot {
    const worker = new Worker(ENTRY, {
      workerData: { module: options.module.href, exportName: options.exportName, niceIncrement: options.niceIncrement },
      // Nothing inherited from the server's command line (`--import tsx` among others): the entry
      // registers what it needs itself.
      execArgv: [],
      resourceLimits: options.resourceLimits,
    });
    stats.started++;
    const slot: Slot = { worker, ready: false, task: null };
    worker.on("message", (message: WorkerMessage) => {
      if ("ready" in message) {
        slot.ready = true;
        dispatch();
        return;
      }
      const task = slot.task;
      if (!task) return;
      settle(slot);
      if (message.ok) {
        stats.completed++;
        task.resolve(message.value);
      } else {
        stats.failed++;
        task.reject(rebuildError(message.error));
      }
      dispatch();
    });
    const lost = (error: Error) => {
      if (!slots.delete(slot)) return;
      clearTimeout(slot.idle);
      const task = slot.task;
      settle(slot);
      if (task) {
        stats.failed++;
        task.reject(error);
      }
      // A worker that could not even start (its module does not load) would fail every task the
      // same way: what waits is refused rather than started again and again.
      if (!slot.ready && ![...slots].some((s) => s.ready)) {
        for (const waiting of queue.splice(0)) {
          stats.failed++;
          waiting.reject(error);
        }
      }
      dispatch();
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`worker thread stopped (exit code ${code})`)));
    slots.add(slot);
    return slot;
  }

  /** The slot's task is over: its timer goes, and the idle worker keeps the process alive no more. */
  function settle(slot: Slot) {
    clearTimeout(slot.timeout);
    slot.task = null;
    slot.worker.unref();
  }

  function start(slot: Slot, task: Task) {
    clearTimeout(slot.idle);
    slot.idle = undefined;
    slot.task = task;
    slot.worker.ref();
    // The time limit counts from the moment a started worker gets the task.
    slot.timeout = setTimeout(() => {
      if (slot.task !== task) return;
      slots.delete(slot);
      settle(slot);
      stats.failed++;
      task.reject(new ApiError("SERVER_BUSY", { details: { reason: "worker task timeout" } }));
      void slot.worker.terminate();
      dispatch();
    }, options.taskTimeoutMs);
    slot.worker.postMessage(task.input, task.transfer);
  }

  function dispatch() {
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (slot.ready && slot.task === null) start(slot, queue.shift()!);
    }
    // Workers to start: one per waiting task, within the limit, counting those already starting.
    const starting = [...slots].filter((s) => !s.ready).length;
    for (let n = Math.min(queue.length - starting, options.threads - slots.size); n > 0; n--) spawn();
    for (const slot of slots) {
      if (!slot.ready || slot.task !== null || slot.idle) continue;
      slot.idle = setTimeout(() => {
        if (slot.task !== null) return;
        slots.delete(slot);
        void slot.worker.terminate();
      }, options.idleTimeoutMs);
      slot.idle.unref();
    }
  }

  /** Tasks running or waiting. */
  const inFlight = () => queue.length + [...slots].filter((s) => s.task !== null).length;

  /** `threads` tasks run and `maxQueue` wait: a new task would be refused. */
  function saturated(): boolean {
    return inFlight() >= options.threads + options.maxQueue;
  }

  return {
    /** Runs one task in a worker; `transfer` lists buffers handed over (and detached here). */
    run(input: In, transfer: Transferable[] = []): Promise<Out> {
      if (saturated()) return Promise.reject(new ApiError("SERVER_BUSY", { details: { queued: queue.length } }));
      return new Promise<Out>((resolve, reject) => {
        queue.push({ input, transfer, resolve: resolve as (value: unknown) => void, reject });
        dispatch();
      });
    },

    saturated,

    stats(): WorkerPoolStats {
      return {
        threads: slots.size,
        busy: [...slots].filter((s) => s.task !== null).length,
        queued: queue.length,
        ...stats,
      };
    },

    /**
     * Stops every worker, failing the tasks running or waiting (server shutdown). The pool stays
     * usable: a later task starts a new worker.
     */
    async stop(): Promise<void> {
      const stopped = () => new Error("worker pool stopped");
      for (const task of queue.splice(0)) task.reject(stopped());
      const all = [...slots];
      slots.clear();
      for (const slot of all) {
        clearTimeout(slot.idle);
        const task = slot.task;
        settle(slot);
        task?.reject(stopped());
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()));
    },
  };
}
export type WorkerPool<In, Out> = ReturnType<typeof createWorkerPool<In, Out>>;
