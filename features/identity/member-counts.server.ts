import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";

const DAY_MS = 86_400_000;

/** Accounts at a glance (the admin dashboard): open accounts, new ones, those seen lately. */
export async function memberCounts(db: Executor, now: Date) {
  const day = (n: number) => new Date(now.getTime() - n * DAY_MS).toISOString();
  const [row] = await rows<{ total: number; new7: number; new30: number; active30: number; disabled: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE disabled_at IS NULL)::int AS total,
               count(*) FILTER (WHERE created_at >= ${day(7)}::timestamptz)::int AS new7,
               count(*) FILTER (WHERE created_at >= ${day(30)}::timestamptz)::int AS new30,
               count(*) FILTER (WHERE disabled_at IS NULL AND last_login_at >= ${day(30)}::timestamptz)::int AS active30,
               count(*) FILTER (WHERE disabled_at IS NOT NULL)::int AS disabled
        FROM users`,
  );
  return {
    total: Number(row?.total ?? 0),
    new7d: Number(row?.new7 ?? 0),
    new30d: Number(row?.new30 ?? 0),
    active30d: Number(row?.active30 ?? 0),
    disabled: Number(row?.disabled ?? 0),
  };
}
