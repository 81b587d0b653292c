/**
 * Where the poster export spends a credit. The orders feature (features/orders, built beside this
 * one) owns credits; until it is wired in, this port's default grants each member one free
 * export: one poster exported per member (deleted posters still count, so deleting does not give
 * the credit back). The lead replaces `defaultPosterCredits` with the orders feature's
 * `consumePosterCredit(db, tx, userId, posterId)` at merge.
 *
 * `consume` runs inside the export's transaction and locks the member's row first, so two exports
 * racing for one credit are serialised: one succeeds, the other gets NO_POSTER_CREDIT.
 */
import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { users } from "../accounts/accounts.tables.ts";
import { posters } from "./posters.tables.ts";

export interface PosterCredits {
  /** Spends one credit for `posterId`'s first export, or throws ApiError("NO_POSTER_CREDIT"). */
  consume(tx: Executor, userId: number, posterId: number): Promise<void>;
  /** Credits the member has left (shown in the creator). */
  remaining(db: Executor, userId: number): Promise<number>;
}

/** Every member's free credits. */
export const FREE_POSTER_CREDITS = 1;

async function used(db: Executor, userId: number, except?: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(posters)
    .where(and(eq(posters.userId, userId), isNotNull(posters.exportedAt), except ? ne(posters.id, except) : undefined));
  return row?.n ?? 0;
}

export const defaultPosterCredits: PosterCredits = {
  async consume(tx, userId, posterId) {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    if ((await used(tx, userId, posterId)) >= FREE_POSTER_CREDITS) throw new ApiError("NO_POSTER_CREDIT");
  },
  async remaining(db, userId) {
    return Math.max(0, FREE_POSTER_CREDITS - (await used(db, userId)));
  },
};
