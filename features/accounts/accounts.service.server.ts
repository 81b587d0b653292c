/**
 * Account rules, one service object for routes and page loaders, composed of what each part does:
 * getting in (sign-in.service.server.ts: registration, sign-in, codes, recovery, social sign-in),
 * the member's own account (profile.service.server.ts: profile, settings, disabling, export) and
 * the admin's side (account-admin.service.server.ts), over the rows they share
 * (account-store.server.ts). HTTP, cookies and uploads stay in the route layer.
 */
import type { Db } from "../../platform/db/client.server.ts";
import { accountAdminService } from "./account-admin.service.server.ts";
import { type AccountsDeps, accountStore } from "./account-store.server.ts";
import { profileService } from "./profile.service.server.ts";
import { signInService } from "./sign-in.service.server.ts";

export {
  EMPTY_STATS,
  type MailSender,
  RESET_TTL_MS,
} from "./account-store.server.ts";
export type { OAuthProfile } from "./sign-in.service.server.ts";

export function accountsService(db: Db, clock: () => Date, deps: AccountsDeps) {
  const store = accountStore(db, clock, deps);
  return {
    byId: store.byId,
    me: store.me,
    sessions: store.sessionsOf,
    ...signInService(store),
    ...profileService(store),
    ...accountAdminService(store),
  };
}
export type AccountsService = ReturnType<typeof accountsService>;
