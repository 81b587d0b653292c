/**
 * Account rules: registration, sign-in, email codes, password recovery, profile and settings,
 * disabling and data export. Routes and page loaders call these; HTTP, cookies and uploads stay
 * in the route layer.
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { slugify } from "../geo/slugify.ts";
import { type RequestMeta, requireVerifiedEmail } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import { LIMITS, rateLimiter } from "../identity/rate-limit.server.ts";
import {
  hashPassword,
  randomCode,
  randomToken,
  sameDigest,
  sha256,
  verifyPassword,
} from "../identity/secrets.server.ts";
import { type NewSession, sessionStore, type UserRow } from "../identity/sessions.server.ts";
import { displayName, photoUrl } from "../identity/users.server.ts";
import type {
  changeEmailBodySchema,
  changePasswordBodySchema,
  disableBodySchema,
  FirstAdminBody,
  loginBodySchema,
  Me,
  ProfileBody,
  PublicProfile,
  preferencesBodySchema,
  RegisterBody,
  recoverBodySchema,
  resetBodySchema,
  UserStats,
} from "./accounts.contract.ts";
import { userFormerSlugs, userIdentities, userLogs, userTokens } from "./accounts.tables.ts";
import type { MemberData } from "./member-data-port.ts";

type Body<S extends { _zod: { output: unknown } }> = S["_zod"]["output"];

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

/** Codes by mail live 15 minutes and allow 5 tries; reset links live one hour. */
export const CODE_TTL_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESET_TTL_MS = 60 * 60 * 1000;
/** A new code at most once a minute ("email already sent"). */
export const RESEND_AFTER_MS = 60 * 1000;

export type OAuthProfile = {
  provider: "google" | "facebook" | "strava";
  providerUserId: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
  city?: string | null;
  country?: string | null;
  gender?: "female" | "male" | null;
  locale?: Locale;
};

export const EMPTY_STATS: UserStats = {
  badges: 0,
  totalDistance: 0,
  races: 0,
  maxDistance: 0,
  totalElevation: 0,
  results: 0,
  upcomingRaces: 0,
};

const normalEmail = (email: string) => email.trim().toLowerCase();

