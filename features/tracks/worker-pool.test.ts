/**
 * The worker pool and the GPX workers (decision 018), with real worker threads: each worker starts
 * from worker-entry.mjs, registers tsx and imports a TypeScript module, here under Vitest as under
 * `node --import tsx` (the last test). No timing is asserted: latency is the benchmark's business
 * (`npm run bench -- --only uploads`).
 */
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ApiError, apiErrorMessage } from "../../shared/api-error.ts";
import type { WorkerTestInput } from "../../tests/support/worker-task.ts";
import type { TrackPoint } from "../events/events.tables.ts";
import { toGpx } from "../events/gpx.ts";
import { createGpxWorkers } from "./gpx-workers.server.ts";
import { processGpx, TRACK_MAX_BYTES, TRACK_MAX_POINTS } from "./track-processing.ts";
import { createWorkerPool, type WorkerPoolOptions } from "./worker-pool.server.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pools: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.stop()));
});

function testPool(options: Partial<WorkerPoolOptions> = {}) {
  const pool = createWorkerPool<WorkerTestInput, unknown>({
    module: new URL("../../tests/support/worker-task.ts", import.meta.url),
    exportName: "run",
    threads: 1,
    maxQueue: 4,
    taskTimeoutMs: 60_000,
    idleTimeoutMs: 60_000,
    niceIncrement: 0,
    ...options,
  });
  pools.push(pool);
  return pool;
}

function gpxWorkersForTest() {
  const workers = createGpxWorkers({ threads: 1 });
  pools.push(workers);
  return workers;
}

/** A wandering track of `count` points with elevations, as a GPX file. */
function wanderingGpx(count: number): Buffer {
  const points: TrackPoint[] = [];
  let lat = 45.9;
  let lng = 6.8;
  for (let i = 0; i < count; i++) {
    lat += Math.cos(i / 50) * 0.00005;
    lng += Math.sin(i / 70) * 0.00007;
    points.push([
      Number(lng.toFixed(6)),
      Number(lat.toFixed(6)),
      Math.round((1000 + 300 * Math.sin(i / 400)) * 10) / 10,
    ]);
  }
  return Buffer.from(toGpx({ name: "Tour du lac", points }));
}

const rejection = async (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe("GPX workers", () => {
  it("process a file in a worker thread exactly as in place, the bytes handed over rather than copied", async () => {
    const workers = gpxWorkersForTest();
    const file = wanderingGpx(20_000);
    const expected = processGpx(file);
    const bytes = new Uint8Array(file);
    const track = await workers.process(bytes);
    expect(track).toEqual(expected);
    expect(track.pointCount).toBe(20_000);
    expect(bytes.byteLength).toBe(0);
    expect(workers.stats()).toMatchObject({ started: 1, completed: 1, failed: 0, queued: 0, busy: 0 });
  });

  it("send back the worker's ApiError as the same code, field and status", async () => {
    const workers = gpxWorkersForTest();
    const invalid = await rejection(workers.process(Buffer.from('<?xml version="1.0"?><gpx><trk><trkseg>')));
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ code: "GPX_INVALID", field: "file", status: 400 });

    const empty = await rejection(workers.process(Buffer.from('<gpx version="1.1"><trk><trkseg/></trk></gpx>')));
    expect(empty).toMatchObject({ code: "GPX_EMPTY", status: 400 });

    const point = '<trkpt lat="45" lon="6"/>';
    const crowded = Buffer.from(
      `<gpx version="1.1"><trk><trkseg>${point.repeat(TRACK_MAX_POINTS + 1)}</trkseg></trk></gpx>`,
    );
    expect(crowded.length).toBeLessThan(TRACK_MAX_BYTES);
    const tooMany = await rejection(workers.process(crowded));
    expect(tooMany).toBeInstanceOf(ApiError);
    expect(tooMany).toMatchObject({ code: "GPX_TOO_LARGE", field: "file", status: 413 });
    expect(workers.stats()).toMatchObject({ completed: 0, failed: 3 });
  });

  it("refuse a file over the byte limit on the main thread, before any worker", async () => {
    const workers = gpxWorkersForTest();
    const error = await rejection(workers.process(new Uint8Array(TRACK_MAX_BYTES + 1)));
    expect(error).toMatchObject({ code: "GPX_TOO_LARGE", status: 413 });
    expect(workers.stats().started).toBe(0);
  });

  it("say both limits in the message, in both languages", () => {
    const thousands = (n: number, separator: string) => String(n).replace(/\B(?=(\d{3})+$)/g, separator);
    const megabytes = TRACK_MAX_BYTES / 1024 / 1024;
    expect(apiErrorMessage("GPX_TOO_LARGE", "fr")).toContain(
      `${megabytes} Mo et ${thousands(TRACK_MAX_POINTS, " ")} points`,
    );
    expect(apiErrorMessage("GPX_TOO_LARGE", "en")).toContain(
      `${megabytes} MB and ${thousands(TRACK_MAX_POINTS, ",")} points`,
    );
  });
});

