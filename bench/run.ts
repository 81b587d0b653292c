/**
 * Dossard benchmarks, in one process and one run (`npm run bench`, see bench/README.md):
 *
 *   startup   start-up costs on PGlite in memory (open + migrate, reference data, demo catalogue,
 *             restart check, loading a dumped data dir as the API test harness does)
 *   http      the real server (buildApp + the React Router build) against a bare Fastify route
 *   postgres  the two API routes on a real PostgreSQL (BENCH_DATABASE_URL), else skipped
 *   assets    JavaScript shipped for the first load of the home page and of an event page, raw and gzip
 *   search    at 100,000 events (PGlite data dir under bench/.data/, and a database
 *             dossard_bench_100k on BENCH_DATABASE_URL's server, both seeded once and reused):
 *             GET /api/events for four filter combinations against the bare SQL of the same
 *             statement, then the home and an event page under load against bare Fastify
 *   lighthouse Lighthouse (mobile default config) in headless Chromium on the home page, a search
 *             with filters and an event page: scores, FCP, LCP, TBT, CLS, bytes; median of 3 runs
 *   pages     the server as `npm start` runs it (child process, production build, PGlite seeded with
 *             the demo catalogue): pages, a signed-in page, /healthz, a static file, /api/events;
 *             with --baseline <checkout>, another checkout measured side by side (before/after)
 *   uploads   the same server while two clients upload the largest GPX allowed in a loop: /healthz
 *             and a search page, idle then under the uploads (issue 10's goal); with --baseline,
 *             the other checkout first
 *   results-uploads  the same server while two organisers send the largest results files allowed
 *             (a 10 MB CSV and a 60,000-line XLSX) to POST /api/results/parse in a loop: /healthz
 *             idle then while they are read (issue 25 §2's goal: p99 < 50 ms; bench/results-uploads.ts)
 *   mail      the same server delivering 500 queued mails, and a burst of 500 recoveries, to a real
 *             local SMTP server (bench/mail.ts); goal: 500 queued mails out in 30 s or less
 *   accounts  registration and password recovery for addresses with and without an account, in one
 *             run: medians and their ratio (bench/accounts.ts); goal: 0.9–1.1; with --baseline, the
 *             other checkout too
 *   posters   the poster renderer on a 20,000-point track: scene (the preview's work), SVG, A3 PNG at
 *             300 dpi, vector PDF, peak memory, then the creator's preview updated in Chromium
 *             (bench/posters.ts); goals: PNG ≤ 3 s, PDF ≤ 1 s, preview update ≤ 50 ms
 *   poster-basemaps  an A3 poster of a 20,000-point marathon with map data: the basemap layer at
 *             300 dpi ("relief" from elevation tiles, "city" from vector tiles) read from a local XYZ
 *             tile server and from a PMTiles file, then the PNG and PDF drawn with it, medians of 5,
 *             peak memory (bench/poster-basemaps.ts); goals: PNG ≤ 3 s, PDF ≤ 1 s
 *   fault     the same server under 50 clients for 30 s (search and event pages, API: errors, p50,
 *             p99), then killed with SIGKILL during a burst of registrations and restarted on the
 *             same data: acknowledged writes kept, every queued mail delivered once (bench/fault.ts)
 *   activities-sync  a member's first Strava sync: 1,000 activities with streams from the local fake
 *             Strava through the real sync jobs under Strava's limits (200/15 min, 2,000/day), on a
 *             simulated clock: requests, 429s (0 expected), simulated and real time, memory
 *             (bench/activities-sync.ts; --quick: 250 activities)
 *   rankings  the community rankings over 100,000 results of 5,000 members, PGlite in memory: median
 *             and p95 of each period × order (bench/community.ts)
 *   results-import  a 20,000-line timing company's CSV imported into one course (time, peak memory),
 *             then the results page's query on it: median and p95 of pages, views and searches, and
 *             the indexes of their plans (bench/results-import.ts, bench/results-page.ts)
 *
 * Options: --quick (short run: 1 start-up sample, 2 s per route), --only <name>[,<name>…],
 * --baseline <folder of another built checkout> (pages and uploads parts).
 * Prints a Markdown table and writes the raw figures to bench/results/latest.json.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import pg from "pg";
import type { ServerBuild } from "react-router";
import { searchQuerySchema } from "../features/search/search.contract.ts";
import { loadConfig } from "../platform/config.server.ts";
import { type Database, openDatabase } from "../platform/db/client.server.ts";
import { DEFAULT_DEMO_SEED } from "../seed/demo/generator.ts";
import { countEvents, resetEventCatalogue, seedDemoCatalogue } from "../seed/demo/seed.server.ts";
import { ensureSeeded } from "../seed/index.server.ts";
import { loadReferenceData } from "../seed/reference.server.ts";
import { buildApp } from "../server/app.server.ts";
import { pagePath } from "../shared/i18n/pages.ts";
import { TEST_DEMO_EVENTS, TEST_REFERENCE_DATE, TEST_SEED } from "../tests/api/fixtures.ts";
import { type AccountsFigures, accountsPart, accountsTable } from "./accounts.ts";
import { type ActivitiesSyncFigures, activitiesSyncPart, activitiesSyncTable } from "./activities-sync.ts";
import { type RankingsFigures, rankingsPart, rankingsTable } from "./community.ts";
import { type FaultFigures, faultPart, faultTables } from "./fault.ts";
import { CHROME_PATH, type LighthouseFigures, lighthouseTable, runLighthouse } from "./lighthouse.ts";
import { type LoadResult, median, percentile, runLoad } from "./load.ts";
import { type MailFigures, mailPart, mailTable } from "./mail.ts";
import { type PagesFigures, pagesPart, pagesTable } from "./pages.ts";
import { type PosterBasemapsFigures, posterBasemapsPart, posterBasemapsTable } from "./poster-basemaps.ts";
import { type PostersFigures, postersPart, postersTable } from "./posters.ts";
import { type ResultsImportFigures, resultsImportPart, resultsImportTable } from "./results-import.ts";
import { resultsPageTable } from "./results-page.ts";
import {
  RESULTS_BENCH_EVENTS,
  type ResultsUploadsFigures,
  resultsUploadsPart,
  resultsUploadsTable,
} from "./results-uploads.ts";
import { type UploadsFigures, uploadsPart, uploadsTable } from "./uploads.ts";

const PARTS = [
  "startup",
  "http",
  "postgres",
  "assets",
  "search",
  "lighthouse",
  "pages",
  "uploads",
  "results-uploads",
  "mail",
  "accounts",
  "fault",
  "results-import",
  "rankings",
  "posters",
  "poster-basemaps",
  "activities-sync",
] as const;
type Part = (typeof PARTS)[number];

const DEMO_EVENTS = 3_200;
const CONCURRENCY = 10;
/** The whole run is abandoned past this (the default run takes about two minutes). */
const HARD_LIMIT_MS = 8 * 60_000;
/** More with the search part: seeding 100,000 events on each engine, the first time, takes minutes. */
const SEARCH_EXTRA_MS = 20 * 60_000;
/** More with the pages part: one or two servers to seed and start, 9 routes each. */
const PAGES_EXTRA_MS = 10 * 60_000;
/** More with the uploads part: one or two servers to seed and start, four 10 s probes each. */
const UPLOADS_EXTRA_MS = 8 * 60_000;
/** More with the mail, accounts and fault parts: servers to start (and seed, the first time), a crash to recover. */
const SERVER_PARTS_EXTRA_MS = 12 * 60_000;
/** More with the poster-basemaps part: 2 styles × 2 sources × 5 layers, then 20 A3 exports (1–3 min). */
const POSTER_BASEMAPS_EXTRA_MS = 5 * 60_000;
/** More with the lighthouse part: 12 runs of 7–40 s each. */
const LIGHTHOUSE_EXTRA_MS = 12 * 60_000;
/** Module files followed from the home page's HTML, at most. */
const MAX_ASSETS = 200;

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const resultsFile = path.join(here, "results", "latest.json");

