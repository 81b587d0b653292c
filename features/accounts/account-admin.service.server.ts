/**
 * Admins themselves: `npm run user:create-admin`, whether an admin exists, and the first admin of
 * a fresh install. The admin's Users screen is admin-user-list, admin-user-actions and
 * member-deletion beside this file.
 */
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { RequestMeta } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import { hashPassword } from "../identity/secrets.server.ts";
import type { NewSession, UserRow } from "../identity/sessions.server.ts";
import type { AccountStore } from "./account-store.server.ts";
import type { FirstAdminBody } from "./accounts.contract.ts";

export function accountAdminService(store: AccountStore) {
  const { db, clock, byEmail, emailTaken, uniqueSlug, log, startSession } = store;
  async function hasAdmin(tx: Executor = db): Promise<boolean> {
    const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
    return Boolean(row);
  }

  return {
    /** `npm run user:create-admin`: promotes an existing account or creates a verified admin. */
    async createAdmin(input: { email: string; password?: string; firstName?: string }) {
      const existing = await byEmail(input.email);
      if (existing) {
        await db
          .update(users)
          .set({
            role: "admin",
            disabledAt: null,
            ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
            updatedAt: clock(),
          })
          .where(eq(users.id, existing.id));
        return { id: existing.id, created: false };
      }
      const now = clock();
      const firstName = input.firstName ?? "Admin";
      const [user] = await db
        .insert(users)
        .values({
          email: input.email.trim(),
          passwordHash: input.password ? await hashPassword(input.password) : null,
          firstName,
          pseudo: "Dossard",
          slug: await uniqueSlug(`admin ${firstName}`),
          role: "admin",
          emailStatus: "verified",
          termsAcceptedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      return { id: user?.id ?? 0, created: true };
    },

    /** Whether some account is an admin (a fresh install has none until its setup link is used). */
    hasAdmin,

    /**
     * The first admin of a fresh install, signed in: refused with SETUP_DONE once any admin exists
     * (two setups racing are serialised by a transaction lock, so only one wins).
     */
    async setupFirstAdmin(body: FirstAdminBody, meta: RequestMeta): Promise<{ user: UserRow; session: NewSession }> {
      const passwordHash = await hashPassword(body.password);
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dossard:first-admin'))`);
        if (await hasAdmin(tx)) throw new ApiError("SETUP_DONE");
        if (await emailTaken(body.email, undefined, tx)) throw new ApiError("EMAIL_ALREADY_USED");
        const now = clock();
        const [user] = await tx
          .insert(users)
          .values({
            email: body.email,
            passwordHash,
            firstName: body.firstName,
            lastName: body.lastName,
            slug: await uniqueSlug(`${body.firstName} ${body.lastName}`, tx),
            role: "admin",
            emailStatus: "verified",
            locale: body.locale,
            termsAcceptedAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!user) throw new ApiError("GENERIC");
        await log(user.id, "first_admin", meta, undefined, tx);
        const session = await startSession(user, false, meta, tx);
        return { user, session };
      });
    },
  };
}
