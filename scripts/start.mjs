#!/usr/bin/env node
// `npm start`: build when the build is missing or older than the sources, then run the server.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "shared",
  "features",
  "locales",
  "public",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];
const marker = path.resolve("build/server/index.js");

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.resolve(s))));
if (builtAt < sourcesAt) {
  // The settings first: a bad one is named at once, not after the build.
  const check = spawnSync(process.execPath, ["--import", "tsx", "server/main.ts", "--check"], { stdio: "inherit" });
  if (check.status !== 0) process.exit(check.status ?? 1);
  const started = Date.now();
  process.stdout.write(builtAt ? "[dossard] sources changed, rebuilding the site… " : "[dossard] building the site… ");
  // Vite lists every file it writes: shown only when the build fails (or with BUILD_VERBOSE=1).
  const verbose = process.env.BUILD_VERBOSE === "1";
  const result = spawnSync("npx", ["react-router", "build"], {
    stdio: verbose ? "inherit" : ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    console.log("failed:");
    if (!verbose) process.stdout.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
    process.exit(result.status ?? 1);
  }
  console.log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
}

const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { stdio: "inherit" });
let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  server.kill(signal);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));
// `kill -TERM` on `npm start` reaches npm and the shell it started (which dies without passing it
// on), not this process: when this process is orphaned, the server is stopped all the same.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 500).unref();
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
