/**
 * Fixed-window rate limits kept in PostgreSQL, so every server instance shares them. A key names
 * what is limited and for whom ("login:ip:1.2.3.4", "login:account:ana@example.fr").
 */
import { sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";

export type Limit = { max: number; windowSeconds: number };

/** The limits of the account and messaging routes (per IP, per account, per event). */
export const LIMITS = {
  /** Sign-in attempts from one address, whatever the account. */
  loginIp: { max: 30, windowSeconds: 15 * 60 },
  /** Wrong passwords for one account from one address: guessing from there stops, nobody else is hindered. */
  loginPair: { max: 8, windowSeconds: 15 * 60 },
  /**
   * Wrong passwords for one account from anywhere (guessing spread over many addresses): once full,
   * only devices that signed into the account before get in; others wait or reset the password.
   */
  loginAccount: { max: 30, windowSeconds: 24 * 60 * 60 },
  /** Wrong current passwords of a signed-in member (changing the password, disabling the account). */
  confirmPassword: { max: 8, windowSeconds: 15 * 60 },
  registerIp: { max: 10, windowSeconds: 60 * 60 },
  /** Registrations per address (each "already used" answer mails the address's owner). */
  registerAccount: { max: 3, windowSeconds: 60 * 60 },
  verifyAccount: { max: 10, windowSeconds: 15 * 60 },
  verifyIp: { max: 30, windowSeconds: 15 * 60 },
  /** At most 6 codes an hour (and one a minute, see RESEND_AFTER_MS). */
  resendAccount: { max: 6, windowSeconds: 60 * 60 },
  recoverIp: { max: 10, windowSeconds: 60 * 60 },
  recoverThrottle: { max: 1, windowSeconds: 60 },
  recoverAccount: { max: 5, windowSeconds: 60 * 60 },
  uploadAccount: { max: 20, windowSeconds: 60 * 60 },
  /** "I am the organiser": codes a member may ask for (all events), and an event may receive. */
  organizerClaimAccount: { max: 6, windowSeconds: 60 * 60 },
  organizerClaimEvent: { max: 10, windowSeconds: 60 * 60 },
  organizerVerifyAccount: { max: 10, windowSeconds: 15 * 60 },
  /** Messages to organisers: per sender address (IP) and per event. */
  contactOrganizerIp: { max: 5, windowSeconds: 60 * 60 },
  contactOrganizerEvent: { max: 20, windowSeconds: 24 * 60 * 60 },
  /** Invitations: sends per member, and mails one address may get from anyone. */
  invitationAccount: { max: 10, windowSeconds: 24 * 60 * 60 },
  invitationRecipient: { max: 3, windowSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, Limit>;

export function rateLimiter(db: Db, clock: () => Date) {
  async function count(key: string, limit: Limit, add: number): Promise<number> {
    const now = clock();
    const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
    const result = await rows<{ hits: number }>(
      db,
      sql`
      INSERT INTO rate_limits (key, window_start, hits) VALUES (${key}, ${now}, ${add})
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN rate_limits.window_start <= ${windowStart} THEN ${add} ELSE rate_limits.hits + ${add} END,
        window_start = CASE WHEN rate_limits.window_start <= ${windowStart} THEN ${now} ELSE rate_limits.window_start END
      RETURNING hits`,
    );
    return Number(result[0]?.hits ?? 0);
  }

  return {
    /** Counts one hit; throws `code` (TOO_MANY_ATTEMPTS by default) once the window is full. */
    async hit(
      key: string,
      limit: Limit,
      code: "TOO_MANY_ATTEMPTS" | "TOO_MANY_UPLOADS" | "EMAIL_ALREADY_SENT" = "TOO_MANY_ATTEMPTS",
    ) {
      const hits = await count(key, limit, 1);
      if (hits > limit.max) throw new ApiError(code, { details: { key } });
    },
    /** Counts one hit without throwing (a failure noted for the next check). */
    async record(key: string, limit: Limit) {
      await count(key, limit, 1);
    },
    /** Throws when the window is already full, without counting (failures are counted with hit). */
    async check(key: string, limit: Limit, code: "TOO_MANY_ATTEMPTS" | "ACCOUNT_LOGIN_PAUSED" = "TOO_MANY_ATTEMPTS") {
      if (await this.full(key, limit)) throw new ApiError(code, { details: { key } });
    },
    /** Whether the window is already full, without counting. */
    async full(key: string, limit: Limit): Promise<boolean> {
      return (await count(key, limit, 0)) >= limit.max;
    },
    async reset(key: string) {
      await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
    },
    /** Forgets the counters named by an e-mail address (`register:account:<address>`…): a member's deletion. */
    async forgetAddress(email: string, tx: Executor = db) {
      const address = email.trim().toLowerCase();
      await tx.execute(sql`DELETE FROM rate_limits WHERE right(key, ${address.length + 1}) = ${`:${address}`}`);
    },
  };
}
export type RateLimiter = ReturnType<typeof rateLimiter>;
