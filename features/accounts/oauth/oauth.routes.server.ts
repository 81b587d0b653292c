/**
 * Social sign-in at /connect/google, /connect/facebook and /connect/strava (spec section 7).
 *
 * One address per provider does both halves of the authorisation code flow:
 * - without `code` or `error`: a fresh state (and PKCE verifier), kept with `next` and the language
 *   in a signed, httpOnly, SameSite=Lax cookie for 10 minutes, then 302 to the provider;
 * - with `code` or `error` (the provider sending the browser back): the state is checked against
 *   the cookie, the code exchanged, the profile read and the member signed in (a signed-in member
 *   links the provider to their account), then 303 to `next` or the home page of the language.
 * Every failure is a 303 to the login page of the language with `?error=<CODE>`, never a 500.
 * A provider without a client id is disabled: its address answers 404.
 */

import { generateCodeVerifier, generateState } from "arctic";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError, type ErrorCode } from "../../../shared/api-error.ts";
import type { Locale } from "../../../shared/constants.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { text } from "../../../shared/input.ts";
import { access } from "../../identity/access.server.ts";
import { requestMeta, setSessionCookie } from "../../identity/auth.server.ts";
import { sameDigest, sha256 } from "../../identity/secrets.server.ts";
import { safeNext as safeNextPath } from "../components/safe-next.ts";
import { rememberDevice } from "../device.server.ts";
import {
  isOAuthProviderName,
  OAUTH_PROVIDERS,
  type OAuthProvider,
  OAuthProviderError,
  type OAuthProviderName,
  oauthProvider,
} from "./providers.server.ts";

export { safeNextPath };

export const OAUTH_STATE_COOKIE = "dossard_oauth";
/** Path of the state cookie: only /connect/* ever reads it. */
const STATE_COOKIE_PATH = "/connect";
const STATE_TTL_SECONDS = 10 * 60;

/** Errors of signInWithOAuth the login page explains as they are; anything else is OAUTH_FAILURE. */
const SIGN_IN_ERRORS = new Set<ErrorCode>(["OAUTH_NO_EMAIL", "BAD_LOGIN", "OAUTH_FAILURE", "IDENTITY_ALREADY_LINKED"]);

const savedStateSchema = z.object({
  provider: z.enum(OAUTH_PROVIDERS),
  state: z.string().min(1),
  verifier: z.string().nullable(),
  next: z.string().nullable(),
  locale: z.enum(["fr", "en"]),
  /** Issued at (ms): the cookie's own expiry is the browser's to honour, this one is ours. */
  issuedAt: z.number(),
});
type SavedState = z.infer<typeof savedStateSchema>;

/** The first value of a query parameter given once or repeated. */
function one(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : undefined;
}

function isSecure(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === "https" || publicUrl.startsWith("https:");
}

/**
 * The language of the visit comes from ?lang (pages link to /connect/google?lang=en), not from a
 * referrer, which the providers' redirects never carry (Referrer-Policy: same-origin).
 */
function startLocale(lang: string | undefined): Locale {
  return lang === "en" ? "en" : "fr";
}

/**
 * The state sent to the provider starts with the language ("en.…"), so a callback that lost its
 * cookie still lands on the login page in the right language. Only the whole value is trusted,
 * and only once it matches the cookie.
 */
function localeOfState(state: string | undefined): Locale | undefined {
  const prefix = state?.split(".", 1)[0];
  return prefix === "en" || prefix === "fr" ? prefix : undefined;
}

function sameState(expected: string, received: string): boolean {
  return sameDigest(sha256(expected), sha256(received));
}

