import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../platform/db/client.server.ts";
import { migrateAndSeedTestWorld } from "./harness.ts";
import { withoutSpareWalSegments } from "./template-tar.ts";

/**
 * Builds one seeded database (migrations, reference data, a small demo catalogue) once per run and
 * dumps it; each test file then loads its own copy (about a second, against several to seed).
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const database = await openDatabase({ dataDir: "memory://" });
  await migrateAndSeedTestWorld(database);
  // Only the database the tests use: without the cluster's template0 and template1 (15 MB that every
  // file would load and never read), each file's copy opens about 0.1 s sooner.
  await database.pglite!.exec(
    "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')",
  );
  await database.pglite!.exec("DROP DATABASE template0");
  await database.pglite!.exec("DROP DATABASE template1");
  // Uncompressed: each file loads it about twice as fast as gzipped; without the spare WAL segments
  // (template-tar.ts), a third less to copy into each file's database.
  await database.pglite!.exec("CHECKPOINT");
  const [{ segment }] = (
    await database.pglite!.query<{ segment: string }>("SELECT pg_walfile_name(pg_current_wal_lsn()) AS segment")
  ).rows;
  const dump = await database.pglite!.dumpDataDir("none");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dossard-test-")), "template.tar");
  fs.writeFileSync(file, withoutSpareWalSegments(new Uint8Array(await dump.arrayBuffer()), segment));
  await database.close();
  project.provide("templateDump", file);
  console.log(
    `[api tests] template database ready in ${Date.now() - started} ms (${Math.round(fs.statSync(file).size / 1e6)} MB)`,
  );
  return () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    templateDump: string;
  }
}