// ---------------------------------------------------------------------------------------------
// Options

function parseOptions() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string" },
      baseline: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(`Usage: npm run bench -- [--quick] [--only ${PARTS.join("|")}[,…]] [--baseline <checkout>]`);
    process.exit(0);
  }
  const only = values.only
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !(PARTS as readonly string[]).includes(name)) ?? [];
  if (unknown.length) {
    console.error(`Unknown benchmark ${unknown.join(", ")}: choose among ${PARTS.join(", ")}.`);
    process.exit(2);
  }
  const quick = values.quick ?? false;
  return {
    quick,
    baseline: values.baseline,
    parts: new Set<Part>(only?.length ? (only as Part[]) : PARTS),
    samples: { startup: quick ? 1 : 3, harnessDump: quick ? 2 : 5, fullDump: quick ? 1 : 3 },
    durationMs: quick ? 2_000 : 5_000,
    /** The bare route is steadier: half as long, before every route. */
    bareDurationMs: quick ? 1_000 : 2_500,
    warmupMs: quick ? 500 : 1_500,
  };
}
type Options = ReturnType<typeof parseOptions>;

// ---------------------------------------------------------------------------------------------
// Helpers

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

type Samples = { samples: number[]; median: number; min: number; max: number };
const summarise = (samples: number[]): Samples => ({
  samples: samples.map((s) => Math.round(s * 10) / 10),
  median: median(samples),
  min: Math.min(...samples),
  max: Math.max(...samples),
});

const grouped = (n: number, digits = 0) =>
  n.toLocaleString("en-GB", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number) => `${grouped(n, n < 10 ? 2 : n < 100 ? 1 : 0)} ms`;
const kb = (bytes: number) => `${grouped(bytes / 1024, 1)} KB`;
/** 0.35× stays readable; 0.0014× reads better with its inverse: 0.0014× (1/712). */
const ratio = (r: number) => (r >= 0.1 ? `${grouped(r, 2)}×` : `${r.toPrecision(2)}× (1/${grouped(1 / r)})`);
const msRange = (s: Samples) =>
  s.samples.length > 1
    ? `**${ms(s.median)}** (median of ${s.samples.length}, ${grouped(s.min)}–${grouped(s.max)})`
    : `**${ms(s.median)}** (1 run)`;

function benchConfig(publicUrl = "http://localhost:3000") {
  return loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    PUBLIC_URL: publicUrl,
    DATA_DIR: path.join(os.tmpdir(), "dossard-bench"),
  });
}

async function seededPglite(demoEvents: number): Promise<Database> {
  const database = await openDatabase({ dataDir: "memory://" });
  await database.migrate();
  await ensureSeeded(database.db, { demoEvents, seed: DEFAULT_DEMO_SEED });
  return database;
}

/** A first query, so that a timed load lasts until the database actually answers. */
async function ping(database: Database): Promise<void> {
  if (database.pglite) await database.pglite.query("SELECT 1");
}

type Row = { part: string; measure: string; result: string; median?: string; p95?: string; ratio?: string };

// ---------------------------------------------------------------------------------------------
// 1. Start-up costs on PGlite in memory

type StartupFigures = {
  firstOpenMs: number;
  open: Samples;
  migrate: Samples;
  openMigrate: Samples;
  reference: Samples;
  demo: Samples & { generatorAndInsertMs: number[]; events: number };
  restartCheck: Samples;
  harnessDump: { events: number; bytes: number; dumpMs: number; load: Samples };
  fullDump: { events: number; bytes: number; dumpMs: number; load: Samples } | null;
};

/**
 * Each sample is a first start on a fresh in-memory database: open, migrate, reference data, demo
 * catalogue, then a second `ensureSeeded` (what every later start pays). The last seeded database
 * is handed back for the HTTP part when `keep` is set.
 */
async function startup(options: Options, keep: boolean): Promise<{ figures: StartupFigures; database?: Database }> {
  const n = options.samples.startup;
  const open: number[] = [];
  const migrate: number[] = [];
  const reference: number[] = [];
  const demo: number[] = [];
  const demoInner: number[] = [];
  const restart: number[] = [];
  let events = 0;
  let kept: Database | undefined;
  for (let i = 0; i < n; i++) {
    log(`start-up sample ${i + 1}/${n}: open, migrate, reference data, ${DEMO_EVENTS} demo events`);
    const opened = await timed(() => openDatabase({ dataDir: "memory://" }));
    const database = opened.value;
    try {
      open.push(opened.ms);
      migrate.push((await timed(() => database.migrate())).ms);
      const ref = await timed(() => ensureSeeded(database.db, { demoEvents: 0 }));
      if (ref.value.reference.geo.skipped) throw new Error("reference data was already there on a fresh database");
      reference.push(ref.ms);
      const full = await timed(() => ensureSeeded(database.db, { demoEvents: DEMO_EVENTS, seed: DEFAULT_DEMO_SEED }));
      if (!full.value.demo) throw new Error("the demo catalogue was not generated");
      demo.push(full.ms);
      demoInner.push(full.value.demo.ms);
      events = full.value.demo.events;
      restart.push((await timed(() => ensureSeeded(database.db, { demoEvents: DEMO_EVENTS }))).ms);
    } catch (error) {
      await database.close();
      throw error;
    }
    if (keep && i === n - 1) kept = database;
    else await database.close();
  }

  // The API test harness: a template (migrations, reference data, 400 demo events around a fixed
  // date) dumped once as a gzip tarball, then loaded into a fresh in-memory PGlite per test file.
  log(`test harness template: ${TEST_DEMO_EVENTS} events, dump, then ${options.samples.harnessDump} loads`);
  const template = await openDatabase({ dataDir: "memory://" });
  let harnessDump: StartupFigures["harnessDump"];
  try {
    await template.migrate();
    await ensureSeeded(template.db, {
      demoEvents: TEST_DEMO_EVENTS,
      seed: TEST_SEED,
      referenceDate: TEST_REFERENCE_DATE,
    });
    const dumped = await timed(() => template.pglite!.dumpDataDir("gzip"));
    const bytes = new Uint8Array(await dumped.value.arrayBuffer());
    await template.close();
    harnessDump = {
      events: TEST_DEMO_EVENTS,
      bytes: bytes.length,
      dumpMs: dumped.ms,
      load: summarise(await loadDumpSamples(bytes, options.samples.harnessDump)),
    };
  } catch (error) {
    await template.close().catch(() => {});
    throw error;
  }

  // The same with the full demo catalogue, to price "start from a shipped dump" against seeding.
  let fullDump: StartupFigures["fullDump"] = null;
  const source = kept ?? (options.quick ? undefined : await seededPglite(DEMO_EVENTS));
  if (source) {
    log(`full catalogue: dump, then ${options.samples.fullDump} loads`);
    const dumped = await timed(() => source.pglite!.dumpDataDir("gzip"));
    if (source !== kept) await source.close();
    const bytes = new Uint8Array(await dumped.value.arrayBuffer());
    fullDump = {
      events,
      bytes: bytes.length,
      dumpMs: dumped.ms,
      load: summarise(await loadDumpSamples(bytes, options.samples.fullDump)),
    };
  }

  const openMigrate = open.map((o, i) => o + migrate[i]);
  return {
    figures: {
      firstOpenMs: open[0],
      open: summarise(open),
      migrate: summarise(migrate),
      openMigrate: summarise(openMigrate),
      reference: summarise(reference),
      demo: { ...summarise(demo), generatorAndInsertMs: demoInner, events },
      restartCheck: summarise(restart),
      harnessDump,
      fullDump,
    },
    database: kept,
  };
}