export function accountsService(
  db: Db,
  clock: () => Date,
  deps: {
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
  },
) {
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

  async function me(userId: number): Promise<Me> {
    // One round trip: the member and their sign-in identities.
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
    const user = found?.user;
    if (!user || user.disabledAt) throw new ApiError("LOGIN_REQUIRED");
    const identities = (found.providers ?? []).map((provider) => ({ provider }));
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
      identities: identities.map((i) => i.provider).sort(),
      lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
      loginCount: user.loginCount,
      createdAt: user.createdAt.toISOString(),
    };
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
    byId,
    me,
    sessions: sessionsOf,

    /**
     * A new account, signed in, with a code mailed to verify the address. An address already used
     * is refused with EMAIL_ALREADY_USED (the spec's message), after the same work as a new account
     * — the password hash, a transaction, a mail queued (to the address: "you already have an
     * account") — so the answer's timing tells no more than its text, and it is limited per
     * address as well as per IP.
     */
    async register(body: RegisterBody, meta: RequestMeta): Promise<{ user: UserRow; session: NewSession }> {
      await limiter.hit(`register:ip:${meta.ip}`, LIMITS.registerIp);
      await limiter.hit(`register:account:${normalEmail(body.email)}`, LIMITS.registerAccount);
      const passwordHash = await hashPassword(body.password);
      let created: { user: UserRow; session: NewSession } | null;
      try {
        // Two members of one name registering at the same instant: the second takes the next address.
        created = await withFreeSlug(() =>
          db.transaction(async (tx) => {
            const [holder] = await rows<{ id: number; email: string; first_name: string; locale: string }>(
              tx,
              sql`SELECT id, CASE WHEN lower(email) = ${normalEmail(body.email)} THEN email ELSE pending_email END AS email,
                       first_name, locale
                FROM users
                WHERE lower(email) = ${normalEmail(body.email)} OR lower(pending_email) = ${normalEmail(body.email)}
                LIMIT 1`,
            );
            if (holder) {
              await deps.mail.send({
                to: holder.email,
                userId: holder.id,
                template: "registerExisting",
                locale: holder.locale === "en" ? "en" : "fr",
                params: { firstName: holder.first_name },
                tx,
              });
              await log(holder.id, "register_attempt", meta, undefined, tx);
              return null;
            }
            const now = clock();
            const [user] = await tx
              .insert(users)
              .values({
                email: body.email,
                passwordHash,
                firstName: body.firstName,
                lastName: body.lastName,
                pseudo: body.pseudo,
                slug: await uniqueSlug(body.pseudo || `${body.firstName} ${body.lastName}`, tx),
                newsletter: body.newsletter,
                locale: body.locale,
                termsAcceptedAt: now,
                createdAt: now,
                updatedAt: now,
              })
              .returning();
            if (!user) throw new ApiError("GENERIC");
            await issueCode(user, tx);
            await log(user.id, "register", meta, undefined, tx);
            const session = await startSession(user, false, meta, tx);
            return { user, session };
          }),
        );
      } catch (error) {
        // Two registrations racing for one address: the unique index answers for the loser.
        if (isUniqueViolation(error, "users_email_lower_idx")) {
          throw new ApiError("EMAIL_ALREADY_USED");
        }
        throw error;
      }
      if (!created) throw new ApiError("EMAIL_ALREADY_USED");
      return created;
    },

    /**
     * Password sign-in. Limits never lock an account for anyone who knows its password from where
     * they usually sign in: wrong passwords count per (account, address) and per address, which stop
     * a guesser without touching anyone else; a larger daily count per account (guessing spread over
     * many addresses) holds back only devices that never signed into the account (`knownAccounts`,
     * from the signed device cookie), and a password reset always gets the member in.
     */
    async login(body: Body<typeof loginBodySchema>, meta: RequestMeta, knownAccounts: readonly number[] = []) {
      const email = normalEmail(body.email);
      const pairKey = `login:pair:${email}:${meta.ip}`;
      const accountKey = `login:account:${email}`;
      await limiter.hit(`login:ip:${meta.ip}`, LIMITS.loginIp);
      await limiter.check(pairKey, LIMITS.loginPair);
      const user = await byEmail(body.email);
      const usable = user && !user.disabledAt ? user : undefined;
      if (!(usable && knownAccounts.includes(usable.id))) {
        await limiter.check(accountKey, LIMITS.loginAccount, "ACCOUNT_LOGIN_PAUSED");
      }
      const valid = await verifyPassword(usable?.passwordHash, body.password);
      if (!usable || !valid) {
        await limiter.record(pairKey, LIMITS.loginPair);
        await limiter.record(accountKey, LIMITS.loginAccount);
        if (user) await log(user.id, "login_failed", meta);
        throw new ApiError("BAD_LOGIN");
      }
      await limiter.reset(pairKey);
      const session = await db.transaction(async (tx) => {
        const started = await startSession(usable, body.remember, meta, tx);
        await log(usable.id, "login", meta, undefined, tx);
        return started;
      });
      return { user: usable, session };
    },

    async logout(token: string | undefined) {
      if (token) await sessionsOf.delete(token);
    },

    /** POST /api/user/send-verify: a new code, at most one a minute ("email already sent"). */
    async sendVerification(user: UserRow) {
      if (user.emailStatus === "verified") return { alreadyVerified: true };
      // The code sent at registration or at a change of address counts too.
      const [latest] = await db
        .select({ createdAt: userTokens.createdAt })
        .from(userTokens)
        .where(and(eq(userTokens.userId, user.id), inArray(userTokens.purpose, ["verify_email", "change_email"])))
        .orderBy(desc(userTokens.id))
        .limit(1);
      if (latest && clock().getTime() - latest.createdAt.getTime() < RESEND_AFTER_MS) {
        throw new ApiError("EMAIL_ALREADY_SENT");
      }
      await limiter.hit(`resend:account:${user.id}`, LIMITS.resendAccount);
      await db.transaction((tx) => issueCode(user, tx));
      return { alreadyVerified: false };
    },

    /** POST /api/user/verify-account: unverified → verified, or pending change → verified. */
    async verifyAccount(user: UserRow, code: string, meta: RequestMeta) {
      await limiter.hit(`verify:ip:${meta.ip}`, LIMITS.verifyIp);
      await limiter.hit(`verify:account:${user.id}`, LIMITS.verifyAccount);
      const purpose = user.emailStatus === "pending_change" ? "change_email" : "verify_email";
      if (user.emailStatus === "verified") return me(user.id);
      const [token] = await db
        .select()
        .from(userTokens)
        .where(and(eq(userTokens.userId, user.id), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)))
        .orderBy(desc(userTokens.id))
        .limit(1);
      const now = clock();
      if (!token || token.expiresAt <= now || token.attempts >= CODE_MAX_ATTEMPTS) throw new ApiError("CODE_EXPIRED");
      if (!sameDigest(token.secretHash, sha256(`${user.id}:${code}`))) {
        await db
          .update(userTokens)
          .set({ attempts: sql`${userTokens.attempts} + 1` })
          .where(eq(userTokens.id, token.id));
        throw new ApiError(token.attempts + 1 >= CODE_MAX_ATTEMPTS ? "CODE_EXPIRED" : "INVALID_CODE");
      }
      try {
        await db.transaction(async (tx) => {
          await tx.update(userTokens).set({ usedAt: now }).where(eq(userTokens.id, token.id));
          if (purpose === "change_email") {
            if (await emailTaken(token.email, user.id, tx)) throw new ApiError("EMAIL_ALREADY_USED");
            await tx
              .update(users)
              .set({ email: token.email, pendingEmail: null, emailStatus: "verified", updatedAt: now })
              .where(eq(users.id, user.id));
            await log(user.id, "email_changed", meta, { from: user.email, to: token.email }, tx);
          } else {
            await tx.update(users).set({ emailStatus: "verified", updatedAt: now }).where(eq(users.id, user.id));
            await log(user.id, "email_verified", meta, undefined, tx);
            await mailMember(user, "welcome", tx);
          }
        });
      } catch (error) {
        // Someone took the address between the check and the update.
        if (isUniqueViolation(error, "users_email_lower_idx")) throw new ApiError("EMAIL_ALREADY_USED");
        throw error;
      }
      return me(user.id);
    },

    /**
     * Always answers the same, whether or not the address has an account, after the same work: a
     * token drawn, the same statements run (storing nothing without an account), one mail queued. An
     * address with an active account gets its reset link; any other gets a "no account uses this
     * address" mail, which is what someone who forgot which address they signed up with needs (the
     * per-address limits keep it from being a way to flood a mailbox).
     */
    async recoverPassword(body: Body<typeof recoverBodySchema>, meta: RequestMeta): Promise<boolean> {
      const email = normalEmail(body.email);
      await limiter.hit(`recover:ip:${meta.ip}`, LIMITS.recoverIp);
      await limiter.hit(`recover:throttle:${email}`, LIMITS.recoverThrottle, "EMAIL_ALREADY_SENT");
      await limiter.hit(`recover:account:${email}`, LIMITS.recoverAccount);
      const found = await byEmail(email);
      const user = found && !found.disabledAt ? found : undefined;
      const token = randomToken();
      const now = clock();
      const locale = (body.locale ?? user?.locale ?? "fr") as Locale;
      await db.transaction(async (tx) => {
        // The same statements either way: older links stop working, the new one is stored, the
        // request is logged. Without an account they match no row and store nothing.
        await tx.execute(
          sql`WITH expired AS (
                UPDATE user_tokens SET used_at = ${now}
                WHERE user_id = ${user?.id ?? 0} AND purpose = 'reset_password' AND used_at IS NULL
              )
              INSERT INTO user_tokens (user_id, purpose, email, secret_hash, expires_at, created_at)
              SELECT id, 'reset_password', email, ${sha256(token)}, ${new Date(now.getTime() + RESET_TTL_MS)}, ${now}
              FROM users WHERE id = ${user?.id ?? 0}`,
        );
        await tx.execute(
          sql`INSERT INTO user_logs (user_id, type, ip, created_at)
              SELECT id, 'recover_requested', ${meta.ip ?? null}, ${now} FROM users WHERE id = ${user?.id ?? 0}`,
        );
        await deps.mail.send(
          user
            ? {
                to: user.email,
                userId: user.id,
                template: "resetPassword",
                locale,
                params: { firstName: user.firstName },
                secrets: { link: publicUrl(`${pagePath("resetPassword", locale)}?token=${token}`, deps.publicOrigin) },
                tx,
              }
            : { to: body.email.trim(), template: "resetNoAccount", locale, params: {}, tx },
        );
      });
      // For the route's timing only (its answer is the same): did the address have an account?
      return Boolean(user);
    },

    /** A single-use link: sets the password, signs out every other session, signs this one in. */
    async resetPassword(body: Body<typeof resetBodySchema>, meta: RequestMeta) {
      await limiter.hit(`reset:ip:${meta.ip}`, LIMITS.verifyIp);
      const now = clock();
      const [token] = await db
        .select()
        .from(userTokens)
        .where(and(eq(userTokens.secretHash, sha256(body.token)), eq(userTokens.purpose, "reset_password")))
        .limit(1);
      if (!token || token.usedAt || token.expiresAt <= now) throw new ApiError("INVALID_TOKEN");
      const user = await byId(token.userId);
      if (!user || user.disabledAt) throw new ApiError("INVALID_TOKEN");
      const passwordHash = await hashPassword(body.password);
      const session = await db.transaction(async (tx) => {
        // The conditional update makes a link usable once even when two requests race.
        const claimed = await tx
          .update(userTokens)
          .set({ usedAt: now })
          .where(and(eq(userTokens.id, token.id), isNull(userTokens.usedAt)))
          .returning({ id: userTokens.id });
        if (claimed.length === 0) throw new ApiError("INVALID_TOKEN");
        // The link proves the member reads this mailbox.
        const emailStatus = user.emailStatus === "unverified" ? "verified" : user.emailStatus;
        await tx.update(users).set({ passwordHash, emailStatus, updatedAt: now }).where(eq(users.id, user.id));
        await sessionsOf.deleteForUser(user.id, undefined, tx);
        await log(user.id, "password_reset", meta, undefined, tx);
        await mailMember(user, "passwordChanged", tx);
        return startSession({ ...user, passwordHash }, false, meta, tx);
      });
      return { user, session };
    },

    async updateProfile(user: UserRow, body: ProfileBody): Promise<Me> {
      if (body.publicProfile && !user.publicProfile) requireVerifiedEmail(user);
      const slugBase = body.pseudo || `${body.firstName} ${body.lastName}`;
      const nameChanged = displayName(user) !== displayName({ ...user, ...body });
      const write = async () =>
        db
          .update(users)
          .set({
            firstName: body.firstName,
            lastName: body.lastName,
            pseudo: body.pseudo,
            gender: body.gender ?? null,
            city: body.city ?? null,
            country: body.country ?? null,
            presentation: body.presentation ?? null,
            objectives: body.objectives ?? null,
            sports: body.sports,
            best10k: body.best10k ?? null,
            bestHalf: body.bestHalf ?? null,
            bestMarathon: body.bestMarathon ?? null,
            publicProfile: body.publicProfile,
            ...(nameChanged ? { slug: await uniqueSlug(slugBase, db, user.id) } : {}),
            updatedAt: clock(),
          })
          .where(eq(users.id, user.id));
      // Two members taking the same name at the same instant: the second picks the next slug.
      await write().catch((error: unknown) => {
        if (isUniqueViolation(error, "users_slug_unique")) return write();
        throw error;
      });
      return me(user.id);
    },

    /**
     * A verified member's new address waits for its code (pending change); until then the old one
     * stays in use. An unverified member simply replaces the address and gets a new code.
     */
    async changeEmail(user: UserRow, body: Body<typeof changeEmailBodySchema>, meta: RequestMeta): Promise<Me> {
      await confirmPassword(user, body.currentPassword);
      if (normalEmail(body.email) === normalEmail(user.email)) {
        if (user.emailStatus === "pending_change") {
          await db
            .update(users)
            .set({ pendingEmail: null, emailStatus: "verified", updatedAt: clock() })
            .where(eq(users.id, user.id));
        }
        return me(user.id);
      }
      await limiter.hit(`resend:account:${user.id}`, LIMITS.resendAccount);
      await db.transaction(async (tx) => {
        if (await emailTaken(body.email, user.id, tx)) throw new ApiError("EMAIL_ALREADY_USED");
        const next: Partial<UserRow> =
          user.emailStatus === "unverified"
            ? { email: body.email, pendingEmail: null }
            : { pendingEmail: body.email, emailStatus: "pending_change" };
        await tx
          .update(users)
          .set({ ...next, updatedAt: clock() })
          .where(eq(users.id, user.id));
        await issueCode({ ...user, ...next } as UserRow, tx);
        await log(user.id, "email_change_requested", meta, { to: body.email }, tx);
      });
      return me(user.id);
    },

    async changePassword(
      user: UserRow,
      body: Body<typeof changePasswordBodySchema>,
      currentSessionId: string | undefined,
      meta: RequestMeta,
    ): Promise<Me> {
      await confirmPassword(user, body.currentPassword);
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: clock() }).where(eq(users.id, user.id));
        await sessionsOf.deleteForUser(user.id, currentSessionId, tx);
        await log(user.id, "password_changed", meta, undefined, tx);
        await mailMember(user, "passwordChanged", tx);
      });
      return me(user.id);
    },

    async updatePreferences(user: UserRow, body: Body<typeof preferencesBodySchema>): Promise<Me> {
      await db
        .update(users)
        .set({ newsletter: body.newsletter, locale: body.locale, updatedAt: clock() })
        .where(eq(users.id, user.id));
      return me(user.id);
    },

    /**
     * The account can no longer sign in and its public profile disappears. Everything that opens
     * it goes at once, so that enabling it again (npm run user:create-admin) revives none of it:
     * sessions, mailed codes and links, social sign-in links, the planning feed's address.
     */
    async disable(user: UserRow, body: Body<typeof disableBodySchema>, meta: RequestMeta) {
      await confirmPassword(user, body.currentPassword);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ disabledAt: clock(), publicProfile: false, updatedAt: clock() })
          .where(eq(users.id, user.id));
        await sessionsOf.deleteForUser(user.id, undefined, tx);
        await tx.delete(userTokens).where(eq(userTokens.userId, user.id));
        await tx.delete(userIdentities).where(eq(userIdentities.userId, user.id));
        // What other features keep of the member follows the account (member-data-port.ts): its
        // ratings leave the editions' averages, imported activities and the planning feed go.
        await deps.memberData?.erase(user.id, tx);
        await log(user.id, "account_disabled", meta, undefined, tx);
        await mailMember(user, "accountDisabled", tx);
      });
    },

    /** GDPR: everything Dossard keeps about the member, secrets excluded. */
    async exportData(userId: number) {
      const profile = await me(userId);
      const identities = await db
        .select({ provider: userIdentities.provider, email: userIdentities.email, linkedAt: userIdentities.createdAt })
        .from(userIdentities)
        .where(eq(userIdentities.userId, userId));
      const activity = await db
        .select({ type: userLogs.type, ip: userLogs.ip, at: userLogs.createdAt })
        .from(userLogs)
        .where(eq(userLogs.userId, userId))
        .orderBy(desc(userLogs.id))
        .limit(1000);
      const sessionsList = await rows<{
        created_at: string;
        last_seen_at: string;
        ip: string | null;
        user_agent: string | null;
      }>(
        db,
        sql`SELECT created_at, last_seen_at, ip, user_agent FROM sessions WHERE user_id = ${userId} ORDER BY created_at DESC`,
      );
      return {
        exportedAt: clock().toISOString(),
        profile,
        stats: await statsOf(userId),
        linkedAccounts: identities.map((i) => ({ ...i, linkedAt: i.linkedAt.toISOString() })),
        sessions: sessionsList.map((s) => ({
          createdAt: new Date(s.created_at).toISOString(),
          lastSeenAt: new Date(s.last_seen_at).toISOString(),
          ip: s.ip,
          userAgent: s.user_agent,
        })),
        activity: activity.map((a) => ({ ...a, at: a.at.toISOString() })),
        ...(deps.memberData ? await deps.memberData.export(userId) : {}),
      };
    },

    /** Stats of spec section 3 (deps.memberStats). */
    stats: statsOf,

    /** A public, enabled profile by slug; null otherwise (the caller answers 404). */
    /** The current slug of the member who had `slug` before a change of name (issue 26 item 6), or null. */
    async currentSlug(slug: string): Promise<string | null> {
      const [row] = await db
        .select({ slug: users.slug })
        .from(userFormerSlugs)
        .innerJoin(users, eq(users.id, userFormerSlugs.userId))
        .where(eq(userFormerSlugs.slug, slug.slice(0, 80)))
        .limit(1);
      return row && row.slug !== slug ? row.slug : null;
    },

    async publicProfile(slug: string, options: { preview?: boolean } = {}): Promise<PublicProfile | null> {
      const [user] = await db.select().from(users).where(eq(users.slug, slug)).limit(1);
      if (!user || user.disabledAt || (!user.publicProfile && !options.preview)) return null;
      return {
        slug: user.slug,
        displayName: displayName(user),
        firstName: user.firstName,
        gender: (user.gender as PublicProfile["gender"]) ?? null,
        city: user.city,
        country: user.country,
        presentation: user.presentation,
        objectives: user.objectives,
        sports: user.sports,
        best10k: user.best10k,
        bestHalf: user.bestHalf,
        bestMarathon: user.bestMarathon,
        photoUrl: photoUrl(user),
        memberSince: user.createdAt.toISOString(),
        stats: await statsOf(user.id),
      };
    },

    /** Before a profile photo's file is read: a verified address, and uploads left this hour (this one counts). */
    async admitPhotoUpload(user: UserRow): Promise<void> {
      requireVerifiedEmail(user);
      await limiter.hit(`upload:account:${user.id}`, LIMITS.uploadAccount, "TOO_MANY_UPLOADS");
    },

    /** Points the profile at a stored photo (admitted with admitPhotoUpload). */
    async setPhoto(user: UserRow, file: string): Promise<{ previous: string | null; me: Me }> {
      requireVerifiedEmail(user);
      await db.update(users).set({ photo: file, updatedAt: clock() }).where(eq(users.id, user.id));
      return { previous: user.photo, me: await me(user.id) };
    },

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
    async hasAdmin(tx: Executor = db): Promise<boolean> {
      const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
      return Boolean(row);
    },

    /**
     * The first admin of a fresh install, signed in: refused with SETUP_DONE once any admin exists
     * (two setups racing are serialised by a transaction lock, so only one wins).
     */
    async setupFirstAdmin(body: FirstAdminBody, meta: RequestMeta): Promise<{ user: UserRow; session: NewSession }> {
      const passwordHash = await hashPassword(body.password);
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('dossard:first-admin'))`);
        if (await this.hasAdmin(tx)) throw new ApiError("SETUP_DONE");
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

    /**
     * Social sign-in: the member already linked to this provider account; else, when the provider
     * vouches for the address, the account with that email (linked now); else a new account. A
     * profile without email can only sign in to an existing link or be linked by a signed-in member.
     */
    async signInWithOAuth(profile: OAuthProfile, meta: RequestMeta, currentUser?: UserRow) {
      const [linked] = await db
        .select({ user: users })
        .from(userIdentities)
        .innerJoin(users, eq(users.id, userIdentities.userId))
        .where(
          and(eq(userIdentities.provider, profile.provider), eq(userIdentities.providerUserId, profile.providerUserId)),
        )
        .limit(1);
      // A signed-in member cannot take over a provider account another member linked.
      if (currentUser && linked && linked.user.id !== currentUser.id) throw new ApiError("IDENTITY_ALREADY_LINKED");
      let user: UserRow | undefined = linked?.user;
      if (user?.disabledAt) throw new ApiError("BAD_LOGIN");
      if (!user && currentUser) user = currentUser;
      const email = profile.email && profile.emailVerified ? profile.email : null;
      if (!user && !email) throw new ApiError("OAUTH_NO_EMAIL");
      // A new member of the same name signing up at the same instant: the next address.
      const session = await withFreeSlug(() =>
        db.transaction(async (tx) => {
          const now = clock();
          if (!user && email) {
            const existing = await byEmail(email, tx);
            if (existing?.disabledAt) throw new ApiError("BAD_LOGIN");
            if (existing) {
              // Someone may have registered this address without owning it: the provider proves
              // ownership, so their password and sessions are dropped before linking.
              if (existing.emailStatus === "unverified") {
                await tx
                  .update(users)
                  .set({ emailStatus: "verified", passwordHash: null, updatedAt: now })
                  .where(eq(users.id, existing.id));
                await sessionsOf.deleteForUser(existing.id, undefined, tx);
              }
              user = existing;
            } else {
              const [created] = await tx
                .insert(users)
                .values({
                  email,
                  emailStatus: "verified",
                  firstName: profile.firstName || email.split("@")[0] || "",
                  lastName: profile.lastName,
                  slug: await uniqueSlug(`${profile.firstName} ${profile.lastName}`.trim() || "membre", tx),
                  city: profile.city ?? null,
                  country: profile.country ?? null,
                  gender: profile.gender ?? null,
                  locale: profile.locale ?? "fr",
                  termsAcceptedAt: now,
                  createdAt: now,
                  updatedAt: now,
                })
                .returning();
              user = created;
              if (user) await log(user.id, "register", meta, { provider: profile.provider }, tx);
            }
          }
          if (!user) throw new ApiError("OAUTH_FAILURE");
          if (!linked) {
            await tx
              .insert(userIdentities)
              .values({
                provider: profile.provider,
                providerUserId: profile.providerUserId,
                userId: user.id,
                email: profile.email,
                createdAt: now,
              })
              .onConflictDoNothing();
            await log(user.id, "identity_linked", meta, { provider: profile.provider }, tx);
          }
          await log(user.id, "login", meta, { provider: profile.provider }, tx);
          return startSession(user, true, meta, tx);
        }),
      );
      if (!user) throw new ApiError("OAUTH_FAILURE");
      return { user, session };
    },
  };
}
export type AccountsService = ReturnType<typeof accountsService>;
