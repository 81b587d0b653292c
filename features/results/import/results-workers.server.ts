/**
 * Results files are read in worker threads like GPX uploads (decisions 018, 044): the pool of
 * worker-pool.server.ts runs file-task.server.ts, one worker on a 2-core machine, at a lower
 * priority than the event loop, eight tasks waiting at most (503 SERVER_BUSY beyond), a minute per
 * task. A 60,000-line XLSX takes seconds of CPU to read: the event loop never carries it.
 */
import { GPX_WORKER_DEFAULTS } from "../../tracks/gpx-workers.server.ts";
import { createWorkerPool, transferable, type WorkerPoolOptions } from "../../tracks/worker-pool.server.ts";
import type { ColumnMapping } from "./columns.ts";
import type { CheckedFile, ReadFile, Refused, ResultsFileTask } from "./file-task.server.ts";

/** The GPX uploads' settings (decision 018), with this task and more heap for the largest XLSX. */
export const RESULTS_WORKER_DEFAULTS = {
  ...GPX_WORKER_DEFAULTS,
  module: new URL("./file-task.server.ts", import.meta.url),
  exportName: "resultsFileTask",
  // The largest XLSX allowed (XLSX_MAX_UNPACKED_BYTES) is read well within it.
  resourceLimits: { maxOldGenerationSizeMb: 768 },
} satisfies WorkerPoolOptions;

export function createResultsWorkers(options: Partial<WorkerPoolOptions> = {}) {
  const pool = createWorkerPool<ResultsFileTask, ReadFile | CheckedFile | Refused>({
    ...RESULTS_WORKER_DEFAULTS,
    ...options,
  });
  return {
    /**
     * A file or a pasted text read into its grid, checked with the course's distance. A file's
     * bytes are handed over (`bytes` is unusable afterwards), copied only when they are a view.
     */
    read(source: { bytes: Uint8Array } | { text: string }, distanceM: number | null): Promise<ReadFile | Refused> {
      if ("text" in source) return pool.run({ kind: "read", source, distanceM }) as Promise<ReadFile | Refused>;
      const bytes = transferable(source.bytes);
      return pool.run({ kind: "read", source: { bytes }, distanceM }, [bytes.buffer]) as Promise<ReadFile | Refused>;
    },
    /** A kept grid's lines read again, with the organiser's mapping; `keepLines` for the import. */
    check(
      packedRows: string,
      options: { distanceM: number | null; mapping?: ColumnMapping; keepLines: boolean },
    ): Promise<CheckedFile> {
      return pool.run({ kind: "check", packedRows, ...options }) as Promise<CheckedFile>;
    },
    saturated: pool.saturated,
    stats: pool.stats,
    stop: pool.stop,
  };
}
export type ResultsWorkers = ReturnType<typeof createResultsWorkers>;

/** The process's pool (see gpx-workers.server.ts). */
export const resultsWorkers = createResultsWorkers();
