import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../db/client.server.ts";
import { migrateAndSeedTestWorld } from "./harness.ts";

/**
 * Builds one seeded database (migrations, reference data, a small demo catalogue) once per run and
 * dumps it; each test file then loads its own copy (about a second, against several to seed).
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const database = await openDatabase({ dataDir: "memory://" });
  await migrateAndSeedTestWorld(database);
  // Uncompressed: each file loads it about twice as fast as gzipped, for ~120 MB of temporary disk.
  const dump = await database.pglite!.dumpDataDir("none");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dossard-test-")), "template.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("templateDump", file);
  console.log(`[api tests] template database ready in ${Date.now() - started} ms`);
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDump: string;
  }
}
