/**
 * Accounts seen from the admin side: the member list (and its CSV), `npm run user:create-admin`,
 * whether an admin exists, and the first admin of a fresh install.
 */
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
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
    /** The admin's member list, newest first, 50 a page, searchable by name, pseudo or email. */
    async listUsers(options: { page: number; query?: string }) {
      const pageSize = 50;
      const pattern = options.query ? `%${options.query.toLowerCase().replace(/[\\%_]/g, "\\$&")}%` : null;
      const where = pattern
        ? sql`WHERE lower(email) LIKE ${pattern} OR lower(first_name || ' ' || last_name) LIKE ${pattern} OR lower(pseudo) LIKE ${pattern}`
        : sql``;
      const list = await rows<{
        id: number;
        email: string;
        email_status: string;
        first_name: string;
        last_name: string;
        pseudo: string;
        role: string;
        created_at: string;
        last_login_at: string | null;
        login_count: number;
        disabled_at: string | null;
        total: number;
      }>(
        db,
        sql`SELECT id, email, email_status, first_name, last_name, pseudo, role, created_at, last_login_at,
                   login_count, disabled_at, count(*) OVER ()::int AS total
            FROM users ${where} ORDER BY id DESC LIMIT ${pageSize} OFFSET ${(options.page - 1) * pageSize}`,
      );
      const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);
      const users_ = list.map((u) => ({
        id: u.id,
        email: u.email,
        emailStatus: u.email_status,
        firstName: u.first_name,
        lastName: u.last_name,
        pseudo: u.pseudo,
        role: u.role,
        createdAt: iso(u.created_at),
        lastLoginAt: iso(u.last_login_at),
        loginCount: u.login_count,
        disabled: Boolean(u.disabled_at),
      }));
      return {
        users: users_,
        total: list[0]?.total ?? 0,
        csv() {
          const cell = (v: unknown) => {
            const text = v === null || v === undefined ? "" : String(v);
            // Quote every cell; a leading = + - @ is neutralised so spreadsheets do not run it.
            return `"${(/^[=+\-@]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
          };
          const header = Object.keys(users_[0] ?? { id: 0 });
          return [header.map(cell).join(","), ...users_.map((u) => Object.values(u).map(cell).join(","))].join("\r\n");
        },
      };
    },

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