/** As tests/api/harness.ts does: a Blob of the dump file's bytes, loaded into memory://. */
async function loadDumpSamples(bytes: Uint8Array<ArrayBuffer>, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const loaded = await timed(async () => {
      const database = await openDatabase({ dataDir: "memory://", loadDataDir: new Blob([bytes]) });
      await ping(database);
      return database;
    });
    samples.push(loaded.ms);
    await loaded.value.close();
  }
  return samples;
}

function startupRows(f: StartupFigures): Row[] {
  const part = "Start-up (PGlite in memory)";
  return [
    {
      part,
      measure: "Open + migrate",
      result: `${msRange(f.openMigrate)}; open ${ms(f.open.median)}, migrate ${ms(f.migrate.median)}; first open in the process ${ms(f.firstOpenMs)}`,
    },
    { part, measure: "Reference data (`ensureSeeded`, demoEvents 0), fresh database", result: msRange(f.reference) },
    {
      part,
      measure: `Demo catalogue, ${grouped(f.demo.events)} events (\`ensureSeeded\`)`,
      result: `${msRange(f.demo)}; generate + insert ${ms(median(f.demo.generatorAndInsertMs))}`,
    },
    { part, measure: "Restart check (`ensureSeeded` on a seeded database)", result: msRange(f.restartCheck) },
    {
      part,
      measure: `Load a dumped data dir, test template (${f.harnessDump.events} events)`,
      result: `${msRange(f.harnessDump.load)}; dump ${kb(f.harnessDump.bytes)} gzip, made in ${ms(f.harnessDump.dumpMs)}`,
    },
    ...(f.fullDump
      ? [
          {
            part,
            measure: `Load a dumped data dir, full catalogue (${grouped(f.fullDump.events)} events)`,
            result: `${msRange(f.fullDump.load)}; dump ${kb(f.fullDump.bytes)} gzip, made in ${ms(f.fullDump.dumpMs)}`,
          },
        ]
      : []),
  ];
}

// ---------------------------------------------------------------------------------------------
// 2. Request handling through the real server, against a bare Fastify route

/** Newest modification time under a path (bounded walk, as scripts/start.mjs checks staleness). */
function newestMtime(target: string, budget = { files: 20_000 }): number {
  if (!fs.existsSync(target) || budget.files-- <= 0) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry), budget));
  return newest;
}

async function loadServerBuild(): Promise<{ build: ServerBuild; clientDir: string; builtAt: string; stale: boolean }> {
  const buildFile = path.join(root, "build", "server", "index.js");
  if (!fs.existsSync(buildFile)) {
    log("build/server/index.js is missing: running `npx react-router build`");
    const result = spawnSync("npx", ["react-router", "build"], {
      cwd: root,
      stdio: ["ignore", 2, 2],
      timeout: 300_000,
    });
    if (result.status !== 0) throw new Error(`react-router build failed (exit ${result.status})`);
  }
  const builtAt = fs.statSync(buildFile).mtimeMs;
  const sources = ["app", "features", "shared", "locales"].map((dir) => newestMtime(path.join(root, dir)));
  const stale = Math.max(...sources) > builtAt;
  if (stale) log("build/ is older than the sources: the pages measured are those of the last build (npm run build)");
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  return { build, clientDir: path.join(root, "build", "client"), builtAt: new Date(builtAt).toISOString(), stale };
}

function gitCommit(): string {
  const result = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8", timeout: 10_000 });
  return result.status === 0 ? result.stdout.trim() : "unknown";
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no TCP address");
  return `http://127.0.0.1:${address.port}`;
}

async function startBare(): Promise<{ app: FastifyInstance; origin: string }> {
  const app = Fastify({ logger: false });
  app.get("/", async () => ({ ok: true }));
  return { app, origin: await listen(app) };
}

/** One request first, so a broken route stops the run instead of measuring error pages. */
async function expectOk(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
}

/** A route's figures, and those of the bare Fastify run made just before it, its reference. */
type RouteFigure = { name: string; path: string; load: LoadResult; bare: LoadResult; ratioToBare: number };
/** The bare Fastify app and every run made on it. */
type Bare = { origin: string; runs: LoadResult[] };

async function measure(
  name: string,
  origin: string,
  route: string,
  timing: { durationMs: number; warmupMs: number },
): Promise<LoadResult> {
  await expectOk(`${origin}${route}`);
  log(`${name}: ${CONCURRENCY} clients, ${timing.durationMs / 1000} s after ${timing.warmupMs / 1000} s warm-up`);
  const result = await runLoad({
    url: `${origin}${route}`,
    concurrency: CONCURRENCY,
    durationMs: timing.durationMs,
    warmupMs: timing.warmupMs,
  });
  log(
    `  ${grouped(result.requestsPerSecond)} req/s, median ${ms(result.latencyMs.median)}, p95 ${ms(result.latencyMs.p95)}, ${result.errors} errors`,
  );
  return result;
}

const SERVER_ROUTES = [
  { name: "GET /healthz", path: "/healthz" },
  { name: "GET /api/sports", path: "/api/sports" },
  { name: "GET /api/events_group/upcoming?limit=24", path: "/api/events_group/upcoming?limit=24" },
  { name: "GET / (server-rendered home page)", path: "/" },
  // React Router's single-fetch data URL of the home page: the same loader, no React render.
  { name: "GET /_root.data (home page loader only, no render)", path: "/_root.data" },
  // A vector tile of the offline base map (Paris at zoom 10), made by the first request then cached.
  { name: "GET /basemap/…/tiles/10/518/352.pbf (base map tile)", path: "/basemap/bench/tiles/10/518/352.pbf" },
];
const API_ROUTES = SERVER_ROUTES.slice(1, 3);

/**
 * Each route right after its own bare Fastify run: the machine is shared and its speed drifts over
 * a run, so a ratio is only meaningful between two measurements taken side by side.
 */
