/**
 * GPX uploads are read and analysed in worker threads (decision 018), never on the event loop:
 * `processGpx` (track-processing.ts) runs unchanged in a worker of a small pool, the file's bytes
 * handed over without a copy and the processed track (at most 1,500 points and a 200-sample
 * profile) sent back.
 *
 * One pool per process (`gpxWorkers`): one worker on a 2-core machine (the event loop keeps the
 * other core), two from three cores; eight uploads may wait; a worker runs at a lower priority than
 * the event loop (Linux) and gets 512 MB of heap at most.
 */
import os from "node:os";
import { ApiError } from "../../shared/api-error.ts";
import { type ProcessedTrack, TRACK_MAX_BYTES } from "./track-processing.ts";
import { createWorkerPool, transferable, type WorkerPoolOptions } from "./worker-pool.server.ts";

export const GPX_WORKER_DEFAULTS = {
  module: new URL("./track-processing.ts", import.meta.url),
  exportName: "processGpx",
  threads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  maxQueue: 8,
  taskTimeoutMs: 60_000,
  idleTimeoutMs: 60_000,
  niceIncrement: 10,
  resourceLimits: { maxOldGenerationSizeMb: 512 },
} satisfies WorkerPoolOptions;

export function createGpxWorkers(options: Partial<WorkerPoolOptions> = {}) {
  const pool = createWorkerPool<Uint8Array, ProcessedTrack>({ ...GPX_WORKER_DEFAULTS, ...options });
  return {
    /**
     * The processed track of a GPX file, computed in a worker. The bytes are handed over: `data`
     * is unusable afterwards. Throws what processGpx throws (GPX_INVALID, GPX_EMPTY, GPX_TOO_LARGE),
     * or SERVER_BUSY when the queue is full.
     */
    process(data: Uint8Array): Promise<ProcessedTrack> {
      if (data.length > TRACK_MAX_BYTES) return Promise.reject(new ApiError("GPX_TOO_LARGE"));
      const bytes = transferable(data);
      return pool.run(bytes, [bytes.buffer]);
    },
    saturated: pool.saturated,
    stats: pool.stats,
    stop: pool.stop,
  };
}
export type GpxWorkers = ReturnType<typeof createGpxWorkers>;

/**
 * The process's pool: the CPU it shares out is the machine's, whatever number of Fastify apps the
 * process builds (the API tests build one per file).
 */
export const gpxWorkers = createGpxWorkers();
