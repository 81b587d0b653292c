import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "../../platform/db/rows.server.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../../tests/support/smtp-server.ts";
import { sessions, users } from "../identity/identity.tables.ts";
import { userIdentities, userTokens } from "./accounts.tables.ts";

let t: TestApp;
let smtp: TestSmtpServer;
let now = new Date(TEST_REFERENCE_DATE);
let ipCounter = 0;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ clock: () => now, env: { SMTP_URL: smtp.url }, runJobs: true });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Client = { ip: string; cookie: string; locale: "fr" | "en" };
const newClient = (locale: "fr" | "en" = "fr"): Client => ({
  ip: `10.0.${++ipCounter >> 8}.${ipCounter & 255}`,
  cookie: "",
  locale,
});

/** An API call as the browser makes it: access header, the client's cookie and address. */
async function call(client: Client, method: "GET" | "POST", url: string, payload?: unknown) {
  const response = await t.app.inject({
    method,
    url,
    remoteAddress: client.ip,
    headers: {
      ...accessHeaders,
      "x-locale": client.locale,
      ...(client.cookie ? { cookie: client.cookie } : {}),
      ...(payload !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  const set = response.cookies.find((c) => c.name === "dossard_session");
  if (set) client.cookie = set.value ? `dossard_session=${set.value}` : "";
  return response;
}

let emailCounter = 0;
const uniqueEmail = (name = "runner") => `${name}.${++emailCounter}.${Date.now().toString(36)}@example.fr`;

function registration(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(),
    password: "correct horse 42",
    passwordConfirmation: "correct horse 42",
    firstName: "Ana",
    lastName: "Lefèvre",
    pseudo: "",
    terms: true,
    ...overrides,
  };
}

async function codeMailedTo(email: string, after = 0): Promise<string> {
  const mail = await smtp.waitFor(
    (m) => m.to.includes(email) && /\b\d{5}\b/.test(m.text) && smtp.messages.indexOf(m) >= after,
  );
  const code = mail.text.match(/\b(\d{5})\b/)?.[1];
  if (!code) throw new Error(`no code in ${mail.text}`);
  return code;
}

async function registered(overrides: Record<string, unknown> = {}, locale: "fr" | "en" = "fr") {
  const client = newClient(locale);
  const body = registration({ locale, ...overrides });
  const response = await call(client, "POST", "/api/register", body);
  expect(response.statusCode, response.body).toBe(201);
  return { client, body, user: response.json().user as { id: number; slug: string; emailStatus: string } };
}

async function verified(overrides: Record<string, unknown> = {}) {
  const r = await registered(overrides);
  const code = await codeMailedTo(r.body.email);
  const response = await call(r.client, "POST", "/api/user/verify-account", { code });
  expect(response.statusCode, response.body).toBe(200);
  return r;
}

describe("registration", () => {
  it("creates an unverified member, signs them in with a safe cookie and mails a 5-digit code", async () => {
    const client = newClient();
    const body = registration();
    const response = await call(client, "POST", "/api/register", body);
    expect(response.statusCode).toBe(201);
    const { user } = response.json();
    expect(user).toMatchObject({ email: body.email, emailStatus: "unverified", firstName: "Ana", role: "member" });
    expect(user.slug).toMatch(/^ana-lefevre/);
    const cookie = response.cookies.find((c) => c.name === "dossard_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie?.maxAge).toBeUndefined();
    const mail = await smtp.waitFor((m) => m.to.includes(body.email));
    expect(mail.subject).toMatch(/code/i);
    expect(mail.text).toMatch(/\b\d{5}\b/);
    const me = await call(client, "GET", "/api/me");
    expect(me.json().user.email).toBe(body.email);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.termsAcceptedAt).not.toBeNull();
  });

  it.each([
    [{ email: "" }, "EMAIL_EMPTY", "email", "L'adresse e-mail est vide."],
    [{ email: "not-an-email" }, "EMAIL_INVALID", "email", "Adresse e-mail invalide."],
    [
      { password: "short", passwordConfirmation: "short" },
      "PASSWORD_TOO_SHORT",
      "password",
      "Le mot de passe doit contenir au moins 8 caractères.",
    ],
    [
      { passwordConfirmation: "something else" },
      "PASSWORDS_NOT_IDENTICAL",
      "passwordConfirmation",
      "Les mots de passe ne sont pas identiques.",
    ],
    [{ terms: false }, "TERMS_REQUIRED", "terms", "Vous devez accepter les conditions d'utilisation."],
    [{ firstName: " " }, "FIELD_REQUIRED", "firstName", "Indiquez votre prénom."],
    [{ lastName: "", pseudo: "" }, "FIELD_REQUIRED", "lastName", "Indiquez votre nom ou un pseudo."],
  ])("refuses %o with %s beside the field, and creates nothing", async (override, code, field, message) => {
    const before = await t.database.db.$count(users);
    const body = registration(override);
    const response = await call(newClient(), "POST", "/api/register", body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code, field, message });
    expect(await t.database.db.$count(users)).toBe(before);
  });

  it("lists every failing field of the form at once, in English for an English page", async () => {
    const response = await call(newClient("en"), "POST", "/api/register", {
      email: "",
      password: "x",
      passwordConfirmation: "y",
      firstName: "",
      terms: false,
    });
    expect(response.statusCode).toBe(400);
    const fields = response.json().error.fields as { field: string; code: string; message: string }[];
    expect(Object.fromEntries(fields.map((f) => [f.field, f.code]))).toMatchObject({
      email: "EMAIL_EMPTY",
      password: "PASSWORD_TOO_SHORT",
      firstName: "FIELD_REQUIRED",
      terms: "TERMS_REQUIRED",
    });
    expect(fields.find((f) => f.field === "email")?.message).toBe("The email address is empty.");
  });

  it("words each rule for a person, never naming an internal field", async () => {
    const response = await call(newClient("fr"), "POST", "/api/register", {
      email: "lea@example.fr",
      password: "long enough 1",
      passwordConfirmation: "long enough 1",
      firstName: "",
      lastName: "x".repeat(81),
      terms: true,
      locale: "xx",
    });
    expect(response.statusCode).toBe(400);
    const error = response.json().error as { message: string; fields: { field: string; message: string }[] };
    expect(Object.fromEntries(error.fields.map((f) => [f.field, f.message]))).toEqual({
      firstName: "Indiquez votre prénom.",
      lastName: "80 caractères au plus.",
      locale: "Choisissez l'une des valeurs proposées.",
    });
    expect(error.message).toBe("Indiquez votre prénom.");
    expect(JSON.stringify(error)).not.toMatch(/Champ|«/);
  });

  it("refuses an address already used, whatever its case", async () => {
    const { body } = await registered();
    const response = await call(
      newClient(),
      "POST",
      "/api/register",
      registration({ email: body.email.toUpperCase() }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: "EMAIL_ALREADY_USED", field: "email" });
  });

  it("tells the address's owner by mail that someone tried to register it, and nobody else", async () => {
    const { body, user } = await registered({}, "en");
    const after = smtp.messages.length;
    const response = await call(newClient(), "POST", "/api/register", registration({ email: body.email }));
    expect(response.statusCode).toBe(409);
    expect(response.cookies.find((c) => c.name === "dossard_session")).toBeUndefined();
    const notice = await smtp.waitFor(
      (m) => m.to.includes(body.email) && m.subject === "You already have a Dossard account",
    );
    expect(smtp.messages.indexOf(notice)).toBeGreaterThanOrEqual(after);
    expect(notice.text).toContain("Hi Ana,");
    expect(notice.text).toContain("/en/login");
    expect(notice.text).toContain("/en/forgot-password");
    // The attempt is in the owner's activity log; no account, no session was created.
    const logged = (await t.database.db.execute(
      sql`SELECT type FROM user_logs WHERE user_id = ${user.id} ORDER BY id`,
    )) as unknown as { rows: { type: string }[] };
    expect(logged.rows.map((r) => r.type)).toContain("register_attempt");
    const holders = await t.database.db.select().from(users).where(sql`lower(${users.email}) = ${body.email}`);
    expect(holders).toHaveLength(1);
  });

  it("does the same work for an address already used as for a new one: a hash, one mail queued", async () => {
    const { body } = await registered();
    const counts = async () => {
      const result = (await t.database.db.execute(
        sql`SELECT (SELECT count(*)::int FROM mail_messages) AS mails,
                   (SELECT count(*)::int FROM jobs WHERE queue = 'mail.send') AS jobs`,
      )) as unknown as { rows: { mails: number; jobs: number }[] };
      return result.rows[0];
    };
    const before = await counts();
    expect((await call(newClient(), "POST", "/api/register", registration({ email: body.email }))).statusCode).toBe(
      409,
    );
    const afterTaken = await counts();
    expect((await call(newClient(), "POST", "/api/register", registration())).statusCode).toBe(201);
    const afterNew = await counts();
    expect(afterTaken.mails - before.mails).toBe(1);
    expect(afterNew.mails - afterTaken.mails).toBe(1);
    expect(afterTaken.jobs - before.jobs).toBe(1);
    expect(afterNew.jobs - afterTaken.jobs).toBe(1);
  });

  it("limits registrations per address, whether or not the address has an account", async () => {
    const { body } = await registered();
    // The registration above was the first of three an hour for its address.
    const taken = [];
    for (let i = 0; i < 3; i++) {
      taken.push((await call(newClient(), "POST", "/api/register", registration({ email: body.email }))).statusCode);
    }
    expect(taken).toEqual([409, 409, 429]);
    const fresh = uniqueEmail("fresh");
    const attempts = [];
    for (let i = 0; i < 4; i++) {
      attempts.push((await call(newClient(), "POST", "/api/register", registration({ email: fresh }))).statusCode);
    }
    expect(attempts).toEqual([201, 409, 409, 429]);
    // The owner got one notice per refused attempt, none for the limited ones.
    const notices = smtp.messages.filter(
      (m) => m.to.includes(body.email) && m.subject === "Vous avez déjà un compte Dossard",
    );
    expect(notices.length).toBeLessThanOrEqual(2);
  });

  it("recognises the database's unique-index refusals (the races the service maps to messages)", async () => {
    const { body, user } = await registered();
    const error = await t.database.db
      .insert(users)
      .values({ email: body.email.toUpperCase(), slug: `${user.slug}-copy` })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error, "users_email_lower_idx")).toBe(true);
    expect(isUniqueViolation(error, "users_slug_unique")).toBe(false);
    const slugError = await t.database.db
      .insert(users)
      .values({ email: uniqueEmail("slug"), slug: user.slug })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(slugError, "users_slug_unique")).toBe(true);
  });

  it("gives a second member with the same name their own slug", async () => {
    const a = await registered({ firstName: "Jean", lastName: "Martin" });
    const b = await registered({ firstName: "Jean", lastName: "Martin" });
    expect(a.user.slug).not.toBe(b.user.slug);
  });

  it("gives members of one name registering at the same instant each their own slug", async () => {
    const lastName = `Simultané ${Date.now().toString(36)}`;
    const all = await Promise.all(Array.from({ length: 4 }, () => registered({ firstName: "Léa", lastName })));
    expect(new Set(all.map((r) => r.user.slug)).size).toBe(4);
  });

  it("limits registrations per address", async () => {
    const client = newClient();
    let last = 0;
    for (let i = 0; i < 11; i++) {
      const response = await call(client, "POST", "/api/register", registration({ email: "" }));
      last = response.statusCode;
      if (last === 429) break;
    }
    // Invalid bodies are refused before counting; valid ones count.
    for (let i = 0; i < 11 && last !== 429; i++) {
      last = (await call({ ...client, cookie: "" }, "POST", "/api/register", registration())).statusCode;
    }
    expect(last).toBe(429);
    const response = await call(client, "POST", "/api/register", registration());
    expect(response.json().error).toMatchObject({
      code: "TOO_MANY_ATTEMPTS",
      message: "Trop de tentatives : patientez quelques minutes avant de réessayer.",
    });
    expect(response.headers["retry-after"]).toBeDefined();
  });
});

