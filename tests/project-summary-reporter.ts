import fs from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export type ProjectSummary = {
  project: string;
  files: number;
  passed: number;
  failed: number;
  skipped: number;
  /** From the first file's start to the last file's end, in ms (wall time, files overlap). */
  wallMs: number;
  /** Time spent in the project's files, added up (import, setup and tests), in ms. */
  fileMs: number;
  /**
   * Each file's time and test count, slowest first, with when it started and ended (ms since the run
   * began): the run's timeline, for docs/test-suite-timing.md.
   */
  perFile: { file: string; ms: number; tests: number; startMs: number; endMs: number }[];
};

/**
 * Writes one summary per project (counts and durations) to the JSON file named by
 * VITEST_PROJECT_SUMMARY (default test-results/projects.json); scripts/test.mjs prints them as one
 * line each before the closing count.
 */
/** A file run by one project (api and api-pg run the same files). */
const fileKey = (testModule: TestModule) => `${testModule.project.name} ${testModule.moduleId}`;

export default class ProjectSummaryReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();
  private readonly fileTimes = new Map<string, { start: number; end: number }>();
  private runStarted = Date.now();

  private readonly outputFile = process.env.VITEST_PROJECT_SUMMARY ?? "test-results/projects.json";

  onTestRunStart() {
    this.runStarted = Date.now();
  }

  onTestModuleStart(testModule: TestModule) {
    this.fileTimes.set(fileKey(testModule), { start: Date.now(), end: Date.now() });
    const name = testModule.project.name;
    if (!this.started.has(name)) this.started.set(name, Date.now());
  }

  onTestModuleEnd(testModule: TestModule) {
    const times = this.fileTimes.get(fileKey(testModule));
    if (times) times.end = Date.now();
    this.ended.set(testModule.project.name, Date.now());
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const summaries = new Map<string, ProjectSummary>();
    for (const testModule of testModules) {
      const project = testModule.project.name;
      let summary = summaries.get(project);
      if (!summary) {
        const wallMs = (this.ended.get(project) ?? 0) - (this.started.get(project) ?? 0);
        summary = { project, files: 0, passed: 0, failed: 0, skipped: 0, wallMs, fileMs: 0, perFile: [] };
        summaries.set(project, summary);
      }
      const d = testModule.diagnostic();
      const ms = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
      let tests = 0;
      let failed = 0;
      for (const test of testModule.children.allTests()) {
        tests++;
        const state = test.result().state;
        if (state === "passed") summary.passed++;
        else if (state === "failed") failed++;
        else summary.skipped++;
      }
      // A file that failed outside its tests (import error, failing hook) counts as one failure.
      summary.failed += testModule.state() === "failed" && failed === 0 ? 1 : failed;
      summary.files++;
      summary.fileMs += ms;
      const times = this.fileTimes.get(fileKey(testModule));
      summary.perFile.push({
        file: testModule.moduleId.replace(`${process.cwd()}/`, ""),
        ms: Math.round(ms),
        tests,
        startMs: times ? times.start - this.runStarted : 0,
        endMs: times ? times.end - this.runStarted : 0,
      });
    }
    for (const summary of summaries.values()) summary.perFile.sort((a, b) => b.ms - a.ms);
    fs.mkdirSync(path.dirname(this.outputFile), { recursive: true });
    fs.writeFileSync(this.outputFile, JSON.stringify([...summaries.values()], null, 2));
  }
}
