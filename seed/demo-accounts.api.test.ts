import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventAccess } from "../features/events/event-access.server.ts";
import { events } from "../features/events/events.tables.ts";
import { users } from "../features/identity/identity.tables.ts";
import { ConfigError, loadConfig } from "../platform/config.server.ts";
import { TEST_REFERENCE_DATE } from "../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";
import {
  DEMO_ACCOUNTS,
  DEMO_ORGANISER_EVENTS,
  demoAccountsBanner,
  demoAccountsWanted,
  ensureDemoAccounts,
} from "./demo-accounts.server.ts";

describe("when demo accounts are made", () => {
  const wanted = (env: Record<string, string>) => demoAccountsWanted(loadConfig({ DATA_DIR: "./data/test", ...env }));

  it("in development with a demo catalogue, unless DEMO_ACCOUNTS=0", () => {
    expect(wanted({ NODE_ENV: "development" })).toBe(true);
    expect(wanted({ NODE_ENV: "development", DEMO_ACCOUNTS: "0" })).toBe(false);
    expect(wanted({ NODE_ENV: "development", DEMO_EVENTS: "0" })).toBe(false);
  });

  it("never in production (nor tests) unless DEMO_ACCOUNTS=1 asks", () => {
    expect(wanted({})).toBe(false);
    expect(wanted({ NODE_ENV: "production" })).toBe(false);
    expect(wanted({ NODE_ENV: "test" })).toBe(false);
    expect(wanted({ NODE_ENV: "production", DEMO_ACCOUNTS: "1" })).toBe(true);
    expect(wanted({ NODE_ENV: "production", DEMO_ACCOUNTS: "true" })).toBe(true);
    expect(() => wanted({ DEMO_ACCOUNTS: "yes" })).toThrow(ConfigError);
  });
});

describe("the demo accounts", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("are created with the printed credentials, which sign in, each with its role", async () => {
    const report = await ensureDemoAccounts(t.database.db, { now: TEST_REFERENCE_DATE });
    expect(report.accounts.map((a) => [a.role, a.created])).toEqual([
      ["member", true],
      ["organiser", true],
      ["admin", true],
    ]);
    const banner = demoAccountsBanner(report, "http://localhost:3000");
    for (const [i, account] of DEMO_ACCOUNTS.entries()) {
      const line = banner.split("\n").find((l) => l.includes(account.email)) ?? "";
      const password = line.trim().split(/\s+/).at(-1) ?? "";
      const login = await t.app.inject({
        method: "POST",
        url: "/api/login",
        remoteAddress: `10.6.0.${i + 1}`,
        headers: { ...accessHeaders, "content-type": "application/json" },
        payload: JSON.stringify({ email: account.email, password }),
      });
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json().user).toMatchObject({ role: account.role, emailStatus: "verified" });
    }
  });

  it("give the organiser upcoming active demo events, which they may edit, shown in the banner", async () => {
    const report = await ensureDemoAccounts(t.database.db, { now: TEST_REFERENCE_DATE });
    const organiser = report.accounts.find((a) => a.role === "organiser");
    expect(report.events).toHaveLength(DEMO_ORGANISER_EVENTS);
    const rows = await t.database.db
      .select({ id: events.id, status: events.status, startDate: events.startDate, ownerId: events.ownerId })
      .from(events)
      .where(
        inArray(
          events.id,
          report.events.map((e) => e.id),
        ),
      );
    for (const row of rows) {
      expect(row.status).toBe("active");
      expect(row.startDate >= TEST_REFERENCE_DATE.toISOString().slice(0, 10)).toBe(true);
      const actor = { id: organiser?.id ?? 0, role: "organiser" as const, emailStatus: "verified" as const };
      expect(["owner", "organizer"]).toContain(await eventAccess(t.database.db, actor, row.id));
    }
    const banner = demoAccountsBanner(report, "http://localhost:3000");
    for (const event of report.events) expect(banner).toContain(`http://localhost:3000/course/${event.slug}`);
  });

  it("are made once: a later start changes nothing, even a password the member changed", async () => {
    const member = DEMO_ACCOUNTS.find((a) => a.role === "member");
    const [before] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, member?.email ?? ""));
    await t.database.db
      .update(users)
      .set({ passwordHash: "changed" })
      .where(eq(users.id, before?.id ?? 0));
    const first = await ensureDemoAccounts(t.database.db, { now: TEST_REFERENCE_DATE });
    const again = await ensureDemoAccounts(t.database.db, { now: TEST_REFERENCE_DATE });
    expect(again.accounts.every((a) => !a.created)).toBe(true);
    expect(again.events).toEqual(first.events);
    const [after] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.id, before?.id ?? 0));
    expect(after?.passwordHash).toBe("changed");
    const count = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_ACCOUNTS.map((a) => a.email),
        ),
      );
    expect(count).toHaveLength(3);
  });
});
