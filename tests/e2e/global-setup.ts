import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../db/client.server.ts";
import { ensureSeeded } from "../../db/seed/index.server.ts";
import { startServer } from "./server-process.ts";

/**
 * Starts the built server the way `npm start` does (embedded PGlite, first-start seeding) in a
 * throw-away data folder, and hands its URL to the journeys.
 *
 * A first start spends most of its time migrating and loading the reference data (communes…), the
 * same for every server. That part is done once here, in a data folder each server of the
 * journeys starts from a copy of (`journeyDataDir`): their first start then only seeds the demo
 * catalogue they ask for. The server process journeys (process.e2e.test.ts) start from an empty
 * folder, as a real first start does.
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync("build/server/index.js")) {
    const build = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-e2e-"));
  const template = path.join(root, "template");
  const database = await openDatabase({ dataDir: path.join(template, "pgdata") });
  await database.migrate();
  await ensureSeeded(database.db, { demoEvents: 0 });
  await database.close();
  project.provide("dataDirTemplate", template);

  const dataDir = path.join(root, "shared");
  fs.cpSync(template, dataDir, { recursive: true });
  const server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "600" });
  project.provide("baseURL", server.baseURL);
  return async () => {
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** A data folder migrated and with the reference data loaded, to copy (see journeyDataDir). */
    dataDirTemplate: string;
  }
}
