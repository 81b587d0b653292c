/**
 * A small closed-loop HTTP load generator: `concurrency` clients on keep-alive connections, each
 * sending its next request as soon as the previous answer is read, for a fixed time; or, with
 * `ratePerSecond`, an open-loop probe sending requests at a fixed rate. It runs in a
 * worker thread (bench/load-worker.ts) so that the clients do not share the server's event loop.
 * Every loop is bounded by a deadline, a request count and a per-request timeout.
 */
import http from "node:http";
import { Worker } from "node:worker_threads";

export type LoadOptions = {
  /** Absolute http:// URL; only 127.0.0.1 is accepted. */
  url: string;
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  /** Upper bound on measured requests (the latency buffer is this long). */
  maxRequests?: number;
  /** A request taking longer than this counts as an error. */
  timeoutMs?: number;
  /** Request headers (a session cookie, Accept-Encoding…). */
  headers?: Record<string, string>;
  /**
   * Open loop: requests are sent at this rate whatever the answers, and each one's latency counts
   * from the moment it was due, so a server that stalls shows in every request it delays (a closed
   * loop sends fewer requests while the server stalls, and its percentiles hide the stall).
   * `concurrency` then bounds the connections.
   */
  ratePerSecond?: number;
  /**
   * A mix of paths on `url`'s origin, taken in turn (request n asks for paths[n % length]) instead
   * of `url`'s own path; the result then has figures per path too.
   */
  paths?: string[];
};

export type PathFigures = {
  path: string;
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  latencyMs: { median: number; p99: number; max: number };
};

export type LoadResult = {
  url: string;
  concurrency: number;
  durationMs: number;
  /** Wall time from the first request to the last answer of the measured phase. */
  elapsedMs: number;
  requests: number;
  /** Answers other than 200 and transport errors or timeouts. */
  errors: number;
  statuses: Record<string, number>;
  requestsPerSecond: number;
  bytesPerSecond: number;
  latencyMs: { min: number; median: number; p95: number; p99: number; max: number; mean: number };
  /** With `paths`: each path's figures. */
  perPath?: PathFigures[];
};

const DEFAULT_MAX_REQUESTS = 2_000_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return percentile(sorted, 50);
}

function checkUrl(url: string): void {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" || parsed.hostname !== "127.0.0.1") {
    throw new Error(`The load generator only talks to http://127.0.0.1 (got ${url})`);
  }
}

