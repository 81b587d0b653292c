/**
 * Request logs: by default one line a person reads per request at LOG_LEVEL=debug (method, path,
 * status, time), only server errors at info; with LOG_FORMAT=json JSON records for log tools. Both
 * keep the path only (no query string).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";

function capture() {
  const sink = { output: "", write: (line: string) => (sink.output += line) };
  return sink;
}

describe("LOG_FORMAT=human, the default", () => {
  let t: TestApp;
  const sink = capture();
  beforeAll(async () => {
    t = await createTestApp({
      env: { NODE_ENV: "production", LOG_FORMAT: "human" },
      logger: { level: "debug", stream: sink },
    });
  });
  afterAll(() => t?.close());

  it("writes one readable line per request: method, path, status and milliseconds", async () => {
    sink.output = "";
    const ok = await t.app.inject({ method: "GET", url: "/api/sports?token=do-not-log", headers: accessHeaders });
    expect(ok.statusCode).toBe(200);
    const missing = await t.app.inject({ method: "GET", url: "/api/nowhere", headers: accessHeaders });
    expect(missing.statusCode).toBe(404);
    const lines = sink.output.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{2}:\d{2}:\d{2} GET \/api\/sports 200 \d+ ms$/);
    expect(lines[1]).toMatch(/^\d{2}:\d{2}:\d{2} GET \/api\/nowhere 404 \d+ ms$/);
    expect(sink.output).not.toContain("do-not-log");
  });

  it("shows no request at the info level, and leaves out Fastify's listening lines", async () => {
    sink.output = "";
    t.app.log.level = "info";
    try {
      await t.app.inject({ method: "GET", url: "/api/sports", headers: accessHeaders });
      await t.app.inject({ method: "GET", url: "/api/nowhere", headers: accessHeaders });
      t.app.log.info("Server listening at http://127.0.0.1:3000");
      expect(sink.output).toBe("");
    } finally {
      t.app.log.level = "debug";
    }
  });

  it("writes other messages as their level and text, an error's stack below", async () => {
    sink.output = "";
    t.app.log.warn("disk almost full");
    t.app.log.error({ err: new Error("boom") }, "job failed");
    const lines = sink.output.split("\n");
    expect(lines[0]).toMatch(/^\d{2}:\d{2}:\d{2} WARN disk almost full$/);
    expect(lines[1]).toMatch(/^\d{2}:\d{2}:\d{2} ERROR job failed$/);
    expect(lines[2]).toBe("Error: boom");
    expect(lines[3]).toMatch(/^\s+at /);
  });
});

describe("LOG_FORMAT=json", () => {
  let t: TestApp;
  const sink = capture();
  beforeAll(async () => {
    t = await createTestApp({
      env: { NODE_ENV: "production", LOG_FORMAT: "json" },
      logger: { level: "info", stream: sink },
    });
  });
  afterAll(() => t?.close());

  it("writes JSON records, the request's path without its query string", async () => {
    sink.output = "";
    await t.app.inject({ method: "GET", url: "/api/sports?token=do-not-log", headers: accessHeaders });
    const records = sink.output
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string; req?: { url: string }; res?: { statusCode: number } });
    expect(records.find((r) => r.msg === "incoming request")?.req?.url).toBe("/api/sports");
    expect(records.find((r) => r.msg === "request completed")?.res?.statusCode).toBe(200);
    expect(sink.output).not.toContain("do-not-log");
  });
});
