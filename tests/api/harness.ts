import fs from "node:fs";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { users } from "../../features/identity/identity.tables.ts";
import { loadConfig } from "../../platform/config.server.ts";
import { type Database, openDatabase } from "../../platform/db/client.server.ts";
import { ensureSeeded } from "../../seed/index.server.ts";
import { type BuildOptions, buildApp } from "../../server/app.server.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { TEST_DEMO_EVENTS, TEST_REFERENCE_DATE, TEST_SEED } from "./fixtures.ts";

export type TestApp = { app: FastifyInstance; database: Database; close(): Promise<void> };

/** Same origin client header the browser sends; tests of the guard leave it out on purpose. */
export const accessHeaders = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE };

let counter = 0;

/**
 * A fresh database for one test file: a copy of the seeded template on PGlite, or, when
 * TEST_DATABASE_URL is set, a new database on that real PostgreSQL server cloned from a seeded
 * template database.
 */
async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    // A Blob backed by the file: PGlite reads it once, without a copy in a Buffer first (0.1 s of
    // CPU less per file).
    const blob = await fs.openAsBlob(inject("templateDump"));
    return openDatabase({ dataDir: "memory://", loadDataDir: blob });
  }
  const template = "dossard_test_template";
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const name = `dossard_test_${process.pid}_${++counter}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.href, poolSize: 4 });
    return {
      ...database,
      close: async () => {
        await database.close();
        const drop = new pg.Client({ connectionString: serverUrl });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name}`);
        await drop.end();
      },
    };
  } finally {
    await admin.end();
  }
}

/** Prepares the template database on the real server (run once by the pg global setup). */
export async function preparePostgresTemplate(serverUrl: string): Promise<void> {
  const template = "dossard_test_template";
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${template}`;
  const database = await openDatabase({ url: url.href, poolSize: 2 });
  await migrateAndSeedTestWorld(database);
  await database.close();
}

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

export type TestAppOptions = {
  clock?: () => Date;
  /** Extra settings (SMTP_URL of a test SMTP server, OAuth endpoints…). */
  env?: Record<string, string>;
  /** Run the job queue (mail) in the background, as the real server does. */
  runJobs?: boolean;
  /** Passed to buildApp: the app's logger (a test captures its output through `stream`). */
  logger?: BuildOptions["logger"];
  /** Passed to buildApp: told of every route as it is added (tests/api/routes.ts). */
  onRoute?: BuildOptions["onRoute"];
};

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "./data/test",
    LOG_LEVEL: "silent",
    // Tests that turn logging on read the records.
    LOG_FORMAT: "json",
    ...options.env,
  });
  const app = await buildApp({
    config,
    database,
    clock: options.clock ?? (() => TEST_REFERENCE_DATE),
    runJobs: options.runJobs ?? false,
    logger: options.logger,
    onRoute: options.onRoute,
  });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

let members = 0;

/**
 * A member registered through the API (as a visitor would), then given a role and a verified
 * address when asked; `cookie` is their session. Each call gets its own address and client IP.
 */
export async function testMember(
  t: TestApp,
  options: { firstName?: string; role?: "member" | "admin"; verified?: boolean; publicProfile?: boolean } = {},
): Promise<{ id: number; cookie: string; email: string }> {
  const n = ++members;
  const email = `member.${n}.${process.pid}.${Date.now().toString(36)}@example.fr`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: `10.250.${(n >> 8) & 255}.${n & 255}`,
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email,
      password: "a member's own password 1",
      passwordConfirmation: "a member's own password 1",
      firstName: options.firstName ?? "Camille",
      lastName: "Martin",
      terms: true,
    }),
  });
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
  const id = (response.json() as { user: { id: number } }).user.id;
  const changes: Partial<typeof users.$inferInsert> = {};
  if (options.role) changes.role = options.role;
  if (options.verified ?? true) changes.emailStatus = "verified";
  if (options.publicProfile !== undefined) changes.publicProfile = options.publicProfile;
  if (Object.keys(changes).length) await t.database.db.update(users).set(changes).where(eq(users.id, id));
  const session = response.cookies.find((c) => c.name === "dossard_session");
  return { id, cookie: `dossard_session=${session?.value}`, email };
}
