#!/usr/bin/env node
// `npm run test:timings`: keeps each test file's duration from the last `npm test` (its
// test-results/projects-*.json) in tests/file-timings.json, which tests/sequencer.ts reads to start
// the long files first on a machine that has no timings of its own yet (a fresh clone, CI).
import fs from "node:fs";

const RESULTS = "test-results";
const OUT = "tests/file-timings.json";
const timings = {};
const files = fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS).filter((f) => /^projects-.*\.json$/.test(f)) : [];
if (files.length === 0) {
  console.error(`No ${RESULTS}/projects-*.json: run \`npm test\` first.`);
  process.exit(1);
}
// To the tenth of a second: the order needs no more, and the file changes less from run to run.
const tenths = (ms) => Math.round(ms / 100) * 100;
for (const file of files) {
  for (const project of JSON.parse(fs.readFileSync(`${RESULTS}/${file}`, "utf8"))) {
    for (const { file: path, ms } of project.perFile) timings[`${project.project}:${path}`] = tenths(ms);
  }
}
const sorted = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => (a < b ? -1 : 1)));
fs.writeFileSync(OUT, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${OUT}: ${Object.keys(sorted).length} files`);
