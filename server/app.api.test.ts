import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("server basics", () => {
  it("answers /healthz once the database is up", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("serves the OpenAPI document with the API routes", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/sports", "/api/locale/{_locale}"]));
  });

  it("sends security headers with a content security policy", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/sports" });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    // Scripts come from the site; pages add their inline scripts' hashes (tests/e2e/http-cache).
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval)/);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    // Pages keep their Origin on their own form posts (React Router refuses "Origin: null").
    expect(res.headers["referrer-policy"]).toBe("same-origin");
  });
});

describe("access header", () => {
  it("rejects an /api write without the secure-access header, in the caller's language", async () => {
    const fr = await t.app.inject({ method: "POST", url: "/api/anything", payload: {} });
    expect(fr.statusCode).toBe(400);
    expect(fr.json()).toEqual({
      error: { code: "MISSING_ACCESS_HEADER", message: "Requête refusée : en-tête d'accès manquant." },
    });
    const en = await t.app.inject({
      method: "POST",
      url: "/api/anything",
      payload: {},
      headers: { "accept-language": "en-GB,en;q=0.9" },
    });
    expect(en.json().error.message).toBe("Request refused: missing access header.");
  });

  it("lets a write with the header through to routing (an unknown route is then a 404)", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/anything", payload: {}, headers: accessHeaders });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
    expect(res.json().error.message).toBe("Cette page n'existe pas.");
  });

  it("does not require the header for reads", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/sports" });
    expect(res.statusCode).toBe(200);
  });
});

describe("reference routes", () => {
  it("lists the spec's eleven sports with both names and slugs", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/sports" });
    const { sports } = res.json();
    expect(sports.map((s: { key: string }) => s.key)).toEqual([
      "running",
      "trail",
      "triathlon",
      "mtb",
      "swimrun",
      "cycling",
      "ironman",
      "marathon",
      "half_marathon",
      "short_trail",
      "ultra_trail",
    ]);
    expect(sports.find((s: { key: string }) => s.key === "half_marathon")).toMatchObject({
      nameFr: "Semi-marathon",
      nameEn: "Half marathon",
      slugFr: "semi-marathon",
      parentKey: "running",
    });
  });

  it("serves a language bundle and refuses an unknown language with a translated 400", async () => {
    const en = await t.app.inject({ method: "GET", url: "/api/locale/en" });
    expect(en.statusCode).toBe(200);
    expect(en.json().common.errors.generic).toBe("Something went wrong, please try again.");
    const bad = await t.app.inject({ method: "GET", url: "/api/locale/de" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: "BAD_REQUEST", field: "_locale" });
  });

  it("lists upcoming demo events soonest first", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/events_group/upcoming?limit=5" });
    expect(res.statusCode).toBe(200);
    const { events } = res.json();
    expect(events).toHaveLength(5);
    const dates = events.map((e: { startDate: string }) => e.startDate);
    expect([...dates].sort()).toEqual(dates);
    expect(dates[0] >= "2026-06-01").toBe(true);
    const tooMany = await t.app.inject({ method: "GET", url: "/api/events_group/upcoming?limit=5000" });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.field).toBe("limit");
  });
});

describe("compression", () => {
  it("compresses JSON for clients that accept it and leaves it plain otherwise", async () => {
    const br = await t.app.inject({ method: "GET", url: "/api/locale/fr", headers: { "accept-encoding": "br, gzip" } });
    expect(br.headers["content-encoding"]).toBe("br");
    const plain = await t.app.inject({ method: "GET", url: "/api/locale/fr" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.json().common.siteName).toBe("Dossard");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });
});
