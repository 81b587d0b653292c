import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../platform/db/rows.server.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { recordEventHistory } from "../events/event-history.server.ts";
import { logFiles } from "./log-file.server.ts";
import type { AppLogsPage, EventLogsPage } from "./logs.contract.ts";

/**
 * The admin's logs against the truth: the requests made here are the lines in the log file, with
 * their request id and member, and nothing secret in it; the event logs are the history lines
 * written, with their event and member. Admins only.
 */
let t: TestApp;
let dataDir: string;
let admin: { id: number; cookie: string };
let member: { id: number; cookie: string };
const consoleOut = { text: "", write: (line: string) => (consoleOut.text += line) };

const asAdmin = () => ({ ...accessHeaders, cookie: admin.cookie });

async function appLogs(query: string): Promise<AppLogsPage> {
  const response = await t.app.inject({ method: "GET", url: `/api/admin/logs?${query}`, headers: asAdmin() });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers["cache-control"]).toBe("private, no-store");
  return response.json();
}

async function eventLogs(query: string): Promise<EventLogsPage> {
  const response = await t.app.inject({ method: "GET", url: `/api/admin/event-logs?${query}`, headers: asAdmin() });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Everything the log files hold, oldest file first. */
const fileText = () =>
  logFiles(path.join(dataDir, "logs"))
    .reverse()
    .map((file) => fs.readFileSync(file, "utf8"))
    .join("");

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-logs-api-"));
  t = await createTestApp({
    env: { DATA_DIR: dataDir, LOG_FORMAT: "json", LOG_FILE_SIZE_MB: "1", LOG_FILE_COUNT: "3" },
    logger: { level: "info", stream: consoleOut },
  });
  [admin, member] = await Promise.all([
    testMember(t, { role: "admin", firstName: "Adeline" }),
    testMember(t, { firstName: "Journaliste" }),
  ]);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the application log on disk", () => {
  it("keeps a line per request and the server's records, never a password, code, token, cookie or authorization", async () => {
    const login = await t.app.inject({
      method: "POST",
      url: "/api/login?code=CODE-IN-QUERY",
      headers: { ...accessHeaders, "content-type": "application/json", authorization: "Bearer AUTH-IN-HEADER" },
      payload: JSON.stringify({ email: "nobody.logs@example.fr", password: "PASSWORD-IN-BODY" }),
    });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    const sports = await t.app.inject({
      method: "GET",
      url: "/api/sports?token=TOKEN-IN-QUERY",
      headers: { ...accessHeaders, cookie: `${member.cookie}; other=COOKIE-IN-HEADER` },
    });
    expect(sports.statusCode).toBe(200);
    const verify = await t.app.inject({
      method: "POST",
      url: "/api/user/verify-account",
      headers: { ...accessHeaders, "content-type": "application/json", cookie: member.cookie },
      payload: JSON.stringify({ code: "CODE-IN-BODY" }),
    });
    expect(verify.statusCode).toBeGreaterThanOrEqual(400);
    await t.app.inject({ method: "GET", url: "/installation/SETUP-TOKEN-IN-PATH", headers: accessHeaders });
    // What a careless log call would carry, through the server's logger.
    t.app.log.warn(
      {
        password: "PASSWORD-IN-RECORD",
        token: "TOKEN-IN-RECORD",
        body: { code: "CODE-IN-RECORD" },
        headers: { authorization: "AUTH-IN-RECORD", cookie: "COOKIE-IN-RECORD" },
        user: { refreshToken: "REFRESH-IN-RECORD" },
      },
      "a record with secrets",
    );

    const text = fileText();
    for (const secret of [
      "CODE-IN-QUERY",
      "AUTH-IN-HEADER",
      "PASSWORD-IN-BODY",
      "TOKEN-IN-QUERY",
      "COOKIE-IN-HEADER",
      member.cookie.split("=")[1] as string,
      "CODE-IN-BODY",
      "SETUP-TOKEN-IN-PATH",
      "PASSWORD-IN-RECORD",
      "TOKEN-IN-RECORD",
      "CODE-IN-RECORD",
      "AUTH-IN-RECORD",
      "COOKIE-IN-RECORD",
      "REFRESH-IN-RECORD",
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const careless = lines.find((line) => line.msg === "a record with secrets");
    expect(careless).toMatchObject({ level: 40, password: "[redacted]", headers: { authorization: "[redacted]" } });
    // One line per request: level, time, method, route, path, status, milliseconds, request id, and
    // the member when the request looked them up (a public read never does).
    const sportsLine = lines.find((line) => (line.request as { path?: string })?.path === "/api/sports");
    expect(sportsLine).toMatchObject({
      level: 30,
      msg: "request",
      request: { method: "GET", route: "/api/sports", path: "/api/sports", status: 200 },
    });
    expect(sportsLine?.userId).toBeUndefined();
    const verifyLine = lines.find((line) => (line.request as { path?: string })?.path === "/api/user/verify-account");
    expect(verifyLine).toMatchObject({ userId: member.id, request: { method: "POST", status: verify.statusCode } });
    expect(typeof sportsLine?.time).toBe("number");
    expect(sportsLine?.reqId).toMatch(/^[0-9a-f]{16}$/);
    expect(typeof (sportsLine?.request as { ms?: unknown } | undefined)?.ms).toBe("number");
    expect(
      lines.find((line) => String((line.request as { path?: string })?.path).startsWith("/installation/")),
    ).toMatchObject({
      request: { path: "/installation/[redacted]", status: 404 },
    });
    // Fastify's own two records per request stay on the console only.
    expect(lines.some((line) => line.msg === "incoming request" || line.msg === "request completed")).toBe(false);
    expect(consoleOut.text).toContain('"msg":"incoming request"');
  });

  it("finds records by route, member, request id, level and text, newest first", async () => {
    const me = await t.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { ...accessHeaders, cookie: member.cookie },
    });
    expect(me.statusCode).toBe(200);
    t.app.log.error({ err: new Error("boom in a job") }, "a job failed");

    const byRoute = await appLogs("route=/api/me");
    expect(byRoute.records.length).toBeGreaterThan(0);
    expect(byRoute.records.every((r) => r.request?.path.includes("/api/me"))).toBe(true);
    const mine = byRoute.records[0];
    expect(mine?.userId).toBe(member.id);
    expect(mine?.request).toMatchObject({ method: "GET", route: "/api/me", status: 200 });

    const byMember = await appLogs(`userId=${member.id}`);
    expect(byMember.records.length).toBeGreaterThanOrEqual(2);
    expect(byMember.records.every((r) => r.userId === member.id)).toBe(true);
    const times = byMember.records.map((r) => Date.parse(r.time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const byRequest = await appLogs(`requestId=${mine?.requestId}`);
    expect(byRequest.records.map((r) => r.request?.path)).toEqual(["/api/me"]);

    const errors = await appLogs("level=error");
    expect(errors.records.map((r) => r.message)).toContain("a job failed");
    expect(errors.records.every((r) => r.level === "error" || r.level === "fatal")).toBe(true);
    const failed = errors.records.find((r) => r.message === "a job failed");
    expect(failed?.error).toMatchObject({ type: "Error", message: "boom in a job" });

    const byText = await appLogs(`q=${encodeURIComponent("RECORD WITH SECRETS")}`);
    expect(byText.records.map((r) => r.message)).toEqual(["a record with secrets"]);
    expect(byText.records[0]?.details).toMatchObject({ password: "[redacted]", token: "[redacted]" });
  });

  it("narrows to a time range (French time) and pages by 50", async () => {
    for (let i = 0; i < 55; i++) {
      await t.app.inject({ method: "GET", url: `/api/sports?page-test=${i}`, headers: accessHeaders });
    }
    const first = await appLogs("route=sports");
    expect(first.records).toHaveLength(50);
    expect(first.hasMore).toBe(true);
    expect(first.pageSize).toBe(50);
    const second = await appLogs("route=sports&page=2");
    expect(second.records.length).toBeGreaterThanOrEqual(6);
    expect(second.page).toBe(2);
    expect(Date.parse(second.records[0]?.time ?? "")).toBeLessThanOrEqual(Date.parse(first.records[49]?.time ?? ""));

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await appLogs(`route=sports&from=${today}&to=${today}`)).records).toHaveLength(50);
    expect((await appLogs(`route=sports&from=${tomorrow}`)).records).toEqual([]);
    expect((await appLogs(`route=sports&to=${yesterday}`)).records).toEqual([]);
    const inAMinute = (await appLogs(`route=sports&from=${today}T00:00&to=${tomorrow}T00:00`)).records;
    expect(inAMinute).toHaveLength(50);
    expect(first.kept.files).toBeGreaterThanOrEqual(1);
    expect(first.kept.bytes).toBeGreaterThan(0);
  });

  it("refuses a bad filter with 400", async () => {
    for (const query of ["level=loud", "from=yesterday", "page=0", "userId=abc"]) {
      const response = await t.app.inject({ method: "GET", url: `/api/admin/logs?${query}`, headers: asAdmin() });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe("the event logs", () => {
  let event: { id: number; name: string; slug: string };

  beforeAll(async () => {
    const [found] = await rows<{ id: number; name: string; slug: string }>(
      t.database.db,
      sql`SELECT id, name, slug FROM events WHERE status = 'active' ORDER BY id LIMIT 1`,
    );
    if (!found) throw new Error("no event");
    // Its history is the three lines below only.
    await t.database.db.execute(sql`DELETE FROM event_history WHERE event_id = ${found.id}`);
    const name = `Trail des Journaux ${process.pid}`;
    await t.database.db.execute(sql`UPDATE events SET name = ${name} WHERE id = ${found.id}`);
    event = { ...found, name };
    const at = (day: string) => new Date(`${day}T10:00:00Z`);
    await recordEventHistory(t.database.db, {
      eventId: event.id,
      type: "modification",
      userId: member.id,
      data: { access: "owner", fields: ["name", "startDate"] },
      createdAt: at("2026-01-10"),
    });
    await recordEventHistory(t.database.db, {
      eventId: event.id,
      type: "postponement",
      userId: admin.id,
      data: { from: "2026-05-01", to: "2026-06-01" },
      createdAt: at("2026-02-10"),
    });
    await recordEventHistory(t.database.db, {
      eventId: event.id,
      type: "organizer_validation_sent",
      userId: member.id,
      data: { recipient: "given", email: "someone@example.fr" },
      createdAt: at("2026-03-10"),
    });
  });

  it("lists every event's history newest first, with the event, the member and what changed", async () => {
    const page = await eventLogs(`event=${encodeURIComponent("trail des journaux")}`);
    expect(page.total).toBe(3);
    expect(page.entries.map((e) => e.type)).toEqual(["organizer_validation_sent", "postponement", "modification"]);
    const [claim, postponed, modified] = page.entries;
    expect(postponed).toMatchObject({
      event: { id: event.id, name: event.name, slug: event.slug },
      member: { id: admin.id, name: "Adeline Martin" },
      data: { from: "2026-05-01", to: "2026-06-01" },
      at: "2026-02-10T10:00:00.000Z",
    });
    expect(modified?.data).toEqual({ access: "owner", fields: ["name", "startDate"] });
    // No e-mail address in any line.
    expect(claim?.data).toEqual({ recipient: "given" });
    expect(JSON.stringify(page)).not.toContain("someone@example.fr");
  });

  it("filters by member, kind of change and days, and pages", async () => {
    const eventFilter = `event=${encodeURIComponent("Journaux")}`;
    expect((await eventLogs(`${eventFilter}&member=journaliste`)).entries.map((e) => e.type)).toEqual([
      "organizer_validation_sent",
      "modification",
    ]);
    expect((await eventLogs(`${eventFilter}&member=${admin.id}`)).entries.map((e) => e.type)).toEqual(["postponement"]);
    expect((await eventLogs(`${eventFilter}&type=modification`)).entries.map((e) => e.type)).toEqual(["modification"]);
    const february = await eventLogs(`${eventFilter}&from=2026-02-01&to=2026-02-10`);
    expect(february.entries.map((e) => e.type)).toEqual(["postponement"]);
    expect((await eventLogs(`${eventFilter}&from=2026-03-11`)).total).toBe(0);
    const beyond = await eventLogs(`${eventFilter}&page=2`);
    expect(beyond.entries).toEqual([]);
    expect(beyond.total).toBe(3);
    const everything = await eventLogs("");
    expect(everything.pageSize).toBe(50);
    expect(everything.total).toBeGreaterThanOrEqual(3);
  });
});

describe("who may read the logs", () => {
  it("answers 403 to a member and 401 to a visitor", async () => {
    for (const url of ["/api/admin/logs", "/api/admin/event-logs"]) {
      const asMember = await t.app.inject({ method: "GET", url, headers: { ...accessHeaders, cookie: member.cookie } });
      expect(asMember.statusCode, url).toBe(403);
      const anonymous = await t.app.inject({ method: "GET", url, headers: accessHeaders });
      expect(anonymous.statusCode, url).toBe(401);
    }
  });
});
