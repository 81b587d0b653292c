/**
 * A local OAuth 2 server for tests (node:http on 127.0.0.1, a free port) that plays Google,
 * Facebook and Strava as their documentation describes them, each under its own prefix:
 *
 *   /google/authorize   /google/token    /google/userinfo   (OpenID Connect userinfo)
 *   /facebook/authorize /facebook/token  /facebook/me       (Graph API)
 *   /strava/authorize   /strava/token                       (the athlete comes with the token)
 *
 *   const provider = await startTestOAuthProvider({ publicUrl: "http://localhost:3000" });
 *   const t = await createTestApp({ env: provider.env });    // endpoints, client ids and secrets
 *   provider.setIdentity("google", { sub: "g-1", email: "ana@example.fr", email_verified: true });
 *   … GET /connect/google → fetch(Location, { redirect: "manual" }) → back to /connect/google?code=…
 *   await provider.close();
 *
 * What it checks, as the real providers do:
 * - /authorize: a known client_id, the registered redirect_uri (PUBLIC_URL/connect/<provider>),
 *   response_type=code and, when sent, a PKCE challenge (S256 or plain; Strava ignores PKCE).
 *   Bad client or redirect URI: a 400 page, no redirect (RFC 6749 §4.1.2.1). Otherwise a redirect
 *   back with code and state, or error=access_denied after denyNext().
 * - /token: a form-encoded POST (RFC 6749 §4.1.3) with grant_type=authorization_code; client
 *   authentication as documented: Google takes HTTP Basic or client_secret in the body (its
 *   discovery document lists both, not both at once); Facebook and Strava take client_id and
 *   client_secret as parameters only. The code must be known, unused, unexpired, issued to this
 *   client for this redirect_uri, and match its PKCE challenge. Codes are single-use.
 *   Refusals come in each provider's own shape: Google `{"error":"invalid_grant"}` (RFC 6749
 *   §5.2), Facebook a Graph error (OAuthException 100, subcode 36009 for a used code, 36007 for an
 *   expired or unknown one), Strava a Fault naming AuthorizationCode.
 * - /userinfo (Bearer token) and /me (`access_token` and `appsecret_proof` parameters, `fields`
 *   chosen by the caller; no email field when the identity has none).
 *
 * Controls: setIdentity(provider, identity) picks who signs in next (kept until changed);
 * denyNext() makes the next consent a refusal; expireNextCode() issues an already expired code;
 * failNextToken(status) makes the next token request fail with that status; delayNext(ms) holds
 * the next token or profile answer that long. `requests` lists what the server received.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProviderName = "google" | "facebook" | "strava";

/** Google's userinfo claims. */
export type GoogleIdentity = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  picture?: string;
  locale?: string;
};
/** Graph API user fields. */
export type FacebookIdentity = { id: string; email?: string; first_name?: string; last_name?: string; name?: string };
/** Strava's summary athlete. */
export type StravaIdentity = {
  id: number;
  username?: string | null;
  firstname?: string;
  lastname?: string;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  sex?: "M" | "F" | null;
};
export type Identities = { google: GoogleIdentity; facebook: FacebookIdentity; strava: StravaIdentity };

export type ReceivedRequest = {
  provider: ProviderName;
  endpoint: "authorize" | "token" | "userinfo" | "me";
  method: string;
  query: Record<string, string>;
  /** Form fields of a POST. */
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
};

export type TestOAuthProvider = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Settings for loadConfig: the three providers' endpoints, client ids, secrets and PUBLIC_URL. */
  env: Record<string, string>;
  clients: Record<ProviderName, { id: string; secret: string }>;
  requests: ReceivedRequest[];
  setIdentity<P extends ProviderName>(provider: P, identity: Identities[P]): void;
  denyNext(): void;
  expireNextCode(): void;
  failNextToken(status: number): void;
  delayNext(ms: number): void;
  close(): Promise<void>;
};

type IssuedCode = {
  provider: ProviderName;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  method: "S256" | "plain" | null;
  scope: string;
  identity: Identities[ProviderName];
  expiresAt: number;
  used: boolean;
};

