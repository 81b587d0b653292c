/**
 * Getting into an account: registration, password sign-in and sign-out, the e-mail codes
 * (verification, change of address), password recovery and reset, social sign-in.
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { publicUrl } from "../../shared/public-url.ts";
import type { RequestMeta } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import { LIMITS } from "../identity/rate-limit.server.ts";
import {
  CODE_MAX_ATTEMPTS,
  hashPassword,
  RESEND_AFTER_MS,
  randomToken,
  sameDigest,
  sha256,
  verifyPassword,
} from "../identity/secrets.server.ts";
import type { NewSession, UserRow } from "../identity/sessions.server.ts";
import { type AccountStore, type Body, normalEmail, RESET_TTL_MS } from "./account-store.server.ts";
import type { loginBodySchema, RegisterBody, recoverBodySchema, resetBodySchema } from "./accounts.contract.ts";
import { userIdentities, userTokens } from "./accounts.tables.ts";

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

export function signInService(store: AccountStore) {
  const {
    db,
    clock,
    deps,
    limiter,
    sessionsOf,
    byEmail,
    byId,
    emailTaken,
    uniqueSlug,
    withFreeSlug,
    log,
    issueCode,
    mailMember,
    startSession,
    me,
  } = store;
  return {
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
