/**
 * The social sign-in providers: Google, Facebook and Strava. Each one is an OAuth 2 authorisation
 * code flow against the endpoints of the configuration (the real providers by default, a local
 * server in tests), ending in an OAuthProfile for accountsService.signInWithOAuth.
 *
 * arctic builds state, code verifiers and authorisation URLs through its generic OAuth2Client
 * (its provider classes hard-code the real URLs). Client authentication at the token endpoint
 * follows each provider's documentation:
 * - Google accepts HTTP Basic (`client_secret_basic`, listed in its discovery document), which is
 *   what OAuth2Client.validateAuthorizationCode sends, so arctic exchanges Google's codes.
 * - Facebook and Strava document client_id and client_secret as request parameters, not Basic,
 *   so their codes are exchanged with the same form POST arctic's own Facebook and Strava classes
 *   send, here with our endpoints. Their error bodies are not RFC 6749 shaped either (Graph error
 *   objects, Strava "Fault"s), so each is read in its own shape.
 * Every call has a short timeout; every failure becomes an OAuthProviderError whose message
 * never contains a token.
 */
import { createHmac } from "node:crypto";
import {
  ArcticFetchError,
  CodeChallengeMethod,
  OAuth2Client,
  OAuth2RequestError,
  OAuth2Tokens,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from "arctic";
import { z } from "zod";
import type { Config } from "../../../platform/config.server.ts";
import type { Locale } from "../../../shared/constants.ts";
import type { OAuthProfile } from "../accounts.service.server.ts";

export const OAUTH_PROVIDERS = ["google", "facebook", "strava"] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/** A provider that does not answer within this time counts as failed. */
export const OAUTH_TIMEOUT_MS = 8_000;

export const OAUTH_SCOPES: Record<OAuthProviderName, string[]> = {
  google: ["openid", "email", "profile"],
  facebook: ["email", "public_profile"],
  // Strava separates scopes with commas; with a single one the separator never shows.
  strava: ["read"],
};

/**
 * PKCE where the provider supports it in the flow we use:
 * - Google: S256, documented for web server apps and listed in its discovery document.
 * - Facebook: no. Facebook documents PKCE only for its OpenID Connect code flow (id_token), and
 *   marks it "still in testing"; the Graph flow used here (access token, then /me) documents
 *   client_id, redirect_uri, client_secret and code only. The code is useless without our app
 *   secret, and the signed state cookie binds the callback to the browser that started it.
 * - Strava: not supported.
 */
export const OAUTH_PKCE: Record<OAuthProviderName, boolean> = { google: true, facebook: false, strava: false };

/** Why a provider step failed: "invalid_grant" when the code was refused (expired, used). */
export class OAuthProviderError extends Error {
  override name = "OAuthProviderError";
  constructor(
    readonly provider: OAuthProviderName,
    readonly step: "token" | "profile",
    readonly reason: string,
    readonly invalidGrant = false,
  ) {
    super(`${provider} ${step}: ${reason}`);
  }
}

export interface OAuthProvider {
  readonly name: OAuthProviderName;
  readonly usesPkce: boolean;
  /** PUBLIC_URL + /connect/<provider>: registered with the provider, sent in both steps. */
  readonly redirectUri: string;
  authorizationUrl(state: string, codeVerifier: string | null): URL;
  /** Exchanges the code, then reads who signed in. Throws OAuthProviderError. */
  signIn(code: string, codeVerifier: string | null): Promise<OAuthProfile>;
}

function credentials(config: Config, name: OAuthProviderName) {
  switch (name) {
    case "google":
      return { id: config.GOOGLE_CLIENT_ID, secret: config.GOOGLE_CLIENT_SECRET };
    case "facebook":
      return { id: config.FACEBOOK_CLIENT_ID, secret: config.FACEBOOK_CLIENT_SECRET };
    case "strava":
      return { id: config.STRAVA_CLIENT_ID, secret: config.STRAVA_CLIENT_SECRET };
  }
}

/** The providers with a client id, in display order: the login page shows their buttons. */
export function enabledProviders(config: Config): OAuthProviderName[] {
  return OAUTH_PROVIDERS.filter((name) => credentials(config, name).id !== "");
}

export function isOAuthProviderName(value: unknown): value is OAuthProviderName {
  return typeof value === "string" && (OAUTH_PROVIDERS as readonly string[]).includes(value);
}

export function oauthRedirectUri(config: Config, name: OAuthProviderName): string {
  return `${config.PUBLIC_URL}/connect/${name}`;
}

/** The client of one provider, or null when it is disabled (no client id). */
export function oauthProvider(
  config: Config,
  name: OAuthProviderName,
  options: { timeoutMs?: number } = {},
): OAuthProvider | null {
  const { id, secret } = credentials(config, name);
  if (!id) return null;
  const timeoutMs = options.timeoutMs ?? OAUTH_TIMEOUT_MS;
  const redirectUri = oauthRedirectUri(config, name);
  const client = new OAuth2Client(id, secret, redirectUri);
  const http = httpHelpers(name, timeoutMs);

  switch (name) {
    case "google":
      return {
        name,
        usesPkce: true,
        redirectUri,
        authorizationUrl: (state, verifier) =>
          client.createAuthorizationURLWithPKCE(
            config.GOOGLE_AUTHORIZATION_URL,
            state,
            CodeChallengeMethod.S256,
            verifier ?? "",
            OAUTH_SCOPES.google,
          ),
        async signIn(code, verifier) {
          const tokens = await http.arctic(client.validateAuthorizationCode(config.GOOGLE_TOKEN_URL, code, verifier));
          const body = await http.getJson(config.GOOGLE_USERINFO_URL, {
            Authorization: `Bearer ${http.accessToken(tokens)}`,
          });
          return googleProfile(http.parse(googleUserSchema, body));
        },
      };
    case "facebook":
      return {
        name,
        usesPkce: false,
        redirectUri,
        authorizationUrl: (state) =>
          client.createAuthorizationURL(config.FACEBOOK_AUTHORIZATION_URL, state, OAUTH_SCOPES.facebook),
        async signIn(code) {
          const tokens = await http.postForm(
            config.FACEBOOK_TOKEN_URL,
            {
              grant_type: "authorization_code",
              code,
              redirect_uri: redirectUri,
              client_id: id,
              client_secret: secret,
            },
            facebookRefusal,
          );
          const accessToken = http.accessToken(tokens);
          const url = new URL(config.FACEBOOK_USERINFO_URL);
          url.searchParams.set("fields", "id,email,first_name,last_name");
          url.searchParams.set("access_token", accessToken);
          // Graph calls from a server prove they hold the app secret ("Require App Secret").
          url.searchParams.set("appsecret_proof", createHmac("sha256", secret).update(accessToken).digest("hex"));
          return facebookProfile(http.parse(facebookUserSchema, await http.getJson(url.href)));
        },
      };
    case "strava":
      return {
        name,
        usesPkce: false,
        redirectUri,
        authorizationUrl: (state) =>
          client.createAuthorizationURL(config.STRAVA_AUTHORIZATION_URL, state, OAUTH_SCOPES.strava),
        async signIn(code) {
          const tokens = await http.postForm(
            config.STRAVA_TOKEN_URL,
            {
              grant_type: "authorization_code",
              code,
              redirect_uri: redirectUri,
              client_id: id,
              client_secret: secret,
            },
            stravaRefusal,
          );
          http.accessToken(tokens);
          // Strava's token answer carries the athlete: no second request, and no email.
          const athlete = (tokens.data as { athlete?: unknown }).athlete;
          return stravaProfile(http.parse(stravaAthleteSchema, athlete));
        },
      };
  }
}

type Refusal = (status: number, body: unknown) => { reason: string; invalidGrant: boolean };

/** Graph API errors: `{ error: { type, code, error_subcode } }`; 36007/36009 = code expired/used. */
const facebookRefusal: Refusal = (status, body) => {
  const error = (body as { error?: { type?: unknown; code?: unknown; error_subcode?: unknown } } | null)?.error;
  if (typeof error !== "object" || error === null) return { reason: `status ${status}`, invalidGrant: false };
  const subcode = error.error_subcode;
  return {
    reason: `${String(error.type ?? "error")} ${String(error.code ?? "")}${subcode ? `/${String(subcode)}` : ""}`,
    invalidGrant: subcode === 36007 || subcode === 36009,
  };
};

/** Strava "Fault": `{ message, errors: [{ resource, field, code }] }`; a refused code names AuthorizationCode. */
const stravaRefusal: Refusal = (status, body) => {
  const errors = (body as { errors?: unknown } | null)?.errors;
  const list = Array.isArray(errors) ? (errors as { resource?: unknown; code?: unknown }[]) : [];
  const first = list[0];
  return {
    reason: first ? `${String(first.resource)} ${String(first.code)}` : `status ${status}`,
    invalidGrant: list.some((e) => e.resource === "AuthorizationCode" && e.code === "invalid"),
  };
};

function httpHelpers(provider: OAuthProviderName, timeoutMs: number) {
  const fail = (step: "token" | "profile", reason: string, invalidGrant = false) =>
    new OAuthProviderError(provider, step, reason, invalidGrant);

  async function request(step: "token" | "profile", url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const name = (error as { name?: string }).name;
      throw fail(step, name === "TimeoutError" ? "timeout" : "network");
    }
  }

  async function readJson(step: "token" | "profile", response: Response): Promise<unknown> {
    try {
      return await response.json();
    } catch {
      throw fail(step, `status ${response.status}, body not JSON`);
    }
  }

  return {
    /** arctic's exchange, bounded in time (arctic's fetch takes no signal; a late answer is dropped). */
    async arctic(work: Promise<OAuth2Tokens>): Promise<OAuth2Tokens> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(fail("token", "timeout")), timeoutMs);
      });
      try {
        return await Promise.race([work, timeout]);
      } catch (error) {
        if (error instanceof OAuthProviderError) throw error;
        if (error instanceof OAuth2RequestError) {
          throw fail("token", error.code, error.code === "invalid_grant");
        }
        if (error instanceof ArcticFetchError) throw fail("token", "network");
        if (error instanceof UnexpectedResponseError || error instanceof UnexpectedErrorResponseBodyError) {
          throw fail("token", `status ${error.status}`);
        }
        throw fail("token", "unexpected error");
      } finally {
        clearTimeout(timer);
      }
    },

    /** A token request as RFC 6749 §4.1.3 describes it, client credentials in the body. */
    async postForm(url: string, fields: Record<string, string>, refusal: Refusal): Promise<OAuth2Tokens> {
      const response = await request("token", url, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Accept: "application/json",
          "User-Agent": "dossard",
        },
        body: new URLSearchParams(fields).toString(),
      });
      if (response.status === 200) {
        const data = await readJson("token", response);
        if (typeof data !== "object" || data === null) throw fail("token", "body not an object");
        return new OAuth2Tokens(data);
      }
      if (response.status >= 400 && response.status < 500) {
        const data = await response.json().catch(() => null);
        const { reason, invalidGrant } = refusal(response.status, data);
        throw fail("token", reason, invalidGrant);
      }
      await response.body?.cancel();
      throw fail("token", `status ${response.status}`);
    },

    async getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
      const response = await request("profile", url, {
        headers: { Accept: "application/json", "User-Agent": "dossard", ...headers },
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw fail("profile", `status ${response.status}`);
      }
      return readJson("profile", response);
    },

    accessToken(tokens: OAuth2Tokens): string {
      try {
        return tokens.accessToken();
      } catch {
        throw fail("token", "no access_token");
      }
    },

    parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw fail("profile", "unexpected profile shape");
      return parsed.data;
    },
  };
}

