/**
 * Poster credits: a ledger (features/orders/orders.tables.ts, credit_entries) of grants and uses.
 * Every member has one free credit, written into the ledger the first time it is needed (so it
 * shows as a line like any other). The balance is the sum of the member's lines.
 *
 * Using a credit locks the member's row (SELECT … FOR NO KEY UPDATE) in the caller's transaction
 * before reading the balance: two exports racing for the last credit are serialised, the second
 * sees a balance of zero and is refused with NO_POSTER_CREDIT. The unique index on the poster id
 * stops one poster using two credits even without the lock.
 */
import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { FREE_POSTER_CREDITS } from "../../shared/constants.ts";

/** Writes the member's free credit into the ledger unless it is there already. */
export async function ensureFreeCredit(executor: Executor, userId: number): Promise<void> {
  await executor.execute(sql`
    INSERT INTO credit_entries (user_id, kind, delta)
    VALUES (${userId}, 'free', ${FREE_POSTER_CREDITS})
    ON CONFLICT (user_id) WHERE kind = 'free' DO NOTHING`);
}

async function ledgerBalance(executor: Executor, userId: number): Promise<{ balance: number; hasFree: boolean }> {
  const [row] = await rows<{ balance: number; has_free: boolean }>(
    executor,
    sql`SELECT coalesce(sum(delta), 0)::int AS balance, bool_or(kind = 'free') AS has_free
        FROM credit_entries WHERE user_id = ${userId}`,
  );
  return { balance: row?.balance ?? 0, hasFree: Boolean(row?.has_free) };
}

/**
 * The member's poster credits left. Reads only: a member whose free credit is not in the ledger
 * yet counts it all the same.
 */
export async function creditBalance(db: Executor, userId: number): Promise<number> {
  const { balance, hasFree } = await ledgerBalance(db, userId);
  return balance + (hasFree ? 0 : FREE_POSTER_CREDITS);
}

export type CreditUse = {
  /** False when this poster had already used a credit (an export again costs nothing more). */
  consumed: boolean;
  /** Credits left afterwards. */
  balance: number;
};

/**
 * Uses one of the member's credits for a poster's export. Call it inside the transaction that
 * records the export (`tx`); without one (`tx` null) it runs in a transaction of its own on `db`.
 * Throws ApiError NO_POSTER_CREDIT (402) when none is left; the caller's transaction should then
 * roll back. A poster that already used a credit uses no other.
 */
export async function consumePosterCredit(
  db: Db,
  tx: Executor | null,
  userId: number,
  posterId: number,
): Promise<CreditUse> {
  if (!tx) return db.transaction((own) => consumePosterCredit(db, own, userId, posterId));
  const locked = await rows<{ id: number }>(tx, sql`SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE`);
  if (!locked.length) throw new ApiError("NOT_FOUND");
  await ensureFreeCredit(tx, userId);
  const already = await rows<{ user_id: number }>(
    tx,
    sql`SELECT user_id FROM credit_entries WHERE kind = 'poster' AND poster_id = ${posterId}`,
  );
  if (already.length) {
    if (already[0]?.user_id !== userId) throw new ApiError("FORBIDDEN");
    return { consumed: false, balance: (await ledgerBalance(tx, userId)).balance };
  }
  const { balance } = await ledgerBalance(tx, userId);
  if (balance < 1) throw new ApiError("NO_POSTER_CREDIT");
  await tx.execute(sql`
    INSERT INTO credit_entries (user_id, kind, delta, poster_id) VALUES (${userId}, 'poster', -1, ${posterId})`);
  return { consumed: true, balance: balance - 1 };
}

/** Grants an order's credits, once: a second call for the same order changes nothing. */
export async function grantOrderCredits(
  tx: Executor,
  order: { id: number; userId: number; credits: number },
): Promise<boolean> {
  if (order.credits <= 0) return false;
  await ensureFreeCredit(tx, order.userId);
  const inserted = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO credit_entries (user_id, kind, delta, order_id)
        VALUES (${order.userId}, 'purchase', ${order.credits}, ${order.id})
        ON CONFLICT (order_id) WHERE kind = 'purchase' DO NOTHING
        RETURNING id`,
  );
  return inserted.length > 0;
}

export type LedgerLine = {
  kind: "free" | "purchase" | "poster" | "adjustment";
  delta: number;
  orderUid: string | null;
  posterId: number | null;
  createdAt: string;
};

/** The member's ledger, newest first (the orders tab shows it under the balance). */
export async function creditLedger(db: Executor, userId: number, limit = 50): Promise<LedgerLine[]> {
  const found = await rows<{
    kind: LedgerLine["kind"];
    delta: number;
    uid: string | null;
    poster_id: number | null;
    created_at: Date | string;
  }>(
    db,
    sql`SELECT c.kind, c.delta, o.uid, c.poster_id, c.created_at
        FROM credit_entries c LEFT JOIN orders o ON o.id = c.order_id
        WHERE c.user_id = ${userId} ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit}`,
  );
  return found.map((r) => ({
    kind: r.kind,
    delta: r.delta,
    orderUid: r.uid,
    posterId: r.poster_id,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * The member is deleted (accounts' member data port, decision 048): their credits go; their orders
 * stay, with their amounts, VAT and receipt numbers, for the accounts (orders.user_id keeps the
 * erased account). Answers the orders kept.
 */
export async function removeMemberCredits(tx: Executor, userId: number): Promise<number> {
  await tx.execute(sql`DELETE FROM credit_entries WHERE user_id = ${userId}`);
  const [kept] = await rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM orders WHERE user_id = ${userId}`);
  return kept?.n ?? 0;
}
