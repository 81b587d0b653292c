/**
 * The `pages` part of `npm run bench`: the server as `npm start` runs it (a child process, the
 * production React build, PGlite in a data folder seeded with the 3,200-event demo catalogue), under
 * 10 keep-alive clients, for the pages anonymous visitors open (home, a search, an event page, a
 * landing page, the English home), a signed-in page, `/healthz`, a static file and `/api/events`.
 *
 * `--baseline <checkout>` measures another checkout of Dossard (a `git worktree` of an older commit,
 * built) in the same run, route by route, alternating old and new, so that a before/after table
 * compares figures taken side by side on the same machine.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";
import { freePort } from "../tests/e2e/server-process.ts";
import { type LoadResult, runLoad } from "./load.ts";

export type PageRoute = {
  key: string;
  name: string;
  path: string;
  signedIn?: boolean;
  /** A page an older checkout may not have: measured where it answers 200. */
  optional?: boolean;
};

export type PagesFigures = {
  checkouts: { label: string; dir: string; commit: string }[];
  routes: { key: string; name: string; path: string; results: Record<string, LoadResult> }[];
  htmlBytes: Record<string, Record<string, number>>;
};

export type Running = {
  label: string;
  origin: string;
  child: ChildProcess;
  cookie: string;
  /** Its own build's stylesheet (the file name carries the build's hash). */
  css: string;
  output: () => string;
};

async function stylesheet(origin: string): Promise<string> {
  const html = await (await fetch(`${origin}/`)).text();
  const css = html.match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
  if (!css) throw new Error("no stylesheet link on the home page");
  return css;
}

export function gitCommit(dir: string): string {
  const result = spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" });
  return result.stdout.trim() || "unknown";
}