async function measureRoutes(
  label: string,
  origin: string,
  routes: { name: string; path: string }[],
  bare: Bare,
  options: Options,
): Promise<RouteFigure[]> {
  const figures: RouteFigure[] = [];
  for (const route of routes) {
    const reference = await measure(`bare Fastify, before ${route.name}`, bare.origin, "/", {
      durationMs: options.bareDurationMs,
      warmupMs: options.warmupMs,
    });
    bare.runs.push(reference);
    const load = await measure(`${label}${route.name}`, origin, route.path, options);
    figures.push({
      ...route,
      load,
      bare: reference,
      ratioToBare: load.requestsPerSecond / reference.requestsPerSecond,
    });
  }
  return figures;
}

function bareRow(part: string, bare: Bare): Row {
  const rps = bare.runs.map((r) => r.requestsPerSecond);
  return {
    part,
    measure: "Bare `Fastify()` JSON route `{ ok: true }` (reference, run before each route)",
    result:
      `**${grouped(median(rps))} req/s** (median of ${rps.length} runs, ${grouped(Math.min(...rps))}–` +
      `${grouped(Math.max(...rps))})`,
    median: ms(median(bare.runs.map((r) => r.latencyMs.median))),
    p95: ms(median(bare.runs.map((r) => r.latencyMs.p95))),
    ratio: "1×",
  };
}
function routeRows(part: string, routes: RouteFigure[]): Row[] {
  return routes.map((r) => ({
    part,
    measure: r.name,
    result: `**${grouped(r.load.requestsPerSecond)} req/s**${r.load.errors ? ` (${r.load.errors} errors)` : ""}`,
    median: ms(r.load.latencyMs.median),
    p95: ms(r.load.latencyMs.p95),
    ratio: ratio(r.ratioToBare),
  }));
}

// ---------------------------------------------------------------------------------------------
// 3. The API routes on a real PostgreSQL

type PostgresFigures =
  | { skipped: true; reason: string }
  | {
      skipped: false;
      server: string;
      database: string;
      migrateMs: number;
      seedMs: number;
      vacuumAnalyzeMs: number;
      routes: RouteFigure[];
    };

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.href;
}

async function postgres(options: Options, bare: Bare): Promise<PostgresFigures> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) return { skipped: true, reason: "BENCH_DATABASE_URL is not set" };
  const name = `dossard_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let database: Database | undefined;
  let app: FastifyInstance | undefined;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    log(`PostgreSQL: database ${name} on ${redact(serverUrl)}: migrate and seed ${DEMO_EVENTS} events`);
    const opened = await openDatabase({ url: url.href, poolSize: CONCURRENCY });
    database = opened;
    const migrated = await timed(() => opened.migrate());
    const seeded = await timed(() => ensureSeeded(opened.db, { demoEvents: DEMO_EVENTS, seed: DEFAULT_DEMO_SEED }));
    // What autovacuum would soon do on a live server: fresh statistics, no pending work on the new
    // tables competing with the measured requests.
    const vacuumed = await timed(() => opened.db.execute(sql`VACUUM ANALYZE`));
    app = await buildApp({ config: benchConfig(), database: opened });
    const origin = await listen(app);
    const routes = await measureRoutes("PostgreSQL ", origin, API_ROUTES, bare, options);
    return {
      skipped: false,
      server: redact(serverUrl),
      database: name,
      migrateMs: migrated.ms,
      seedMs: seeded.ms,
      vacuumAnalyzeMs: vacuumed.ms,
      routes,
    };
  } finally {
    await app?.close().catch(() => {});
    await database?.close().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch((error: Error) => {
      log(`could not drop ${name}: ${error.message}`);
    });
    await admin.end().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// 4. JavaScript shipped for the first load of the home page

type AssetFigures = {
  html: { bytes: number; gzipBytes: number };
  inlineModuleScriptBytes: number;
  files: { url: string; bytes: number; gzipBytes: number; preloaded: boolean }[];
  /** Static imports found in the fetched chunks that the HTML did not list (should be 0). */
  notPreloaded: number;
  totalBytes: number;
  totalGzipBytes: number;
};

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)?.slice(1).find(Boolean);
const gzipSize = (data: Buffer) => gzipSync(data, { level: 9 }).length;

/** Static import specifiers of a module's source (`import … from "x"`, `import "x"`, `export … from "x"`). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{},\s]*?from\s*)?["']([^"']+)["']/g;
  for (const match of source.matchAll(pattern)) found.push(match[1]);
  return found;
}

async function assets(origin: string, pathname: string): Promise<AssetFigures> {
  const page = await fetch(`${origin}${pathname}`, { signal: AbortSignal.timeout(30_000) });
  if (page.status !== 200) throw new Error(`GET ${pathname} answered ${page.status}`);
  const html = await page.text();
  const listed = new Set<string>();
  let inlineBytes = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const tag = match[1];
    if (attribute(tag, "type") !== "module") continue;
    const src = attribute(tag, "src");
    if (src) listed.add(new URL(src, `${origin}/`).href);
    else {
      inlineBytes += Buffer.byteLength(match[2]);
      for (const specifier of staticImports(match[2])) listed.add(new URL(specifier, `${origin}/`).href);
    }
  }
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = match[0];
    const href = attribute(tag, "href");
    if (href && attribute(tag, "rel")?.toLowerCase() === "modulepreload") listed.add(new URL(href, `${origin}/`).href);
  }
  if (listed.size === 0) throw new Error(`no module script found in ${pathname}`);

  // Fetch each listed file, and any static import they make that the page did not list.
  const queue = [...listed];
  const seen = new Set(queue);
  const files: AssetFigures["files"] = [];
  while (queue.length && files.length < MAX_ASSETS) {
    const url = queue.shift()!;
    if (new URL(url).origin !== origin) {
      log(`  skipped ${url}: not served by this server`);
      continue;
    }
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    files.push({
      url: new URL(url).pathname,
      bytes: body.length,
      gzipBytes: gzipSize(body),
      preloaded: listed.has(url),
    });
    for (const specifier of staticImports(body.toString("utf8"))) {
      const next = new URL(specifier, url).href;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const htmlBytes = Buffer.from(html);
  return {
    html: { bytes: htmlBytes.length, gzipBytes: gzipSize(htmlBytes) },
    inlineModuleScriptBytes: inlineBytes,
    files,
    notPreloaded: files.filter((f) => !f.preloaded).length,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    totalGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}

function assetRows(a: AssetFigures, pathname: string): Row[] {
  const part = `First load of \`${pathname}\``;
  const largest = [...a.files].sort((x, y) => y.bytes - x.bytes)[0];
  return [
    {
      part,
      measure: `JavaScript: ${a.files.length} module files (scripts + modulepreload${a.notPreloaded ? `, ${a.notPreloaded} not preloaded` : ""})`,
      result: `**${kb(a.totalBytes)} raw, ${kb(a.totalGzipBytes)} gzip**; largest ${path.basename(largest.url)} ${kb(largest.bytes)} (${kb(largest.gzipBytes)} gzip)`,
    },
    {
      part,
      measure: `HTML of \`${pathname}\` (for scale)`,
      result: `${kb(a.html.bytes)} raw, ${kb(a.html.gzipBytes)} gzip, of which ${kb(a.inlineModuleScriptBytes)} inline module script`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// 5. Search and pages at 100,000 events, on PGlite and on PostgreSQL

const SEARCH_EVENTS = 100_000;
/** Reused between runs (git-ignored): seeding 100,000 events takes minutes. */
const SEARCH_PGLITE_DIR = path.join(here, ".data", "pglite-100k", "pgdata");
const SEARCH_PG_DATABASE = "dossard_bench_100k";

/** The filter combinations measured, as the URL query of `GET /api/events`. */
function searchQueries(today: string): { key: string; name: string; query: string }[] {
  const day = (offset: number) => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + offset);
    return d.toISOString().slice(0, 10);
  };
  return [
    {
      key: "text-sport-region-dates",
      name: "(1) text + sport + region + dates",
      query: `q=lac&sport=trail&region=84&from=${day(0)}&to=${day(90)}`,
    },
    { key: "radius", name: "(2) 50 km around Lyon", query: "place=69123&radius=50" },
    { key: "elevation-month", name: "(3) elevation band + month", query: "elevation=1000-2000&range=next_month" },
    { key: "none", name: "(4) no filters", query: "" },
  ];
}

