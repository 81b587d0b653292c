import type { SQL } from "drizzle-orm";
import type { Executor } from "./client.server.ts";

/** Rows of a raw SQL query, the same on PGlite and node-postgres (their result types differ). */
export async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A unique index refused a row (two requests racing); `index` narrows it to one constraint. */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as { code?: string; constraint?: string; message?: string };
    if (code === "23505" && (!index || constraint === index || String(message).includes(index))) return true;
  }
  return false;
}
