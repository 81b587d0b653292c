import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";

/** Posters made since `since` (the admin dashboard), and how many of them were exported for print. */
export async function posterCounts(db: Executor, since: Date) {
  const [row] = await rows<{ created: number; exported: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM posters WHERE created_at >= ${since.toISOString()}::timestamptz)::int AS created,
               (SELECT count(*) FROM poster_exports WHERE created_at >= ${since.toISOString()}::timestamptz)::int AS exported`,
  );
  return { created30d: Number(row?.created ?? 0), exported30d: Number(row?.exported ?? 0) };
}