type Timing = { n: number; median: number; p95: number; min: number; max: number };
function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

type SearchQueryFigure = {
  key: string;
  name: string;
  url: string;
  total: number;
  /** The API as served: slow totals and facets are reused for 30 s by the search service. */
  api: Timing;
  /** The API with the service's caches cleared before each request: total and facets recomputed. */
  apiUncached: Timing;
  /** The statement of `statement(query)`, run directly on the same connection (pool). */
  sql: Timing;
  ratio: number;
  ratioUncached: number;
};

type EngineFigures = {
  engine: "PGlite" | "PostgreSQL";
  where: string;
  version: string;
  events: number;
  /** null when the data was already there. */
  seedMs: number | null;
  vacuumMs: number | null;
  openMs: number;
  queries: SearchQueryFigure[];
  pages: RouteFigure[];
};

type SearchFigures = { engines: EngineFigures[]; skipped: { engine: string; reason: string }[] };

type RawQuery = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;
function rawQuery(database: Database): RawQuery {
  if (database.pglite) {
    const client = database.pglite;
    return (text, params) => client.query(text, params);
  }
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  return (text, params) => pool.query(text, params);
}

/**
 * Brings a database to exactly SEARCH_EVENTS demo events, as scripts/db-seed.ts does (migrations,
 * reference data, events in rounds of 2,000), reusing what is there when the count is right; then
 * VACUUM ANALYZE when the events table has never been analysed.
 */
async function ensure100k(database: Database, label: string) {
  await database.migrate();
  await loadReferenceData(database.db, { log: () => {} });
  const existing = await countEvents(database.db);
  let seedMs: number | null = null;
  if (existing !== SEARCH_EVENTS) {
    if (existing > 0) {
      log(`${label}: ${grouped(existing)} events, not ${grouped(SEARCH_EVENTS)}: emptying the catalogue`);
      await resetEventCatalogue(database.db);
    }
    log(`${label}: seeding ${grouped(SEARCH_EVENTS)} demo events (once; minutes)`);
    const seeded = await timed(() =>
      seedDemoCatalogue(database.db, { count: SEARCH_EVENTS, seed: DEFAULT_DEMO_SEED, chunkSize: 2_000 }),
    );
    seedMs = seeded.ms;
  } else log(`${label}: ${grouped(existing)} events already there: reused`);
  const query = rawQuery(database);
  const stats = (await query("SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'events'")).rows as {
    n: number;
  }[];
  let vacuumMs: number | null = null;
  if (seedMs !== null || !(stats[0]?.n >= 0)) {
    log(`${label}: VACUUM (ANALYZE)`);
    vacuumMs = (await timed(() => query("VACUUM (ANALYZE)"))).ms;
  }
  return { seedMs, vacuumMs };
}

