import { randomBytes } from "node:crypto";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import sharp from "sharp";
import { z } from "zod";
import { uploadedFile } from "../../platform/http/route-docs.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { idParam, text } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import {
  clearSessionCookie,
  isSameOriginRequest,
  requestMeta,
  requireUser,
  setSessionCookie,
} from "../identity/auth.server.ts";
import { LIMITS } from "../identity/rate-limit.server.ts";
import type { NewSession } from "../identity/sessions.server.ts";
import { imageWork } from "../media/image-work.server.ts";
import { refuseDeclaredOversize } from "../media/uploads.server.ts";
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  disableBodySchema,
  loginBodySchema,
  meResponseSchema,
  okSchema,
  preferencesBodySchema,
  profileBodySchema,
  publicProfileSchema,
  recoverBodySchema,
  registerBodySchema,
  resetBodySchema,
  USER_EDIT_TYPES,
  USER_PHOTO_MAX_BYTES,
  USER_PHOTO_TYPES,
  userStatsSchema,
  verifyCodeBodySchema,
} from "./accounts.contract.ts";
import { adminUsersRoutes } from "./admin-users.routes.server.ts";
import { knownAccounts, rememberDevice } from "./device.server.ts";
import { equalTimingHooks } from "./equal-timing.server.ts";

const NO_STORE = "private, no-store";

/**
 * The account API of spec section 7: register, login/logout, email codes, password recovery,
 * the signed-in member (/api/me), profile and settings edits, disabling, public profiles, the
 * profile photo upload; the admin's Users routes (admin-users.routes.server.ts) inside.
 */
