/**
 * DELETE /api/admin/user/{id}: a member erased at their request (GDPR article 17), in one
 * transaction (decision 048). The account row stays — orders must keep their buyer's account for
 * the accounts, and orders.user_id refuses its deletion — with every personal field cleared or
 * replaced, disabled and marked deleted; what the account opened (sessions, codes, social links,
 * its log) goes; what other features keep follows through member-data-port.ts (`erase` as when
 * disabled, then `remove`). The files (profile photo, posters' exports) are removed by the caller
 * once the transaction has committed.
 */
import { eq } from "drizzle-orm";
import { ApiError } from "../../shared/api-error.ts";
import type { RequestMeta } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import type { AccountStore } from "./account-store.server.ts";
import { userFormerSlugs, userIdentities, userLogs, userTokens } from "./accounts.tables.ts";
import { type AdminActor, keepAnAdmin, lockAdmins, targetMember } from "./admin-user-actions.server.ts";
import type { MemberRemoval } from "./member-data-port.ts";

/**
 * The erased account's address: unique (the id), refused by the registration form's e-mail rule
 * (no dot in the domain), so nobody can sign up with it and nothing can be sent to it.
 */
export const erasedEmail = (id: number) => `deleted-${id}@erased`;

export function memberDeletion(store: AccountStore) {
  const { db, clock, deps, limiter, log, closeAccount, uniqueSlug } = store;

  return {
    async deleteMember(actor: AdminActor, id: number, meta: RequestMeta): Promise<MemberRemoval> {
      if (actor.id === id) throw new ApiError("ADMIN_OWN_ACCOUNT");
      return db.transaction(async (tx) => {
        await lockAdmins(tx);
        const user = await targetMember(tx, id);
        await keepAnAdmin(tx, user);
        // As when the member closes the account: signed out, codes and social links gone, ratings
        // out of the averages, activities and the planning feed erased.
        await closeAccount(id, tx);
        const removed: MemberRemoval = deps.memberData
          ? await deps.memberData.remove(id, user.email, tx)
          : { files: [], keptResults: 0, keptOrders: 0 };
        const now = clock();
        await tx
          .update(users)
          .set({
            email: erasedEmail(id),
            emailStatus: "unverified",
            pendingEmail: null,
            passwordHash: null,
            firstName: "",
            lastName: "",
            pseudo: "",
            slug: await uniqueSlug(`deleted ${id}`, tx, id),
            gender: null,
            city: null,
            country: null,
            presentation: null,
            objectives: null,
            sports: [],
            best10k: null,
            bestHalf: null,
            bestMarathon: null,
            publicProfile: false,
            photo: null,
            role: "member",
            locale: "fr",
            newsletter: false,
            termsAcceptedAt: null,
            lastLoginAt: null,
            loginCount: 0,
            disabledAt: user.disabledAt ?? now,
            deletedAt: now,
            updatedAt: now,
          })
          .where(eq(users.id, id));
        // The slug just left was kept as a former one (migration 0022's trigger): it named them.
        await tx.delete(userFormerSlugs).where(eq(userFormerSlugs.userId, id));
        await tx.delete(userLogs).where(eq(userLogs.userId, id));
        await tx.delete(userTokens).where(eq(userTokens.userId, id));
        await tx.delete(userIdentities).where(eq(userIdentities.userId, id));
        await limiter.forgetAddress(user.email, tx);
        if (user.pendingEmail) await limiter.forgetAddress(user.pendingEmail, tx);
        // The admin's own log says who was erased, by id only.
        await log(actor.id, "member_deleted", meta, { userId: id }, tx);
        return { ...removed, files: [...removed.files, ...(user.photo ? [`user/${user.photo}`] : [])] };
      });
    },
  };
}
