/**
 * Answers that must not tell, by their timing, which of two paths a request took ("this address
 * has an account" or not). Both paths already do the same expensive work (the password hash, a
 * transaction, one mail queued); what is left is the rows only one of them writes, a few
 * milliseconds. So the lighter path, once its work is done, waits for the difference between the
 * two paths' recent median durations: its times are the same distribution shifted onto the other
 * one's, and the shift follows the machine and its load by itself (timers that fire late under
 * load included). Nothing waits until both paths have been measured.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

export type EqualTiming = {
  /** The heavier path took `ms`. */
  record(ms: number): void;
  /** The lighter path, started at `startedAt` (performance.now()), waits to look like the other. */
  pad(startedAt: number): Promise<void>;
};

/** Recent durations kept per path: enough for a steady median, few enough to follow the load. */
const WINDOW = 51;

function recentDurations() {
  const values: number[] = [];
  let next = 0;
  return {
    add(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) return;
      if (values.length < WINDOW) values.push(ms);
      else values[next] = ms;
      next = (next + 1) % WINDOW;
    },
    median(): number | undefined {
      if (values.length === 0) return undefined;
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)];
    },
  };
}

/**
 * Route hooks that even out a route's two paths, measured from routing (`onRequest`) to the
 * serialised answer (`onSend`), so the answer's own cost (a session cookie, a larger body) counts.
 * `classify` tells which path an answer took, or null for answers that are not compared (a
 * refused body, a rate limit).
 */
export function equalTimingHooks(
  classify: (request: FastifyRequest, reply: FastifyReply) => "heavy" | "light" | null,
  options: Parameters<typeof equalTiming>[0] = {},
) {
  const timing = equalTiming(options);
  const now = options.now ?? (() => performance.now());
  const started = new WeakMap<FastifyRequest, number>();
  return {
    onRequest: async (request: FastifyRequest) => {
      started.set(request, now());
    },
    onSend: async <T>(request: FastifyRequest, reply: FastifyReply, payload: T): Promise<T> => {
      const startedAt = started.get(request);
      if (startedAt === undefined) return payload;
      const path = classify(request, reply);
      if (path === "heavy") timing.record(now() - startedAt);
      else if (path === "light") await timing.pad(startedAt);
      return payload;
    },
  };
}

export function equalTiming(options: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}): EqualTiming {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const heavy = recentDurations();
  const light = recentDurations();
  // A busy event loop wakes a timer late: how late, lately, is taken off the next waits.
  const lateness = recentDurations();
  return {
    record(ms) {
      heavy.add(ms);
    },
    async pad(startedAt) {
      light.add(now() - startedAt);
      const heavyMedian = heavy.median();
      const lightMedian = light.median();
      if (heavyMedian === undefined || lightMedian === undefined) return;
      const wait = heavyMedian - lightMedian - (lateness.median() ?? 0);
      if (wait <= 0) return;
      const sleptFrom = now();
      await sleep(wait);
      lateness.add(now() - sleptFrom - wait);
    },
  };
}
