/**
 * Decoding, resizing and encoding images, one job at a time per process (decision 018).
 *
 * sharp does not run on the event loop: each call is a task on libuv's thread pool, where libvips
 * does the work (one call at a time adds at most 5 ms of event-loop delay here). What it takes is
 * that pool's 4 threads, shared with every file read and write (the uploads folder, static files),
 * zlib (compressed responses) and crypto, and the cores: four photo uploads at once, renditions in
 * parallel, held an `fs.stat` for up to 2.2 s and the event loop for up to 1.7 s on 2 cores, against
 * under 0.1 s through this gate for about the same total time. So image work goes through it: one
 * job at a time, at most 16 waiting, SERVER_BUSY (503) beyond. A waiting job costs its buffer only.
 */
import { ApiError } from "../../shared/api-error.ts";

export function createWorkGate(options: { concurrency: number; maxQueue: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    /** Runs `job` when a place is free; SERVER_BUSY at once when too many already wait. */
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (running < options.concurrency) running++;
      else if (waiting.length >= options.maxQueue) throw new ApiError("SERVER_BUSY");
      // A place is handed over by the job that leaves it (running stays as it is).
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await job();
      } finally {
        const wake = waiting.shift();
        if (wake) wake();
        else running--;
      }
    },
    /** Every place is taken and the queue is full: a new job would be refused. */
    saturated: () => running >= options.concurrency && waiting.length >= options.maxQueue,
    stats: () => ({ running, waiting: waiting.length }),
  };
}

/** The process's gate for sharp work (uploads, profile photos, thumbnails). */
export const imageWork = createWorkGate({ concurrency: 1, maxQueue: 16 });
