import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";

/** The catalogue at a glance (the admin dashboard): `today` is the Paris day (YYYY-MM-DD). */
export async function catalogueCounts(db: Executor, today: string, since: Date) {
  const [row] = await rows<{ listed: number; upcoming: number; pending: number; added: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'active')::int AS listed,
               count(*) FILTER (WHERE status = 'active' AND start_date >= ${today}::date)::int AS upcoming,
               count(*) FILTER (WHERE status = 'pending')::int AS pending,
               count(*) FILTER (WHERE created_at >= ${since.toISOString()}::timestamptz)::int AS added
        FROM events`,
  );
  return {
    listed: Number(row?.listed ?? 0),
    upcoming: Number(row?.upcoming ?? 0),
    pending: Number(row?.pending ?? 0),
    added30d: Number(row?.added ?? 0),
  };
}