export const oauthRoutes: FastifyPluginAsyncZod = async (app) => {
  const publicUrl = app.config.PUBLIC_URL;
  const providers = new Map<OAuthProviderName, OAuthProvider>();
  for (const name of OAUTH_PROVIDERS) {
    const provider = oauthProvider(app.config, name);
    if (provider) providers.set(name, provider);
  }

  const cookieOptions = (request: FastifyRequest) => ({
    path: STATE_COOKIE_PATH,
    httpOnly: true,
    sameSite: "lax" as const,
    secure: isSecure(request, publicUrl),
  });

  function readSavedState(request: FastifyRequest): SavedState | null {
    const raw = request.cookies[OAUTH_STATE_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return null;
    try {
      const parsed = savedStateSchema.safeParse(JSON.parse(Buffer.from(unsigned.value, "base64url").toString("utf8")));
      if (!parsed.success) return null;
      const age = Date.now() - parsed.data.issuedAt;
      return age >= 0 && age <= STATE_TTL_SECONDS * 1000 ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async function start(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: OAuthProvider,
    query: Record<string, unknown>,
  ) {
    const locale = startLocale(one(query.lang));
    const saved: SavedState = {
      provider: provider.name,
      state: `${locale}.${generateState()}`,
      verifier: provider.usesPkce ? generateCodeVerifier() : null,
      next: safeNextPath(one(query.next)),
      locale,
      issuedAt: Date.now(),
    };
    reply.setCookie(OAUTH_STATE_COOKIE, Buffer.from(JSON.stringify(saved)).toString("base64url"), {
      ...cookieOptions(request),
      signed: true,
      maxAge: STATE_TTL_SECONDS,
    });
    return reply.redirect(provider.authorizationUrl(saved.state, saved.verifier).href, 302);
  }

  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: OAuthProvider,
    query: Record<string, unknown>,
  ) {
    const saved = readSavedState(request);
    // The state is single-use, whatever happens next.
    reply.clearCookie(OAUTH_STATE_COOKIE, cookieOptions(request));
    const state = one(query.state) ?? "";
    const locale = saved?.locale ?? localeOfState(state) ?? "fr";
    const log = request.log.child({ provider: provider.name });
    const fail = (code: ErrorCode) => reply.redirect(`${pagePath("login", locale)}?error=${code}`, 303);

    const error = one(query.error);
    if (error !== undefined) {
      const details = { error: error.slice(0, 100), description: one(query.error_description)?.slice(0, 200) };
      if (error === "access_denied") log.info(details, "OAuth consent refused");
      else log.warn(details, "OAuth provider answered with an error");
      return fail("OAUTH_FAILURE");
    }
    if (!saved || saved.provider !== provider.name || !sameState(saved.state, state)) {
      log.warn({ cookie: saved ? "present" : "missing or invalid" }, "OAuth state mismatch");
      return fail("OAUTH_FAILURE");
    }
    const code = one(query.code);
    if (!code) return fail("OAUTH_FAILURE");

    try {
      const profile = await provider.signIn(code, saved.verifier);
      const previous = await request.auth();
      const accounts = app.services.accounts;
      const { user, session } = await accounts.signInWithOAuth(profile, requestMeta(request), previous?.user);
      // A new session every time: a token planted before sign-in is worthless after it.
      if (previous) await accounts.logout(previous.token);
      setSessionCookie(request, reply, session, publicUrl);
      rememberDevice(request, reply, user.id, publicUrl);
    } catch (err) {
      if (err instanceof OAuthProviderError) {
        log.warn({ step: err.step, reason: err.reason }, "OAuth provider failure");
        return fail(err.invalidGrant ? "INVALID_GRANT" : "OAUTH_FAILURE");
      }
      if (err instanceof ApiError && SIGN_IN_ERRORS.has(err.code)) return fail(err.code);
      log.error({ err }, "OAuth sign-in failed");
      return fail("OAUTH_FAILURE");
    }
    return reply.redirect(saved.next ?? pagePath("home", locale), 303);
  }

  app.get(
    "/connect/:provider",
    {
      config: { access: access.anyone },
      schema: { hide: true, params: z.object({ provider: text() }) },
    },
    async (request, reply) => {
      const name = request.params.provider;
      const provider = isOAuthProviderName(name) ? providers.get(name) : undefined;
      if (!provider) throw new ApiError("ITEM_NOT_FOUND");
      reply.header("Cache-Control", "private, no-store");
      const query = (request.query ?? {}) as Record<string, unknown>;
      const returning = one(query.code) !== undefined || one(query.error) !== undefined;
      return returning ? finish(request, reply, provider, query) : start(request, reply, provider, query);
    },
  );
};
