#!/usr/bin/env node
// `npm test`: the whole suite — lint, types, i18n, build, then unit, component, API (PGlite, and the
// real PostgreSQL when TEST_DATABASE_URL is set) and browser journeys — with one closing count.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const steps = [
  ["lint", ["npx", "biome", "check", "."]],
  ["typecheck", ["npm", "run", "--silent", "typecheck"]],
  ["i18n", ["npx", "tsx", "scripts/check-i18n.ts"]],
  ["build", ["npx", "react-router", "build"]],
];
const failures = [];
for (const [name, [command, ...args]] of steps) {
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  console.log(`  ${name}: ${result.status === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (result.status !== 0) failures.push(name);
}

const projects = ["unit", "component", "api", ...(process.env.TEST_DATABASE_URL ? ["api-pg"] : []), "e2e"];
const report = "test-results/vitest.json";
fs.mkdirSync("test-results", { recursive: true });
fs.rmSync(report, { force: true });
console.log(`\n▶ vitest (${projects.join(", ")})`);
const vitest = spawnSync(
  "npx",
  [
    "vitest",
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ],
  { stdio: "inherit" },
);
if (vitest.status !== 0) failures.push("vitest");

let passed = 0;
let failed = 0;
let skipped = 0;
if (fs.existsSync(report)) {
  const json = JSON.parse(fs.readFileSync(report, "utf8"));
  passed = json.numPassedTests ?? 0;
  failed = json.numFailedTests ?? 0;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
// A failed non-vitest step counts as a failed check so the closing line never hides it.
failed += failures.filter((f) => f !== "vitest").length;
if (failures.length) console.log(`\nFailed steps: ${failures.join(", ")}`);
console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failures.length || failed ? 1 : 0);
