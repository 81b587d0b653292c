import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startServer } from "./server-process.ts";

/**
 * Starts the built server the way `npm start` does (embedded PGlite, first-start seeding) in a
 * throw-away data folder, and hands its URL to the journeys.
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/server/index.js")) {
    const build = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-e2e-"));
  const server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "600" });
  project.provide("baseURL", server.baseURL);
  // Without SMTP_URL the server writes its mail to DATA_DIR/mail (journeys read codes there).
  project.provide("dataDir", dataDir);
  return async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}