/** Runs one warm-up phase then one measured phase, in the calling thread. Used by the worker. */
export async function generateLoad(options: LoadOptions): Promise<LoadResult> {
  checkUrl(options.url);
  const concurrency = Math.max(1, Math.min(256, Math.floor(options.concurrency)));
  const maxRequests = Math.max(1, options.maxRequests ?? DEFAULT_MAX_REQUESTS);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const target = new URL(options.url);
  const paths = options.paths?.length ? options.paths : [`${target.pathname}${target.search}`];
  let nextPath = 0;

  const once = (path: string) =>
    new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const request = http.get(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path,
          headers: options.headers,
        },
        (response) => {
          let bytes = 0;
          response.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
          response.on("error", reject);
        },
      );
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`timeout after ${timeoutMs} ms`)));
      request.on("error", reject);
    });

  const latencies = new Float64Array(maxRequests);
  const pathOf = new Uint16Array(maxRequests);
  const perPath = paths.map((path) => ({ path, requests: 0, errors: 0, statuses: {} as Record<string, number> }));
  const statuses: Record<string, number> = {};
  let count = 0;
  let errors = 0;
  let bytes = 0;

  const measureOne = async (due: number, record: boolean) => {
    let status = "error";
    let size = 0;
    const pathIndex = nextPath++ % paths.length;
    try {
      const answer = await once(paths[pathIndex]);
      status = String(answer.status);
      size = answer.bytes;
    } catch {
      // counted below as an error
    }
    if (!record) return;
    const took = performance.now() - due;
    statuses[status] = (statuses[status] ?? 0) + 1;
    const mine = perPath[pathIndex];
    mine.requests++;
    mine.statuses[status] = (mine.statuses[status] ?? 0) + 1;
    if (status !== "200") {
      errors++;
      mine.errors++;
    }
    bytes += size;
    if (count < maxRequests) {
      pathOf[count] = pathIndex;
      latencies[count++] = took;
    }
  };

  const openPhase = async (ms: number, record: boolean, rate: number) => {
    const started = performance.now();
    const interval = 1000 / rate;
    const pending = new Set<Promise<void>>();
    const budget = Math.min(maxRequests, Math.ceil((ms / 1000) * rate));
    for (let k = 0; k < budget; k++) {
      const due = started + k * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const request = measureOne(due, record);
      pending.add(request);
      void request.finally(() => pending.delete(request));
    }
    await Promise.all(pending);
    return performance.now() - started;
  };

  const phase = async (ms: number, record: boolean) => {
    if (options.ratePerSecond) return openPhase(ms, record, options.ratePerSecond);
    const deadline = performance.now() + ms;
    let budget = record ? maxRequests : Math.min(maxRequests, 1_000_000);
    const client = async () => {
      while (performance.now() < deadline && budget > 0) {
        budget--;
        await measureOne(performance.now(), record);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, client));
    return performance.now() - started;
  };

  try {
    if (options.warmupMs > 0) await phase(options.warmupMs, false);
    const elapsedMs = await phase(options.durationMs, true);
    const byPath = paths.map(() => [] as number[]);
    for (let i = 0; i < count; i++) byPath[pathOf[i]].push(latencies[i]);
    const sorted = latencies.subarray(0, count).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    return {
      url: options.url,
      concurrency,
      durationMs: options.durationMs,
      elapsedMs,
      requests: count,
      errors,
      statuses,
      requestsPerSecond: count / (elapsedMs / 1000),
      bytesPerSecond: bytes / (elapsedMs / 1000),
      latencyMs: {
        min: sorted[0] ?? Number.NaN,
        median: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted[count - 1] ?? Number.NaN,
        mean: count ? sum / count : Number.NaN,
      },
      ...(options.paths?.length
        ? {
            perPath: perPath.map((figures, index) => {
              const own = byPath[index].sort((a, b) => a - b);
              return {
                ...figures,
                latencyMs: {
                  median: percentile(own, 50),
                  p99: percentile(own, 99),
                  max: own[own.length - 1] ?? Number.NaN,
                },
              };
            }),
          }
        : {}),
    };
  } finally {
    agent.destroy();
  }
}

/**
 * Worker threads do not inherit tsx's loader (Node 20), so the worker starts from a tiny ES module
 * that registers tsx's documented API (`tsx/esm/api`) and then imports bench/load-worker.ts.
 */
function workerEntry(): URL {
  const tsx = import.meta.resolve("tsx/esm/api");
  const entry = new URL("./load-worker.ts", import.meta.url).href;
  const code = `import { register } from ${JSON.stringify(tsx)};\nregister();\nawait import(${JSON.stringify(entry)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Runs the load in a worker thread, so the clients get their own event loop (and core). */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  checkUrl(options.url);
  const limit = options.warmupMs + options.durationMs + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 30_000;
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerEntry(), { workerData: options });
    let settled = false;
    const finish = (error: Error | null, result?: LoadResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      void worker.terminate();
      if (error) reject(error);
      else resolve(result!);
    };
    const guard = setTimeout(() => finish(new Error(`load on ${options.url} did not finish in ${limit} ms`)), limit);
    worker.once("message", (message: { result?: LoadResult; error?: string }) =>
      message.result ? finish(null, message.result) : finish(new Error(message.error ?? "load worker failed")),
    );
    worker.once("error", (error) => finish(error));
    worker.once("exit", (code) => finish(new Error(`load worker exited with code ${code} before answering`)));
  });
}
