import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true as const,
        test: {
          name: "unit",
          environment: "node",
          include: ["{shared,features,db,server,app,scripts}/**/*.test.ts"],
          exclude: ["**/*.api.test.ts", "**/*.pg.test.ts"],
        },
      },
      {
        extends: true as const,
        test: {
          name: "component",
          environment: "jsdom",
          include: ["{app,features,shared}/**/*.test.tsx"],
          setupFiles: ["./tests/setup-dom.ts"],
        },
      },
      {
        extends: true as const,
        test: {
          name: "api",
          environment: "node",
          include: ["{features,server,db}/**/*.api.test.ts"],
          globalSetup: ["./tests/api/global-setup.ts"],
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
                include: ["{features,server,db}/**/*.api.test.ts", "{features,server,db}/**/*.pg.test.ts"],
                globalSetup: ["./tests/api/global-setup-pg.ts"],
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
