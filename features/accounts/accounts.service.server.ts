/**
 * Account rules, one service object for routes and page loaders, composed of what each part does:
 * getting in (sign-in.service.server.ts: registration, sign-in, codes, recovery, social sign-in),
 * the member's own account (profile.service.server.ts: profile, settings, disabling, export),
 * admins (account-admin.service.server.ts) and the admin's Users screen (admin-user-list: the
 * list and its exports; admin-user-actions: a member's detail, role, disabling, export;
 * member-deletion), over the rows they share (account-store.server.ts). HTTP, cookies, uploads
 * and stored files stay in the route layer.
 */
import type { Db } from "../../platform/db/client.server.ts";
import { accountAdminService } from "./account-admin.service.server.ts";
import { type AccountsDeps, accountStore } from "./account-store.server.ts";
import { adminUserActions } from "./admin-user-actions.server.ts";
import { adminUserList } from "./admin-user-list.server.ts";
import { memberDeletion } from "./member-deletion.server.ts";
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
  const profile = profileService(store);
  return {
    byId: store.byId,
    me: store.me,
    sessions: store.sessionsOf,
    ...signInService(store),
    ...profile,
    ...accountAdminService(store),
    ...adminUserList(db),
    ...adminUserActions(store, profile.exportData),
    ...memberDeletion(store),
  };
}
export type AccountsService = ReturnType<typeof accountsService>;
