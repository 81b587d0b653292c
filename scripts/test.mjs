#!/usr/bin/env node
// `npm test`: the whole suite — lint, types, i18n, build, then unit, component, API (PGlite, and the
// real PostgreSQL when TEST_DATABASE_URL is set) and browser journeys — with one closing count.
//
// Three lanes run side by side (docs/test-suite-timing.md): the checks (build first, then lint, i18n
// and types), the Vitest projects that need no build (unit, unit-isolated, component, api, api-pg;
// a little below the others in priority), and the browser journeys (e2e), whose global setup
// prepares its database meanwhile and starts the server
// once the build step has succeeded (told through the file in DOSSARD_BUILD_STATUS). Each step's
// output is printed in one block when it ends (a check's only when it fails), then one line per
// Vitest project, then the count.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const RESULTS = "test-results";
fs.mkdirSync(RESULTS, { recursive: true });
const suiteStarted = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs a command with its output captured (and kept in test-results/<log>.log); `nice` lowers its
 * CPU priority (and its children's) where `nice` exists.
 */
const canNice = spawnSync("nice", ["true"]).status === 0;
function run(name, command, args, { env = {}, log = name, nice = 0 } = {}) {
  if (nice && canNice) [command, args] = ["nice", ["-n", String(nice), command, ...args]];
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("error", (error) => chunks.push(Buffer.from(`${error.stack ?? error}\n`)));
    child.on("close", (code) => {
      const output = Buffer.concat(chunks).toString();
      fs.writeFileSync(`${RESULTS}/${log}.log`, output);
      resolve({ name, ok: code === 0, ms: Date.now() - started, output });
    });
  });
}

const failures = [];
/** Prints a finished step: its output (for checks, only on failure) and its status line. */
function report(step, { showOutput }) {
  if (!step.ok) failures.push(step.name);
  console.log(`\n▶ ${step.name}`);
  if (showOutput || !step.ok) process.stdout.write(step.output.endsWith("\n") ? step.output : `${step.output}\n`);
  console.log(`  ${step.name}: ${step.ok ? "ok" : "FAILED"} (${seconds(step.ms)})`);
  return step;
}

const summaryFile = (lane) => `${RESULTS}/projects-${lane}.json`;
const buildStatus = path.resolve(RESULTS, "build.status");
fs.rmSync(buildStatus, { force: true });

function vitest(lane, projects, { nice = 0 } = {}) {
  fs.rmSync(summaryFile(lane), { force: true });
  return run(
    `vitest ${lane} (${projects.join(", ")})`,
    "npx",
    [
      "vitest",
      "run",
      ...projects.flatMap((p) => ["--project", p]),
      "--reporter=default",
      "--reporter=./tests/project-summary-reporter.ts",
    ],
    {
      env: { VITEST_PROJECT_SUMMARY: summaryFile(lane), DOSSARD_BUILD_STATUS: buildStatus },
      log: `vitest-${lane}`,
      nice,
    },
  ).then((step) => report(step, { showOutput: true }));
}

const checks = (async () => {
  // The journeys are the longest lane and wait for the build: the build runs at normal priority,
  // the other checks (nothing waits for them) below everything else.
  const steps = [
    ["build", ["npx", "react-router", "build"], 0],
    ["lint", ["npx", "biome", "check", "."], 10],
    ["i18n", ["npx", "tsx", "scripts/check-i18n.ts"], 10],
    ["typecheck", ["npm", "run", "--silent", "typecheck"], 10],
  ];
  for (const [name, [command, ...args], nice] of steps) {
    const step = report(await run(name, command, args, { nice }), { showOutput: false });
    if (name === "build") fs.writeFileSync(buildStatus, step.ok ? "ok" : "failed");
  }
})();

const journeys = vitest("browser", ["e2e"]);
// A little below the journeys, which run one at a time and finish last when they have to share the
// cores evenly (docs/test-suite-timing.md, session 10).
const withoutBuild = vitest(
  "node",
  ["unit", "unit-isolated", "component", "api", ...(process.env.TEST_DATABASE_URL ? ["api-pg"] : [])],
  { nice: 5 },
);

await checks;
const lanes = await Promise.all([withoutBuild, journeys]);

let passed = 0;
let failed = 0;
let skipped = 0;
console.log(`\nnpm test: ${seconds(Date.now() - suiteStarted)} in all`);
for (const [lane, step] of [
  ["node", lanes[0]],
  ["browser", lanes[1]],
]) {
  const summaries = fs.existsSync(summaryFile(lane)) ? JSON.parse(fs.readFileSync(summaryFile(lane), "utf8")) : [];
  let laneFailed = 0;
  for (const s of summaries) {
    console.log(
      `  ${s.project.padEnd(13)} ${s.passed} passed · ${s.failed} failed${s.skipped ? ` · ${s.skipped} skipped` : ""} · ${s.files} files · ${seconds(s.wallMs)}`,
    );
    passed += s.passed;
    laneFailed += s.failed;
    skipped += s.skipped;
  }
  // A run that failed without a failed test (global setup, unhandled error) still counts as one.
  failed += !step.ok && laneFailed === 0 ? 1 : laneFailed;
}
// A failed non-vitest step counts as a failed check so the closing line never hides it.
failed += failures.filter((f) => !f.startsWith("vitest")).length;
if (failures.length) console.log(`\nFailed steps: ${failures.join(", ")}`);
console.log(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failures.length || failed ? 1 : 0);
