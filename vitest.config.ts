import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // Vitest's default (one worker less than the cores) runs every file one after the other on a
    // 2-core machine; the test files are the heavy part, not the main process (see
    // docs/test-suite-timing.md). The browser journeys stay one at a time (fileParallelism below).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        extends: true as const,
        test: {
          name: "unit",
          environment: "node",
          // Some tests are CPU-bound for seconds (the demo catalogue, CLI runs): with the other lanes
          // of `npm test` on the same two cores, Vitest's 5 s default is too tight.
          testTimeout: 20_000,
          include: ["{shared,platform,features,db,seed,server,app,scripts,tests/architecture}/**/*.test.ts"],
          exclude: ["**/*.api.test.ts", "**/*.pg.test.ts", "**/*.isolated.test.ts"],
          // One module cache per worker instead of a fresh one per file: a quarter of the project's
          // CPU time (docs/test-suite-timing.md). A file that replaces a module (vi.mock) is named
          // *.isolated.test.ts and runs in the project below, with modules of its own.
          isolate: false,
        },
      },
      {
        extends: true as const,
        test: {
          name: "unit-isolated",
          environment: "node",
          testTimeout: 20_000,
          include: ["{shared,platform,features,db,seed,server,app,scripts}/**/*.isolated.test.ts"],
        },
      },
      {
        extends: true as const,
        test: {
          name: "component",
          environment: "jsdom",
          testTimeout: 20_000,
          include: ["{app,features,shared}/**/*.test.tsx"],
          setupFiles: ["./tests/setup-dom.ts"],
          // One jsdom page and module cache per worker instead of one per file (more than half of
          // the project's CPU time); tests/setup-dom.ts blanks the page before each file.
          isolate: false,
        },
      },
      {
        extends: true as const,
        test: {
          name: "api",
          environment: "node",
          include: ["{platform,features,server,db,seed}/**/*.api.test.ts"],
          globalSetup: ["./tests/api/global-setup.ts"],
          // Each file builds its own app on its own copy of the database (tests/api/harness.ts):
          // sharing a worker's module cache between files only saves re-importing the server
          // (a quarter of the project's CPU time).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: "api-pg",
                environment: "node",
                include: [
                  "{platform,features,server,db,seed}/**/*.api.test.ts",
                  "{platform,features,server,db,seed}/**/*.pg.test.ts",
                ],
                globalSetup: ["./tests/api/global-setup-pg.ts"],
                isolate: false,
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        extends: true as const,
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/e2e/**/*.e2e.test.ts"],
          globalSetup: ["./tests/e2e/global-setup.ts"],
          setupFiles: ["./tests/e2e/client-address.ts"],
          // A deadline against hangs, not a speed check: a journey takes 1–15 s alone, several
          // times that when the machine is busy (the other lanes of `npm test`, other jobs).
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One more try for a journey, and only for journeys: about one full run in three has a
          // page that never reports hydration within 60 s while the other lanes load the machine,
          // not reproduced alone (issue 9's closing note). Each try registers its own members.
          retry: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
