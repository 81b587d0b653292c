import net from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../platform/config.server.ts";
import { accessHeaders, createTestApp, type TestApp } from "../../../tests/api/harness.ts";
import { startTestOAuthProvider, type TestOAuthProvider } from "../../../tests/support/oauth-provider.ts";
import { users } from "../../identity/identity.tables.ts";
import { SAFE_NEXT, UNSAFE_NEXT } from "../components/safe-next.cases.ts";
import { OAUTH_STATE_COOKIE, safeNextPath } from "./oauth.routes.server.ts";
import { countryCode, enabledProviders, OAuthProviderError, oauthProvider } from "./providers.server.ts";

const PUBLIC_URL = "http://localhost:3000";

let provider: TestOAuthProvider;
let t: TestApp;

beforeAll(async () => {
  provider = await startTestOAuthProvider({ publicUrl: PUBLIC_URL });
  t = await createTestApp({ env: provider.env });
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** A browser: its own address and cookie jar. */
type Browser = { ip: string; cookies: Map<string, string> };
let browsers = 0;
const newBrowser = (): Browser => ({ ip: `10.77.${++browsers >> 8}.${browsers & 255}`, cookies: new Map() });

let counter = 0;
const unique = (name: string) => `${name}-${++counter}-${Date.now().toString(36)}`;
const uniqueEmail = (name = "runner") => `${unique(name)}@example.fr`;

async function visit(
  browser: Browser,
  url: string,
  options: { method?: "GET" | "POST"; payload?: unknown; headers?: Record<string, string>; app?: TestApp } = {},
) {
  const jar = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const response = await (options.app ?? t).app.inject({
    method: options.method ?? "GET",
    url,
    remoteAddress: browser.ip,
    headers: {
      ...(options.method === "POST" ? { ...accessHeaders, "content-type": "application/json" } : {}),
      ...(jar ? { cookie: jar } : {}),
      ...options.headers,
    },
    ...(options.payload !== undefined ? { payload: JSON.stringify(options.payload) } : {}),
  });
  for (const cookie of response.cookies) {
    const gone = !cookie.value || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
    if (gone) browser.cookies.delete(cookie.name);
    else browser.cookies.set(cookie.name, cookie.value);
  }
  return response;
}

/** The provider's consent page, answered: where it sends the browser back. */
async function consent(authorization: URL | string): Promise<URL> {
  const response = await fetch(authorization, { redirect: "manual" });
  expect(response.status, await response.clone().text()).toBe(302);
  return new URL(response.headers.get("location") ?? "");
}

/** The whole round trip: /connect/<name> → provider → back to /connect/<name>?code=…&state=…. */
async function connect(browser: Browser, name: "google" | "facebook" | "strava", query = "", app?: TestApp) {
  const start = await visit(browser, `/connect/${name}${query}`, { app });
  expect(start.statusCode, start.body).toBe(302);
  const authorization = new URL(String(start.headers.location));
  const back = await consent(authorization);
  expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_URL}/connect/${name}`);
  const done = await visit(browser, `${back.pathname}${back.search}`, { app });
  return { start, authorization, back, done };
}

async function me(browser: Browser) {
  const response = await visit(browser, "/api/me");
  return { status: response.statusCode, user: response.statusCode === 200 ? response.json().user : null };
}

async function register(email: string, password = "correct horse 42") {
  const browser = newBrowser();
  const response = await visit(browser, "/api/register", {
    method: "POST",
    payload: {
      email,
      password,
      passwordConfirmation: password,
      firstName: "Ana",
      lastName: "Lefèvre",
      pseudo: "",
      terms: true,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { browser, id: response.json().user.id as number, password };
}

const login = (email: string, password: string) =>
  visit(newBrowser(), "/api/login", { method: "POST", payload: { email, password } });

function googleIdentity(overrides: Record<string, unknown> = {}) {
  return {
    sub: unique("g"),
    email: uniqueEmail("google"),
    email_verified: true,
    given_name: "Gaëlle",
    family_name: "Moreau",
    locale: "fr",
    ...overrides,
  };
}

const usersWithEmail = async (email: string) =>
  (await t.database.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`))
    .length;

