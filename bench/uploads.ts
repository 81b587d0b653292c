/**
 * The `uploads` part of `npm run bench` (issue 10, decision 018): does the server stay responsive
 * while members upload the heaviest GPX files it accepts?
 *
 * The server runs as `npm start` runs it (a child process, the production build, PGlite seeded with
 * the 3,200-event demo catalogue in a fresh data folder), with the page cache off
 * (`PAGE_CACHE_SECONDS=0`): every search page is rendered, in the idle phase as under load, and an
 * upload (a write) cannot make the loaded phase look slower by emptying a cache.
 *
 * 1. Idle: `/healthz`, then the search page `/?sport=trail`, each probed alone at a fixed rate (50
 *    and 5 requests a second, bench/load.ts's open loop, in a worker thread): each request's
 *    latency counts from when it was due, so a stall shows in every request it holds back.
 * 2. Loaded: two upload clients post the largest GPX allowed (made here, deterministic: 199,000
 *    points of the 200,000 allowed, about 14 MB of the 15 MB) to `POST /api/upload/track/0` in a
 *    loop, each as soon as its last answer came; once both have had an answer, the same two
 *    measures again; then the loops stop.
 *    Each client signs in as one of three verified members (registered through the API, verified
 *    with the code from the server's mail folder) and moves to the next when one has spent its
 *    hourly quota (429).
 *
 * Goal: `/healthz` p99 under 50 ms and the search page's median within 1.5× of its idle median
 * while the uploads run. With `--baseline <checkout>` the same is run against another checkout
 * first (the server before the change), then this one.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { TRACK_MAX_BYTES, TRACK_MAX_POINTS } from "../features/tracks/track-processing.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";
import { type LoadResult, median, runLoad } from "./load.ts";
import { gitCommit, type Running, start, stop } from "./pages.ts";

export const UPLOAD_CLIENTS = 2;
const MEMBERS_PER_CLIENT = 3;
const UPLOAD_TIMEOUT_MS = 120_000;
/** Goals of issue 10. */
export const HEALTHZ_P99_GOAL_MS = 50;
export const SEARCH_RATIO_GOAL = 1.5;

const SEARCH_PATH = "/?sport=trail";
/** Probe rates, requests per second. */
const HEALTHZ_RATE = 50;
const SEARCH_RATE = 5;

/**
 * The largest GPX the server accepts, deterministic: 199,000 track points wandering from 45.5°N
 * 6.5°E with elevations (a seeded generator), 7 decimals as watches write them: about 14 MB.
 */
export function largestGpx(points = 199_000): Buffer {
  let seed = 2026;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="dossard-bench" xmlns="http://www.topografix.com/GPX/1/1">\n',
    "<metadata><name>Bench: the heaviest track</name></metadata>\n<trk><trkseg>\n",
  ];
  let lat = 45.5;
  let lng = 6.5;
  let heading = 0;
  for (let i = 0; i < points; i++) {
    heading += (random() - 0.5) * 0.3;
    lat += Math.cos(heading) * 0.00002;
    lng += Math.sin(heading) * 0.00003;
    // Climbs and descents of a few hundred metres, with a GPS altitude's noise.
    const ele = 1200 + 600 * Math.sin(i / 4000) + 150 * Math.sin(i / 700) + (random() - 0.5) * 4;
    parts.push(`    <trkpt lat="${lat.toFixed(7)}" lon="${lng.toFixed(7)}"><ele>${ele.toFixed(2)}</ele></trkpt>\n`);
  }
  parts.push("</trkseg></trk>\n</gpx>\n");
  const file = Buffer.from(parts.join(""));
  if (file.length > TRACK_MAX_BYTES || points > TRACK_MAX_POINTS) throw new Error("the bench's GPX is over the limits");
  return file;
}

/** A multipart body: the fields first (in order), then the file. */
export function multipartBody(
  file: Buffer,
  name: string,
  fields: Record<string, string> = {},
  type = "application/gpx+xml",
): { payload: Buffer; contentType: string } {
  const boundary = "----dossard-bench-upload";
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([field, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

const writeHeaders = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };

/** The 5-digit code of the last message to `email` in the server's mail folder. */
async function mailedCode(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, "mail");
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith(".eml")) : [];
    for (const file of files.sort().reverse()) {
      const text = fs.readFileSync(path.join(outbox, file), "utf8");
      if (!text.includes(email)) continue;
      const code = text.match(/\b(\d{5})\b/)?.[1];
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${email}`);
}

/** A verified member's session cookie: registered through the API, verified with the mailed code. */
async function verifiedMember(origin: string, dataDir: string, n: number): Promise<string> {
  const email = `bench-upload-${n}-${Date.now()}@example.org`;
  const password = "Bench-password-2026";
  const registered = await fetch(`${origin}/api/register`, {
    method: "POST",
    headers: writeHeaders,
    body: JSON.stringify({
      email,
      password,
      passwordConfirmation: password,
      firstName: "Bench",
      lastName: `Uploader ${n}`,
      terms: true,
    }),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
  const cookie = registered.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const verified = await fetch(`${origin}/api/user/verify-account`, {
    method: "POST",
    headers: { ...writeHeaders, cookie },
    body: JSON.stringify({ code: await mailedCode(dataDir, email) }),
  });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${await verified.text()}`);
  return cookie;
}

