import fs from "node:fs";
import path from "node:path";
import { setTimeout } from "node:timers/promises";
import pg from "pg";
import { type Database, openDatabase } from "../../db/client.server.ts";
import { ensureSeeded } from "../../db/seed/index.server.ts";
import { TEST_DEMO_EVENTS, TEST_REFERENCE_DATE, TEST_SEED } from "./fixtures.ts";
import { withoutSpareWalSegments } from "./template-tar.ts";

/**
 * The seeded databases every API test file starts from (migrations, reference data, a small demo
 * catalogue): a PGlite dump each file loads its own copy of, and, for the PostgreSQL run, a template
 * database each file clones. `npm test` builds them in a step of their own, beside the unit tests
 * (tests/api/build-templates.ts); `vitest` run alone builds them in its global setups.
 *
 * Each is announced by a status file next to it, "ok" or "failed: why", which the test files wait
 * for (`templateReady`).
 */

/** The seeded world every API test starts from (see fixtures.ts). */
export async function migrateAndSeedTestWorld(database: Database): Promise<void> {
  await database.migrate();
  await ensureSeeded(database.db, {
    demoEvents: TEST_DEMO_EVENTS,
    seed: TEST_SEED,
    referenceDate: TEST_REFERENCE_DATE,
    log: () => {},
  });
}

export const PGLITE_TEMPLATE = "template.tar";
export const POSTGRES_TEMPLATE_DATABASE = "dossard_test_template";
export const statusFile = (dir: string, which: "pglite" | "postgres") => path.join(dir, `${which}.status`);

/** Builds the PGlite dump in `dir` and returns its size in bytes. */
export async function buildPgliteTemplate(dir: string): Promise<number> {
  const database = await openDatabase({ dataDir: "memory://" });
  try {
    await migrateAndSeedTestWorld(database);
    // Uncompressed: each file loads it about twice as fast as gzipped; without the spare WAL segments
    // (template-tar.ts), 68 MB instead of 119 MB to copy into each file's database.
    await database.pglite!.exec("CHECKPOINT");
    const [{ segment }] = (
      await database.pglite!.query<{ segment: string }>("SELECT pg_walfile_name(pg_current_wal_lsn()) AS segment")
    ).rows;
    const dump = await database.pglite!.dumpDataDir("none");
    const bytes = withoutSpareWalSegments(new Uint8Array(await dump.arrayBuffer()), segment);
    fs.writeFileSync(path.join(dir, PGLITE_TEMPLATE), bytes);
    return bytes.length;
  } finally {
    await database.close();
  }
}

/** Prepares the template database on the real server. */
export async function preparePostgresTemplate(serverUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${POSTGRES_TEMPLATE_DATABASE}`);
  await admin.query(`CREATE DATABASE ${POSTGRES_TEMPLATE_DATABASE}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${POSTGRES_TEMPLATE_DATABASE}`;
  const database = await openDatabase({ url: url.href, poolSize: 2 });
  try {
    await migrateAndSeedTestWorld(database);
  } finally {
    await database.close();
  }
}

/** Runs `build` and writes its verdict to `status` (the error, when it failed, is thrown again). */
export async function announce(status: string, build: () => Promise<unknown>): Promise<void> {
  try {
    await build();
    fs.writeFileSync(status, "ok");
  } catch (error) {
    fs.writeFileSync(status, `failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/** Resolves once the template behind `status` is ready; throws what its build said if it failed. */
export async function templateReady(status: string, timeoutMs = 10 * 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(status)) {
    if (Date.now() > deadline) throw new Error(`the API tests' template database is not ready after ${timeoutMs} ms`);
    await setTimeout(100);
  }
  const verdict = fs.readFileSync(status, "utf8");
  if (verdict !== "ok") throw new Error(`the API tests' template database could not be built (${verdict})`);
}
