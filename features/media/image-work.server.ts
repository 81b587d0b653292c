/**
 * Decoding, resizing and encoding images, one job at a time per process (decision 015).
 *
 * sharp never blocks the event loop: each call is one task on libuv's thread pool, where libvips
 * does the work (measured: at most 5 ms of event-loop delay around a 24-megapixel JPEG's metadata
 * and resize). What it blocks is that pool, which it shares with every file read and write (the
 * uploads folder, static files), zlib (compressed responses) and crypto: libuv has 4 threads, a
 * photo upload takes two of them for 0.2–0.6 s (the 1600 px and 640 px renditions), and four
 * photos at once held an `fs.stat` for 1.5 s on this 2-core machine. So image work goes through
 * this gate: one job at a time, its steps one after the other, at most 16 waiting, SERVER_BUSY
 * (503) beyond. A job waiting here costs nothing but its buffer.
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
