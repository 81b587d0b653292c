/**
 * The accounts feature's shared core: the member's account rows as sign-in
 * (sign-in.service.server.ts), profile (profile.service.server.ts) and admin
 * (account-admin.service.server.ts) all use them. accounts.service.server.ts composes the three.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { slugify } from "../geo/slugify.ts";
import type { RequestMeta } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import { LIMITS, rateLimiter } from "../identity/rate-limit.server.ts";
import { CODE_TTL_MS, randomCode, sha256, verifyPassword } from "../identity/secrets.server.ts";
import { sessionStore, type UserRow } from "../identity/sessions.server.ts";
import { displayName, photoUrl } from "../identity/users.server.ts";
import type { Me, UserStats } from "./accounts.contract.ts";
import { userIdentities, userLogs, userTokens } from "./accounts.tables.ts";
import type { MemberData } from "./member-data-port.ts";

export type Body<S extends { _zod: { output: unknown } }> = S["_zod"]["output"];

/** What the accounts domain needs from the mail system. */
export interface MailSender {
  send(message: {
    to: string;
    userId?: number;
    template: string;
    locale: Locale;
    params: Record<string, unknown>;
    secrets?: Record<string, string>;
    tx?: Executor;
  }): Promise<number>;
}

/** Reset links live one hour (mailed codes: identity's CODE_TTL_MS, CODE_MAX_ATTEMPTS, RESEND_AFTER_MS). */
export const RESET_TTL_MS = 60 * 60 * 1000;

export const EMPTY_STATS: UserStats = {
  badges: 0,
  totalDistance: 0,
  races: 0,
  maxDistance: 0,
  totalElevation: 0,
  results: 0,
  upcomingRaces: 0,
};

