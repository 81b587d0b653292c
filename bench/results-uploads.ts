/**
 * The `results-uploads` part of `npm run bench` (issue 25 §2, decision 044): does the server stay
 * responsive while organisers send it the largest results files it accepts?
 *
 * The server runs as `npm start` runs it (a child process, the production build, PGlite in a fresh
 * data folder, DEMO_ACCOUNTS=1), page cache off, with a demo catalogue of 400 events: reading files
 * does not depend on it, and seeding 3,200 events took more than the start's 180 s on a busy
 * machine.
 *
 * 1. Idle: `/healthz` probed at a fixed rate (50 requests a second, bench/load.ts's open loop, in a
 *    worker thread): each request's latency counts from when it was due.
 * 2. Loaded: two clients — the demo organiser and the demo admin, two organisers since each may
 *    have one file read at a time — post to `POST /api/results/parse`, each as soon as its last
 *    answer came: the largest CSV allowed (60,000 lines, just under 10 MB) and a 60,000-line XLSX
 *    (made here, deterministic). Once both have had an answer, the event loop's CPU over a phase of
 *    uploads alone (until two more files are read), then the same probe again; then the loops stop.
 *
 * Goal: `/healthz` p99 under 50 ms while the files are read.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import writeXlsxFile from "write-excel-file/node";
import { RESULTS_FILE_MAX_BYTES, RESULTS_MAX_ROWS } from "../features/results/import/results-import.contract.ts";
import { DEMO_ACCOUNTS } from "../seed/demo-accounts.server.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";
import { type LoadResult, median, runLoad } from "./load.ts";
import { gitCommit, type Running, start, stop } from "./pages.ts";
import { multipartBody, postUpload, serverPid, type UploadsCpu, uploadLoops, uploadsCpu } from "./uploads.ts";

/** Goal of issue 25 §2 (as issue 10's for GPX uploads). */
export const HEALTHZ_P99_GOAL_MS = 50;
const HEALTHZ_RATE = 50;
const PARSE_PATH = "/api/results/parse";
export const RESULTS_BENCH_EVENTS = 400;

