/**
 * What an admin does to one member (issue 28): their detail (account, open sessions, and what
 * other features keep of them through member-data-port.ts), a change of role, disabling and
 * enabling the account, the GDPR export. The rules that keep the site administered — an admin
 * never removes their own admin role nor closes their own account, the last active admin keeps
 * theirs — are checked under one lock, so two admins acting on each other at once cannot both win.
 */
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { RequestMeta } from "../identity/auth.server.ts";
import type { UserRole } from "../identity/identity.contract.ts";
import { sessions, users } from "../identity/identity.tables.ts";
import type { UserRow } from "../identity/sessions.server.ts";
import { type AccountStore, meOf } from "./account-store.server.ts";
import { accountStatus } from "./admin-user-list.server.ts";
import type { AdminUserDetail, MemberOverview } from "./admin-users.contract.ts";

/** Who acts: the signed-in admin. */
export type AdminActor = { id: number };

const NO_OVERVIEW: MemberOverview = { events: [], results: [], orders: [], credits: 0 };

/** Serialises the changes that could leave the site without an active admin. */
export async function lockAdmins(tx: Executor): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dossard:admins'))`);
}

/** The member an action is aimed at, locked for the transaction; unknown or deleted: 404. */
export async function targetMember(tx: Executor, id: number): Promise<UserRow> {
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for("update").limit(1);
  if (!user || user.deletedAt) throw new ApiError("ITEM_NOT_FOUND");
  return user;
}

/** Refuses to leave the site without an active admin when `user` stops being one. */
export async function keepAnAdmin(tx: Executor, user: UserRow): Promise<void> {
  if (user.role !== "admin" || user.disabledAt) return;
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "admin"), ne(users.id, user.id), isNull(users.disabledAt), isNull(users.deletedAt)))
    .limit(1);
  if (!other) throw new ApiError("LAST_ADMIN");
}

export function adminUserActions(
  store: AccountStore,
  exportData: (userId: number, options: { evenDisabled: boolean }) => Promise<unknown>,
) {
  const { db, clock, deps, log, accountRow, closeAccount, mailMember } = store;

  return {
    /** GET /api/admin/user/{id}: the account as stored, its open sessions, its events, results and orders. */
    async userDetail(id: number): Promise<AdminUserDetail> {
      const found = await accountRow(id);
      if (!found) throw new ApiError("ITEM_NOT_FOUND");
      const { user } = found;
      const [open, overview] = await Promise.all([
        db
          .select()
          .from(sessions)
          .where(and(eq(sessions.userId, id), gt(sessions.expiresAt, clock())))
          .orderBy(sql`${sessions.lastSeenAt} DESC`),
        deps.memberData ? deps.memberData.overview(id) : NO_OVERVIEW,
      ]);
      return {
        user: {
          ...meOf(user, found.providers),
          disabledAt: user.disabledAt?.toISOString() ?? null,
          deletedAt: user.deletedAt?.toISOString() ?? null,
          status: accountStatus({ disabled_at: user.disabledAt, deleted_at: user.deletedAt }),
        },
        sessions: open.map((s) => ({
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          expiresAt: s.expiresAt.toISOString(),
          persistent: s.persistent,
          ip: s.ip,
          userAgent: s.userAgent,
        })),
        overview,
      };
    },

    /**
     * POST /api/admin/user/{id}/role. An admin keeps their own admin role (ADMIN_OWN_ACCOUNT), and
     * the last active admin keeps theirs (LAST_ADMIN). The member's sessions stay: their rights are
     * read from the account on every request.
     */
    async changeRole(actor: AdminActor, id: number, role: UserRole, meta: RequestMeta): Promise<void> {
      if (actor.id === id && role !== "admin") throw new ApiError("ADMIN_OWN_ACCOUNT");
      await db.transaction(async (tx) => {
        await lockAdmins(tx);
        const user = await targetMember(tx, id);
        if (user.role === role) return;
        if (role !== "admin") await keepAnAdmin(tx, user);
        await tx.update(users).set({ role, updatedAt: clock() }).where(eq(users.id, id));
        await log(id, "role_changed", meta, { from: user.role, to: role, by: actor.id }, tx);
      });
    },

    /**
     * POST /api/admin/user/{id}/disable: the member's own way of closing the account
     * (account-store's closeAccount — signed out everywhere, planning feed and social links gone,
     * ratings out of the averages), then a mail telling them. Never one's own account.
     */
    async disableMember(actor: AdminActor, id: number, meta: RequestMeta): Promise<void> {
      if (actor.id === id) throw new ApiError("ADMIN_OWN_ACCOUNT");
      await db.transaction(async (tx) => {
        await lockAdmins(tx);
        const user = await targetMember(tx, id);
        if (user.disabledAt) return;
        await keepAnAdmin(tx, user);
        await closeAccount(id, tx);
        await log(id, "account_disabled_by_admin", meta, { by: actor.id }, tx);
        await mailMember(user, "accountDisabled", tx);
      });
    },

    /**
     * POST /api/admin/user/{id}/enable: the member may sign in again with their password (or a
     * new one through recovery); what disabling ended stays ended, their ratings count again.
     */
    async enableMember(actor: AdminActor, id: number, meta: RequestMeta): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await targetMember(tx, id);
        if (!user.disabledAt) return;
        await tx.update(users).set({ disabledAt: null, updatedAt: clock() }).where(eq(users.id, id));
        await deps.memberData?.restore(id, tx);
        await log(id, "account_enabled", meta, { by: actor.id }, tx);
      });
    },

    /** GET /api/admin/user/{id}/export: the member's GDPR export, disabled or not (deleted: nothing left, 404). */
    async memberExport(id: number): Promise<{ slug: string; data: unknown }> {
      const [user] = await rows<{ slug: string; deleted_at: string | null }>(
        db,
        sql`SELECT slug, deleted_at FROM users WHERE id = ${id}`,
      );
      if (!user || user.deleted_at) throw new ApiError("ITEM_NOT_FOUND");
      return { slug: user.slug, data: await exportData(id, { evenDisabled: true }) };
    },
  };
}
