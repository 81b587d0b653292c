/**
 * Activity files are read in worker threads like course GPX files (decision 018): readActivityFile
 * (activity-files.ts) runs in a small pool of its own, the bytes handed over without a copy.
 */
import os from "node:os";
import { ApiError } from "../../shared/api-error.ts";
import { TRACK_MAX_BYTES } from "../tracks/track-processing.ts";
import { createWorkerPool, type WorkerPoolOptions } from "../tracks/worker-pool.server.ts";
import type { ActivityFileInput, ReadActivityFile } from "./activity-files.ts";

export const ACTIVITY_WORKER_DEFAULTS = {
  module: new URL("./activity-files.ts", import.meta.url),
  exportName: "readActivityFile",
  threads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  // One upload may carry ten files.
  maxQueue: 20,
  taskTimeoutMs: 60_000,
  idleTimeoutMs: 60_000,
  niceIncrement: 10,
  resourceLimits: { maxOldGenerationSizeMb: 512 },
} satisfies WorkerPoolOptions;

export function createActivityWorkers(options: Partial<WorkerPoolOptions> = {}) {
  const pool = createWorkerPool<ActivityFileInput, ReadActivityFile>({ ...ACTIVITY_WORKER_DEFAULTS, ...options });
  return {
    /** The file read in a worker; throws what readActivityFile throws, or SERVER_BUSY. */
    read(bytes: Uint8Array, fileName: string | null): Promise<ReadActivityFile> {
      if (bytes.length > TRACK_MAX_BYTES) return Promise.reject(new ApiError("ACTIVITY_FILE_TOO_LARGE"));
      const owned = new Uint8Array(bytes);
      return pool.run({ bytes: owned, fileName }, [owned.buffer]);
    },
    saturated: pool.saturated,
    stop: pool.stop,
  };
}

/** The process's pool (see gpx-workers.server.ts). */
export const activityWorkers = createActivityWorkers();