export const accountsRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = () => app.services.accounts;
  const publicUrl = app.config.PUBLIC_URL;
  /** A new session, and this browser remembered as one the member signs in from. */
  const signIn = (request: FastifyRequest, reply: FastifyReply, session: NewSession, userId: number) => {
    setSessionCookie(request, reply, session, publicUrl);
    rememberDevice(request, reply, userId, publicUrl);
  };

  // Registration and recovery answer as fast for an address with an account as without one
  // (decision 019): "already used" takes as long as a new account, and a recovery for an address
  // without an account as long as one for a real account.
  const registerTiming = equalTimingHooks((_request, reply) =>
    reply.statusCode === 201 ? "heavy" : reply.statusCode === 409 ? "light" : null,
  );
  const withoutAccount = new WeakSet<FastifyRequest>();
  const recoverTiming = equalTimingHooks((request, reply) =>
    reply.statusCode !== 200 ? null : withoutAccount.has(request) ? "light" : "heavy",
  );

  await app.register(fastifyMultipart, { limits: { fileSize: USER_PHOTO_MAX_BYTES, files: 1, fields: 5 } });

  // Nothing about a member may be cached by a shared cache.
  app.addHook("onSend", async (_request, reply) => {
    if (!reply.getHeader("cache-control")) reply.header("Cache-Control", NO_STORE);
  });

  app.post(
    "/api/register",
    {
      config: { access: access.anyone, openapi: { errors: ["TOO_MANY_ATTEMPTS", "EMAIL_ALREADY_USED"] } },
      schema: {
        tags: ["account"],
        summary: "Create an account; signs it in and mails a 5-digit code to verify the address",
        body: registerBodySchema,
        response: { 201: meResponseSchema },
      },
      ...registerTiming,
    },
    async (request, reply) => {
      const { user, session } = await accounts().register(request.body, requestMeta(request));
      signIn(request, reply, session, user.id);
      return reply.status(201).send({ user: await accounts().me(user.id) });
    },
  );

  app.post(
    "/api/login",
    {
      config: {
        access: access.anyone,
        openapi: { errors: ["TOO_MANY_ATTEMPTS", "ACCOUNT_LOGIN_PAUSED", "BAD_LOGIN"] },
      },
      schema: {
        tags: ["account"],
        summary: "Sign in with email and password",
        body: loginBodySchema,
        response: { 200: meResponseSchema },
      },
    },
    async (request, reply) => {
      const previous = await request.auth();
      const { user, session } = await accounts().login(request.body, requestMeta(request), knownAccounts(request));
      // A new session every time: a token planted before sign-in is worthless after it.
      if (previous) await accounts().logout(previous.token);
      signIn(request, reply, session, user.id);
      return { user: await accounts().me(user.id) };
    },
  );

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = await request.auth();
    await accounts().logout(auth?.token);
    clearSessionCookie(request, reply, publicUrl);
  };
  /** The language of a sign-out: ?lang, else the page it was clicked on. */
  const logoutLocale = (request: FastifyRequest): Locale => {
    const lang = (request.query as { lang?: string } | undefined)?.lang;
    const referer = String(request.headers.referer ?? "");
    return lang === "en" || /\/\/[^/]+\/en(\/|$)/.test(referer) ? "en" : "fr";
  };
  /**
   * A sign-out by GET (the spec's links) acts only when the site itself asked (isSameOriginRequest):
   * a link or an image on another site would otherwise sign members out. Anything else is sent to
   * the "Sign out?" page, whose button posts the sign-out.
   */
  const confirmLogout = (request: FastifyRequest, reply: FastifyReply) =>
    reply.header("Cache-Control", "private, no-store").redirect(pagePath("signOut", logoutLocale(request)), 303);
  const lang = z.object({ lang: z.enum(["fr", "en"]).optional() });

  app.post(
    "/api/logout",
    {
      config: { access: access.anyone },
      schema: { tags: ["account"], summary: "Sign out this browser", response: { 200: okSchema } },
    },
    async (request, reply) => {
      await logout(request, reply);
      return { ok: true as const };
    },
  );
  app.get(
    "/api/logout",
    {
      config: {
        access: access.anyone,
        openapi: { redirect: { status: 303, to: "From another site: to the sign-out page, which asks first" } },
      },
      schema: {
        tags: ["account"],
        summary: "Sign out this browser (from the site itself; otherwise 303 to the sign-out page)",
        querystring: lang,
        response: { 200: okSchema },
      },
    },
    async (request, reply) => {
      if (!isSameOriginRequest(request)) return confirmLogout(request, reply);
      await logout(request, reply);
      return { ok: true as const };
    },
  );
  app.get(
    "/logout",
    { config: { access: access.anyone }, schema: { hide: true, querystring: lang } },
    async (request, reply) => {
      if (!isSameOriginRequest(request)) return confirmLogout(request, reply);
      await logout(request, reply);
      return reply.redirect(pagePath("home", logoutLocale(request)), 303);
    },
  );

  app.post(
    "/api/user/send-verify",
    {
      config: { access: access.member, openapi: { errors: ["TOO_MANY_ATTEMPTS", "EMAIL_ALREADY_SENT"] } },
      schema: {
        tags: ["account"],
        summary: "Mail a new verification code (at most one a minute)",
        response: { 200: z.object({ ok: z.literal(true), alreadyVerified: z.boolean() }) },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { alreadyVerified } = await accounts().sendVerification(user);
      return { ok: true as const, alreadyVerified };
    },
  );

  app.post(
    "/api/user/verify-account",
    {
      config: {
        access: access.member,
        openapi: { errors: ["TOO_MANY_ATTEMPTS", "INVALID_CODE", "CODE_EXPIRED", "EMAIL_ALREADY_USED"] },
      },
      schema: {
        tags: ["account"],
        summary: "Confirm the address (or the new address) with the mailed code",
        body: verifyCodeBodySchema,
        response: { 200: meResponseSchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return { user: await accounts().verifyAccount(user, request.body.code, requestMeta(request)) };
    },
  );

  app.post(
    "/api/recover-password",
    {
      config: { access: access.anyone, openapi: { errors: ["TOO_MANY_ATTEMPTS", "EMAIL_ALREADY_SENT"] } },
      schema: {
        tags: ["account"],
        summary: "Mail a single-use reset link (same answer whether or not the address exists)",
        body: recoverBodySchema,
        response: { 200: okSchema },
      },
      ...recoverTiming,
    },
    async (request) => {
      if (!(await accounts().recoverPassword(request.body, requestMeta(request)))) withoutAccount.add(request);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/reset-password",
    {
      config: { access: access.anyone, openapi: { errors: ["TOO_MANY_ATTEMPTS", "INVALID_TOKEN"] } },
      schema: {
        tags: ["account"],
        summary: "Set a new password with a reset link's token; signs out every other session",
        body: resetBodySchema,
        response: { 200: meResponseSchema },
      },
    },
    async (request, reply) => {
      const { user, session } = await accounts().resetPassword(request.body, requestMeta(request));
      signIn(request, reply, session, user.id);
      return { user: await accounts().me(user.id) };
    },
  );

  app.get(
    "/api/me",
    {
      config: { access: access.member },
      schema: { tags: ["account"], summary: "The signed-in member", response: { 200: meResponseSchema } },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return { user: await accounts().me(user.id) };
    },
  );

  app.get(
    "/api/me/:type",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Parts of the signed-in member's account: profile, stats, or export (GDPR, JSON file)",
        params: z.object({ type: z.enum(["profile", "stats", "export"]) }),
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      switch (request.params.type) {
        case "profile":
          return { user: await accounts().me(user.id) };
        case "stats":
          return { stats: await accounts().stats(user.id) };
        case "export": {
          const data = await accounts().exportData(user.id);
          reply.header("Content-Disposition", `attachment; filename="dossard-${user.slug}.json"`);
          return reply.type("application/json; charset=utf-8").send(JSON.stringify(data, null, 2));
        }
      }
    },
  );

  app.post(
    "/api/user/:type/:id",
    {
      config: {
        access: access.self("id"),
        openapi: {
          errors: ["WRONG_PASSWORD", "TOO_MANY_ATTEMPTS", "EMAIL_ALREADY_USED", "EMAIL_VERIFICATION_REQUIRED"],
        },
      },
      schema: {
        tags: ["account"],
        summary: "Edit one's profile, email, password or preferences",
        params: z.object({ type: z.enum(USER_EDIT_TYPES), id: idParam }),
        body: z.unknown(),
        response: { 200: meResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      if (request.params.id !== auth.user.id) throw new ApiError("FORBIDDEN");
      const meta = requestMeta(request);
      const parse = <T>(schema: z.ZodType<T>): T => {
        const parsed = schema.safeParse(request.body);
        if (!parsed.success) throw parsed.error;
        return parsed.data;
      };
      switch (request.params.type) {
        case "profile":
          return { user: await accounts().updateProfile(auth.user, parse(profileBodySchema)) };
        case "email":
          return { user: await accounts().changeEmail(auth.user, parse(changeEmailBodySchema), meta) };
        case "password":
          return {
            user: await accounts().changePassword(auth.user, parse(changePasswordBodySchema), auth.sessionId, meta),
          };
        case "preferences":
          return { user: await accounts().updatePreferences(auth.user, parse(preferencesBodySchema)) };
      }
    },
  );

  app.post(
    "/api/user/disable-account",
    {
      config: { access: access.member, openapi: { errors: ["WRONG_PASSWORD", "TOO_MANY_ATTEMPTS"] } },
      schema: {
        tags: ["account"],
        summary: "Disable one's account (confirmation and password required); signs out everywhere",
        body: disableBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      await accounts().disable(user, request.body, requestMeta(request));
      clearSessionCookie(request, reply, publicUrl);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/user/:slug?",
    {
      config: { access: access.anyone, openapi: { errors: ["LOGIN_REQUIRED", "ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["account"],
        summary: "A public profile by slug; without slug, one's own profile as others would see it",
        params: z.object({ slug: text().max(80).optional() }),
        response: { 200: z.object({ profile: publicProfileSchema, isPublic: z.boolean() }) },
      },
    },
    async (request, reply) => {
      let slug = request.params.slug;
      if (!slug) {
        const { user } = await requireUser(request);
        const profile = await accounts().publicProfile(user.slug, { preview: true });
        if (!profile) throw new ApiError("ITEM_NOT_FOUND");
        return { profile, isPublic: user.publicProfile };
      }
      slug = slug.toLowerCase();
      const profile = await accounts().publicProfile(slug);
      if (!profile) throw new ApiError("ITEM_NOT_FOUND");
      reply.header("Cache-Control", "public, max-age=60");
      return { profile, isPublic: true };
    },
  );

  app.get(
    "/api/user/:slug/stats",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["account"],
        summary: "Statistics of a public profile",
        params: z.object({ slug: text().max(80) }),
        response: { 200: z.object({ stats: userStatsSchema }) },
      },
    },
    async (request) => {
      const profile = await accounts().publicProfile(request.params.slug.toLowerCase());
      if (!profile) throw new ApiError("ITEM_NOT_FOUND");
      return { stats: profile.stats };
    },
  );

  app.post(
    "/api/upload/user-photo",
    {
      config: {
        access: access.verified,
        openapi: {
          errors: ["TOO_MANY_UPLOADS", "FILE_NOT_FOUND", "FILE_TOO_HEAVY", "FILE_TYPE_INVALID", "SERVER_BUSY"],
          multipart: z.object({ file: uploadedFile("The photo: JPEG, PNG or WebP, 5 MB at most") }),
        },
      },
      schema: {
        tags: ["account"],
        summary: "Upload a profile photo (JPEG, PNG or WebP, checked by content, 5 MB at most)",
        description:
          `Verified members only; ${LIMITS.uploadAccount.max} uploads an hour. Both are checked before the file is ` +
          "read. Errors: " +
          "EMAIL_VERIFICATION_REQUIRED (409), TOO_MANY_UPLOADS (429), FILE_TOO_HEAVY (413), FILE_TYPE_INVALID (415).",
        consumes: ["multipart/form-data"],
        response: { 200: meResponseSchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      // Verified address and hourly quota first, then the body (decision 018).
      await accounts().admitPhotoUpload(user);
      refuseDeclaredOversize(request, USER_PHOTO_MAX_BYTES, () => new ApiError("FILE_TOO_HEAVY", { field: "file" }));
      if (imageWork.saturated()) throw new ApiError("SERVER_BUSY");
      if (!request.isMultipart()) throw new ApiError("FILE_NOT_FOUND", { field: "file" });
      const file = await request.file();
      if (!file) throw new ApiError("FILE_NOT_FOUND", { field: "file" });
      let data: Buffer;
      try {
        data = await file.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
          throw new ApiError("FILE_TOO_HEAVY", { field: "file" });
        }
        throw error;
      }
      const image = await imageWork.run(async () => {
        // The content decides, not the name or the declared type.
        const format = await sharp(data)
          .metadata()
          .then((m) => m.format)
          .catch(() => undefined);
        if (!format || !(USER_PHOTO_TYPES as readonly string[]).includes(format)) {
          throw new ApiError("FILE_TYPE_INVALID");
        }
        return sharp(data)
          .rotate()
          .resize(400, 400, { fit: "cover" })
          .webp({ quality: 80 })
          .toBuffer()
          .catch((cause) => {
            throw new ApiError("FILE_TYPE_INVALID", { cause });
          });
      });
      const name = `${user.id}-${randomBytes(6).toString("hex")}.webp`;
      await app.storage.put(`user/${name}`, image, "image/webp");
      const { previous, me } = await accounts()
        .setPhoto(user, name)
        .catch(async (error: unknown) => {
          await app.storage.delete(`user/${name}`);
          throw error;
        });
      if (previous) await app.storage.delete(`user/${previous}`);
      return { user: me };
    },
  );

  // The admin's Users screen: the list, its exports, one member's detail and the actions on them.
  await app.register(adminUsersRoutes);
};