describe("Google", () => {
  it("sends the browser to Google with state and an S256 challenge in a signed, short-lived cookie", async () => {
    const browser = newBrowser();
    const start = await visit(browser, "/connect/google");
    expect(start.statusCode).toBe(302);
    expect(start.headers["cache-control"]).toContain("no-store");
    const url = new URL(String(start.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/google/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: "code",
      client_id: provider.clients.google.id,
      redirect_uri: `${PUBLIC_URL}/connect/google`,
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(url.searchParams.get("state")).toMatch(/^fr\.[\w-]{40,}$/);
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    const cookie = start.cookies.find((c) => c.name === OAUTH_STATE_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/connect", maxAge: 600 });
    expect(cookie?.secure).toBeFalsy();
    // Signed: the state and verifier are not readable as such, and a changed byte is refused.
    expect(cookie?.value).not.toContain(url.searchParams.get("state"));

    // A client's own X-Forwarded-Proto is not believed (no TRUSTED_PROXIES here).
    const claimed = await visit(newBrowser(), "/connect/google", { headers: { "x-forwarded-proto": "https" } });
    expect(claimed.cookies.find((c) => c.name === OAUTH_STATE_COOKIE)?.secure).toBeFalsy();
  });

  it("creates a verified account, signs it in and lands on the home page", async () => {
    const identity = googleIdentity({ given_name: "Léa", family_name: "Martin" });
    provider.setIdentity("google", identity);
    const browser = newBrowser();
    const seen = provider.requests.length;
    const { done } = await connect(browser, "google");
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/");
    expect(done.cookies.find((c) => c.name === "dossard_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(browser.cookies.has(OAUTH_STATE_COOKIE)).toBe(false);
    const { user } = await me(browser);
    expect(user).toMatchObject({
      email: identity.email,
      emailStatus: "verified",
      firstName: "Léa",
      lastName: "Martin",
      identities: ["google"],
      hasPassword: false,
    });
    // arctic authenticates to Google with HTTP Basic and proves the PKCE verifier.
    const tokenRequest = provider.requests.slice(seen).find((r) => r.endpoint === "token");
    expect(tokenRequest?.headers.authorization).toMatch(/^Basic /);
    expect(tokenRequest?.form).toMatchObject({
      grant_type: "authorization_code",
      redirect_uri: `${PUBLIC_URL}/connect/google`,
    });
    expect(tokenRequest?.form.code_verifier).toMatch(/^[\w-]{43}$/);
    expect(tokenRequest?.form.client_secret).toBeUndefined();
  });

  it("signs the same member in again on a later visit", async () => {
    provider.setIdentity("google", googleIdentity());
    const first = newBrowser();
    await connect(first, "google");
    const second = newBrowser();
    await connect(second, "google");
    expect((await me(second)).user.id).toBe((await me(first)).user.id);
  });

  it("links to the verified account that has the same address: one account, Google among its identities", async () => {
    const email = uniqueEmail("verified");
    const account = await register(email);
    await t.database.db.update(users).set({ emailStatus: "verified" }).where(eq(users.id, account.id));
    provider.setIdentity("google", googleIdentity({ email: email.toUpperCase() }));
    const browser = newBrowser();
    await connect(browser, "google");
    const { user } = await me(browser);
    expect(user.id).toBe(account.id);
    expect(user.identities).toContain("google");
    expect(await usersWithEmail(email)).toBe(1);
    // Its owner's password and sessions are untouched.
    expect((await me(account.browser)).status).toBe(200);
    expect((await login(email, account.password)).statusCode).toBe(200);
  });

  it("takes over an unverified account with that address safely: its password and sessions stop working", async () => {
    const email = uniqueEmail("squatted");
    const squatter = await register(email, "squatter password 1");
    expect((await me(squatter.browser)).status).toBe(200);
    provider.setIdentity("google", googleIdentity({ email }));
    const owner = newBrowser();
    const { done } = await connect(owner, "google");
    expect(done.headers.location).toBe("/");
    const { user } = await me(owner);
    expect(user).toMatchObject({
      id: squatter.id,
      emailStatus: "verified",
      hasPassword: false,
      identities: ["google"],
    });
    expect((await me(squatter.browser)).status).toBe(401);
    const again = await login(email, "squatter password 1");
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe("BAD_LOGIN");
  });

  it("does not vouch for an address Google has not verified", async () => {
    const identity = googleIdentity({ email_verified: false });
    provider.setIdentity("google", identity);
    const browser = newBrowser();
    const { done } = await connect(browser, "google");
    expect(done.headers.location).toBe("/login?error=OAUTH_NO_EMAIL");
    expect(await usersWithEmail(identity.email)).toBe(0);
  });

  it("refuses a disabled account with BAD_LOGIN", async () => {
    const identity = googleIdentity();
    provider.setIdentity("google", identity);
    const browser = newBrowser();
    await connect(browser, "google");
    const { user } = await me(browser);
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const { done } = await connect(newBrowser(), "google");
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/login?error=BAD_LOGIN");
  });
});

describe("Facebook", () => {
  it("signs in with the Graph profile, authenticating with the app secret as parameters", async () => {
    const email = uniqueEmail("facebook");
    provider.setIdentity("facebook", { id: unique("fb"), email, first_name: "Fabien", last_name: "Roux" });
    const browser = newBrowser();
    const seen = provider.requests.length;
    const { authorization, done } = await connect(browser, "facebook");
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: "code",
      client_id: provider.clients.facebook.id,
      redirect_uri: `${PUBLIC_URL}/connect/facebook`,
      scope: "email public_profile",
    });
    expect(authorization.searchParams.has("code_challenge")).toBe(false);
    expect(done.headers.location).toBe("/");
    const { user } = await me(browser);
    expect(user).toMatchObject({
      email,
      emailStatus: "verified",
      firstName: "Fabien",
      lastName: "Roux",
      identities: ["facebook"],
    });
    const received = provider.requests.slice(seen);
    const token = received.find((r) => r.endpoint === "token");
    expect(token?.headers.authorization).toBeUndefined();
    expect(token?.form).toMatchObject({
      client_id: provider.clients.facebook.id,
      client_secret: provider.clients.facebook.secret,
    });
    const profile = received.find((r) => r.endpoint === "me");
    expect(profile?.query.fields).toBe("id,email,first_name,last_name");
    expect(profile?.query.appsecret_proof).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without an email, creates nothing and says so", async () => {
    provider.setIdentity("facebook", { id: unique("fb"), first_name: "Phone", last_name: "Only" });
    const { done } = await connect(newBrowser(), "facebook");
    expect(done.headers.location).toBe("/login?error=OAUTH_NO_EMAIL");
  });
});

describe("Strava", () => {
  const athlete = () => ({
    id: 9_000_000 + ++counter,
    firstname: "Sofia",
    lastname: "Lambert",
    city: "Annecy",
    country: "France",
    sex: "F" as const,
  });

  it("asks for the read scope without PKCE, and with nobody signed in and no link answers OAUTH_NO_EMAIL", async () => {
    provider.setIdentity("strava", athlete());
    const browser = newBrowser();
    const seen = provider.requests.length;
    const { authorization, done } = await connect(browser, "strava");
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: "code",
      client_id: provider.clients.strava.id,
      redirect_uri: `${PUBLIC_URL}/connect/strava`,
      scope: "read",
    });
    expect(authorization.searchParams.has("code_challenge")).toBe(false);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/login?error=OAUTH_NO_EMAIL");
    expect(browser.cookies.has("dossard_session")).toBe(false);
    const token = provider.requests.slice(seen).find((r) => r.endpoint === "token");
    expect(token?.form).toMatchObject({
      client_id: provider.clients.strava.id,
      client_secret: provider.clients.strava.secret,
    });
    expect(token?.headers.authorization).toBeUndefined();
  });

  it("links to the signed-in member, who later signs in with Strava from a fresh browser", async () => {
    provider.setIdentity("google", googleIdentity());
    const browser = newBrowser();
    await connect(browser, "google");
    const member = (await me(browser)).user;
    const oldSession = browser.cookies.get("dossard_session");

    const strava = athlete();
    provider.setIdentity("strava", strava);
    const { done } = await connect(browser, "strava", `?next=${encodeURIComponent("/user/profil")}`);
    expect(done.headers.location).toBe("/user/profil");
    const linked = (await me(browser)).user;
    expect(linked.id).toBe(member.id);
    expect(linked.identities).toEqual(["google", "strava"]);
    // A new session replaced the old one.
    expect(browser.cookies.get("dossard_session")).not.toBe(oldSession);
    expect((await me({ ip: browser.ip, cookies: new Map([["dossard_session", oldSession ?? ""]]) })).status).toBe(401);

    const fresh = newBrowser();
    const again = await connect(fresh, "strava");
    expect(again.done.headers.location).toBe("/");
    expect((await me(fresh)).user.id).toBe(member.id);
  });

  it("refuses to move a Strava account linked to someone else: the member stays who they are", async () => {
    const strava = athlete();
    provider.setIdentity("google", googleIdentity());
    const owner = newBrowser();
    await connect(owner, "google");
    provider.setIdentity("strava", strava);
    await connect(owner, "strava");

    provider.setIdentity("google", googleIdentity());
    const other = newBrowser();
    await connect(other, "google");
    const before = (await me(other)).user;
    provider.setIdentity("strava", strava);
    const { done } = await connect(other, "strava");
    expect(done.headers.location).toBe("/login?error=IDENTITY_ALREADY_LINKED");
    const after = (await me(other)).user;
    expect(after.id).toBe(before.id);
    expect(after.identities).toEqual(["google"]);
  });
});

describe("failures land on the login page with a code", () => {
  it("state mismatch: OAUTH_FAILURE, and nobody is signed in", async () => {
    provider.setIdentity("google", googleIdentity());
    const browser = newBrowser();
    const start = await visit(browser, "/connect/google");
    const back = await consent(String(start.headers.location));
    back.searchParams.set("state", `fr.${"x".repeat(43)}`);
    const done = await visit(browser, `${back.pathname}${back.search}`);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/login?error=OAUTH_FAILURE");
    expect(browser.cookies.has("dossard_session")).toBe(false);
    expect(browser.cookies.has(OAUTH_STATE_COOKIE)).toBe(false);
  });

  it("missing or forged state cookie, or one from another provider: OAUTH_FAILURE", async () => {
    provider.setIdentity("google", googleIdentity());
    const browser = newBrowser();
    const start = await visit(browser, "/connect/google");
    const back = await consent(String(start.headers.location));
    const path = `${back.pathname}${back.search}`;

    const stranger = newBrowser();
    expect((await visit(stranger, path)).headers.location).toBe("/login?error=OAUTH_FAILURE");

    const cookie = browser.cookies.get(OAUTH_STATE_COOKIE) ?? "";
    const forged = { ip: browser.ip, cookies: new Map([[OAUTH_STATE_COOKIE, `x${cookie.slice(1)}`]]) };
    expect((await visit(forged, path)).headers.location).toBe("/login?error=OAUTH_FAILURE");

    const other = newBrowser();
    await visit(other, "/connect/facebook");
    const crossed = await visit({ ip: other.ip, cookies: other.cookies }, path);
    expect(crossed.headers.location).toBe("/login?error=OAUTH_FAILURE");
  });

  it("consent refused: OAUTH_FAILURE", async () => {
    provider.denyNext();
    const browser = newBrowser();
    const { back, done } = await connect(browser, "facebook");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(done.headers.location).toBe("/login?error=OAUTH_FAILURE");
    expect(browser.cookies.has("dossard_session")).toBe(false);
  });

  it.each(["google", "facebook", "strava"] as const)("%s: a code used twice answers INVALID_GRANT", async (name) => {
    provider.setIdentity("google", googleIdentity());
    provider.setIdentity("facebook", { id: unique("fb"), email: uniqueEmail("fb") });
    provider.setIdentity("strava", { id: 8_000_000 + ++counter });
    const first = newBrowser();
    if (name === "strava") await connect(first, "google");
    const { back, done } = await connect(first, name);
    expect(done.headers.location).toBe("/");
    // The same code again, with a fresh state from a new start (a replayed or injected code).
    const replay = newBrowser();
    const start = await visit(replay, `/connect/${name}`);
    const state = new URL(String(start.headers.location)).searchParams.get("state") ?? "";
    const again = await visit(replay, `/connect/${name}?code=${back.searchParams.get("code")}&state=${state}`);
    expect(again.headers.location).toBe("/login?error=INVALID_GRANT");
  });

  it("an expired code answers INVALID_GRANT", async () => {
    provider.setIdentity("google", googleIdentity());
    provider.expireNextCode();
    const { done } = await connect(newBrowser(), "google");
    expect(done.headers.location).toBe("/login?error=INVALID_GRANT");
  });

  it("a provider error answers OAUTH_FAILURE, not a 500", async () => {
    provider.setIdentity("google", googleIdentity());
    provider.failNextToken(503);
    const { done } = await connect(newBrowser(), "google");
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/login?error=OAUTH_FAILURE");
  });

  it("in English, failures land on /en/login and success on /en", async () => {
    provider.denyNext();
    const denied = await connect(newBrowser(), "strava", "?lang=en");
    expect(denied.authorization.searchParams.get("state")).toMatch(/^en\./);
    expect(denied.done.headers.location).toBe("/en/login?error=OAUTH_FAILURE");

    // Even without the cookie, the state says which language the visit started in.
    provider.setIdentity("google", googleIdentity());
    const start = await visit(newBrowser(), "/connect/google?lang=en");
    const back = await consent(String(start.headers.location));
    const lost = await visit(newBrowser(), `${back.pathname}${back.search}`);
    expect(lost.headers.location).toBe("/en/login?error=OAUTH_FAILURE");

    provider.setIdentity("strava", { id: 7_000_000 + ++counter });
    const noEmail = await connect(newBrowser(), "strava", "?lang=en");
    expect(noEmail.done.headers.location).toBe("/en/login?error=OAUTH_NO_EMAIL");

    provider.setIdentity("google", googleIdentity());
    const ok = await connect(newBrowser(), "google", "?lang=en");
    expect(ok.done.headers.location).toBe("/en");
  });
});

describe("next", () => {
  it("returns to a path of the site", async () => {
    provider.setIdentity("google", googleIdentity());
    const { done } = await connect(
      newBrowser(),
      "google",
      `?next=${encodeURIComponent("/course/trail-des-cimes?x=1#top")}`,
    );
    expect(done.headers.location).toBe("/course/trail-des-cimes?x=1#top");
  });

  it.each(UNSAFE_NEXT)("ignores a return path with %s", async (_what, next) => {
    provider.setIdentity("google", googleIdentity());
    const { done } = await connect(newBrowser(), "google", `?next=${encodeURIComponent(next)}`);
    expect(done.headers.location).toBe("/");
  });

  it.each(SAFE_NEXT)("returns to %s normalised as %s", async (next, expected) => {
    provider.setIdentity("google", googleIdentity());
    const { done } = await connect(newBrowser(), "google", `?next=${encodeURIComponent(next)}`);
    expect(done.headers.location).toBe(expected);
  });

  it("accepts only same-site relative paths", () => {
    expect(safeNextPath("/membre/ana?tab=1")).toBe("/membre/ana?tab=1");
    expect(safeNextPath(undefined)).toBeNull();
    expect(safeNextPath(`/${"a".repeat(1001)}`)).toBeNull();
  });
});

describe("disabled and unreachable providers", () => {
  let partial: TestApp;
  beforeAll(async () => {
    const deadPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    partial = await createTestApp({
      env: {
        PUBLIC_URL,
        GOOGLE_CLIENT_ID: provider.env.GOOGLE_CLIENT_ID ?? "",
        GOOGLE_CLIENT_SECRET: provider.env.GOOGLE_CLIENT_SECRET ?? "",
        GOOGLE_AUTHORIZATION_URL: provider.env.GOOGLE_AUTHORIZATION_URL ?? "",
        GOOGLE_TOKEN_URL: `http://127.0.0.1:${deadPort}/token`,
      },
    });
  });
  afterAll(async () => {
    await partial?.close();
  });

  it("a provider without client id answers 404, as does an unknown one", async () => {
    for (const path of ["/connect/facebook", "/connect/strava", "/connect/twitter"]) {
      const response = await visit(newBrowser(), path, { app: partial });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("ITEM_NOT_FOUND");
    }
    expect(enabledProviders(partial.app.config)).toEqual(["google"]);
    expect(enabledProviders(t.app.config)).toEqual(["google", "facebook", "strava"]);
  });

  it("an unreachable token endpoint answers OAUTH_FAILURE", async () => {
    provider.setIdentity("google", googleIdentity());
    const { done } = await connect(newBrowser(), "google", "", partial);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe("/login?error=OAUTH_FAILURE");
  });
});

describe("provider clients", () => {
  const config = () => loadConfig({ NODE_ENV: "test", ...provider.env });

  it.each(["google", "facebook"] as const)("%s: a provider slower than the timeout fails", async (name) => {
    const client = oauthProvider(config(), name, { timeoutMs: 150 });
    if (!client) throw new Error("provider disabled");
    const verifier = client.usesPkce ? "v".repeat(43) : null;
    const back = await consent(client.authorizationUrl("fr.state", verifier));
    provider.delayNext(2_000);
    const failure = await client.signIn(back.searchParams.get("code") ?? "", verifier).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OAuthProviderError);
    expect(failure).toMatchObject({ provider: name, step: "token", reason: "timeout", invalidGrant: false });
  });

  it("maps Strava's athlete: country code, gender, city", async () => {
    provider.setIdentity("strava", {
      id: 31337,
      firstname: "Jo",
      lastname: "Bloggs",
      city: "Liège",
      country: "Belgique",
      sex: "M",
    });
    const client = oauthProvider(config(), "strava");
    if (!client) throw new Error("provider disabled");
    const back = await consent(client.authorizationUrl("fr.state", null));
    const profile = await client.signIn(back.searchParams.get("code") ?? "", null);
    expect(profile).toEqual({
      provider: "strava",
      providerUserId: "31337",
      email: null,
      emailVerified: false,
      firstName: "Jo",
      lastName: "Bloggs",
      city: "Liège",
      country: "BE",
      gender: "male",
    });
  });

  it("reads country names in English and French", () => {
    expect(countryCode("France")).toBe("FR");
    expect(countryCode("United Kingdom")).toBe("GB");
    expect(countryCode("États-Unis")).toBe("US");
    expect(countryCode("Suisse")).toBe("CH");
    expect(countryCode("Atlantis")).toBeNull();
    expect(countryCode(null)).toBeNull();
  });
});