/** What the accounts service is given: mail, the site's address, and the other features' member data. */
export type AccountsDeps = {
  mail: MailSender;
  publicOrigin: string;
  /**
   * The stats of spec section 3, from the members' results and planning (features/badges, given
   * by server/services.server.ts so that accounts never reads those tables); zeros without it.
   */
  memberStats?: (userId: number) => Promise<UserStats>;
  /**
   * What other features keep of the member (member-data-port.ts, filled by
   * server/services.server.ts): erased when the account is disabled, in its export. A service
   * built without it (create-admin, the journeys' setup) disables and exports the account alone.
   */
  memberData?: MemberData;
};

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** An account row as its member sees it (`/api/me`), and as the admin's detail starts from it. */
export function meOf(user: UserRow, providers: readonly string[]): Me {
  return {
    id: user.id,
    email: user.email,
    emailStatus: user.emailStatus,
    pendingEmail: user.pendingEmail,
    firstName: user.firstName,
    lastName: user.lastName,
    pseudo: user.pseudo,
    displayName: displayName(user),
    slug: user.slug,
    gender: (user.gender as Me["gender"]) ?? null,
    city: user.city,
    country: user.country,
    presentation: user.presentation,
    objectives: user.objectives,
    sports: user.sports,
    best10k: user.best10k,
    bestHalf: user.bestHalf,
    bestMarathon: user.bestMarathon,
    publicProfile: user.publicProfile,
    photoUrl: photoUrl(user),
    role: user.role,
    locale: user.locale === "en" ? "en" : "fr",
    newsletter: user.newsletter,
    hasPassword: Boolean(user.passwordHash),
    identities: [...providers].sort(),
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    loginCount: user.loginCount,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * What sign-in, profile and admin share: the member's rows looked up, free profile addresses,
 * the account log, mailed codes, sessions started, the member as they see themselves (`me`), and
 * the password check before sensitive changes.
 */
export function accountStore(db: Db, clock: () => Date, deps: AccountsDeps) {
  const statsOf = async (userId: number): Promise<UserStats> =>
    deps.memberStats ? deps.memberStats(userId) : { ...EMPTY_STATS };
  const limiter = rateLimiter(db, clock);
  const sessionsOf = sessionStore(db, clock);

  async function byEmail(email: string, tx: Executor = db): Promise<UserRow | undefined> {
    const [user] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${normalEmail(email)}`)
      .limit(1);
    return user;
  }

  /** Pass the caller's transaction when inside one (PGlite has a single connection). */
  async function byId(id: number, tx: Executor = db): Promise<UserRow | undefined> {
    const [user] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
    return user;
  }

  async function emailTaken(email: string, exceptUserId?: number, tx: Executor = db): Promise<boolean> {
    const found = await rows<{ id: number }>(
      tx,
      sql`SELECT id FROM users WHERE (lower(email) = ${normalEmail(email)} OR lower(pending_email) = ${normalEmail(email)})
          AND id <> ${exceptUserId ?? 0} LIMIT 1`,
    );
    return found.length > 0;
  }

  /**
   * A profile address free among the other members' slugs and former slugs (an old address keeps
   * leading to its member, issue 26 item 6); the member's own are free for them.
   */
  async function uniqueSlug(base: string, tx: Executor = db, exceptUserId = 0): Promise<string> {
    const stem = (slugify(base) || "membre").slice(0, 60);
    const like = `${stem}-%`;
    const taken = await rows<{ slug: string }>(
      tx,
      sql`SELECT slug FROM users WHERE (slug = ${stem} OR slug LIKE ${like}) AND id <> ${exceptUserId}
          UNION SELECT slug FROM user_former_slugs WHERE (slug = ${stem} OR slug LIKE ${like}) AND user_id <> ${exceptUserId}`,
    );
    const used = new Set(taken.map((r) => r.slug));
    if (!used.has(stem)) return stem;
    for (let n = 2; ; n++) if (!used.has(`${stem}-${n}`)) return `${stem}-${n}`;
  }

  /** Runs `write` again (five times at most) when another member took the same profile address meanwhile. */
  async function withFreeSlug<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (attempt < 5 && isUniqueViolation(error, "users_slug_unique")) continue;
        throw error;
      }
    }
  }

  async function log(userId: number, type: string, meta?: Partial<RequestMeta>, data?: object, tx: Executor = db) {
    await tx.insert(userLogs).values({ userId, type, ip: meta?.ip ?? null, data: data ?? null, createdAt: clock() });
  }

  /** Sends a fresh code for the member's pending step (first verification or change of email). */
  async function issueCode(user: UserRow, tx: Executor = db) {
    const purpose = user.emailStatus === "pending_change" ? "change_email" : "verify_email";
    const email = purpose === "change_email" ? (user.pendingEmail ?? user.email) : user.email;
    const code = randomCode();
    const now = clock();
    // Older codes stop working as soon as a new one is sent.
    await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
    await tx.insert(userTokens).values({
      userId: user.id,
      purpose,
      email,
      secretHash: sha256(`${user.id}:${code}`),
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      createdAt: now,
    });
    await deps.mail.send({
      to: email,
      userId: user.id,
      template: purpose === "change_email" ? "changeEmail" : "verifyEmail",
      locale: user.locale as Locale,
      params: { firstName: user.firstName, newEmail: email },
      secrets: { code },
      tx,
    });
  }

  /** A message about the member's own account, in their language, sent if the transaction commits. */
  function mailMember(user: UserRow, template: "welcome" | "passwordChanged" | "accountDisabled", tx: Executor) {
    const locale: Locale = user.locale === "en" ? "en" : "fr";
    return deps.mail.send({
      to: user.email,
      userId: user.id,
      template,
      locale,
      params: { firstName: user.firstName },
      tx,
    });
  }

  async function startSession(user: UserRow, persistent: boolean, meta: RequestMeta, tx: Executor = db) {
    const now = clock();
    await tx
      .update(users)
      .set({ lastLoginAt: now, loginCount: sql`${users.loginCount} + 1` })
      .where(eq(users.id, user.id));
    return sessionsOf.create(user.id, persistent, meta, tx);
  }

  /** The account row and its social sign-in providers, in one round trip. */
  async function accountRow(userId: number): Promise<{ user: UserRow; providers: string[] } | undefined> {
    const [found] = await db
      .select({
        user: users,
        providers: sql<
          string[] | null
        >`(SELECT array_agg(${userIdentities.provider}) FROM ${userIdentities} WHERE ${userIdentities.userId} = ${users.id})`,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return found ? { user: found.user, providers: found.providers ?? [] } : undefined;
  }

  /**
   * The member as they see themselves. A disabled account answers LOGIN_REQUIRED, unless an admin
   * asks (`evenDisabled`: the admin's export of a disabled member).
   */
  async function me(userId: number, options: { evenDisabled?: boolean } = {}): Promise<Me> {
    const found = await accountRow(userId);
    if (!found || (found.user.disabledAt && !options.evenDisabled)) throw new ApiError("LOGIN_REQUIRED");
    return meOf(found.user, found.providers);
  }

  /**
   * The account can no longer sign in and its public profile disappears. Everything that opens
   * it goes at once, so that enabling it again revives none of it: sessions, mailed codes and
   * links, social sign-in links; what other features keep follows (member-data-port.ts: its
   * ratings leave the editions' averages, imported activities and the planning feed go). In the
   * caller's transaction: the member disabling their account, an admin, a deletion.
   */
  async function closeAccount(userId: number, tx: Executor) {
    const now = clock();
    await tx.update(users).set({ disabledAt: now, publicProfile: false, updatedAt: now }).where(eq(users.id, userId));
    await sessionsOf.deleteForUser(userId, undefined, tx);
    await tx.delete(userTokens).where(eq(userTokens.userId, userId));
    await tx.delete(userIdentities).where(eq(userIdentities.userId, userId));
    await deps.memberData?.erase(userId, tx);
  }

  /** Members with a password confirm sensitive changes with it; social-only members cannot. */
  async function confirmPassword(user: UserRow, password: string | undefined) {
    if (!user.passwordHash) return;
    if (!password) throw new ApiError("WRONG_PASSWORD");
    await limiter.check(`password:account:${user.id}`, LIMITS.confirmPassword);
    if (!(await verifyPassword(user.passwordHash, password))) {
      await limiter.hit(`password:account:${user.id}`, LIMITS.confirmPassword);
      throw new ApiError("WRONG_PASSWORD");
    }
  }

  return {
    db,
    clock,
    deps,
    limiter,
    sessionsOf,
    statsOf,
    byEmail,
    byId,
    emailTaken,
    uniqueSlug,
    withFreeSlug,
    log,
    issueCode,
    mailMember,
    startSession,
    accountRow,
    me,
    confirmPassword,
    closeAccount,
  };
}
export type AccountStore = ReturnType<typeof accountStore>;
