/**
 * Where the poster export spends a credit. Credits belong to features/orders (a ledger,
 * consumePosterCredit and creditBalance); server/services.server.ts gives them to the posters
 * service through this port, so posters never reads the orders' tables.
 *
 * `consume` runs inside the export's transaction and locks the member's row first, so two exports
 * racing for one credit are serialised: one succeeds, the other gets NO_POSTER_CREDIT. A poster
 * that already used a credit uses no other.
 */
import type { Executor } from "../../platform/db/client.server.ts";

export interface PosterCredits {
  /** Spends one credit for `posterId`'s first export, or throws ApiError("NO_POSTER_CREDIT"). */
  consume(tx: Executor, userId: number, posterId: number): Promise<void>;
  /** Credits the member has left (shown in the creator). */
  remaining(db: Executor, userId: number): Promise<number>;
}