const name = (max = 100) =>
  z
    .string()
    .nullish()
    .transform((v) => (v ?? "").trim().slice(0, max));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const email = z
  .string()
  .nullish()
  .transform((v) => {
    const trimmed = v?.trim();
    return trimmed && trimmed.length <= 254 && EMAIL.test(trimmed) ? trimmed : null;
  });

/** Google's OpenID Connect userinfo (https://openidconnect.googleapis.com/v1/userinfo). */
const googleUserSchema = z.object({
  sub: z.string().min(1),
  email,
  email_verified: z.union([z.boolean(), z.string()]).nullish(),
  given_name: name(),
  family_name: name(),
  locale: z.string().nullish(),
});

function googleProfile(user: z.output<typeof googleUserSchema>): OAuthProfile {
  return {
    provider: "google",
    providerUserId: user.sub,
    email: user.email,
    emailVerified: user.email_verified === true || user.email_verified === "true",
    firstName: user.given_name,
    lastName: user.family_name,
    locale: localeOf(user.locale),
  };
}

/** Graph API `me?fields=id,email,first_name,last_name`. */
const facebookUserSchema = z.object({
  id: z.string().min(1),
  email,
  first_name: name(),
  last_name: name(),
});

function facebookProfile(user: z.output<typeof facebookUserSchema>): OAuthProfile {
  return {
    provider: "facebook",
    providerUserId: user.id,
    email: user.email,
    // Facebook only returns an address its owner has confirmed.
    emailVerified: user.email !== null,
    firstName: user.first_name,
    lastName: user.last_name,
  };
}