describe("email verification", () => {
  it("verifies the address with the mailed code (unverified → verified) and sends a welcome", async () => {
    const { client, body } = await registered();
    const code = await codeMailedTo(body.email);
    const response = await call(client, "POST", "/api/user/verify-account", { code });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.emailStatus).toBe("verified");
    await smtp.waitFor((m) => m.to.includes(body.email) && /bienvenue/i.test(m.subject));
  });

  it("refuses a wrong code, then the code is spent after 5 tries", async () => {
    const { client, body } = await registered();
    const code = await codeMailedTo(body.email);
    const wrong = code === "00000" ? "11111" : "00000";
    const first = await call(client, "POST", "/api/user/verify-account", { code: wrong });
    expect(first.statusCode).toBe(400);
    expect(first.json().error).toMatchObject({ code: "INVALID_CODE", field: "code", message: "Code incorrect." });
    for (let i = 0; i < 3; i++) await call(client, "POST", "/api/user/verify-account", { code: wrong });
    const fifth = await call(client, "POST", "/api/user/verify-account", { code: wrong });
    expect(fifth.json().error.code).toBe("CODE_EXPIRED");
    const right = await call(client, "POST", "/api/user/verify-account", { code });
    expect(right.json().error.code).toBe("CODE_EXPIRED");
    const me = await call(client, "GET", "/api/me");
    expect(me.json().user.emailStatus).toBe("unverified");
  });

  it("refuses a code that is not 5 digits", async () => {
    const { client } = await registered();
    const response = await call(client, "POST", "/api/user/verify-account", { code: "12a45" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: "INVALID_CODE", field: "code" });
  });

  it("refuses an expired code (15 minutes)", async () => {
    const { client, body } = await registered();
    const code = await codeMailedTo(body.email);
    now = new Date(now.getTime() + 16 * 60 * 1000);
    const response = await call(client, "POST", "/api/user/verify-account", { code });
    expect(response.json().error).toMatchObject({
      code: "CODE_EXPIRED",
      message: "Ce code a expiré : demandez-en un nouveau.",
    });
  });

  it("throttles resending (email already sent), and a new code replaces the old one", async () => {
    const { client, body } = await registered();
    const first = await codeMailedTo(body.email);
    const soon = await call(client, "POST", "/api/user/send-verify");
    expect(soon.statusCode).toBe(429);
    expect(soon.json().error).toMatchObject({
      code: "EMAIL_ALREADY_SENT",
      message: "Un e-mail vous a déjà été envoyé.",
    });
    now = new Date(now.getTime() + 61 * 1000);
    const sentAt = smtp.messages.length;
    const again = await call(client, "POST", "/api/user/send-verify");
    expect(again.statusCode).toBe(200);
    const second = await codeMailedTo(body.email, sentAt);
    if (first !== second) {
      const old = await call(client, "POST", "/api/user/verify-account", { code: first });
      expect(old.json().error.code).toBe("INVALID_CODE");
    }
    const ok = await call(client, "POST", "/api/user/verify-account", { code: second });
    expect(ok.json().user.emailStatus).toBe("verified");
  });

  it("keeps unverified members from publishing (public profile, photo) with the verification message", async () => {
    const { client, user } = await registered();
    const response = await call(client, "POST", `/api/user/profile/${user.id}`, {
      firstName: "Ana",
      lastName: "L",
      publicProfile: true,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: "EMAIL_VERIFICATION_REQUIRED",
      message: "Vérification de l'adresse e-mail requise.",
    });
  });

  it("needs a session", async () => {
    const response = await call(newClient(), "POST", "/api/user/verify-account", { code: "12345" });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toMatchObject({ code: "LOGIN_REQUIRED", message: "Identification requise." });
  });
});