type UploadSample = { status: string; ms: number; at: number; client: number };

/** The server process that scripts/start.mjs (pid `parent`) started, found in /proc (Linux). */
export function serverPid(parent: number): number | null {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/**
 * CPU time (ms, user + system) of a process's main thread — the event loop — and of the whole
 * process, from /proc (clock ticks of 10 ms). Unlike latencies, this does not depend on what else
 * the machine is doing: it is the work itself.
 */
export function cpuMs(pid: number): { eventLoop: number; process: number } {
  const ticks = (file: string) => {
    const stat = fs.readFileSync(file, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  return { eventLoop: ticks(`/proc/${pid}/task/${pid}/stat`), process: ticks(`/proc/${pid}/stat`) };
}

/** One multipart upload to `path` of the server at `origin` (127.0.0.1 only): its status. */
export function postUpload(
  origin: string,
  path: string,
  cookie: string,
  body: { payload: Buffer; contentType: string },
): Promise<number> {
  const target = new URL(`${origin}${path}`);
  if (target.hostname !== "127.0.0.1") throw new Error("uploads go to 127.0.0.1 only");
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        agent: false,
        headers: {
          [ACCESS_HEADER]: ACCESS_HEADER_VALUE,
          cookie,
          "content-type": body.contentType,
          "content-length": String(body.payload.length),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.setTimeout(UPLOAD_TIMEOUT_MS, () => request.destroy(new Error("upload timeout")));
    request.on("error", reject);
    request.end(body.payload);
  });
}

/**
 * One loop per client (its members' cookies), each posting as soon as its previous answer came,
 * until `stop()`; `answered` resolves once every client has had one answer (the workers are warm).
 * A client moves to its next member when one is refused with 429 (an hourly quota spent).
 */
export function uploadLoops(members: string[][], post: (cookie: string, client: number) => Promise<number>) {
  const samples: UploadSample[] = [];
  const t0 = performance.now();
  let stopping = false;
  const first: Promise<void>[] = [];
  const loops = members.map((cookies, client) => {
    let firstAnswer: () => void = () => {};
    first.push(new Promise<void>((resolve) => (firstAnswer = resolve)));
    return (async () => {
      let member = 0;
      // Bounded: a deadline (the caller stops the loop) and at most 1,000 uploads per client.
      for (let n = 0; n < 1_000 && !stopping && member < cookies.length; n++) {
        const started = performance.now();
        let status = "error";
        try {
          status = String(await post(cookies[member]!, client));
        } catch {
          // counted as an error
        }
        samples.push({ status, ms: performance.now() - started, at: started - t0, client });
        firstAnswer();
        if (status === "429") member++;
      }
      firstAnswer();
    })();
  });
  return {
    samples,
    t0,
    answered: Promise.all(first),
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

export type UploadsCpu = { uploads: number; eventLoopMs: number; otherThreadsMs: number; windowMs: number };

/**
 * The server's CPU (process `pid`, Linux) over a phase of uploads alone: its event loop's thread,
 * its other threads (workers, libuv, GC), and the uploads answered 200 meanwhile. The phase lasts
 * `minMs`, and until `minUploads` more are answered, `maxMs` at most.
 */
export async function uploadsCpu(
  pid: number,
  loops: Pick<ReturnType<typeof uploadLoops>, "samples" | "t0">,
  phase: { minMs: number; minUploads?: number; maxMs?: number },
): Promise<UploadsCpu> {
  const now = () => performance.now() - loops.t0;
  const from = { at: now(), ...cpuMs(pid) };
  const answered = (until = Number.POSITIVE_INFINITY) =>
    loops.samples.filter((u) => u.status === "200" && u.at + u.ms > from.at && u.at + u.ms <= until).length;
  const deadline = from.at + Math.max(phase.minMs, phase.maxMs ?? 0);
  do await new Promise((resolve) => setTimeout(resolve, Math.min(500, phase.minMs)));
  while ((now() - from.at < phase.minMs || answered() < (phase.minUploads ?? 0)) && now() < deadline);
  const to = { at: now(), ...cpuMs(pid) };
  return {
    uploads: answered(to.at),
    eventLoopMs: to.eventLoop - from.eventLoop,
    otherThreadsMs: to.process - from.process - (to.eventLoop - from.eventLoop),
    windowMs: to.at - from.at,
  };
}

export type UploadsRun = {
  label: string;
  commit: string;
  idle: { healthz: LoadResult; search: LoadResult };
  loaded: { healthz: LoadResult; search: LoadResult };
  uploads: {
    fileBytes: number;
    points: number;
    total: number;
    statuses: Record<string, number>;
    /** Median time of the accepted uploads (200), from the first byte sent to the answer. */
    medianMs: number;
    /** Accepted uploads per second over the loaded phase. */
    perSecond: number;
    /**
     * CPU of the server over a phase of uploads alone (no probe): its event loop's thread and the
     * other threads (the GPX worker, libuv, GC), and the uploads answered 200 meanwhile. Linux only.
     */
    cpu: UploadsCpu | null;
  };
};

export type UploadsFigures = { runs: UploadsRun[]; durationMs: number; warmupMs: number };

async function measureScenario(
  server: Running,
  dataDir: string,
  options: { durationMs: number; warmupMs: number },
  file: { data: Buffer; points: number },
): Promise<Omit<UploadsRun, "label" | "commit">> {
  // Open-loop probes: a request every 20 ms (health check) or 200 ms (search page), latency counted
  // from when it was due, so that a stalled server shows in every request it holds back.
  const probe = (routePath: string) =>
    runLoad({
      url: `${server.origin}${routePath}`,
      ratePerSecond: routePath === SEARCH_PATH ? SEARCH_RATE : HEALTHZ_RATE,
      concurrency: 64,
      durationMs: options.durationMs,
      warmupMs: options.warmupMs,
      timeoutMs: 30_000,
    });
  const line = (name: string, r: LoadResult) =>
    console.log(
      `[bench] ${server.label.padEnd(6)} ${name}: p50 ${r.latencyMs.median.toFixed(1)} ms, p95 ${r.latencyMs.p95.toFixed(1)} ms, p99 ${r.latencyMs.p99.toFixed(1)} ms, ${r.requests} requests, errors ${r.errors}`,
    );

  const idle = { healthz: await probe("/healthz"), search: await probe(SEARCH_PATH) };
  line("idle /healthz", idle.healthz);
  line(`idle ${SEARCH_PATH}`, idle.search);

  const members: string[][] = [];
  let n = 0;
  for (let c = 0; c < UPLOAD_CLIENTS; c++) {
    const cookies: string[] = [];
    for (let m = 0; m < MEMBERS_PER_CLIENT; m++) cookies.push(await verifiedMember(server.origin, dataDir, ++n));
    members.push(cookies);
  }
  const body = multipartBody(file.data, "heaviest.gpx");
  const pid = process.platform === "linux" && server.child.pid ? serverPid(server.child.pid) : null;
  const loops = uploadLoops(members, (cookie) => postUpload(server.origin, "/api/upload/track/0", cookie, body));
  let loaded: { healthz: LoadResult; search: LoadResult };
  let cpu: UploadsRun["uploads"]["cpu"] = null;
  const loadedFrom = performance.now();
  try {
    await loops.answered;
    // The uploads alone for one phase: what they cost the event loop's thread and the process.
    if (pid) cpu = await uploadsCpu(pid, loops, { minMs: options.durationMs });
    loaded = { healthz: await probe("/healthz"), search: await probe(SEARCH_PATH) };
  } finally {
    await loops.stop();
  }
  const loadedMs = performance.now() - loadedFrom;
  line("loaded /healthz", loaded.healthz);
  line(`loaded ${SEARCH_PATH}`, loaded.search);
  const statuses: Record<string, number> = {};
  for (const s of loops.samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const accepted = loops.samples.filter((s) => s.status === "200");
  console.log(
    `[bench] ${server.label.padEnd(6)} uploads: ${JSON.stringify(statuses)}, median ${median(accepted.map((s) => s.ms)).toFixed(0)} ms` +
      (cpu
        ? `; uploads alone for ${(cpu.windowMs / 1000).toFixed(1)} s: ${cpu.uploads} answered, event loop ${cpu.eventLoopMs} ms CPU, other threads ${cpu.otherThreadsMs} ms`
        : ""),
  );
  return {
    idle,
    loaded,
    uploads: {
      fileBytes: file.data.length,
      points: file.points,
      total: loops.samples.length,
      statuses,
      medianMs: median(accepted.map((s) => s.ms)),
      perSecond: accepted.length / (loadedMs / 1000),
      cpu,
    },
  };
}

export async function uploadsPart(options: {
  baseline?: string;
  durationMs: number;
  warmupMs: number;
}): Promise<UploadsFigures> {
  const checkouts = [
    ...(options.baseline ? [{ label: "before", dir: path.resolve(options.baseline) }] : []),
    { label: options.baseline ? "after" : "now", dir: path.resolve(".") },
  ];
  const points = 199_000;
  const data = largestGpx(points);
  console.log(`[bench] uploads: a GPX of ${points.toLocaleString("en-US")} points, ${data.length} bytes`);
  const figures: UploadsFigures = { runs: [], durationMs: options.durationMs, warmupMs: options.warmupMs };
  for (const checkout of checkouts) {
    // A fresh data folder each time: the hourly limits (registrations, uploads) start afresh.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-bench-uploads-"));
    let server: Running | undefined;
    try {
      console.log(`[bench] starting ${checkout.label} (${checkout.dir}) for the uploads part…`);
      server = await start(checkout.label, checkout.dir, dataDir, { PAGE_CACHE_SECONDS: "0" });
      const run = await measureScenario(server, dataDir, options, { data, points });
      figures.runs.push({ label: checkout.label, commit: gitCommit(checkout.dir), ...run });
    } finally {
      if (server) await stop(server);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return figures;
}

const fmt = (n: number, digits = 1) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";

export function uploadsTable(f: UploadsFigures): string {
  const head = [
    "checkout",
    "/healthz idle p50 / p99",
    "/healthz under uploads p50 / p99",
    `goal p99 < ${HEALTHZ_P99_GOAL_MS} ms`,
    `${SEARCH_PATH} idle p50 / p95`,
    `${SEARCH_PATH} under uploads p50 / p95`,
    `ratio of medians (goal ≤ ${SEARCH_RATIO_GOAL}×); of p95s`,
    "uploads answered (200 / other)",
    "upload median",
    "event loop's CPU per upload (other threads')",
  ];
  const lines = [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`];
  for (const run of f.runs) {
    const ratio = run.loaded.search.latencyMs.median / run.idle.search.latencyMs.median;
    const ratio95 = run.loaded.search.latencyMs.p95 / run.idle.search.latencyMs.p95;
    const ok = run.uploads.statuses["200"] ?? 0;
    lines.push(
      `| ${[
        `${run.label} (${run.commit})`,
        `${fmt(run.idle.healthz.latencyMs.median, 2)} / ${fmt(run.idle.healthz.latencyMs.p99)} ms`,
        `${fmt(run.loaded.healthz.latencyMs.median, 2)} / ${fmt(run.loaded.healthz.latencyMs.p99)} ms`,
        run.loaded.healthz.latencyMs.p99 < HEALTHZ_P99_GOAL_MS ? "met" : "**missed**",
        `${fmt(run.idle.search.latencyMs.median)} / ${fmt(run.idle.search.latencyMs.p95)} ms`,
        `${fmt(run.loaded.search.latencyMs.median)} / ${fmt(run.loaded.search.latencyMs.p95)} ms`,
        `${fmt(ratio, 2)}× ${ratio <= SEARCH_RATIO_GOAL ? "met" : "**missed**"}; ${fmt(ratio95, 2)}×`,
        `${ok} / ${run.uploads.total - ok}`,
        `${fmt(run.uploads.medianMs, 0)} ms`,
        run.uploads.cpu?.uploads
          ? `${fmt(run.uploads.cpu.eventLoopMs / run.uploads.cpu.uploads, 0)} ms (${fmt(run.uploads.cpu.otherThreadsMs / run.uploads.cpu.uploads, 0)} ms)`
          : "–",
      ].join(" | ")} |`,
    );
  }
  const file = f.runs[0]?.uploads;
  return (
    `${lines.join("\n")}\n\n` +
    `(${UPLOAD_CLIENTS} clients uploading a ${fmt((file?.fileBytes ?? 0) / 1024 / 1024, 1)} MB GPX of ` +
    `${(file?.points ?? 0).toLocaleString("en-US")} points in a loop; probes at a fixed rate, ${HEALTHZ_RATE}/s ` +
    `and ${SEARCH_RATE}/s, latency from when each request was due, ${f.durationMs / 1000} s after ` +
    `${f.warmupMs / 1000} s of warm-up; page cache off; ${os.cpus().length} cores)`
  );
}
