/**
 * The server as `npm start` runs it, for the benchmark parts that need a real one (mail, accounts,
 * fault): the production build (rebuilt when older than the sources), `node --import tsx
 * server/main.ts` as a direct child — so that SIGKILL reaches the server itself, not a wrapper —
 * and PGlite in a data folder copied from a seeded one kept under bench/.data/.
 *
 * Requests can come from many client addresses: the whole of 127.0.0.0/8 is this machine, so a
 * request bound to 127.1.2.3 reaches the server from that address. Per-IP limits (10 registrations
 * an hour) then apply to each simulated visitor as they would in production, with no proxy header.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";
import { freePort, type ServerProcess } from "../tests/e2e/server-process.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "..");
export const dataRoot = path.join(here, ".data");

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

const SOURCES = ["app", "shared", "features", "locales", "public", "vite.config.ts", "react-router.config.ts"];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/**
 * What scripts/start.mjs does before starting: build when the build is missing or older than the
 * sources (of this checkout, or of another one given for a before/after comparison).
 */
export function ensureFreshBuild(checkout = root): void {
  const marker = path.join(checkout, "build/server/index.js");
  const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(checkout, s))));
  if (builtAt >= sourcesAt) return;
  log(`${checkout}: build/ is missing or older than the sources: npx react-router build`);
  const result = spawnSync("npx", ["react-router", "build"], {
    cwd: checkout,
    stdio: ["ignore", 2, 2],
    timeout: 600_000,
  });
  if (result.status !== 0) throw new Error(`react-router build failed (exit ${result.status})`);
}

/** The last migration's tag: a seeded folder is reused only by code with the same schema. */
function schemaTag(): string {
  const journal = JSON.parse(fs.readFileSync(path.join(root, "db/migrations/meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.at(-1)?.tag ?? "none";
}

export type RunningServer = ServerProcess & { dataDir: string };

/** Starts `node --import tsx server/main.ts` of a checkout (this one by default) on a data folder. */
export async function launch(
  dataDir: string,
  env: Record<string, string> = {},
  checkout = root,
): Promise<RunningServer> {
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: checkout,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      LOG_LEVEL: "warn",
      PORT: String(port),
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      DEMO_EVENTS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const keep = (chunk: Buffer) => {
    text = (text + chunk).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const output = () => text;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start in time:\n${output()}`);
    }
    await sleep(200);
  }
  return {
    baseURL,
    child,
    output,
    dataDir,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * A data folder with the reference data and `events` demo events, seeded once (first start of the
 * server, then a clean stop) and reused by later runs.
 */
export async function seededDataDir(events: number): Promise<string> {
  const dir = path.join(dataRoot, `server-${events}-${schemaTag()}`);
  if (fs.existsSync(path.join(dir, "seeded"))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  log(`seeding ${dir} (${events} demo events, once)`);
  const started = Date.now();
  const server = await launch(dir, { DEMO_EVENTS: String(events) });
  const code = await server.stop("SIGTERM");
  if (code !== 0) throw new Error(`the seeding server stopped with code ${code}:\n${server.output()}`);
  fs.writeFileSync(path.join(dir, "seeded"), `${new Date().toISOString()} in ${Date.now() - started} ms\n`);
  return dir;
}

/** A private copy of a seeded folder, for a server that may be killed or write to it. */
export function copyDataDir(source: string, name: string): string {
  const target = path.join(dataRoot, "runs", `${name}-${process.pid}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.cpSync(source, target, { recursive: true });
  fs.rmSync(path.join(target, "mail"), { recursive: true, force: true });
  return target;
}

export function removeDataDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The n-th simulated visitor's address, in 127.1.0.1 – 127.254.255.254. */
export function clientAddress(n: number): string {
  const value = n + 1;
  return `127.${1 + ((value >> 16) % 254)}.${(value >> 8) & 255}.${value & 255 || 1}`;
}

export type Answer = { status: number; body: string; ms: number; headers: http.IncomingHttpHeaders };

/** One JSON request from a given client address, as the site's own pages send it (access header). */
export function apiRequest(
  origin: string,
  options: { method?: string; path: string; body?: unknown; from?: string; timeoutMs?: number },
): Promise<Answer> {
  const url = new URL(options.path, origin);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? (payload ? "POST" : "GET"),
        localAddress: options.from,
        agent: false,
        headers: {
          [ACCESS_HEADER]: ACCESS_HEADER_VALUE,
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
            headers: response.headers,
          }),
        );
        response.on("error", reject);
      },
    );
    request.setTimeout(options.timeoutMs ?? 30_000, () => request.destroy(new Error("timeout")));
    request.on("error", reject);
    request.end(payload);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A registration body as the sign-up form sends it. */
export function registrationBody(email: string, password = "Bench-password-2026") {
  return {
    email,
    password,
    passwordConfirmation: password,
    firstName: "Bench",
    lastName: "Runner",
    pseudo: "",
    terms: true,
    locale: "fr",
  };
}
