import type { SQL } from "drizzle-orm";
import type { Executor } from "./client.server.ts";

/** Rows of a raw SQL query, the same on PGlite and node-postgres (their result types differ). */
export async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