describe("login and logout", () => {
  it("signs in with the right password (any case of email), counts logins, and logs out", async () => {
    const { body, user } = await registered();
    const client = newClient();
    const response = await call(client, "POST", "/api/login", {
      email: body.email.toUpperCase(),
      password: body.password,
      remember: true,
    });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === "dossard_session");
    expect(cookie?.maxAge).toBe(30 * 24 * 3600);
    expect(response.json().user.loginCount).toBe(2);
    expect(response.json().user.lastLoginAt).not.toBeNull();
    const out = await call(client, "GET", "/api/logout");
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { cookie: `dossard_session=${cookie?.value}` },
    });
    expect(after.statusCode).toBe(401);
    const remaining = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(remaining).toHaveLength(1); // the registration's session only
  });

  it("answers the same bad-login message for a wrong password and an unknown address", async () => {
    const { body } = await registered();
    const wrong = await call(newClient(), "POST", "/api/login", { email: body.email, password: "not the password" });
    const unknown = await call(newClient(), "POST", "/api/login", {
      email: uniqueEmail("nobody"),
      password: "whatever1",
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.message).toBe("Identifiant ou mot de passe incorrect.");
  });

  it("issues a new session token at sign-in (no fixation) and drops the one the browser had", async () => {
    const { body, client } = await registered();
    const before = client.cookie;
    await call(client, "POST", "/api/login", { email: body.email, password: body.password });
    expect(client.cookie).not.toBe(before);
    const old = await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: before } });
    expect(old.statusCode).toBe(401);
  });

  // Wrong passwords are limited per address and per account without locking out the owner:
  // sign-in-limits.api.test.ts.

  it("GET /logout from the site (the header's link) clears the cookie and goes home in the page's language", async () => {
    const { client } = await registered();
    const response = await t.app.inject({
      method: "GET",
      url: "/logout?lang=en",
      headers: { cookie: client.cookie, "sec-fetch-site": "same-origin" },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/en");
    expect(response.cookies.find((c) => c.name === "dossard_session")?.value).toBe("");
  });

  const stillSignedIn = async (client: Client) =>
    (await t.app.inject({ method: "GET", url: "/api/me", headers: { cookie: client.cookie } })).statusCode === 200;

  it.each([
    ["another site's link", "/logout", { "sec-fetch-site": "cross-site" }, "/deconnexion"],
    ["another site's image, in English", "/logout?lang=en", { "sec-fetch-site": "cross-site" }, "/en/sign-out"],
    ["a sibling site", "/logout", { "sec-fetch-site": "same-site" }, "/deconnexion"],
    ["a browser that does not say", "/logout", {}, "/deconnexion"],
    ["another site, on the API", "/api/logout", { "sec-fetch-site": "cross-site" }, "/deconnexion"],
    ["an unknown origin on the API, in English", "/api/logout?lang=en", {}, "/en/sign-out"],
  ])("a GET sign-out from %s only shows the Sign out? page", async (_from, url, headers, page) => {
    const { client } = await registered();
    const response = await t.app.inject({ method: "GET", url, headers: { cookie: client.cookie, ...headers } });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(page);
    expect(response.cookies.find((c) => c.name === "dossard_session")).toBeUndefined();
    expect(await stillSignedIn(client)).toBe(true);
  });

  it.each([
    ["the site's own fetch (access header)", "GET", accessHeaders],
    ["a bookmark or typed address", "GET", { "sec-fetch-site": "none" }],
    ["the site's POST (access header)", "POST", accessHeaders],
  ])("GET and POST /api/logout sign out for %s", async (_from, method, headers) => {
    const { client } = await registered();
    const response = await t.app.inject({
      method: method as "GET" | "POST",
      url: "/api/logout",
      headers: { cookie: client.cookie, ...headers },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(await stillSignedIn(client)).toBe(false);
  });

  it("refuses a POST /api/logout without the access header (a cross-site form)", async () => {
    const { client } = await registered();
    const response = await t.app.inject({ method: "POST", url: "/api/logout", headers: { cookie: client.cookie } });
    expect(response.statusCode).toBe(400);
    expect(await stillSignedIn(client)).toBe(true);
  });

  it("believes X-Forwarded-Proto only from a trusted proxy (none here; see trusted-proxies.api.test.ts)", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/register",
      remoteAddress: newClient().ip,
      headers: { ...accessHeaders, "content-type": "application/json", "x-forwarded-proto": "https" },
      payload: JSON.stringify(registration()),
    });
    expect(response.cookies.find((c) => c.name === "dossard_session")?.secure).toBeFalsy();
  });

  it("refuses account writes without the access header (no cross-site forms)", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ email: "a@b.fr", password: "12345678" }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("MISSING_ACCESS_HEADER");
  });
});

