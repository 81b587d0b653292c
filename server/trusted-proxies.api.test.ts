import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions } from "../features/identity/identity.tables.ts";
import { LIMITS } from "../features/identity/rate-limit.server.ts";
import { browse, newBrowser } from "../tests/api/browser.ts";
import { createTestApp, type TestApp } from "../tests/api/harness.ts";

const PASSWORD = "correct horse 42";
let registrations = 0;
const registration = () => ({
  email: `proxied.${++registrations}@example.fr`,
  password: PASSWORD,
  passwordConfirmation: PASSWORD,
  firstName: "Inès",
  lastName: "Roux",
  pseudo: "",
  terms: true,
});

/** A different client address claimed on each call, as a script rotating the header would. */
let rotation = 0;
const claimedAddress = () => `203.0.113.${++rotation % 250}`;

describe("without TRUSTED_PROXIES (the default)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("a rotating X-Forwarded-For does not dodge the sign-in limit", async () => {
    const client = newBrowser();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const response = await browse(t.app, client, "POST", "/api/login", {
        payload: { email: "victim@example.fr", password: `wrong-${i}-password` },
        headers: { "x-forwarded-for": claimedAddress() },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - LIMITS.loginPair.max);
  });

  it("a rotating X-Forwarded-For does not dodge the registration limit", async () => {
    const client = newBrowser();
    let last = 0;
    for (let i = 0; i <= LIMITS.registerIp.max && last !== 429; i++) {
      client.cookies.clear();
      last = (
        await browse(t.app, client, "POST", "/api/register", {
          payload: registration(),
          headers: { "x-forwarded-for": claimedAddress() },
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });

  it("the session records the connection's address, not the claimed one", async () => {
    const client = newBrowser();
    await browse(t.app, client, "POST", "/api/register", {
      payload: registration(),
      headers: { "x-forwarded-for": "203.0.113.99" },
    });
    const rows = await t.database.db.select({ ip: sessions.ip }).from(sessions).where(eq(sessions.ip, client.ip));
    expect(rows.length).toBe(1);
    expect((await t.database.db.select().from(sessions).where(eq(sessions.ip, "203.0.113.99"))).length).toBe(0);
  });
});

describe("with TRUSTED_PROXIES=127.0.0.1 (nginx on the same machine)", () => {
  let t: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    t = await createTestApp({ env: { TRUSTED_PROXIES: "127.0.0.1" }, logger: { stream } });
  });
  afterAll(() => t.close());

  const viaProxy = () => ({ ...newBrowser(), ip: "127.0.0.1" });

  it("takes the forwarded address, and the session records it", async () => {
    const client = viaProxy();
    const response = await browse(t.app, client, "POST", "/api/register", {
      payload: registration(),
      headers: { "x-forwarded-for": "198.51.100.23" },
    });
    expect(response.statusCode).toBe(201);
    const rows = await t.database.db.select({ ip: sessions.ip }).from(sessions).where(eq(sessions.ip, "198.51.100.23"));
    expect(rows).toEqual([{ ip: "198.51.100.23" }]);
  });

  it("logs requests with the forwarded address, and the connection's when it is not a proxy", async () => {
    await browse(t.app, viaProxy(), "GET", "/api/sports?secret=1", { headers: { "x-forwarded-for": "198.51.100.41" } });
    const direct = newBrowser();
    await browse(t.app, direct, "GET", "/api/sports", { headers: { "x-forwarded-for": "198.51.100.42" } });
    const requests = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.req?.url === "/api/sports");
    expect(requests.map((entry) => entry.req.remoteAddress)).toEqual(["198.51.100.41", direct.ip]);
  });

  it("takes the right-most address that is not a trusted proxy, not what the client wrote first", async () => {
    const client = viaProxy();
    await browse(t.app, client, "POST", "/api/register", {
      payload: registration(),
      // The client wrote "6.6.6.6"; nginx appended the address it saw.
      headers: { "x-forwarded-for": "6.6.6.6, 198.51.100.24" },
    });
    expect(await t.database.db.select().from(sessions).where(eq(sessions.ip, "6.6.6.6"))).toEqual([]);
    expect((await t.database.db.select().from(sessions).where(eq(sessions.ip, "198.51.100.24"))).length).toBe(1);
  });

  it("ignores the header from a connection that is not a trusted proxy", async () => {
    const direct = newBrowser();
    await browse(t.app, direct, "POST", "/api/register", {
      payload: registration(),
      headers: { "x-forwarded-for": "198.51.100.25" },
    });
    expect((await t.database.db.select().from(sessions).where(eq(sessions.ip, direct.ip))).length).toBe(1);
  });

  it("limits per forwarded address: one client is stopped, another behind the same proxy is not", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.loginPair.max + 1; i++) {
      const response = await browse(t.app, viaProxy(), "POST", "/api/login", {
        payload: { email: "someone@example.fr", password: `wrong-${i}-password` },
        headers: { "x-forwarded-for": "198.51.100.30" },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    const other = await browse(t.app, viaProxy(), "POST", "/api/login", {
      payload: { email: "someone@example.fr", password: "wrong-password" },
      headers: { "x-forwarded-for": "198.51.100.31" },
    });
    expect(other.statusCode).toBe(401);
  });

  it("believes X-Forwarded-Proto from the proxy: the session cookie is Secure", async () => {
    const response = await browse(t.app, viaProxy(), "POST", "/api/register", {
      payload: registration(),
      headers: { "x-forwarded-for": "198.51.100.26", "x-forwarded-proto": "https" },
    });
    expect(response.cookies.find((c) => c.name === "dossard_session")?.secure).toBe(true);
  });
});
