/**
 * What other features keep of a member and must follow the account. Accounts owns the account
 * (disabling it, the GDPR export) but not the members' ratings, comments, favourites, planning,
 * alerts or activities: server/services.server.ts gives it their owners' functions through this
 * port, so accounts never reads those tables nor imports those features.
 */
import type { Executor } from "../../platform/db/client.server.ts";

/** The export's sections other features own, in the order the export lists them. */
export type MemberDataExport = {
  favorites: unknown;
  planning: unknown;
  alerts: unknown;
  ratings: unknown;
  comments: unknown;
  activities?: unknown;
};

export interface MemberData {
  /**
   * The account is being disabled: inside its transaction, what follows it goes (its ratings leave
   * the editions' averages, imported activities, the planning feed's address).
   */
  erase(userId: number, tx: Executor): Promise<void>;
  /** Everything those features keep about the member, secrets excluded. */
  export(userId: number): Promise<MemberDataExport>;
}