describe("password recovery", () => {
  async function resetLink(email: string, after: number): Promise<string> {
    const mail = await smtp.waitFor(
      (m) => m.to.includes(email) && /token=/.test(m.text) && smtp.messages.indexOf(m) >= after,
    );
    const token = mail.text.match(/token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error("no link");
    return token;
  }

  it("mails a single-use link; reset signs out other sessions and signs this browser in", async () => {
    const { body, client: other } = await registered();
    const sentAt = smtp.messages.length;
    const asked = await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    expect(asked.json()).toEqual({ ok: true });
    const token = await resetLink(body.email, sentAt);
    const browser = newClient();
    const reset = await call(browser, "POST", "/api/reset-password", {
      token,
      password: "brand new pass",
      passwordConfirmation: "brand new pass",
    });
    expect(reset.statusCode).toBe(200);
    expect((await call(browser, "GET", "/api/me")).statusCode).toBe(200);
    expect((await call(other, "GET", "/api/me")).statusCode).toBe(401);
    const again = await call(newClient(), "POST", "/api/reset-password", {
      token,
      password: "another pass 1",
      passwordConfirmation: "another pass 1",
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: "INVALID_TOKEN",
      message: "Lien invalide ou expiré : utilisez le lien du dernier e-mail reçu.",
    });
    const login = await call(newClient(), "POST", "/api/login", { email: body.email, password: "brand new pass" });
    expect(login.statusCode).toBe(200);
    await smtp.waitFor((m) => m.to.includes(body.email) && /mot de passe/i.test(m.subject) && !/token=/.test(m.text));
  });

  it("answers the same for an unknown address, and mails it that no account uses it", async () => {
    const email = uniqueEmail("ghost");
    const response = await call(newClient(), "POST", "/api/recover-password", { email });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe("Demande de mot de passe Dossard");
    expect(mail.text).toContain("aucun compte actif ne l'utilise");
    expect(mail.text).not.toMatch(/token=/);
    // No token was stored for anyone.
    const tokens = await t.database.db.select().from(userTokens).where(eq(userTokens.email, email));
    expect(tokens).toHaveLength(0);
    // The same limits as for a real account: one request a minute.
    const again = await call(newClient(), "POST", "/api/recover-password", { email });
    expect(again.statusCode).toBe(429);
    expect(again.json().error.code).toBe("EMAIL_ALREADY_SENT");
  });

  it("queues one mail for a known and for an unknown address, and answers both alike", async () => {
    const { body } = await registered();
    const mails = async () =>
      Number(
        (
          (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM mail_messages`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0].n,
      );
    const start = await mails();
    const known = await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    const afterKnown = await mails();
    const unknown = await call(newClient(), "POST", "/api/recover-password", { email: uniqueEmail("nobody") });
    const afterUnknown = await mails();
    expect([afterKnown - start, afterUnknown - afterKnown]).toEqual([1, 1]);
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.body).toBe(unknown.body);
    const headerNames = (r: typeof known) =>
      Object.keys(r.headers)
        .filter((h) => h !== "date" && h !== "content-length")
        .sort();
    expect(headerNames(known)).toEqual(headerNames(unknown));
  });

  it("sends a disabled account's address the no-account mail, not a link", async () => {
    const { body, client } = await registered();
    const disabled = await call(client, "POST", "/api/user/disable-account", {
      confirm: true,
      currentPassword: body.password,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const response = await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    expect(response.json()).toEqual({ ok: true });
    const mail = await smtp.waitFor(
      (m) => m.to.includes(body.email) && m.subject === "Demande de mot de passe Dossard",
    );
    expect(mail.text).not.toMatch(/token=/);
  });

  it("ends a disabled account's sessions, mailed links and social links, for good even if it is enabled again", async () => {
    const { body, client, user } = await verified();
    const elsewhere = newClient();
    expect(
      (await call(elsewhere, "POST", "/api/login", { email: body.email, password: body.password })).statusCode,
    ).toBe(200);
    const sentAt = smtp.messages.length;
    await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    const token = await resetLink(body.email, sentAt);
    await t.database.db
      .insert(userIdentities)
      .values({ provider: "google", providerUserId: `google-${user.id}`, userId: user.id, email: body.email });

    const disabled = await call(client, "POST", "/api/user/disable-account", {
      confirm: true,
      currentPassword: body.password,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    for (const browser of [client, elsewhere]) expect((await call(browser, "GET", "/api/me")).statusCode).toBe(401);
    const left = async (table: typeof sessions | typeof userTokens | typeof userIdentities) =>
      t.database.db.$count(table, eq(table.userId, user.id));
    expect([await left(sessions), await left(userTokens), await left(userIdentities)]).toEqual([0, 0, 0]);

    // Enabled again by an admin (npm run user:create-admin): the link mailed before is dead.
    await t.app.services.accounts.createAdmin({ email: body.email });
    const reset = await call(newClient(), "POST", "/api/reset-password", {
      token,
      password: "taken over 123",
      passwordConfirmation: "taken over 123",
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error.code).toBe("INVALID_TOKEN");
  });

  it("refuses an expired link, and an older link once a newer one was sent", async () => {
    const { body } = await registered();
    const t0 = smtp.messages.length;
    await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    const first = await resetLink(body.email, t0);
    now = new Date(now.getTime() + 61 * 1000);
    const t1 = smtp.messages.length;
    await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    const second = await resetLink(body.email, t1);
    const reset = (token: string) =>
      call(newClient(), "POST", "/api/reset-password", {
        token,
        password: "new pass 123",
        passwordConfirmation: "new pass 123",
      });
    expect((await reset(first)).json().error.code).toBe("INVALID_TOKEN");
    now = new Date(now.getTime() + 61 * 60 * 1000);
    expect((await reset(second)).json().error.code).toBe("INVALID_TOKEN");
  });

  it("throttles a second request within a minute", async () => {
    const { body } = await registered();
    await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    const again = await call(newClient(), "POST", "/api/recover-password", { email: body.email });
    expect(again.statusCode).toBe(429);
    expect(again.json().error.code).toBe("EMAIL_ALREADY_SENT");
  });
});

describe("account area", () => {
  it("edits the profile with best times, and shows it publicly once public", async () => {
    const { client, user } = await verified({ firstName: "Lucie", lastName: "Moreau" });
    const response = await call(client, "POST", `/api/user/profile/${user.id}`, {
      firstName: "Lucie",
      lastName: "Moreau",
      pseudo: "LuluTrail",
      gender: "female",
      city: "Annecy",
      country: "FR",
      presentation: "Traileuse du dimanche.",
      objectives: "UTMB 2027",
      sports: ["trail", "ultra_trail"],
      best10k: 45 * 60 + 12,
      bestHalf: 3600 + 41 * 60,
      bestMarathon: null,
      publicProfile: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    const me = response.json().user;
    expect(me).toMatchObject({ pseudo: "LuluTrail", best10k: 2712, displayName: "LuluTrail", publicProfile: true });
    const anonymous = newClient();
    const profile = await call(anonymous, "GET", `/api/user/${me.slug}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.json().profile).toMatchObject({ displayName: "LuluTrail", city: "Annecy", best10k: 2712 });
    expect(profile.json().profile).not.toHaveProperty("email");
    const stats = await call(anonymous, "GET", `/api/user/${me.slug}/stats`);
    expect(stats.json().stats).toEqual({
      badges: 0,
      totalDistance: 0,
      races: 0,
      maxDistance: 0,
      totalElevation: 0,
      results: 0,
      upcomingRaces: 0,
    });
  });

  it("hides a private profile (404) and refuses to edit someone else's", async () => {
    const { user } = await registered();
    const other = await registered();
    expect((await call(newClient(), "GET", `/api/user/${user.slug}`)).statusCode).toBe(404);
    expect((await call(newClient(), "GET", `/api/user/${user.slug}/stats`)).statusCode).toBe(404);
    const response = await call(other.client, "POST", `/api/user/profile/${user.id}`, {
      firstName: "X",
      lastName: "Y",
    });
    expect(response.statusCode).toBe(403);
  });

  it("refuses out-of-range best times and unknown sports with the field named", async () => {
    const { client, user } = await registered();
    const response = await call(client, "POST", `/api/user/profile/${user.id}`, {
      firstName: "A",
      lastName: "B",
      best10k: -5,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.field).toBe("best10k");
    const sport = await call(client, "POST", `/api/user/profile/${user.id}`, {
      firstName: "A",
      lastName: "B",
      sports: ["chess"],
    });
    expect(sport.json().error.field).toBe("sports.0");
  });

  it("changes the email: pending change → verified with a code sent to the new address", async () => {
    const { client, user, body } = await verified();
    const next = uniqueEmail("new");
    const response = await call(client, "POST", `/api/user/email/${user.id}`, {
      email: next,
      currentPassword: body.password,
    });
    expect(response.json().user).toMatchObject({
      email: body.email,
      emailStatus: "pending_change",
      pendingEmail: next,
    });
    const code = await codeMailedTo(next);
    const done = await call(client, "POST", "/api/user/verify-account", { code });
    expect(done.json().user).toMatchObject({ email: next, emailStatus: "verified", pendingEmail: null });
    const someoneElse = await registered();
    const taken = await call(client, "POST", `/api/user/email/${user.id}`, {
      email: someoneElse.body.email.toUpperCase(),
      currentPassword: body.password,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe("EMAIL_ALREADY_USED");
  });

  it("changes the password with the current one, signing out other sessions", async () => {
    const { client, user, body } = await registered();
    const second = newClient();
    await call(second, "POST", "/api/login", { email: body.email, password: body.password });
    const wrong = await call(client, "POST", `/api/user/password/${user.id}`, {
      currentPassword: "nope nope",
      password: "another secret",
      passwordConfirmation: "another secret",
    });
    expect(wrong.json().error).toMatchObject({ code: "WRONG_PASSWORD", field: "currentPassword" });
    const ok = await call(client, "POST", `/api/user/password/${user.id}`, {
      currentPassword: body.password,
      password: "another secret",
      passwordConfirmation: "another secret",
    });
    expect(ok.statusCode).toBe(200);
    expect((await call(client, "GET", "/api/me")).statusCode).toBe(200);
    expect((await call(second, "GET", "/api/me")).statusCode).toBe(401);
  });

  it("saves preferences (newsletter, language)", async () => {
    const { client, user } = await registered();
    const response = await call(client, "POST", `/api/user/preferences/${user.id}`, { newsletter: true, locale: "en" });
    expect(response.json().user).toMatchObject({ newsletter: true, locale: "en" });
  });

  it("exports the member's data as a JSON file without secrets", async () => {
    const { client, body } = await registered();
    const response = await call(client, "GET", "/api/me/export");
    expect(response.headers["content-disposition"]).toMatch(/attachment; filename="dossard-.+\.json"/);
    const data = response.json();
    expect(data.profile.email).toBe(body.email);
    expect(data.activity.map((a: { type: string }) => a.type)).toContain("register");
    expect(response.body).not.toMatch(/argon2|password_hash|passwordHash/);
  });

  it("disables the account after confirmation: no login, no public profile", async () => {
    const { client, user, body } = await verified();
    await call(client, "POST", `/api/user/profile/${user.id}`, {
      firstName: "Ana",
      lastName: "L",
      publicProfile: true,
    });
    const me = (await call(client, "GET", "/api/me")).json().user;
    const unconfirmed = await call(client, "POST", "/api/user/disable-account", { currentPassword: body.password });
    expect(unconfirmed.statusCode).toBe(400);
    const response = await call(client, "POST", "/api/user/disable-account", {
      confirm: true,
      currentPassword: body.password,
    });
    expect(response.statusCode).toBe(200);
    expect((await call(client, "GET", "/api/me")).statusCode).toBe(401);
    const login = await call(newClient(), "POST", "/api/login", { email: body.email, password: body.password });
    expect(login.json().error.code).toBe("BAD_LOGIN");
    expect((await call(newClient(), "GET", `/api/user/${me.slug}`)).statusCode).toBe(404);
  });
});

describe("profile photo", () => {
  const upload = (client: Client, filename: string, data: Buffer, type = "image/jpeg") => {
    const boundary = "----dossard";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: "POST",
      url: "/api/upload/user-photo",
      remoteAddress: client.ip,
      headers: { ...accessHeaders, cookie: client.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  };

  it("stores a resized WebP served under /media/user", async () => {
    const { client } = await verified();
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#f05a1a" } })
      .png()
      .toBuffer();
    const response = await upload(client, "me.png", png, "image/png");
    expect(response.statusCode, response.body).toBe(200);
    const url: string = response.json().user.photoUrl;
    expect(url).toMatch(/^\/media\/user\/\d+-[0-9a-f]+\.webp\?t=\d+$/);
    const image = await t.app.inject({ method: "GET", url });
    expect(image.statusCode).toBe(200);
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 400, height: 400 });
  });

  it("judges by content: a text file named .jpg is refused", async () => {
    const { client } = await verified();
    const response = await upload(client, "photo.jpg", Buffer.from("<svg onload=alert(1)>"));
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe("FILE_TYPE_INVALID");
  });

  it("refuses a file over 5 MB with the file-too-heavy message", async () => {
    const { client } = await verified();
    const response = await upload(client, "big.jpg", Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: "FILE_TOO_HEAVY", message: "Fichier trop lourd." });
  });

  it("needs a verified email", async () => {
    const { client } = await registered();
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const response = await upload(client, "a.png", png, "image/png");
    expect(response.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
  });
});

describe("roles", () => {
  it("401 for anonymous, 403 for a member, 200 for an admin on the admin user list", async () => {
    expect((await call(newClient(), "GET", "/api/admin/users")).statusCode).toBe(401);
    const member = await registered();
    const forbidden = await call(member.client, "GET", "/api/admin/users");
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe("FORBIDDEN");
    await t.database.db.update(users).set({ role: "admin" }).where(eq(users.id, member.user.id));
    const list = await call(member.client, "GET", "/api/admin/users");
    expect(list.statusCode).toBe(200);
    expect(list.json().users.length).toBeGreaterThan(0);
    const csv = await call(member.client, "GET", "/api/admin/users/csv");
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    expect(csv.body.split("\r\n")[0]).toContain('"email"');
  });

  it("keeps no code or link in clear in the database", async () => {
    const { body, user } = await registered();
    const code = await codeMailedTo(body.email);
    const tokens = await t.database.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(JSON.stringify(tokens)).not.toContain(code);
  });
});
