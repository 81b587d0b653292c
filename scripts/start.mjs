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
  console.log(builtAt ? "[dossard] sources changed, rebuilding…" : "[dossard] building the site…");
  const result = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
