import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { cookieSecret } from "../identity/auth.server.ts";
import { users } from "../identity/identity.tables.ts";
import { CONTROL_HEADER, controlToken, setupPath, setupToken } from "./first-admin.routes.server.ts";

/** A fresh install (no admin in the test world) administered from the browser and the command line. */
let t: TestApp;
let secret: string;
beforeAll(async () => {
  t = await createTestApp();
  secret = cookieSecret(t.app.config.SESSION_SECRET, t.app.config.dataDir);
});
afterAll(() => t?.close());

const body = (token: string, email = "ana.admin@example.fr") => ({
  token,
  email,
  firstName: "Ana",
  lastName: "Martin",
  password: "Mont Aiguille 2026",
  passwordConfirmation: "Mont Aiguille 2026",
  locale: "fr",
});
const setup = (payload: unknown) =>
  t.app.inject({ method: "POST", url: "/api/setup", headers: accessHeaders, payload: payload as object });
const userByEmail = async (email: string) =>
  (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

describe("first admin", () => {
  it("prints a link in the page's language whose token the server derives from its secret", () => {
    expect(setupPath(secret)).toBe(`/installation/${setupToken(secret)}`);
    expect(setupPath(secret, "en")).toBe(`/en/setup/${setupToken(secret)}`);
    expect(setupToken(secret)).not.toBe(setupToken(`${secret}x`));
  });

  it("refuses a wrong token without creating anything", async () => {
    expect(await t.app.services.accounts.hasAdmin()).toBe(false);
    const res = await setup(body("not-the-token", "intruder@example.fr"));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("SETUP_LINK_INVALID");
    expect(await userByEmail("intruder@example.fr")).toBeUndefined();
  });

  it("checks the form like registration, beside the right field", async () => {
    const res = await setup({ ...body(setupToken(secret)), passwordConfirmation: "something else" });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain("passwordConfirmation");
    expect(await t.app.services.accounts.hasAdmin()).toBe(false);
  });

  it("creates the first admin with the right token, signed in and verified, then closes", async () => {
    const res = await setup(body(setupToken(secret)));
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ role: "admin", emailStatus: "verified", firstName: "Ana" });
    const cookie = res.cookies.find((c) => c.name === "dossard_session");
    expect(cookie?.value).toBeTruthy();
    const me = await t.app.inject({ url: "/api/me", cookies: { dossard_session: cookie?.value ?? "" } });
    expect(me.json().user.role).toBe("admin");

    const again = await setup(body(setupToken(secret), "second.admin@example.fr"));
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe("SETUP_DONE");
    expect(await userByEmail("second.admin@example.fr")).toBeUndefined();
  });
});

describe("create-admin through the running server", () => {
  const create = (headers: Record<string, string>, remoteAddress = "127.0.0.1") =>
    t.app.inject({
      method: "POST",
      url: "/api/internal/create-admin",
      remoteAddress,
      headers: { ...accessHeaders, ...headers },
      payload: { email: "cli.admin@example.fr", password: "Col du Galibier 2642" },
    });

  it("answers only this machine, and only with the token derived from the data folder's secret", async () => {
    expect((await create({})).statusCode).toBe(403);
    expect((await create({ [CONTROL_HEADER]: "guess" })).statusCode).toBe(403);
    expect((await create({ [CONTROL_HEADER]: controlToken(secret) }, "203.0.113.9")).statusCode).toBe(403);
    // A forwarded header does not make a remote caller local.
    const forwarded = await create(
      { [CONTROL_HEADER]: controlToken(secret), "x-forwarded-for": "127.0.0.1" },
      "203.0.113.9",
    );
    expect(forwarded.statusCode).toBe(403);
    expect(await userByEmail("cli.admin@example.fr")).toBeUndefined();
  });

  it("creates or promotes the admin", async () => {
    const res = await create({ [CONTROL_HEADER]: controlToken(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ created: true });
    expect((await userByEmail("cli.admin@example.fr"))?.role).toBe("admin");
  });
});
