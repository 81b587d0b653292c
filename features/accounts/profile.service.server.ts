/**
 * The member's own account once in: profile and photo, address, password and preferences,
 * disabling it, the GDPR export, stats and the public profile page.
 */
import { desc, eq, sql } from "drizzle-orm";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type RequestMeta, requireVerifiedEmail } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import { LIMITS } from "../identity/rate-limit.server.ts";
import { hashPassword } from "../identity/secrets.server.ts";
import type { UserRow } from "../identity/sessions.server.ts";
import { displayName, photoUrl } from "../identity/users.server.ts";
import { type AccountStore, type Body, normalEmail } from "./account-store.server.ts";
import type {
  changeEmailBodySchema,
  changePasswordBodySchema,
  disableBodySchema,
  Me,
  ProfileBody,
  PublicProfile,
  preferencesBodySchema,
} from "./accounts.contract.ts";
import { userFormerSlugs, userIdentities, userLogs } from "./accounts.tables.ts";

export function profileService(store: AccountStore) {
  const {
    db,
    clock,
    deps,
    limiter,
    sessionsOf,
    statsOf,
    emailTaken,
    uniqueSlug,
    log,
    issueCode,
    mailMember,
    me,
    confirmPassword,
    closeAccount,
  } = store;
  return {
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
     * The member closes their own account (account-store's closeAccount: signed out everywhere,
     * codes, social links and what other features keep of it go); an admin may enable it again.
     */
    async disable(user: UserRow, body: Body<typeof disableBodySchema>, meta: RequestMeta) {
      await confirmPassword(user, body.currentPassword);
      await db.transaction(async (tx) => {
        await closeAccount(user.id, tx);
        await log(user.id, "account_disabled", meta, undefined, tx);
        await mailMember(user, "accountDisabled", tx);
      });
    },

    /**
     * GDPR: everything Dossard keeps about the member, secrets excluded. The member asks for their
     * own; an admin may ask for a disabled member's (`evenDisabled`).
     */
    async exportData(userId: number, options: { evenDisabled?: boolean } = {}) {
      const profile = await me(userId, options);
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

    /** A public, enabled profile by slug; null otherwise (the caller answers 404). */
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
  };
}
