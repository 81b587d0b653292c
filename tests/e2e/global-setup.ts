import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
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
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-e2e-"));
  const template = path.join(root, "template");
  const database = await openDatabase({ dataDir: path.join(template, "pgdata") });
  await database.migrate();
  await ensureSeeded(database.db, { demoEvents: 0 });
  await database.close();
  project.provide("dataDirTemplate", template);

  await built();
  const dataDir = path.join(root, "shared");
  fs.cpSync(template, dataDir, { recursive: true });
  const server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "600" });
  project.provide("baseURL", server.baseURL);
  // Without SMTP_URL the server writes its mail to DATA_DIR/mail (journeys read codes there).
  project.provide("dataDir", dataDir);
  return async () => {
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
}

/**
 * Resolves once build/ holds the site. `npm test` builds it beside the tests and writes the build
 * step's verdict to the file named by DOSSARD_BUILD_STATUS (scripts/test.mjs); run alone, the
 * journeys build it when it is missing.
 */
async function built(): Promise<void> {
  const status = process.env.DOSSARD_BUILD_STATUS;
  if (status) {
    const deadline = Date.now() + 10 * 60_000;
    while (!fs.existsSync(status)) {
      if (Date.now() > deadline) throw new Error(`no build verdict in ${status} after 10 minutes`);
      await setTimeout(200);
    }
    if (fs.readFileSync(status, "utf8") !== "ok") throw new Error("the build step failed: no journeys without a build");
    return;
  }
  if (!fs.existsSync("build/server/index.js")) {
    const build = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("build failed");
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** The shared server's data folder (its mail outbox is DATA_DIR/mail). */
    dataDir: string;
    /** A data folder migrated and with the reference data loaded, to copy (see journeyDataDir). */
    dataDirTemplate: string;
  }
}