/** Builds the checkout when its build is missing. */
function ensureBuilt(dir: string) {
  if (fs.existsSync(path.join(dir, "build/server/index.js"))) return;
  console.log(`[bench] building ${dir}…`);
  const result = spawnSync("npx", ["react-router", "build"], { cwd: dir, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`build failed in ${dir}`);
}

async function waitHealthy(origin: string, child: ChildProcess, output: () => string, limitMs: number) {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not healthy after ${limitMs} ms:\n${output()}`);
}

/** A member account for the signed-in page: registered through the API, its session cookie kept. */
async function signIn(origin: string): Promise<string> {
  const email = `bench-${Date.now()}@example.org`;
  const response = await fetch(`${origin}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json", [ACCESS_HEADER]: ACCESS_HEADER_VALUE },
    body: JSON.stringify({
      email,
      password: "Bench-password-2026",
      passwordConfirmation: "Bench-password-2026",
      firstName: "Bench",
      lastName: "Runner",
      terms: true,
    }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  return cookies.join("; ");
}

/** Starts a checkout as `npm start` does, on a free port of 127.0.0.1; `env` adds settings. */
export async function start(
  label: string,
  dir: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Running> {
  ensureBuilt(dir);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let log = "";
  // What `npm start` runs, with the environment it gives the server.
  const { NODE_ENV: _unset, ...environment } = process.env;
  // BENCH_SERVER_NICE (-20…19, Linux): the server and every thread it starts run at that nice value
  // (`nice -n`), to shield the server under test from other work on a shared machine. Unset: as is.
  const nice = process.env.BENCH_SERVER_NICE;
  const [command, args] =
    nice && /^-?\d{1,2}$/.test(nice)
      ? ["nice", ["-n", nice, process.execPath, "scripts/start.mjs"]]
      : [process.execPath, ["scripts/start.mjs"]];
  const child = spawn(command, args, {
    cwd: dir,
    env: {
      ...environment,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      DEMO_EVENTS: "3200",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    log = (log + d).slice(-20_000);
  });
  child.stderr?.on("data", (d) => {
    log = (log + d).slice(-20_000);
  });
  await waitHealthy(origin, child, () => log, 180_000);
  return { label, origin, child, cookie: await signIn(origin), css: await stylesheet(origin), output: () => log };
}

export async function stop(running: Running) {
  if (running.child.exitCode !== null) return;
  const exited = new Promise((r) => running.child.once("exit", r));
  running.child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (running.child.exitCode === null) running.child.kill("SIGKILL");
}

/** An event page, a landing page, a CSS file: found on the running server. */
async function discoverRoutes(origin: string): Promise<PageRoute[]> {
  const list = (await (await fetch(`${origin}/api/events?sport=trail`)).json()) as {
    events?: { slug: string }[];
    items?: { slug: string }[];
  };
  const first = (list.events ?? list.items ?? [])[0];
  if (!first) throw new Error("no trail in the demo catalogue");
  return [
    { key: "healthz", name: "GET /healthz", path: "/healthz" },
    { key: "css", name: "static CSS file (brotli)", path: "(the build's stylesheet)" },
    { key: "api-events", name: "GET /api/events?sport=trail", path: "/api/events?sport=trail" },
    { key: "home", name: "home page /", path: "/" },
    { key: "search", name: "search page /?sport=trail", path: "/?sport=trail" },
    { key: "event", name: "event page /course/…", path: `/course/${first.slug}` },
    { key: "landing", name: "landing page /courses/trail", path: "/courses/trail" },
    { key: "en-home", name: "English home /en", path: "/en" },
    { key: "home-member", name: "home page, signed in", path: "/", signedIn: true },
    { key: "event-member", name: "event page, signed in", path: `/course/${first.slug}`, signedIn: true },
    { key: "account", name: "account page /user/profil, signed in", path: "/user/profil", signedIn: true },
    {
      key: "planning",
      name: "planning page /user/planning, signed in",
      path: "/user/planning",
      signedIn: true,
      optional: true,
    },
  ];
}

async function htmlSize(origin: string, route: PageRoute, cookie: string): Promise<number> {
  const response = await fetch(`${origin}${route.path}`, { headers: route.signedIn ? { cookie } : {} });
  return (await response.arrayBuffer()).byteLength;
}

export async function pagesPart(options: {
  baseline?: string;
  durationMs: number;
  warmupMs: number;
  concurrency: number;
  dataRoot: string;
}): Promise<PagesFigures> {
  const checkouts = [
    ...(options.baseline ? [{ label: "before", dir: path.resolve(options.baseline) }] : []),
    { label: options.baseline ? "after" : "now", dir: path.resolve(".") },
  ];
  const figures: PagesFigures = {
    checkouts: checkouts.map((c) => ({ ...c, commit: gitCommit(c.dir) })),
    routes: [],
    htmlBytes: {},
  };
  const running: Running[] = [];
  try {
    for (const checkout of checkouts) {
      // Each checkout seeds its own data folder once (kept between runs under bench/.data/).
      const dataDir = path.join(
        options.dataRoot,
        `pages-${figures.checkouts.find((c) => c.dir === checkout.dir)?.commit}`,
      );
      fs.mkdirSync(dataDir, { recursive: true });
      console.log(`[bench] starting ${checkout.label} (${checkout.dir})…`);
      running.push(await start(checkout.label, checkout.dir, dataDir));
    }
    // Each checkout's own pages (its demo catalogue may differ: another event page).
    const own = new Map<string, PageRoute[]>();
    for (const server of running) own.set(server.label, await discoverRoutes(server.origin));
    const routes = own.get(running[running.length - 1].label) as PageRoute[];
    for (const shown of routes) {
      const entry = { key: shown.key, name: shown.name, path: shown.path, results: {} as Record<string, LoadResult> };
      for (const server of running) {
        const route = own.get(server.label)?.find((r) => r.key === shown.key) ?? shown;
        // Static files: what a browser asks for (the server may answer precompressed brotli).
        const headers: Record<string, string> = route.signedIn
          ? { cookie: server.cookie }
          : route.key === "css"
            ? { "accept-encoding": "br" }
            : {};
        const routePath = route.key === "css" ? server.css : route.path;
        const probe = await fetch(`${server.origin}${routePath}`, { headers, redirect: "manual" });
        if (probe.status !== 200 && route.optional) {
          console.log(`[bench] ${server.label.padEnd(6)} ${route.name}: not there (${probe.status})`);
          continue;
        }
        if (probe.status !== 200) throw new Error(`${server.label} ${route.path} answered ${probe.status}`);
        await probe.arrayBuffer();
        const htmlBytes = await htmlSize(server.origin, { ...route, path: routePath }, server.cookie);
        figures.htmlBytes[route.key] = { ...figures.htmlBytes[route.key], [server.label]: htmlBytes };
        entry.results[server.label] = await runLoad({
          url: `${server.origin}${routePath}`,
          concurrency: options.concurrency,
          durationMs: options.durationMs,
          warmupMs: options.warmupMs,
          headers,
        });
        const r = entry.results[server.label];
        console.log(
          `[bench] ${server.label.padEnd(6)} ${route.name}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.latencyMs.median.toFixed(1)} ms, p99 ${r.latencyMs.p99.toFixed(1)} ms, errors ${r.errors}`,
        );
      }
      figures.routes.push(entry);
    }
  } finally {
    for (const server of running) await stop(server);
  }
  return figures;
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";

export function pagesTable(f: PagesFigures): string {
  const labels = f.checkouts.map((c) => c.label);
  const head = [
    "route",
    ...labels.flatMap((l) => [`${l} req/s`, `${l} p50 / p99 ms`, `${l} HTML bytes`]),
    ...(labels.length > 1 ? ["ratio"] : []),
  ];
  const lines = [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`];
  for (const route of f.routes) {
    const cells = [route.name];
    for (const label of labels) {
      const r = route.results[label];
      cells.push(
        r ? fmt(r.requestsPerSecond) : "–",
        r ? `${fmt(r.latencyMs.median, 1)} / ${fmt(r.latencyMs.p99, 1)}` : "–",
        fmt(f.htmlBytes[route.key]?.[label] ?? Number.NaN),
      );
    }
    if (labels.length > 1) {
      const [a, b] = labels.map((l) => route.results[l]?.requestsPerSecond ?? Number.NaN);
      cells.push(Number.isFinite(a) && Number.isFinite(b) ? `×${fmt(b / a, 1)}` : "–");
    }
    lines.push(`| ${cells.join(" | ")} |`);
  }
  const commits = f.checkouts.map((c) => `${c.label}: ${c.commit}`).join(", ");
  return `${lines.join("\n")}\n\n(${commits}; ${os.cpus().length} cores, 10 keep-alive clients)`;
}
