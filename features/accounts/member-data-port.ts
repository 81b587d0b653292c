/**
 * What other features keep of a member and must follow the account. Accounts owns the account
 * (disabling it, the GDPR export and deletion, the admin's view of it) but not the members'
 * ratings, comments, favourites, planning, alerts, activities, results, posters, orders or events:
 * server/services.server.ts gives it their owners' functions through this port, so accounts never
 * reads those tables nor imports those features.
 */
import type { Executor } from "../../platform/db/client.server.ts";
import type { MemberOverview } from "./admin-users.contract.ts";

/** The export's sections other features own, in the order the export lists them. */
export type MemberDataExport = {
  favorites: unknown;
  planning: unknown;
  alerts: unknown;
  ratings: unknown;
  comments: unknown;
  activities?: unknown;
};

/** What a member's deletion did beyond the account (decision 048). */
export type MemberRemoval = {
  /** Storage keys of the member's files, deleted once the transaction has committed. */
  files: string[];
  /** Result lines kept as anonymous lines. */
  keptResults: number;
  /** Orders kept for the accounts (still pointing at the erased account). */
  keptOrders: number;
};

export interface MemberData {
  /**
   * The account is being disabled: inside its transaction, what follows it goes (its ratings leave
   * the editions' averages, imported activities, the planning feed's address).
   */
  erase(userId: number, tx: Executor): Promise<void>;
  /** The account is enabled again (by an admin): its ratings count in the averages again. */
  restore(userId: number, tx: Executor): Promise<void>;
  /** Everything those features keep about the member, secrets excluded. */
  export(userId: number): Promise<MemberDataExport>;
  /** The admin's view of the member: their events, results lines, orders and credits. */
  overview(userId: number): Promise<MemberOverview>;
  /**
   * GDPR deletion (decision 048), in its transaction, after `erase`: what identifies the member
   * goes — their favourites, planning, alerts, ratings, claims, badges, posters, credits, organiser
   * rights and claims, change requests, mail — and what others keep loses its link to them: result
   * lines (anonymous), comments (a former member's), events they listed or edited, tracks they sent.
   */
  remove(userId: number, email: string, tx: Executor): Promise<MemberRemoval>;
}