const CODE_TTL_MS = 60_000;

const DEFAULT_IDENTITIES: Identities = {
  google: {
    sub: "100000000000000000001",
    email: "google.runner@example.fr",
    email_verified: true,
    given_name: "Gaëlle",
    family_name: "Moreau",
    locale: "fr",
  },
  facebook: { id: "10150000000000001", email: "facebook.runner@example.fr", first_name: "Fabien", last_name: "Roux" },
  strava: { id: 1234567, firstname: "Sofia", lastname: "Lambert", city: "Annecy", country: "France", sex: "F" },
};

const random = (bytes = 24) => randomBytes(bytes).toString("base64url");

function sameText(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right);
}

export async function startTestOAuthProvider(
  options: { publicUrl?: string; clients?: Partial<Record<ProviderName, { id: string; secret: string }>> } = {},
): Promise<TestOAuthProvider> {
  const publicUrl = (options.publicUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  const clients: Record<ProviderName, { id: string; secret: string }> = {
    google: { id: "dossard-test.apps.googleusercontent.com", secret: "google-test-secret" },
    facebook: { id: "1234567890", secret: "facebook-test-secret" },
    strava: { id: "4242", secret: "strava-test-secret" },
    ...options.clients,
  };
  const identities: Identities = structuredClone(DEFAULT_IDENTITIES);
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, { provider: ProviderName; identity: Identities[ProviderName]; scope: string }>();
  const requests: ReceivedRequest[] = [];
  let denyNext = false;
  let expireNext = false;
  let failTokenStatus: number | null = null;
  let delayMs = 0;

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
    res.end(JSON.stringify(body));
  };
  const redirect = (res: http.ServerResponse, location: URL) => {
    res.writeHead(302, { location: location.href });
    res.end();
  };

  /** Each provider's way of refusing a token request. */
  const refuse = {
    grant(
      res: http.ServerResponse,
      provider: ProviderName,
      reason: "used" | "expired" | "unknown" | "pkce" | "redirect",
    ) {
      if (provider === "google") {
        const description = {
          used: "Bad Request",
          expired: "Bad Request",
          unknown: "Malformed auth code.",
          pkce: "Invalid code verifier.",
          redirect: "Bad Request",
        }[reason];
        return send(res, 400, {
          error: reason === "redirect" ? "redirect_uri_mismatch" : "invalid_grant",
          error_description: description,
        });
      }
      if (provider === "facebook") {
        const error =
          reason === "used"
            ? { message: "This authorization code has been used.", subcode: 36009 }
            : reason === "redirect"
              ? {
                  message:
                    "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
                  subcode: 36008,
                }
              : { message: "This authorization code has expired.", subcode: 36007 };
        return send(res, 400, {
          error: {
            message: error.message,
            type: "OAuthException",
            code: 100,
            error_subcode: error.subcode,
            fbtrace_id: random(8),
          },
        });
      }
      return send(res, 400, {
        message: "Bad Request",
        errors: [{ resource: "AuthorizationCode", field: "code", code: "invalid" }],
      });
    },
    client(res: http.ServerResponse, provider: ProviderName) {
      if (provider === "google") return send(res, 401, { error: "invalid_client", error_description: "Unauthorized" });
      if (provider === "facebook") {
        return send(res, 400, {
          error: { message: "Error validating client secret.", type: "OAuthException", code: 1, fbtrace_id: random(8) },
        });
      }
      return send(res, 401, {
        message: "Authorization Error",
        errors: [{ resource: "Application", field: "client_secret", code: "invalid" }],
      });
    },
    request(res: http.ServerResponse, provider: ProviderName, description: string) {
      if (provider === "facebook") {
        return send(res, 400, {
          error: { message: description, type: "OAuthException", code: 100, fbtrace_id: random(8) },
        });
      }
      if (provider === "strava") {
        return send(res, 400, {
          message: "Bad Request",
          errors: [{ resource: "Application", field: description, code: "invalid" }],
        });
      }
      return send(res, 400, { error: "invalid_request", error_description: description });
    },
  };

  function authorize(provider: ProviderName, query: URLSearchParams, res: http.ServerResponse) {
    const client = clients[provider];
    const clientId = query.get("client_id");
    const redirectUri = query.get("redirect_uri");
    if (clientId !== client.id)
      return send(res, 400, { error: "invalid_client", error_description: "Unknown client_id" });
    if (redirectUri !== `${publicUrl}/connect/${provider}`) {
      return send(res, 400, { error: "redirect_uri_mismatch", error_description: "redirect_uri is not registered" });
    }
    const back = new URL(redirectUri);
    const state = query.get("state");
    if (state !== null) back.searchParams.set("state", state);
    const backWithError = (error: string, description: string) => {
      back.searchParams.set("error", error);
      back.searchParams.set("error_description", description);
      if (provider === "facebook" && error === "access_denied") {
        back.searchParams.set("error_code", "200");
        back.searchParams.set("error_reason", "user_denied");
      }
      return redirect(res, back);
    };
    if (query.get("response_type") !== "code")
      return backWithError("unsupported_response_type", "response_type must be code");
    const scope = query.get("scope") ?? "";
    if (provider === "google" && !scope.split(" ").includes("openid"))
      return backWithError("invalid_scope", "openid is required");
    let challenge: string | null = null;
    let method: IssuedCode["method"] = null;
    // Strava does not implement PKCE: it ignores the parameters.
    if (provider !== "strava" && query.has("code_challenge")) {
      challenge = query.get("code_challenge");
      const asked = query.get("code_challenge_method") ?? "plain";
      if (asked !== "S256" && asked !== "plain")
        return backWithError("invalid_request", "Unsupported code_challenge_method");
      if (!challenge || !/^[A-Za-z0-9_~.-]{43,128}$/.test(challenge))
        return backWithError("invalid_request", "Invalid code_challenge");
      method = asked;
    }
    if (denyNext) {
      denyNext = false;
      return backWithError("access_denied", provider === "facebook" ? "Permissions error" : "The user denied access");
    }
    const code = random();
    codes.set(code, {
      provider,
      clientId,
      redirectUri,
      challenge,
      method,
      scope,
      identity: structuredClone(identities[provider]),
      expiresAt: expireNext ? Date.now() - 1 : Date.now() + CODE_TTL_MS,
      used: false,
    });
    expireNext = false;
    back.searchParams.set("code", code);
    if (provider === "strava") back.searchParams.set("scope", scope);
    return redirect(res, back);
  }

  /** Who the client says it is: Basic for Google (or body), body parameters for the others. */
  function clientOf(provider: ProviderName, req: http.IncomingMessage, form: Record<string, string>) {
    const header = req.headers.authorization;
    const basic = header?.startsWith("Basic ") ? Buffer.from(header.slice(6), "base64").toString("utf8") : null;
    const inBody = form.client_secret !== undefined;
    if (basic !== null && inBody) return null;
    if (basic !== null) {
      if (provider !== "google") return null;
      const colon = basic.indexOf(":");
      return { id: decodeURIComponent(basic.slice(0, colon)), secret: decodeURIComponent(basic.slice(colon + 1)) };
    }
    if (!inBody || form.client_id === undefined) return null;
    return { id: form.client_id, secret: form.client_secret ?? "" };
  }

  async function token(
    provider: ProviderName,
    req: http.IncomingMessage,
    form: Record<string, string>,
    res: http.ServerResponse,
  ) {
    if (req.method !== "POST") return send(res, 405, { error: "invalid_request" }, { allow: "POST" });
    if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")) {
      return refuse.request(res, provider, "content-type");
    }
    if (failTokenStatus !== null) {
      const status = failTokenStatus;
      failTokenStatus = null;
      return send(res, status, { error: "server_error" });
    }
    const client = clientOf(provider, req, form);
    const expected = clients[provider];
    if (!client || client.id !== expected.id || !sameText(client.secret, expected.secret))
      return refuse.client(res, provider);
    if (form.grant_type !== "authorization_code") {
      return provider === "google"
        ? send(res, 400, { error: "unsupported_grant_type" })
        : refuse.request(res, provider, "grant_type");
    }
    const issued = form.code ? codes.get(form.code) : undefined;
    if (!issued || issued.provider !== provider || issued.clientId !== client.id)
      return refuse.grant(res, provider, "unknown");
    if (issued.used) return refuse.grant(res, provider, "used");
    issued.used = true;
    if (issued.expiresAt <= Date.now()) return refuse.grant(res, provider, "expired");
    // Strava's token request documents no redirect_uri; the others must repeat it exactly.
    if (provider !== "strava" && form.redirect_uri !== issued.redirectUri)
      return refuse.grant(res, provider, "redirect");
    if (issued.challenge) {
      const verifier = form.code_verifier ?? "";
      const computed = issued.method === "S256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
      if (!verifier || !sameText(computed, issued.challenge)) return refuse.grant(res, provider, "pkce");
    }
    const accessToken = random(32);
    accessTokens.set(accessToken, { provider, identity: issued.identity, scope: issued.scope });
    if (provider === "google") {
      const identity = issued.identity as GoogleIdentity;
      const claims = {
        iss: "https://accounts.google.com",
        aud: client.id,
        sub: identity.sub,
        email: identity.email,
        email_verified: identity.email_verified,
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 3600,
      };
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
      return send(res, 200, {
        access_token: accessToken,
        expires_in: 3599,
        scope: issued.scope,
        token_type: "Bearer",
        // Shaped like Google's; not signed, and Dossard reads the userinfo endpoint instead.
        id_token: `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`,
      });
    }
    if (provider === "facebook")
      return send(res, 200, { access_token: accessToken, token_type: "bearer", expires_in: 5183944 });
    const athlete = issued.identity as StravaIdentity;
    const now = Math.floor(Date.now() / 1000);
    return send(res, 200, {
      token_type: "Bearer",
      expires_at: now + 21600,
      expires_in: 21600,
      refresh_token: random(20),
      access_token: accessToken,
      athlete: {
        id: athlete.id,
        username: athlete.username ?? null,
        resource_state: 2,
        firstname: athlete.firstname ?? "",
        lastname: athlete.lastname ?? "",
        bio: null,
        city: athlete.city ?? null,
        state: athlete.state ?? null,
        country: athlete.country ?? null,
        sex: athlete.sex ?? null,
        premium: false,
        summit: false,
        created_at: "2020-01-01T00:00:00Z",
        updated_at: "2025-01-01T00:00:00Z",
        badge_type_id: 0,
        weight: null,
        profile_medium: "avatar/athlete/medium.png",
        profile: "avatar/athlete/large.png",
        friend: null,
        follower: null,
      },
    });
  }

  function userinfo(req: http.IncomingMessage, res: http.ServerResponse) {
    const header = req.headers.authorization ?? "";
    const held = header.startsWith("Bearer ") ? accessTokens.get(header.slice(7)) : undefined;
    if (held?.provider !== "google") {
      return send(res, 401, { error: "invalid_token" }, { "www-authenticate": 'Bearer error="invalid_token"' });
    }
    const identity = held.identity as GoogleIdentity;
    const scopes = held.scope.split(" ");
    const name = identity.name ?? [identity.given_name, identity.family_name].filter(Boolean).join(" ");
    return send(res, 200, {
      sub: identity.sub,
      ...(scopes.includes("profile")
        ? {
            name,
            given_name: identity.given_name,
            family_name: identity.family_name,
            picture: identity.picture ?? "https://lh3.googleusercontent.com/a/test",
            locale: identity.locale,
          }
        : {}),
      ...(scopes.includes("email") && identity.email
        ? { email: identity.email, email_verified: identity.email_verified ?? false }
        : {}),
    });
  }

  function graphMe(query: URLSearchParams, res: http.ServerResponse) {
    const accessToken = query.get("access_token") ?? "";
    const held = accessTokens.get(accessToken);
    if (held?.provider !== "facebook") {
      return send(res, 400, {
        error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190, fbtrace_id: random(8) },
      });
    }
    const proof = createHmac("sha256", clients.facebook.secret).update(accessToken).digest("hex");
    if (!sameText(query.get("appsecret_proof") ?? "", proof)) {
      return send(res, 400, {
        error: {
          message: "Invalid appsecret_proof provided in the API argument",
          type: "GraphMethodException",
          code: 100,
          fbtrace_id: random(8),
        },
      });
    }
    const identity = held.identity as FacebookIdentity;
    const fields = (query.get("fields") ?? "id,name").split(",");
    const granted = held.scope.split(/[ ,]/);
    const values: Record<string, unknown> = {
      id: identity.id,
      name: identity.name ?? [identity.first_name, identity.last_name].filter(Boolean).join(" "),
      first_name: identity.first_name,
      last_name: identity.last_name,
      // Only with the email permission, and only when the account has a confirmed address.
      email: granted.includes("email") ? identity.email : undefined,
    };
    const body: Record<string, unknown> = {};
    for (const field of fields) if (values[field] !== undefined) body[field] = values[field];
    body.id = identity.id;
    return send(res, 200, body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      try {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        const [, providerPart, endpointPart] = url.pathname.split("/");
        const provider = providerPart as ProviderName;
        if (!(provider in clients)) return send(res, 404, { error: "not_found" });
        const endpoint = endpointPart as ReceivedRequest["endpoint"];
        const raw = Buffer.concat(chunks).toString("utf8");
        const form = String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded")
          ? Object.fromEntries(new URLSearchParams(raw))
          : {};
        requests.push({
          provider,
          endpoint,
          method: req.method ?? "GET",
          query: Object.fromEntries(url.searchParams),
          form,
          headers: req.headers,
        });
        if (endpoint === "authorize") return authorize(provider, url.searchParams, res);
        if (delayMs > 0) {
          const wait = delayMs;
          delayMs = 0;
          await new Promise((resolve) => setTimeout(resolve, wait));
          if (res.destroyed) return;
        }
        if (endpoint === "token") return await token(provider, req, form, res);
        if (endpoint === "userinfo" && provider === "google") return userinfo(req, res);
        if (endpoint === "me" && provider === "facebook") return graphMe(url.searchParams, res);
        return send(res, 404, { error: "not_found" });
      } catch (error) {
        send(res, 500, { error: "server_error", error_description: String(error) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    clients,
    requests,
    env: {
      PUBLIC_URL: publicUrl,
      GOOGLE_CLIENT_ID: clients.google.id,
      GOOGLE_CLIENT_SECRET: clients.google.secret,
      GOOGLE_AUTHORIZATION_URL: `${url}/google/authorize`,
      GOOGLE_TOKEN_URL: `${url}/google/token`,
      GOOGLE_USERINFO_URL: `${url}/google/userinfo`,
      FACEBOOK_CLIENT_ID: clients.facebook.id,
      FACEBOOK_CLIENT_SECRET: clients.facebook.secret,
      FACEBOOK_AUTHORIZATION_URL: `${url}/facebook/authorize`,
      FACEBOOK_TOKEN_URL: `${url}/facebook/token`,
      FACEBOOK_USERINFO_URL: `${url}/facebook/me`,
      STRAVA_CLIENT_ID: clients.strava.id,
      STRAVA_CLIENT_SECRET: clients.strava.secret,
      STRAVA_AUTHORIZATION_URL: `${url}/strava/authorize`,
      STRAVA_TOKEN_URL: `${url}/strava/token`,
      STRAVA_API_URL: `${url}/strava/api/v3`,
    },
    setIdentity(provider, identity) {
      (identities as Record<ProviderName, unknown>)[provider] = structuredClone(identity);
    },
    denyNext() {
      denyNext = true;
    },
    expireNextCode() {
      expireNext = true;
    },
    failNextToken(status) {
      failTokenStatus = status;
    },
    delayNext(ms) {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
