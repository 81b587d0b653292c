import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "./client.server.ts";

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error("*.pg.test.ts files run in the api-pg project, which needs TEST_DATABASE_URL");

/**
 * Runs in the real-PostgreSQL project only (CI starts a server): two instances starting at the same
 * moment on an empty database both come up, and the schema is applied once.
 */
describe("migrations on a shared PostgreSQL", () => {
  it("lets two instances migrate an empty database at the same time", async () => {
    const name = `dossard_migrate_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const a = await openDatabase({ url: url.href, poolSize: 2 });
    const b = await openDatabase({ url: url.href, poolSize: 2 });
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_database WHERE datname = $1`, [name]);
      expect(rows[0].n).toBe(1);
      const check = new pg.Client({ connectionString: url.href });
      await check.connect();
      const applied = await check.query("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
      const tables = await check.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'events'",
      );
      await check.end();
      expect(applied.rows[0].n).toBeGreaterThanOrEqual(2);
      expect(tables.rows[0].n).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    }
  });
});
