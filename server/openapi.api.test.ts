/**
 * The served OpenAPI document, judged by someone else's rules: Redocly's `recommended` ruleset
 * (@redocly/openapi-core, offline), then against the server itself: what it documents is what it
 * answers (statuses, media types, the access header).
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESS_HEADER } from "../shared/constants.ts";
import { createTestApp, type TestApp } from "../tests/api/harness.ts";

type Parameter = { in: string; name: string; required?: boolean; schema?: { enum?: string[]; pattern?: string } };
type Response = { content?: Record<string, unknown>; headers?: Record<string, unknown> };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, { format?: string }> } }> };
  responses: Record<string, Response>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

const METHODS = ["get", "post", "put", "patch", "delete"];
const WRITES = new Set(["post", "put", "patch", "delete"]);

let t: TestApp;
let doc: Document;
const operations: { method: string; path: string; op: Operation }[] = [];

beforeAll(async () => {
  // A public address Redocly accepts (it warns on localhost and example.com servers).
  t = await createTestApp({ env: { PUBLIC_URL: "https://calendrier.dossard.test" } });
  const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item))
      if (METHODS.includes(method)) operations.push({ method, path, op });
  }
});
afterAll(() => t.close());

function operation(method: string, path: string): Operation {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} is not documented`);
  return op;
}

describe("OpenAPI document", () => {
  it("passes Redocly's recommended rules: no error, and only the warnings that are the API's design", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: "/api/docs/json",
      config,
    });
    const errors = problems.filter((p) => p.severity === "error");
    expect(errors.map((p) => `${p.ruleId} ${p.message} ${p.location[0]?.pointer}`)).toEqual([]);
    const pointerOf = (p: (typeof problems)[number]) => decodeURIComponent(p.location[0]?.pointer ?? "");
    const unexplained = problems.filter((p) => {
      const pointer = pointerOf(p);
      switch (p.ruleId) {
        // The project has no licence to name.
        case "info-license":
          return false;
        // `/api/event/{id}/ics` against `/api/event/editions/{id}`: the spec's addresses; the router
        // tries static segments first and ids are digits only, so no request matches both.
        case "no-ambiguous-paths":
          return !/\{id\}/.test(p.message);
        // Routes without input (a fixed list, robots.txt): no 4xx to answer.
        case "operation-4xx-response": {
          const [, path, method] = /^#\/paths\/(.+)\/(\w+)\/responses$/.exec(pointer.replaceAll("~1", "/")) ?? [];
          const op = doc.paths[path ?? ""]?.[method ?? ""];
          return !op || Boolean(op.parameters?.length || op.requestBody);
        }
        // A route whose answer is a redirect (3xx documented).
        case "operation-2xx-response": {
          const [, path, method] = /^#\/paths\/(.+)\/(\w+)\/responses$/.exec(pointer.replaceAll("~1", "/")) ?? [];
          const op = doc.paths[path ?? ""]?.[method ?? ""];
          return !op || !Object.keys(op.responses).some((status) => status.startsWith("3"));
        }
        default:
          return true;
      }
    });
    expect(unexplained.map((p) => `${p.ruleId} ${p.message} ${pointerOf(p)}`)).toEqual([]);
  });

  it("has one unique operationId per operation and no `?` in its paths", () => {
    expect(operations.length).toBeGreaterThan(60);
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(doc.paths).filter((path) => path.includes("?"))).toEqual([]);
  });

  it("documents an optional segment as two paths, the parameter required where it is present", async () => {
    const without = operation("get", "/api/tracks");
    const withFormat = operation("get", "/api/tracks/{format}");
    expect(without.parameters?.some((p) => p.in === "path")).toBe(false);
    expect(withFormat.parameters?.find((p) => p.name === "format")).toMatchObject({ in: "path", required: true });
    // Both addresses answer as documented.
    for (const [path, url] of [
      ["/api/tracks", "/api/tracks?event=1"],
      ["/api/tracks/{format}", "/api/tracks/json?event=1"],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(Object.keys(operation("get", path).responses)).toContain("200");
    }
  });

  it("declares the access header on every /api write, with the value the server accepts", async () => {
    const writes = operations.filter(({ method, path }) => WRITES.has(method) && path.startsWith("/api/"));
    expect(writes.length).toBeGreaterThan(25);
    for (const { method, path, op } of writes) {
      const header = op.parameters?.find((p) => p.in === "header" && p.name === ACCESS_HEADER);
      expect(header, `${method} ${path}`).toMatchObject({ required: true });
      expect(op.responses["400"], `${method} ${path}`).toBeDefined();
    }
    const value = operation("post", "/api/logout").parameters?.find((p) => p.name === ACCESS_HEADER)?.schema?.enum?.[0];
    const without = await t.app.inject({ method: "POST", url: "/api/logout" });
    expect(without.statusCode).toBe(400);
    expect(without.json().error.code).toBe("MISSING_ACCESS_HEADER");
    const withIt = await t.app.inject({
      method: "POST",
      url: "/api/logout",
      headers: { [ACCESS_HEADER]: String(value) },
    });
    expect(withIt.statusCode).toBe(200);
  });

  it("documents the uploads as multipart bodies with a binary file", () => {
    for (const path of ["/api/upload/track/{id}", "/api/upload/event-photo", "/api/upload/user-photo"]) {
      const body = operation("post", path).requestBody?.content["multipart/form-data"];
      expect(body?.schema.properties?.file, path).toMatchObject({ format: "binary" });
    }
    expect(
      Object.keys(
        operation("post", "/api/upload/event-photo").requestBody?.content["multipart/form-data"]?.schema.properties ??
          {},
      ),
    ).toEqual(expect.arrayContaining(["eventId", "kind", "file"]));
  });

  it("types file answers with the media type the server sends", async () => {
    const cases: [string, string, string][] = [
      ["/api/event/{id}/ics", "/api/event/1/ics", "text/calendar"],
      ["/api/events/{format}", "/api/events/ics", "text/calendar"],
      ["/robots.txt", "/robots.txt", "text/plain"],
      ["/sitemap.xml", "/sitemap.xml", "application/xml"],
    ];
    for (const [path, url, mediaType] of cases) {
      expect(Object.keys(operation("get", path).responses["200"]?.content ?? {}), path).toContain(mediaType);
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(String(res.headers["content-type"]).split(";")[0], url).toBe(mediaType);
    }
    expect(Object.keys(operation("get", "/track/export/{id}/gpx").responses["200"]?.content ?? {})).toEqual([
      "application/gpx+xml",
    ]);
    expect(Object.keys(operation("get", "/api/events/{format}").responses["200"]?.headers ?? {})).toEqual([
      "X-Total-Count",
      "Link",
    ]);
    expect(Object.keys(operation("get", "/api/events/{format}").responses["200"]?.content ?? {})).toEqual([
      "application/json",
      "text/calendar",
    ]);
  });

  it("documents every status the routes answer a stranger, with or without the access header", async () => {
    const undocumented: string[] = [];
    for (const { method, path, op } of operations) {
      const url = path.replace(/\{(\w+)\}/g, (_all, name: string) => {
        const schema = op.parameters?.find((p) => p.in === "path" && p.name === name)?.schema;
        return schema?.enum?.[0] ?? (schema?.pattern?.includes("\\d") ? "999999" : "nothing-here");
      });
      const tries = WRITES.has(method) && path.startsWith("/api/") ? [false, true] : [true];
      for (const withHeader of tries) {
        const res = await t.app.inject({
          method: method.toUpperCase() as "GET",
          url,
          headers: withHeader && WRITES.has(method) ? { [ACCESS_HEADER]: "dossard-web-1" } : {},
          ...(WRITES.has(method) ? { payload: {} } : {}),
        });
        if (!op.responses[String(res.statusCode)]) undocumented.push(`${method} ${url} → ${res.statusCode}`);
        if (res.statusCode >= 400) expect(res.json().error.code, `${method} ${url}`).toMatch(/^[A-Z_]+$/);
      }
    }
    expect(undocumented).toEqual([]);
  });
});
