import { getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./client.server.ts";

/** A database or a transaction: anything that runs raw SQL. */
export type SqlRunner = Pick<Db, "execute">;

export type BulkInsertOptions = {
  /** Raw SQL after the SELECT, e.g. `ON CONFLICT (code) DO NOTHING`. */
  onConflict?: SQL;
  /** Database column names (or an SQL list, e.g. `(xmax = 0) AS inserted`) to return per written row. */
  returning?: readonly string[] | SQL;
  /** Rows per statement. */
  chunkRows?: number;
  /** Upper bound of the JSON sent per statement, for rows carrying big documents (tracks). */
  chunkBytes?: number;
};

/**
 * Multi-row insert that sends each chunk as ONE JSON parameter expanded server-side by
 * json_populate_recordset: no 65,535-parameter limit, no per-value binding cost (which dominates
 * on PGlite), and the same SQL on PostgreSQL 15 and 18. Rows use the table's TypeScript keys;
 * absent keys take the column default, `undefined` values count as absent.
 */
export async function bulkInsert<T extends PgTable>(
  db: SqlRunner,
  table: T,
  rows: ReadonlyArray<Partial<T["$inferInsert"]>>,
  options: BulkInsertOptions = {},
): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  const keys = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) keys.add(key);
  const present = [...keys];
  for (const key of present)
    if (!columns[key]) throw new Error(`bulkInsert: ${getTableName(table)} has no column ${key}`);
  const dbNames = present.map((key) => columns[key].name);
  const columnList = sql.join(
    dbNames.map((name) => sql.identifier(name)),
    sql`, `,
  );
  const tableName = sql.identifier(getTableName(table));
  const wantsRows = Array.isArray(options.returning) ? options.returning.length > 0 : !!options.returning;
  const returning = !options.returning
    ? sql``
    : Array.isArray(options.returning)
      ? sql` RETURNING ${sql.join(
          options.returning.map((name) => sql.identifier(name)),
          sql`, `,
        )}`
      : sql` RETURNING ${options.returning as SQL}`;
  const chunkRows = options.chunkRows ?? 5_000;
  const chunkBytes = options.chunkBytes ?? 16 * 1024 * 1024;

  const out: Record<string, unknown>[] = [];
  let parts: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (parts.length === 0) return;
    const json = `[${parts.join(",")}]`;
    parts = [];
    bytes = 0;
    const result = (await db.execute(
      sql`INSERT INTO ${tableName} (${columnList}) SELECT ${columnList} FROM json_populate_recordset(NULL::${tableName}, ${json}::json)${options.onConflict ? sql` ${options.onConflict}` : sql``}${returning}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    if (wantsRows) for (const row of result.rows) out.push(row);
  };
  for (const row of rows) {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < present.length; i++) {
      const value = (row as Record<string, unknown>)[present[i]];
      if (value !== undefined) record[dbNames[i]] = value;
    }
    const json = JSON.stringify(record);
    if (parts.length > 0 && (parts.length >= chunkRows || bytes + json.length > chunkBytes)) await flush();
    parts.push(json);
    bytes += json.length;
  }
  await flush();
  return out;
}

/** `SELECT count(*)` of a table, as a number. */
export async function countRows(db: SqlRunner, table: PgTable): Promise<number> {
  const result = (await db.execute(
    sql`SELECT count(*)::int AS n FROM ${sql.identifier(getTableName(table))}`,
  )) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Runs a bulk load with the secondary indexes of those of `tables` that are still empty built once
 * at the end instead of row by row: PostgreSQL's own advice for populating a database, and several
 * times cheaper for GIN and GiST indexes (trigrams, full text, distances). Unique and constraint
 * indexes stay, so ON CONFLICT and uniqueness work as usual during the load. Everything runs in one
 * transaction (a savepoint inside another), so nobody sees the tables without their indexes and a
 * load that fails leaves them as they were.
 */
export async function withIndexesBuiltAfter<T>(
  db: Pick<Db, "transaction">,
  tables: PgTable[],
  load: (tx: SqlRunner) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const empty: PgTable[] = [];
    for (const table of tables) {
      const probe = (await tx.execute(sql`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`)) as unknown as {
        rows: { empty: boolean }[];
      };
      if (probe.rows[0]?.empty) empty.push(table);
    }
    if (empty.length === 0) return load(tx);
    const { rows: indexes } = (await tx.execute(sql`
      SELECT ns.nspname AS schema, ix.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
      FROM pg_index x
      JOIN pg_class ix ON ix.oid = x.indexrelid
      JOIN pg_namespace ns ON ns.oid = ix.relnamespace
      WHERE x.indrelid IN (${sql.join(
        empty.map((table) => sql`${getTableName(table)}::regclass`),
        sql`, `,
      )})
        AND NOT x.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      ORDER BY ix.relname`)) as unknown as { rows: { schema: string; name: string; definition: string }[] };
    for (const index of indexes)
      await tx.execute(sql`DROP INDEX ${sql.identifier(index.schema)}.${sql.identifier(index.name)}`);
    const result = await load(tx);
    for (const index of indexes) await tx.execute(sql.raw(index.definition));
    return result;
  });
}
