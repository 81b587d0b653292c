import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The order in which each Vitest process of `npm test` hands its files to its workers
 * (docs/test-suite-timing.md, "Session 9").
 *
 * Vitest's own order runs the projects one after the other (api, then component, then unit) and,
 * on a fresh clone with no timings cached, each project's larger files first. The unit project's
 * few long files (the demo catalogue and the reference data seed PostgreSQL for half a minute)
 * then came last and ran alone while a core waited. Here the files known to be long start first,
 * longest first, whatever their project; then each project's files, longest first, projects kept
 * together so that the API workers keep their imported server from one file to the next.
 *
 * "Known to be long" comes from the last timings Vitest cached on this machine, else from
 * tests/file-timings.json (recorded from a whole run by `npm run test:timings`; a stale entry only
 * changes the order, never what runs).
 */
export default class LongestFirstSequencer extends BaseSequencer {
  /** Files that take longer than this start before everything else. */
  static readonly LONG_MS = 5_000;

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const recorded = recordedTimings();
    const root = this.ctx.config.root;
    const duration = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId);
      const key = `${spec.project.name}:${file}`;
      // The PostgreSQL run of an API file takes about as long as its PGlite run.
      const sibling = `${spec.project.name.replace(/-pg$/, "")}:${file}`;
      return this.ctx.cache.getFileTestResults(key)?.duration ?? recorded[key] ?? recorded[sibling] ?? 0;
    };
    const byDuration = (a: TestSpecification, b: TestSpecification) => duration(b) - duration(a);
    // Files of a project that shares its workers between files stay together (see above).
    const shared = (spec: TestSpecification) => spec.project.config.isolate === false;
    const long = ordered.filter((s) => !shared(s) && duration(s) >= LongestFirstSequencer.LONG_MS).sort(byDuration);
    const rest = ordered.filter((s) => !long.includes(s));
    // Vitest's order of the projects (by name: api, component, unit).
    const projects = [...new Set(rest.map((s) => s.project.name))];
    return [...long, ...projects.flatMap((name) => rest.filter((s) => s.project.name === name).sort(byDuration))];
  }
}

const TIMINGS = path.resolve(import.meta.dirname, "file-timings.json");

/** "project:path" → milliseconds, from tests/file-timings.json (empty when absent or unreadable). */
function recordedTimings(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(TIMINGS, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}