describe("worker pool", () => {
  it("runs `threads` tasks at once, keeps `maxQueue` waiting and refuses more with SERVER_BUSY", async () => {
    const pool = testPool({ threads: 1, maxQueue: 1 });
    const first = pool.run({ op: "spin", ms: 200 });
    const second = pool.run({ op: "echo", value: "second" });
    expect(pool.saturated()).toBe(true);
    const third = await rejection(pool.run({ op: "echo", value: "third" }));
    expect(third).toMatchObject({ code: "SERVER_BUSY", status: 503 });
    expect(await first).toBe("spun");
    expect(await second).toBe("second");
    expect(pool.saturated()).toBe(false);
    expect(pool.stats()).toMatchObject({ threads: 1, started: 1, completed: 2 });
  });

  it("gives up on a task past its time limit, stops its worker and serves the next task with a new one", async () => {
    const pool = testPool({ taskTimeoutMs: 300 });
    const stuck = await rejection(pool.run({ op: "spin", ms: 60_000 }));
    expect(stuck).toMatchObject({ code: "SERVER_BUSY" });
    expect(await pool.run({ op: "echo", value: 42 })).toBe(42);
    expect(pool.stats()).toMatchObject({ started: 2, completed: 1, failed: 1 });
  });

  it("fails the task of a worker that dies, and carries on", async () => {
    const pool = testPool();
    const died = await rejection(pool.run({ op: "exit" }));
    expect(died).toBeInstanceOf(Error);
    expect(died).not.toBeInstanceOf(ApiError);
    expect(await pool.run({ op: "echo", value: "after" })).toBe("after");
  });

  it("passes other errors on as plain errors (a 500, logged), ApiErrors as themselves", async () => {
    const pool = testPool();
    const plain = await rejection(pool.run({ op: "throw" }));
    expect(plain).not.toBeInstanceOf(ApiError);
    expect((plain as Error).message).toBe("not an ApiError");
    expect(await rejection(pool.run({ op: "throw-api" }))).toMatchObject({ code: "GPX_EMPTY" });
    expect(await pool.run({ op: "echo", value: [1, { a: 2 }] })).toEqual([1, { a: 2 }]);
  });

  it("refuses the waiting tasks when its module cannot be loaded", async () => {
    const pool = testPool({ exportName: "missing" });
    const errors = await Promise.all([
      rejection(pool.run({ op: "echo", value: 1 })),
      rejection(pool.run({ op: "echo", value: 2 })),
    ]);
    for (const error of errors) expect((error as Error).message).toMatch(/has no function missing/);
  });

  it.runIf(process.platform === "linux")(
    "runs its workers at a lower priority than the event loop's thread",
    async () => {
      const before = os.getPriority(process.pid);
      const pool = testPool({ niceIncrement: 10 });
      expect(await pool.run({ op: "nice" })).toBe(Math.min(19, os.getPriority() + 10));
      // Only the worker's thread: the process's main thread is left as it was.
      expect(os.getPriority(process.pid)).toBe(before);
    },
  );

  it("works in a server started as npm start starts it (node --import tsx)", () => {
    const gpx = wanderingGpx(500).toString();
    const script = `
      import { createGpxWorkers } from "./features/tracks/gpx-workers.server.ts";
      const workers = createGpxWorkers({ threads: 1 });
      const track = await workers.process(Buffer.from(${JSON.stringify(gpx)}));
      console.log(JSON.stringify({ track, stats: workers.stats() }));
      await workers.stop();
    `;
    const result = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    expect(answer.track).toEqual(JSON.parse(JSON.stringify(processGpx(gpx))));
    expect(answer.stats).toMatchObject({ started: 1, completed: 1 });
  });
});