const time = (s: number) =>
  `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;

/** The longest CSV allowed: RESULTS_MAX_ROWS lines of eleven columns, padded to just under the size limit. */
export function largestResultsCsv(): Buffer {
  const header = "Clt;Dossard;Nom;Prénom;Sexe;Cat.;Club;Temps;Temps réel;Nationalité;Ville";
  const line = (i: number, pad: string) =>
    `${i + 1};${i + 1};NOM${i};Prénom${i};${i % 3 ? "H" : "F"};${["SEH", "M0F", "V1H", "SEF"][i % 4]};` +
    `Club athlétique ${i % 300}${pad};${time(1800 + Math.floor((i * 5400) / RESULTS_MAX_ROWS))};` +
    `${time(1790 + Math.floor((i * 5400) / RESULTS_MAX_ROWS))};FRA;Ville ${i % 500}`;
  const bare = Buffer.byteLength(
    [header, ...Array.from({ length: RESULTS_MAX_ROWS }, (_, i) => line(i, ""))].join("\n"),
  );
  const pad = " ".repeat(Math.max(0, Math.floor((RESULTS_FILE_MAX_BYTES - 64 * 1024 - bare) / RESULTS_MAX_ROWS)));
  const file = Buffer.from(
    [header, ...Array.from({ length: RESULTS_MAX_ROWS }, (_, i) => line(i, `${pad}x`))].join("\n"),
  );
  if (file.length > RESULTS_FILE_MAX_BYTES) throw new Error("the bench's CSV is over the limit");
  return file;
}

/** An XLSX of RESULTS_MAX_ROWS lines as timing software writes them (shared strings, times as text). */
export async function largestResultsXlsx(): Promise<Buffer> {
  const titles = ["Clt", "Dossard", "Nom", "Prénom", "Sexe", "Cat.", "Club", "Temps", "Temps réel", "Nationalité"];
  const rows: { value: string | number }[][] = [titles.map((value) => ({ value }))];
  for (let i = 0; i < RESULTS_MAX_ROWS; i++) {
    const seconds = 1800 + Math.floor((i * 5400) / RESULTS_MAX_ROWS);
    rows.push(
      [
        i + 1,
        String(i + 1),
        `NOM${i}`,
        `Prénom${i}`,
        i % 3 ? "H" : "F",
        ["SEH", "M0F", "V1H", "SEF"][i % 4]!,
        `Club athlétique ${i % 300}`,
        time(seconds),
        time(seconds - 10),
        "FRA",
      ].map((value) => ({ value })),
    );
  }
  return writeXlsxFile(rows as never).toBuffer();
}

/** The demo organiser's and the demo admin's sessions, and a course of one of the organiser's events. */
async function organisers(origin: string): Promise<{ cookies: string[]; courseId: number }> {
  const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };
  const cookies: string[] = [];
  for (const role of ["organiser", "admin"] as const) {
    const account = DEMO_ACCOUNTS.find((a) => a.role === role)!;
    const response = await fetch(`${origin}/api/login`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    if (response.status !== 200)
      throw new Error(`login (${role}) answered ${response.status}: ${await response.text()}`);
    cookies.push(
      response.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    );
  }
  const get = async (url: string) => (await fetch(`${origin}${url}`, { headers: { cookie: cookies[0]! } })).json();
  const { events } = (await get("/api/user/events")) as { events: { id: number }[] };
  for (const event of events) {
    const { event: form } = (await get(`/api/user/event/${event.id}`)) as { event: { courses?: { id?: number }[] } };
    const courseId = form.courses?.find((course) => typeof course.id === "number")?.id;
    if (courseId) return { cookies, courseId };
  }
  throw new Error("the demo organiser has no course");
}

export type ResultsUploadsRun = {
  commit: string;
  idle: LoadResult;
  loaded: LoadResult;
  files: { kind: string; bytes: number; statuses: Record<string, number>; medianMs: number }[];
  /** CPU of the server over a phase of uploads alone: its event loop's thread and the other threads. */
  cpu: UploadsCpu | null;
};

export type ResultsUploadsFigures = { run: ResultsUploadsRun; durationMs: number; warmupMs: number };

export async function resultsUploadsPart(options: {
  durationMs: number;
  warmupMs: number;
}): Promise<ResultsUploadsFigures> {
  const files = [
    { kind: "CSV", name: "resultats.csv", type: "text/csv", data: largestResultsCsv() },
    {
      kind: "XLSX",
      name: "resultats.xlsx",
      type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      data: await largestResultsXlsx(),
    },
  ];
  console.log(`[bench] results-uploads: ${files.map((f) => `${f.kind} ${f.data.length} bytes`).join(", ")}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-bench-results-"));
  let server: Running | undefined;
  try {
    server = await start("now", path.resolve("."), dataDir, {
      PAGE_CACHE_SECONDS: "0",
      DEMO_ACCOUNTS: "1",
      DEMO_EVENTS: String(RESULTS_BENCH_EVENTS),
    });
    const origin = server.origin;
    const probe = () =>
      runLoad({
        url: `${origin}/healthz`,
        ratePerSecond: HEALTHZ_RATE,
        concurrency: 64,
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
        timeoutMs: 30_000,
      });
    const idle = await probe();
    const { cookies, courseId } = await organisers(origin);
    const bodies = files.map((f) => multipartBody(f.data, f.name, { courseId: String(courseId) }, f.type));
    const pid = process.platform === "linux" && server.child.pid ? serverPid(server.child.pid) : null;
    // One client each: the organiser sends the CSV, the admin the XLSX.
    const loops = uploadLoops(
      cookies.map((cookie) => [cookie]),
      (cookie, client) => postUpload(origin, PARSE_PATH, cookie, bodies[client]!),
    );
    let loaded: LoadResult;
    let cpu: ResultsUploadsRun["cpu"] = null;
    try {
      await loops.answered;
      // Files take seconds each (tens on a busy machine): the phase lasts until two more are read.
      if (pid) cpu = await uploadsCpu(pid, loops, { minMs: options.durationMs, minUploads: 2, maxMs: 120_000 });
      loaded = await probe();
    } finally {
      await loops.stop();
    }
    const perClient = files.map((_, client) => loops.samples.filter((s) => s.client === client));
    const run: ResultsUploadsRun = {
      commit: gitCommit(path.resolve(".")),
      idle,
      loaded,
      files: files.map((f, i) => {
        const statuses: Record<string, number> = {};
        for (const s of perClient[i]!) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
        const answered = perClient[i]!.filter((s) => s.status === "200").map((s) => s.ms);
        return { kind: f.kind, bytes: f.data.length, statuses, medianMs: median(answered) };
      }),
      cpu,
    };
    const line = (name: string, r: LoadResult) =>
      console.log(
        `[bench] results-uploads ${name} /healthz: p50 ${r.latencyMs.median.toFixed(1)} ms, p99 ${r.latencyMs.p99.toFixed(1)} ms, ${r.requests} requests, errors ${r.errors}`,
      );
    line("idle", idle);
    line("loaded", loaded);
    console.log(`[bench] results-uploads files: ${JSON.stringify(run.files)}; cpu ${JSON.stringify(cpu)}`);
    return { run, durationMs: options.durationMs, warmupMs: options.warmupMs };
  } finally {
    if (server) await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 1) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";

export function resultsUploadsTable(f: ResultsUploadsFigures): string {
  const { run } = f;
  const head = [
    "commit",
    "/healthz idle p50 / p99",
    "/healthz while files are read p50 / p99",
    `goal p99 < ${HEALTHZ_P99_GOAL_MS} ms`,
    ...run.files.map((file) => `${file.kind} (${fmt(file.bytes / 1024 / 1024)} MB): answers, median`),
    "event loop's CPU per file read (other threads')",
  ];
  const cells = [
    run.commit,
    `${fmt(run.idle.latencyMs.median, 2)} / ${fmt(run.idle.latencyMs.p99)} ms`,
    `${fmt(run.loaded.latencyMs.median, 2)} / ${fmt(run.loaded.latencyMs.p99)} ms`,
    run.loaded.latencyMs.p99 < HEALTHZ_P99_GOAL_MS ? "met" : "**missed**",
    ...run.files.map((file) => `${JSON.stringify(file.statuses)}, ${fmt(file.medianMs, 0)} ms`),
    run.cpu?.uploads
      ? `${fmt(run.cpu.eventLoopMs / run.cpu.uploads, 0)} ms (${fmt(run.cpu.otherThreadsMs / run.cpu.uploads, 0)} ms)`
      : "–",
  ];
  return (
    `| ${head.join(" | ")} |\n| ${head.map(() => "---").join(" | ")} |\n| ${cells.join(" | ")} |\n\n` +
    `(two organisers each sending one file in a loop to ${PARSE_PATH}; /healthz probed at ${HEALTHZ_RATE}/s, latency ` +
    `from when each request was due, ${f.durationMs / 1000} s after ${f.warmupMs / 1000} s of warm-up; page cache ` +
    `off; ${os.cpus().length} cores)`
  );
}
