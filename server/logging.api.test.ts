/**
 * Personal data stays out of the logs: a statement that fails is logged without its values (the
 * contact e-mail and phone of an event form, here), and secrets are redacted. The app's own logger
 * (server/logging.server.ts, turned on as in production) writes into a captured stream.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../features/identity/identity.tables.ts";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";

const CONTACT_EMAIL = "secret.contact@leak.example";
const CONTACT_PHONE = "+33 6 12 34 56 78";
const PASSWORD = "a password nobody may read 1";

let t: TestApp;
let output = "";
const stream = {
  write(line: string) {
    output += line;
  },
};

beforeAll(async () => {
  t = await createTestApp({ logger: { level: "info", stream } });
  // The database refuses this address: the statement inserting it fails with its parameters.
  await t.database.db.execute(
    sql.raw(
      "ALTER TABLE events ADD CONSTRAINT test_refuses_leak CHECK (contact_email IS NULL OR contact_email NOT LIKE '%@leak.example')",
    ),
  );
});
afterAll(() => t?.close());

async function verifiedMember() {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: "10.61.0.1",
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email: "logged.member@example.fr",
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      firstName: "Log",
      lastName: "Reader",
      terms: true,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().user.id as number;
  await t.database.db.update(users).set({ emailStatus: "verified" }).where(eq(users.id, id));
  const cookie = response.cookies.find((c) => c.name === "dossard_session");
  return { id, cookie: `dossard_session=${cookie?.value}` };
}

describe("logs", () => {
  it("log a failed statement without its values: no contact e-mail or phone, the SQL and the constraint kept", async () => {
    const member = await verifiedMember();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/event/0",
      remoteAddress: "10.61.0.2",
      headers: { ...accessHeaders, cookie: member.cookie, "content-type": "application/json" },
      payload: JSON.stringify({
        name: "Trail des Fuites",
        sport: "trail",
        startDate: "2026-09-12",
        endDate: "2026-09-12",
        city: "Grenoble",
        contactEmail: CONTACT_EMAIL,
        contactPhone: CONTACT_PHONE,
        courses: [{ name: "Le grand", distance: 42_000, date: "2026-09-12" }],
      }),
    });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe("GENERIC");

    // What must not be there, anywhere in the log.
    expect(output).not.toContain(CONTACT_EMAIL);
    expect(output).not.toContain("leak.example");
    expect(output).not.toContain(CONTACT_PHONE);
    expect(output).not.toContain("Trail des Fuites");
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain("logged.member@example.fr");
    const failure = output.split("\n").find((line) => line.includes("request failed"));
    expect(failure, output).toBeDefined();
    // What helps: the statement (without values), the constraint, the database's error code.
    expect(failure).toContain("insert into");
    expect(failure).toContain("test_refuses_leak");
    expect(failure).toContain("23514");
  });

  it("log requests by path: no query string, no cookie", async () => {
    output = "";
    await t.app.inject({
      method: "GET",
      url: "/api/me?token=reset-token-in-a-link",
      remoteAddress: "10.61.0.3",
      headers: { cookie: "dossard_session=a-session-token" },
    });
    expect(output).toContain('"url":"/api/me"');
    expect(output).not.toContain("reset-token-in-a-link");
    expect(output).not.toContain("a-session-token");
  });
});
