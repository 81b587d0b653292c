import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";

/** Results at a glance (the admin dashboard): lines on record, lines imported since `since`, lines members own. */
export async function resultCounts(db: Executor, since: Date) {
  const [row] = await rows<{ lines: number; recent: number; claimed: number }>(
    db,
    sql`SELECT count(*)::int AS lines,
               count(*) FILTER (WHERE created_at >= ${since.toISOString()}::timestamptz)::int AS recent,
               count(*) FILTER (WHERE user_id IS NOT NULL)::int AS claimed
        FROM results`,
  );
  return {
    lines: Number(row?.lines ?? 0),
    imported30d: Number(row?.recent ?? 0),
    owned: Number(row?.claimed ?? 0),
  };
}