/** The summary athlete of Strava's token answer. */
const stravaAthleteSchema = z.object({
  id: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
  firstname: name(),
  lastname: name(),
  city: name(120),
  country: z.string().nullish(),
  sex: z.string().nullish(),
});

function stravaProfile(athlete: z.output<typeof stravaAthleteSchema>): OAuthProfile {
  return {
    provider: "strava",
    providerUserId: String(athlete.id),
    email: null,
    emailVerified: false,
    firstName: athlete.firstname,
    lastName: athlete.lastname,
    city: athlete.city || null,
    country: countryCode(athlete.country),
    gender: athlete.sex === "F" ? "female" : athlete.sex === "M" ? "male" : null,
  };
}

function localeOf(value: string | null | undefined): Locale | undefined {
  const language = value?.slice(0, 2).toLowerCase();
  return language === "fr" || language === "en" ? language : undefined;
}

const fold = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z]+/g, " ")
    .trim();

let countryNames: Map<string, string> | undefined;
const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "ZZ", "QO", "XA", "XB"]);

/** ISO 3166 code of a country written as a name in English or French ("France", "Belgique"). */
export function countryCode(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^[A-Z]{2}$/.test(text)) return text;
  if (!countryNames) {
    const names = new Map<string, string>();
    const displays = ["en", "fr"].map((l) => new Intl.DisplayNames([l], { type: "region", fallback: "none" }));
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        // Deprecated codes (UK, FX…) canonicalise to their successor; groupings are no country.
        if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}` || NOT_COUNTRIES.has(code)) continue;
        for (const display of displays) {
          const label = display.of(code);
          if (label && label !== code) names.set(fold(label), code);
        }
      }
    }
    countryNames = names;
  }
  return countryNames.get(fold(text)) ?? null;
}
