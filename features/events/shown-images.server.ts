import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { events } from "./events.tables.ts";

/**
 * True when an event shows this picture (its stored site path) as its cover or header. The
 * illustrations draw a landscape only for a name an event uses (given to them by
 * server/services.server.ts).
 */
export async function eventShowsImage(db: Executor, path: string): Promise<boolean> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT 1 AS n FROM ${events} WHERE ${events.coverImage} = ${path} OR ${events.headerImage} = ${path} LIMIT 1`,
  );
  return row !== undefined;
}
