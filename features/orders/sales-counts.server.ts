import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";

/** Sales since `since` (the admin dashboard): paid orders, their amount (TTC) and the poster credits sold. */
export async function salesSince(db: Executor, since: Date) {
  const [row] = await rows<{ paid: number; amount: number; credits: number }>(
    db,
    sql`SELECT count(*)::int AS paid, coalesce(sum(amount_cents), 0)::int AS amount,
               coalesce(sum(credits), 0)::int AS credits
        FROM orders WHERE status = 'paid' AND paid_at >= ${since.toISOString()}::timestamptz`,
  );
  return {
    paidOrders: Number(row?.paid ?? 0),
    amountCents: Number(row?.amount ?? 0),
    creditsSold: Number(row?.credits ?? 0),
  };
}