async function measureSearch(
  app: FastifyInstance,
  database: Database,
  label: string,
  options: Options,
): Promise<SearchQueryFigure[]> {
  const query = rawQuery(database);
  const search = app.services.search;
  const today = new Date().toISOString().slice(0, 10);
  const figures: SearchQueryFigure[] = [];
  const requests = options.quick ? 50 : 200;
  const warmup = options.quick ? 5 : 20;
  for (const item of searchQueries(today)) {
    const url = `/api/events${item.query ? `?${item.query}` : ""}`;
    const parsed = searchQuerySchema.parse(Object.fromEntries(new URLSearchParams(item.query)));
    const statement = await search.statement(parsed);
    const inject = async () => {
      const response = await app.inject({ method: "GET", url });
      if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body}`);
      return response;
    };
    const first = await inject();
    const total = (first.json() as { total: number }).total;
    for (let i = 0; i < warmup; i++) {
      await inject();
      await query(statement.sql, statement.params);
    }
    // Interleaved, one of each per round, so that the three series share the machine's drift.
    const api: number[] = [];
    const apiUncached: number[] = [];
    const bareSql: number[] = [];
    const deadline = performance.now() + (options.quick ? 20_000 : 90_000);
    for (let i = 0; i < requests && performance.now() < deadline; i++) {
      let started = performance.now();
      await inject();
      api.push(performance.now() - started);
      search.invalidate();
      started = performance.now();
      await inject();
      apiUncached.push(performance.now() - started);
      started = performance.now();
      await query(statement.sql, statement.params);
      bareSql.push(performance.now() - started);
    }
    const figure: SearchQueryFigure = {
      ...item,
      url,
      total,
      api: timing(api),
      apiUncached: timing(apiUncached),
      sql: timing(bareSql),
      ratio: 0,
      ratioUncached: 0,
    };
    figure.ratio = figure.api.median / figure.sql.median;
    figure.ratioUncached = figure.apiUncached.median / figure.sql.median;
    log(
      `${label} ${item.name} (${grouped(total)} events): API ${ms(figure.api.median)} / p95 ${ms(figure.api.p95)}, ` +
        `uncached ${ms(figure.apiUncached.median)} / p95 ${ms(figure.apiUncached.p95)}, SQL ${ms(figure.sql.median)} / ` +
        `p95 ${ms(figure.sql.p95)} (${figure.api.n} rounds)`,
    );
    figures.push(figure);
  }
  return figures;
}

async function searchEngine(
  engine: "PGlite" | "PostgreSQL",
  database: Database,
  where: string,
  openMs: number,
  bare: Bare,
  options: Options,
): Promise<EngineFigures> {
  const { seedMs, vacuumMs } = await ensure100k(database, engine);
  const query = rawQuery(database);
  const version = ((await query("SHOW server_version")).rows[0] as { server_version: string }).server_version;
  const events = await countEvents(database.db);
  const { build, clientDir } = await loadServerBuild();
  const app = await buildApp({ config: benchConfig(), database, build, clientDir });
  try {
    const queries = await measureSearch(app, database, engine, options);
    // An upcoming event with a track: the richest kind of event page.
    const picked = (
      await query(
        `SELECT e.slug FROM events e JOIN courses c ON c.event_id = e.id JOIN tracks t ON t.course_id = c.id
         WHERE e.start_date >= current_date AND NOT e.cancelled ORDER BY e.id LIMIT 1`,
      )
    ).rows[0] as { slug: string } | undefined;
    if (!picked) throw new Error("no upcoming event with a track");
    const origin = await listen(app);
    const pages = await measureRoutes(
      `${engine} 100k `,
      origin,
      [
        { name: "GET / (server-rendered home page)", path: "/" },
        {
          name: "GET /course/:slug (server-rendered event page)",
          path: pagePath("event", "fr", { slug: picked.slug }),
        },
      ],
      bare,
      options,
    );
    return { engine, where, version, events, seedMs, vacuumMs, openMs, queries, pages };
  } finally {
    await app.close();
  }
}

async function searchPart(options: Options, bare: Bare): Promise<SearchFigures> {
  const figures: SearchFigures = { engines: [], skipped: [] };
  fs.mkdirSync(path.dirname(SEARCH_PGLITE_DIR), { recursive: true });
  log(`PGlite: opening ${path.relative(root, SEARCH_PGLITE_DIR)}`);
  const opened = await timed(() => openDatabase({ dataDir: SEARCH_PGLITE_DIR }));
  try {
    await ping(opened.value);
    figures.engines.push(
      await searchEngine("PGlite", opened.value, path.relative(root, SEARCH_PGLITE_DIR), opened.ms, bare, options),
    );
  } finally {
    await opened.value.close();
  }

  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    figures.skipped.push({ engine: "PostgreSQL", reason: "BENCH_DATABASE_URL is not set" });
    return figures;
  }
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [SEARCH_PG_DATABASE]);
    if (exists.rowCount === 0) {
      log(`PostgreSQL: creating database ${SEARCH_PG_DATABASE} (kept for later runs)`);
      await admin.query(`CREATE DATABASE ${SEARCH_PG_DATABASE}`);
    }
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(serverUrl);
  url.pathname = `/${SEARCH_PG_DATABASE}`;
  const database = await timed(() => openDatabase({ url: url.href, poolSize: CONCURRENCY }));
  try {
    figures.engines.push(
      await searchEngine(
        "PostgreSQL",
        database.value,
        `${SEARCH_PG_DATABASE} on ${redact(serverUrl)}`,
        database.ms,
        bare,
        options,
      ),
    );
  } finally {
    await database.value.close();
  }
  return figures;
}

/** Its own table: the search rows compare the API with its SQL, not with bare Fastify. */
function searchTable(f: SearchFigures): string {
  const header = [
    "Engine",
    "Query (`GET /api/events?…`)",
    "Matches",
    "API median",
    "API p95",
    "API, counts recomputed: median / p95",
    "Bare SQL median",
    "Bare SQL p95",
    "API ÷ SQL (medians; counts recomputed)",
  ];
  const lines: string[][] = [];
  for (const e of f.engines) {
    for (const q of e.queries) {
      lines.push([
        e.engine,
        `${q.name}: \`${q.url}\``,
        grouped(q.total),
        `**${ms(q.api.median)}**`,
        `**${ms(q.api.p95)}**`,
        `${ms(q.apiUncached.median)} / ${ms(q.apiUncached.p95)}`,
        ms(q.sql.median),
        ms(q.sql.p95),
        `**${grouped(q.ratio, 2)}×**; ${grouped(q.ratioUncached, 2)}×`,
      ]);
    }
  }
  const pageHeader = [
    "Engine",
    "Page (100,000 events)",
    "Requests/s",
    "Median latency",
    "p95 latency",
    "vs bare Fastify",
  ];
  const pageLines: string[][] = [];
  for (const e of f.engines) {
    for (const p of e.pages) {
      pageLines.push([
        e.engine,
        p.name,
        `**${grouped(p.load.requestsPerSecond, 1)} req/s**${p.load.errors ? ` (${p.load.errors} errors)` : ""} (bare ${grouped(p.bare.requestsPerSecond)})`,
        ms(p.load.latencyMs.median),
        ms(p.load.latencyMs.p95),
        ratio(p.ratioToBare),
      ]);
    }
  }
  const render = (h: string[], rows: string[][]) =>
    [h, h.map(() => "---"), ...rows]
      .map((cells) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`)
      .join("\n");
  const notes = [
    ...f.engines.map(
      (e) =>
        `${e.engine} ${e.version} (${e.where}): ${grouped(e.events)} events; ` +
        (e.seedMs === null ? "data reused" : `seeded in ${ms(e.seedMs)}`) +
        (e.vacuumMs === null ? "" : `, VACUUM ANALYZE ${ms(e.vacuumMs)}`) +
        `; opened in ${ms(e.openMs)}.`,
    ),
    ...f.skipped.map((s) => `${s.engine}: skipped, ${s.reason}.`),
  ];
  return `${render(header, lines)}\n\n${render(pageHeader, pageLines)}\n\n${notes.join("\n")}`;
}

// ---------------------------------------------------------------------------------------------
// 6. Lighthouse on three pages

/** A free port on 127.0.0.1, so that PUBLIC_URL (canonical links, sitemap) is the origin audited. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

async function lighthousePart(
  options: Options,
  database: Database,
  deadline: number,
): Promise<LighthouseFigures & { skipped?: string }> {
  if (!fs.existsSync(CHROME_PATH)) {
    return {
      chrome: "none",
      lighthouse: "",
      formFactor: "",
      failures: [],
      pages: [],
      skipped: `${CHROME_PATH} is missing`,
    };
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { build, clientDir } = await loadServerBuild();
  const app = await buildApp({ config: benchConfig(origin), database, build, clientDir });
  try {
    await app.listen({ host: "127.0.0.1", port });
    // An event page through the search service: the first upcoming trail in the results.
    const response = await fetch(`${origin}/api/events?sport=trail`, { signal: AbortSignal.timeout(30_000) });
    if (response.status !== 200) throw new Error(`GET /api/events answered ${response.status}`);
    const found = (await response.json()) as { items: { slug: string }[] };
    const slug = found.items[0]?.slug;
    if (!slug) throw new Error("the search found no trail event to audit");
    const pages = [
      { name: "Home", path: "/" },
      { name: "Search with filters", path: "/?sport=trail&region=84&range=next_month" },
      { name: "Event page", path: pagePath("event", "fr", { slug }) },
    ];
    // Filtered searches are `noindex` by design (home.tsx): the indexable page for the same sport and
    // region is its landing page, audited too so that the SEO goal can be read on what is indexed.
    const filters = (await (await fetch(`${origin}/api/filters`, { signal: AbortSignal.timeout(30_000) })).json()) as {
      sports?: { key: string; slugFr: string }[];
      regions?: { code: string; slug: string }[];
    };
    const sport = filters.sports?.find((s) => s.key === "trail")?.slugFr;
    const region = filters.regions?.find((r) => r.code === "84")?.slug;
    if (sport && region) {
      pages.splice(2, 0, {
        name: "Landing, same sport and region",
        path: pagePath("landingSportRegion", "fr", { sport, region }),
      });
    } else log("lighthouse: no trail/84 landing page found in /api/filters, audited without it");
    for (const page of pages) await expectOk(`${origin}${page.path}`);
    const runs = options.quick ? 1 : 3;
    log(`lighthouse: ${pages.length} pages × ${runs} run(s), mobile, ${CHROME_PATH}`);
    return await runLighthouse(origin, pages, runs, deadline, log);
  } finally {
    await app.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The run

function table(rows: Row[]): string {
  const header = ["Part", "Measure", "Result", "Median latency", "p95 latency", "vs bare Fastify"];
  const lines = rows.map((r) => [r.part, r.measure, r.result, r.median ?? "—", r.p95 ?? "—", r.ratio ?? "—"]);
  const escapeCell = (cell: string) => cell.replaceAll("|", "\\|");
  return [header, header.map(() => "---"), ...lines]
    .map((cells) => `| ${cells.map(escapeCell).join(" | ")} |`)
    .join("\n");
}

async function main() {
  const options = parseOptions();
  const limitMs =
    HARD_LIMIT_MS +
    (options.parts.has("search") ? SEARCH_EXTRA_MS : 0) +
    (options.parts.has("lighthouse") ? LIGHTHOUSE_EXTRA_MS : 0) +
    (options.parts.has("pages") ? PAGES_EXTRA_MS : 0) +
    (options.parts.has("uploads") ? UPLOADS_EXTRA_MS : 0) +
    (options.parts.has("results-uploads") ? UPLOADS_EXTRA_MS : 0) +
    (options.parts.has("poster-basemaps") ? POSTER_BASEMAPS_EXTRA_MS : 0) +
    (["mail", "accounts", "fault"].some((p) => options.parts.has(p as Part)) ? SERVER_PARTS_EXTRA_MS : 0);
  const runDeadline = Date.now() + limitMs - 60_000;
  const hardStop = setTimeout(() => {
    console.error(`[bench] still running after ${limitMs / 60_000} minutes: aborting`);
    process.exit(3);
  }, limitMs);
  hardStop.unref();

  const started = performance.now();
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    /** 1-minute load average before and after: other work on the machine skews every figure. */
    loadAverage: { before: os.loadavg()[0], after: Number.NaN },
  };
  if (machine.loadAverage.before > 1) {
    log(`load average ${machine.loadAverage.before.toFixed(2)} before the run: something else is using the CPUs`);
  }
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine,
    options: { ...options, parts: [...options.parts], concurrency: CONCURRENCY },
  };
  const rows: Row[] = [];
  const needServer = options.parts.has("http") || options.parts.has("assets");
  const needBare =
    options.parts.has("http") ||
    options.parts.has("postgres") ||
    options.parts.has("search") ||
    options.parts.has("pages");
  let searchFigures: SearchFigures | undefined;
  let pagesFigures: PagesFigures | undefined;
  let pagesBare: LoadResult | undefined;
  let uploadsFigures: UploadsFigures | undefined;
  let resultsUploadsFigures: ResultsUploadsFigures | undefined;
  let lighthouseFigures: (LighthouseFigures & { skipped?: string }) | undefined;
  let mailFigures: MailFigures | undefined;
  let resultsImportFigures: ResultsImportFigures | undefined;
  let accountsFigures: AccountsFigures | undefined;
  let rankingsFigures: RankingsFigures | undefined;
  let faultFigures: FaultFigures | undefined;
  let postersFigures: PostersFigures | undefined;
  let posterBasemapsFigures: PosterBasemapsFigures | undefined;
  let activitiesSyncFigures: ActivitiesSyncFigures | undefined;

  const cleanup: (() => Promise<unknown>)[] = [];
  try {
    let serverDatabase: Database | undefined;
    if (options.parts.has("startup")) {
      const { figures, database } = await startup(options, needServer);
      results.startup = figures;
      rows.push(...startupRows(figures));
      serverDatabase = database;
    }

    const bare: Bare = { origin: "", runs: [] };
    /** Where the reference row goes: before the first HTTP row. */
    let bareRowAt = -1;
    let bareRowPart = "";
    if (needBare) {
      const started = await startBare();
      cleanup.push(() => started.app.close());
      bare.origin = started.origin;
    }

    if (needServer) {
      if (!serverDatabase) {
        log(`seeding an in-memory PGlite with ${DEMO_EVENTS} demo events for the server`);
        serverDatabase = await seededPglite(DEMO_EVENTS);
      }
      const database = serverDatabase;
      cleanup.push(() => database.close());
      const { build, clientDir, builtAt, stale } = await loadServerBuild();
      results.build = { builtAt, staleAgainstSources: stale };
      const app = await buildApp({ config: benchConfig(), database, build, clientDir });
      cleanup.unshift(() => app.close());
      const origin = await listen(app);

      if (options.parts.has("http")) {
        const routes = await measureRoutes("", origin, SERVER_ROUTES, bare, options);
        results.http = { routes };
        bareRowAt = rows.length;
        bareRowPart = "HTTP (reference)";
        rows.push(...routeRows(`HTTP, PGlite, ${grouped(DEMO_EVENTS)} events`, routes));
      }

      if (options.parts.has("assets")) {
        // The home page, and an event page through the search service: the first upcoming trail.
        const found = await fetch(`${origin}/api/events?sport=trail`, { signal: AbortSignal.timeout(30_000) });
        if (found.status !== 200) throw new Error(`GET /api/events answered ${found.status}`);
        const slug = ((await found.json()) as { items: { slug: string }[] }).items[0]?.slug;
        if (!slug) throw new Error("the search found no trail event for the assets part");
        results.assets = {};
        for (const [name, pathname] of [
          ["home", "/"],
          ["event", pagePath("event", "fr", { slug })],
        ]) {
          log(`first load of ${pathname}: module scripts and modulepreload links`);
          const figures = await assets(origin, pathname);
          (results.assets as Record<string, AssetFigures>)[name] = figures;
          rows.push(...assetRows(figures, pathname));
        }
      }
    }

    if (options.parts.has("postgres")) {
      const figures = await postgres(options, bare);
      results.postgres = figures;
      if (figures.skipped) {
        log(`PostgreSQL part skipped: ${figures.reason}`);
        rows.push({ part: "HTTP, PostgreSQL", measure: "API routes", result: `skipped: ${figures.reason}` });
      } else {
        if (bareRowAt < 0) {
          bareRowAt = rows.length;
          bareRowPart = "HTTP (reference)";
        }
        rows.push({
          part: "HTTP, PostgreSQL",
          measure: `Migrate + seed ${grouped(DEMO_EVENTS)} events on the server`,
          result: `${ms(figures.migrateMs)} + ${ms(figures.seedMs)} (then \`VACUUM ANALYZE\` ${ms(figures.vacuumAnalyzeMs)})`,
        });
        rows.push(...routeRows(`HTTP, PostgreSQL, ${grouped(DEMO_EVENTS)} events`, figures.routes));
      }
    }
    if (options.parts.has("search")) {
      searchFigures = await searchPart(options, bare);
      results.search = searchFigures;
      if (bareRowAt < 0) {
        bareRowAt = rows.length;
        bareRowPart = "HTTP (reference)";
      }
    }
    if (options.parts.has("lighthouse")) {
      let database = serverDatabase;
      if (!database) {
        log(`seeding an in-memory PGlite with ${DEMO_EVENTS} demo events for Lighthouse`);
        const seeded = await seededPglite(DEMO_EVENTS);
        cleanup.push(() => seeded.close());
        database = seeded;
      }
      lighthouseFigures = await lighthousePart(options, database, runDeadline);
      results.lighthouse = lighthouseFigures;
      if (lighthouseFigures.skipped) log(`Lighthouse part skipped: ${lighthouseFigures.skipped}`);
    }
    if (options.parts.has("pages")) {
      pagesBare = await measure("bare Fastify (reference for the pages part)", bare.origin, "/", {
        durationMs: options.bareDurationMs,
        warmupMs: options.warmupMs,
      });
      bare.runs.push(pagesBare);
      pagesFigures = await pagesPart({
        baseline: options.baseline,
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
        concurrency: CONCURRENCY,
        dataRoot: path.join(here, ".data"),
      });
      results.pages = pagesFigures;
      if (bareRowAt < 0) {
        bareRowAt = rows.length;
        bareRowPart = "HTTP (reference)";
      }
    }
    if (options.parts.has("uploads")) {
      uploadsFigures = await uploadsPart({
        baseline: options.baseline,
        durationMs: options.durationMs * 2,
        warmupMs: options.warmupMs,
      });
      results.uploads = uploadsFigures;
    }
    if (options.parts.has("results-uploads")) {
      resultsUploadsFigures = await resultsUploadsPart({
        durationMs: options.durationMs * 2,
        warmupMs: options.warmupMs,
      });
      results.resultsUploads = resultsUploadsFigures;
    }
    if (options.parts.has("results-import")) {
      resultsImportFigures = await resultsImportPart();
      results.resultsImport = resultsImportFigures;
    }
    if (options.parts.has("mail")) {
      mailFigures = await mailPart({ quick: options.quick });
      results.mail = mailFigures;
    }
    if (options.parts.has("accounts")) {
      accountsFigures = await accountsPart({ quick: options.quick, baseline: options.baseline });
      results.accounts = accountsFigures;
    }
    if (options.parts.has("rankings")) {
      rankingsFigures = await rankingsPart({ quick: options.quick });
      results.rankings = rankingsFigures;
    }
    if (options.parts.has("fault")) {
      faultFigures = await faultPart({ quick: options.quick });
      results.fault = faultFigures;
    }
    if (options.parts.has("posters")) {
      postersFigures = await postersPart({ quick: options.quick });
      results.posters = postersFigures;
    }
    if (options.parts.has("poster-basemaps")) {
      posterBasemapsFigures = await posterBasemapsPart({ quick: options.quick });
      results.posterBasemaps = posterBasemapsFigures;
    }
    if (options.parts.has("activities-sync")) {
      activitiesSyncFigures = await activitiesSyncPart({ quick: options.quick });
      results.activitiesSync = activitiesSyncFigures;
    }
    if (bare.runs.length) {
      results.bare = { runs: bare.runs };
      rows.splice(bareRowAt, 0, bareRow(bareRowPart, bare));
    }
  } finally {
    for (const close of cleanup) await close().catch((error: Error) => log(`close failed: ${error.message}`));
  }

  results.totalMs = performance.now() - started;
  machine.loadAverage.after = os.loadavg()[0];
  fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
  fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);

  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  console.log(
    `\n## Dossard benchmarks — ${date} UTC, commit ${results.commit}, ${machine.cpus} cores (${machine.cpuModel}), Node ${machine.node}` +
      `${options.quick ? ", --quick" : ""}\n`,
  );
  if (rows.length) console.log(table(rows));
  if (searchFigures)
    console.log(`\n### Search and pages at ${grouped(SEARCH_EVENTS)} events\n\n${searchTable(searchFigures)}`);
  if (pagesFigures && pagesBare)
    console.log(
      `\n### Pages as \`npm start\` serves them (PGlite, ${grouped(DEMO_EVENTS)} events)\n\n${pagesTable(pagesFigures)}; ` +
        `bare Fastify ${grouped(pagesBare.requestsPerSecond)} req/s in the same run.`,
    );
  if (uploadsFigures)
    console.log(
      `\n### While two clients upload the largest GPX allowed (PGlite, ${grouped(DEMO_EVENTS)} events)\n\n` +
        uploadsTable(uploadsFigures),
    );
  if (resultsUploadsFigures)
    console.log(
      `\n### While two organisers send the largest results files allowed (PGlite, ${grouped(RESULTS_BENCH_EVENTS)} events)\n\n` +
        resultsUploadsTable(resultsUploadsFigures),
    );
  if (lighthouseFigures)
    console.log(
      `\n### Lighthouse, PGlite, ${grouped(DEMO_EVENTS)} events\n\n${
        lighthouseFigures.skipped ? `Skipped: ${lighthouseFigures.skipped}.` : lighthouseTable(lighthouseFigures)
      }`,
    );
  if (resultsImportFigures)
    console.log(
      `\n### Results import, PGlite (one process, job included)\n\n${resultsImportTable(resultsImportFigures)}\n\n` +
        `### Results page query on the imported course\n\n${resultsPageTable(resultsImportFigures.page)}`,
    );
  if (mailFigures)
    console.log(
      `\n### Mail delivery (server as \`npm start\` runs it, local SMTP server)\n\n${mailTable(mailFigures)}`,
    );
  if (accountsFigures)
    console.log(`\n### Registration and recovery, known vs unknown addresses\n\n${accountsTable(accountsFigures)}`);
  if (rankingsFigures)
    console.log(`\n### Community rankings over members' results\n\n${rankingsTable(rankingsFigures)}`);
  if (faultFigures)
    console.log(`\n### Load and fault (server as \`npm start\` runs it)\n\n${faultTables(faultFigures)}`);
  if (postersFigures)
    console.log(
      `\n### Posters (renderer and exports in process, preview in Chromium)\n\n${postersTable(postersFigures)}`,
    );
  if (posterBasemapsFigures)
    console.log(
      `\n### Posters with map data (basemap layer at 300 dpi, exports; in process)\n\n${posterBasemapsTable(posterBasemapsFigures)}`,
    );
  if (activitiesSyncFigures)
    console.log(
      `\n### First Strava sync under the rate limit (fake Strava, simulated clock, PGlite)\n\n${activitiesSyncTable(activitiesSyncFigures)}`,
    );
  console.log(
    `\n${
      needBare || needServer
        ? `${CONCURRENCY} concurrent keep-alive clients in a worker thread, ${options.durationMs / 1000} s per route after ` +
          `${options.warmupMs / 1000} s of warm-up. `
        : ""
    }Raw figures: ${path.relative(root, resultsFile)} ` +
      `(whole run ${grouped((results.totalMs as number) / 1000, 0)} s; 1-minute load average ` +
      `${machine.loadAverage.before.toFixed(2)} before, ${machine.loadAverage.after.toFixed(2)} after).`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
