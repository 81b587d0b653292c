import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { cube } from "@electric-sql/pglite/contrib/cube";
import { earthdistance } from "@electric-sql/pglite/contrib/earthdistance";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
/**
 * The database handle the features query through: Drizzle's query builder over PGlite or
 * PostgreSQL, typed without the schema (no relational `db.query` API), so that this client knows
 * no feature's tables; the tables are imported where they are used (db/schema.ts gathers them for
 * drizzle-kit only).
 */
export type Db = ReturnType<typeof drizzlePglite>;
/** A transaction handle; queries accept either (see Executor). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** The database or a transaction in progress. */
export type Executor = Db | Tx;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Applies the committed migrations; safe to call on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The embedded engine, when there is one (tests dump and reload it). */
  pglite?: PGlite;
};

const here = path.dirname(fileURLToPath(import.meta.url));
/** db/migrations, from the sources (platform/db/) and from the bundled server (build/server/). */
export function migrationsFolder(): string {
  const candidates = [path.resolve(here, "../../db/migrations"), path.resolve("db/migrations")];
  const found = candidates.find((c) => fs.existsSync(path.join(c, "meta", "_journal.json")));
  if (!found) throw new Error(`Migrations folder not found (looked in ${candidates.join(", ")})`);
  return found;
}

/** Arbitrary constant key of the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK = 7_402_113;

async function appliedMigrations(client: PGlite): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'drizzle' AND tablename = '__drizzle_migrations'",
  );
  if (!rows[0]?.n) return 0;
  const applied = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations");
  return applied.rows[0]?.n ?? 0;
}

export const PGLITE_EXTENSIONS = { unaccent, pg_trgm, cube, earthdistance };

export type OpenOptions = {
  /** postgres:// URL of a real server; when absent, embedded PGlite is used. */
  url?: string;
  /** PGlite data directory, or "memory://". */
  dataDir?: string;
  /** A dumped PGlite data dir (tarball) to start from, much faster than migrating from scratch. */
  loadDataDir?: Blob | File;
  poolSize?: number;
};

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    const db = drizzlePg(pool) as unknown as Db;
    return {
      db,
      kind: "postgres",
      migrate: async () => {
        // Several instances may start together against one server: one migrates, the others wait.
        const client = await pool.connect();
        try {
          await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
          await migratePg(drizzlePg(client) as never, { migrationsFolder: migrationsFolder() });
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const dataDir = options.dataDir ?? "memory://";
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS, loadDataDir: options.loadDataDir });
  const db = drizzlePglite(client);
  return {
    db,
    kind: "pglite",
    pglite: client,
    migrate: async () => {
      const before = await appliedMigrations(client);
      await migratePglite(db, { migrationsFolder: migrationsFolder() });
      // PGlite runs no autovacuum: after a migration that rewrote rows or built indexes, refresh the
      // planner statistics and the visibility map, or searches fall back to sequential scans.
      if (before > 0 && (await appliedMigrations(client)) > before) await client.exec("VACUUM (ANALYZE)");
    },
    close: () => client.close(),
  };
}
