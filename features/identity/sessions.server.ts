/**
 * Database sessions. The cookie carries a random 256-bit token; the table keeps only its SHA-256,
 * so a copy of the database cannot be replayed as cookies. A new token is issued at every sign-in
 * (no session fixation) and expiry slides forward while the member is active.
 */
import { and, eq, gt, lt, ne } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { sessions, users } from "./identity.tables.ts";
import { randomToken, sha256 } from "./secrets.server.ts";

export const SESSION_COOKIE = "dossard_session";
/** Without "remember me" the cookie dies with the browser and the server forgets it after 12 h idle. */
export const SHORT_SESSION_MS = 12 * 3600 * 1000;
/** With "remember me": 30 days since the last visit. */
export const LONG_SESSION_MS = 30 * 24 * 3600 * 1000;
/** Activity is written at most this often, to keep page views read-only. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

export type SessionMeta = { ip?: string | null; userAgent?: string | null };
export type NewSession = { token: string; id: string; expiresAt: Date; persistent: boolean };
export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export function sessionStore(db: Db, clock: () => Date) {
  return {
    async create(userId: number, persistent: boolean, meta: SessionMeta = {}, tx: Executor = db): Promise<NewSession> {
      const token = randomToken();
      const id = sha256(token);
      const now = clock();
      const expiresAt = new Date(now.getTime() + (persistent ? LONG_SESSION_MS : SHORT_SESSION_MS));
      await tx.insert(sessions).values({
        id,
        userId,
        expiresAt,
        persistent,
        ip: meta.ip?.slice(0, 64) ?? null,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
        createdAt: now,
        lastSeenAt: now,
      });
      return { token, id, expiresAt, persistent };
    },

    /**
     * The session and its member for a cookie token, or null when unknown, expired or the account
     * is disabled. `renewed` is set when the expiry moved, so the caller refreshes the cookie.
     */
    async resolve(token: string): Promise<{ session: SessionRow; user: UserRow; renewed: boolean } | null> {
      if (!token || token.length > 100) return null;
      const id = sha256(token);
      const now = clock();
      const [found] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now)))
        .limit(1);
      if (!found || found.user.disabledAt) return null;
      const { session } = found;
      const span = session.persistent ? LONG_SESSION_MS : SHORT_SESSION_MS;
      if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_EVERY_MS) return { ...found, renewed: false };
      const expiresAt = new Date(now.getTime() + span);
      await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
      return { session: { ...session, lastSeenAt: now, expiresAt }, user: found.user, renewed: true };
    },

    async delete(token: string) {
      await db.delete(sessions).where(eq(sessions.id, sha256(token)));
    },

    /** Signs the member out everywhere, except the session `keepId` when given. */
    async deleteForUser(userId: number, keepId?: string, tx: Executor = db) {
      await tx
        .delete(sessions)
        .where(keepId ? and(eq(sessions.userId, userId), ne(sessions.id, keepId)) : eq(sessions.userId, userId));
    },

    async purgeExpired() {
      await db.delete(sessions).where(lt(sessions.expiresAt, clock()));
    },
  };
}
export type SessionStore = ReturnType<typeof sessionStore>;
