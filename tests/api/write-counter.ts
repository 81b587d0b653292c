import { sql } from "drizzle-orm";
import type { Database } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";

/**
 * Counts every row written to any table of the test's database (a row trigger on each), so a test
 * can say "nothing was written" without knowing what a route would have written. Only for a test
 * file's own copy of the database.
 */
export async function countWrites(database: Database): Promise<() => Promise<number>> {
  const db = database.db;
  await db.execute(sql`CREATE TABLE IF NOT EXISTS test_row_writes (n bigint NOT NULL)`);
  await db.execute(sql`INSERT INTO test_row_writes SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM test_row_writes)`);
  await db.execute(sql`
    CREATE OR REPLACE FUNCTION test_count_row_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE test_row_writes SET n = n + 1; RETURN NULL; END $$`);
  const tables = await rows<{ name: string }>(
    db,
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'test_row_writes'`,
  );
  for (const { name } of tables) {
    await db.execute(sql.raw(`DROP TRIGGER IF EXISTS test_count_row_write ON "${name}"`));
    await db.execute(
      sql.raw(
        `CREATE TRIGGER test_count_row_write AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION test_count_row_write()`,
      ),
    );
  }
  return async () => Number((await rows<{ n: string }>(db, sql`SELECT n FROM test_row_writes`))[0]?.n ?? 0);
}
