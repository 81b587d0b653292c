import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../tests/api/harness.ts";
import { fillUrl, routesOf, WRITE_METHODS } from "../tests/api/routes.ts";
import { countWrites } from "../tests/api/write-counter.ts";
import { EXTERNAL_CALLBACKS, normalisedPath } from "./cross-site.server.ts";

let t: TestApp;
let writes: () => Promise<number>;
beforeAll(async () => {
  t = await createTestApp();
  writes = await countWrites(t.database);
});
afterAll(() => t.close());

/** Ways to spell an /api address that a router, a proxy or a browser may read as the same one. */
const VARIANTS: [string, (path: string) => string][] = [
  ["as it is", (p) => p],
  ["an encoded letter in /api", (p) => p.replace(/^\/api\//, "/%61pi/")],
  ["every letter of api encoded", (p) => p.replace(/^\/api\//, "/%61%70%69/")],
  [
    "an encoded letter after /api/",
    (p) => p.replace(/^\/api\/(.)/, (_m, c: string) => `/api/%${c.charCodeAt(0).toString(16)}`),
  ],
  ["an encoded dot segment", (p) => p.replace(/^\/api\//, "/api/%2e/")],
  ["a dot segment", (p) => p.replace(/^\/api\//, "/api/./")],
  ["a parent segment", (p) => p.replace(/^\/api\//, "/x/../api/")],
  ["a double slash in front", (p) => `/${p}`],
  ["a double slash after /api", (p) => p.replace(/^\/api\//, "/api//")],
  ["an encoded slash", (p) => p.replace(/^\/api\//, "/api%2F")],
  ["a backslash", (p) => p.replace(/^\/api\//, "/api\\")],
  ["upper case", (p) => p.replace(/^\/api\//, "/API/")],
  ["mixed case", (p) => p.replace(/^\/api\//, "/Api/")],
  ["a trailing slash", (p) => `${p}/`],
  ["a query string", (p) => `${p}?x=1`],
];

describe("the access header on every API write", () => {
  // Writes another service makes (Strava's push events) prove their sender otherwise: see below.
  const writeRoutes = () =>
    routesOf(t.app).filter(
      (route) =>
        WRITE_METHODS.has(route.method) &&
        route.url.startsWith("/api/") &&
        !EXTERNAL_CALLBACKS.has(`${route.method} ${route.url}`),
    );

  it("lets only Strava's push events in without it, and they still refuse what Strava would not send", async () => {
    expect([...EXTERNAL_CALLBACKS].filter((callback) => callback.includes(" /api/"))).toEqual([
      "POST /api/strava/webhook",
    ]);
    const before = await writes();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/strava/webhook",
      payload: { email: "x@example.fr", password: "password-123" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).not.toBe("MISSING_ACCESS_HEADER");
    expect(await writes()).toBe(before);
  });

  it("finds the write routes in the app's route table", () => {
    const urls = writeRoutes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining(["POST /api/register", "POST /api/upload/track/:id", "DELETE /api/upload/file"]),
    );
    expect(urls.length).toBeGreaterThan(25);
  });

  it("refuses each of them, however the address is spelled, and nothing is written", async () => {
    const before = await writes();
    const passed: string[] = [];
    for (const route of writeRoutes()) {
      const path = fillUrl(route.url, (name, optional) => (optional ? undefined : name === "type" ? "profile" : "1"));
      for (const [how, spell] of VARIANTS) {
        const url = spell(path);
        const response = await t.app.inject({
          method: route.method as "POST",
          url,
          payload: { email: "x@example.fr", password: "password-123" },
        });
        const code = response.json().error?.code;
        // Either refused for the missing header, or no route at all (nothing ran).
        if (!(response.statusCode === 400 && code === "MISSING_ACCESS_HEADER") && response.statusCode !== 404) {
          passed.push(`${route.method} ${url} (${how}): ${response.statusCode} ${code ?? ""}`);
        }
      }
    }
    expect(passed).toEqual([]);
    expect(await writes()).toBe(before);
  });

  it("judges encoded addresses the router matches by the route, not the raw URL", async () => {
    const response = await t.app.inject({ method: "POST", url: "/%61pi/register", payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("MISSING_ACCESS_HEADER");
  });

  it.each([
    ["/%61pi/register", "/api/register"],
    ["/api/%2e/register", "/api/register"],
    ["/x/..//API//register?y", "/api/register"],
    ["/api\\register", "/api/register"],
    ["/%E0%A4%A", "/%e0%a4%a"],
  ])("normalises %s to %s", (url, expected) => {
    expect(normalisedPath(url)).toBe(expected);
  });
});
