import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import type { City } from "./geo.contract.ts";
import { cityQuerySlug } from "./geo.service.server.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
const post = (url: string, payload: unknown, headers: Record<string, string> = accessHeaders) =>
  t.app.inject({ method: "POST", url, payload: payload as object, headers });

async function findCity(q: string, limit?: number): Promise<City[]> {
  const res = await post("/api/find-city", limit ? { q, limit } : { q });
  expect(res.statusCode).toBe(200);
  return res.json().cities;
}

describe("helpers", () => {
  it("turns typed names into slugs, expanding St and Ste", () => {
    expect(cityQuerySlug("St Étienne")).toBe("saint-etienne");
    expect(cityQuerySlug("ste-foy-lès-lyon")).toBe("sainte-foy-les-lyon");
    expect(cityQuerySlug("  L'Haÿ ")).toBe("l-hay");
  });
});

describe("reference lists", () => {
  it("lists the regions by name with codes and slugs", async () => {
    const res = await get("/api/regions");
    expect(res.statusCode).toBe(200);
    const { regions } = res.json();
    expect(regions.length).toBe(18);
    expect(regions).toContainEqual({ code: "84", name: "Auvergne-Rhône-Alpes", slug: "auvergne-rhone-alpes" });
    const names = regions.map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "fr")));
  });

  it("lists every department, or a region's by code or slug", async () => {
    const all = (await get("/api/departments")).json().departments;
    expect(all.length).toBe(101);
    expect(all.map((d: { code: string }) => d.code)).toEqual(expect.arrayContaining(["01", "2A", "2B", "974"]));
    const byCode = (await get("/api/departments?region=84")).json().departments;
    const bySlug = (await get("/api/departments?region=auvergne-rhone-alpes")).json().departments;
    expect(byCode).toHaveLength(12);
    expect(bySlug).toEqual(byCode);
    expect(byCode.every((d: { regionCode: string }) => d.regionCode === "84")).toBe(true);
    expect(byCode).toContainEqual({ code: "38", name: "Isère", slug: "isere", regionCode: "84" });
  });

  it("refuses an unknown region with a 400 naming it", async () => {
    const res = await get("/api/departments?region=atlantis");
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "BAD_REQUEST", field: "region" });
  });

  it("names and sorts the countries in the caller's language", async () => {
    const fr = (await get("/api/countries")).json().countries;
    const en = (await get("/api/countries", { "accept-language": "en" })).json().countries;
    expect(fr.length).toBeGreaterThan(240);
    expect(fr).toContainEqual({ code: "DE", name: "Allemagne" });
    expect(en).toContainEqual({ code: "DE", name: "Germany" });
    expect((await get("/api/countries?_locale=en")).json().countries).toEqual(en);
    const frNames = fr.map((c: { name: string }) => c.name);
    expect(frNames).toEqual([...frNames].sort(new Intl.Collator("fr").compare));
  });
});

describe("POST /api/find-city", () => {
  it("finds Saint-Étienne first however it is typed", async () => {
    for (const q of ["saint etienne", "Saint-Étienne", "SAINT ETIENNE", "st etienne", "saint-eti"]) {
      const cities = await findCity(q);
      expect(cities[0], q).toMatchObject({
        code: "42218",
        name: "Saint-Étienne",
        departmentCode: "42",
        departmentName: "Loire",
      });
    }
    const [first] = await findCity("saint etienne");
    expect(first.postalCodes).toEqual(expect.arrayContaining(["42000", "42100"]));
    expect(first.lat).toBeCloseTo(45.43, 1);
    expect(first.lng).toBeCloseTo(4.39, 1);
  });

  it("ranks the other matches by relevance then population", async () => {
    const cities = await findCity("saint etienne", 10);
    expect(cities).toHaveLength(10);
    const rest = cities.slice(1);
    expect(rest.every((c) => c.slug.startsWith("saint-etienne-"))).toBe(true);
    const populations = rest.map((c) => c.population);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
  });

  it("tolerates a typo", async () => {
    expect((await findCity("grenble"))[0]).toMatchObject({ code: "38185", name: "Grenoble" });
    expect((await findCity("Clermont Ferand"))[0]).toMatchObject({ name: "Clermont-Ferrand" });
  });

  it("finds communes by postal code or its first digits", async () => {
    expect((await findCity("38000"))[0]).toMatchObject({ code: "38185", name: "Grenoble" });
    const prefix = await findCity("380", 5);
    expect(prefix[0].name).toBe("Grenoble");
    expect(prefix.every((c) => c.postalCodes.some((p) => p.startsWith("380")))).toBe(true);
    // Postal code and name together.
    expect((await findCity("69001 Lyon"))[0]).toMatchObject({ name: "Lyon" });
    // A full INSEE code.
    expect((await findCity("38185"))[0]).toMatchObject({ name: "Grenoble" });
  });

  it("honours the limit and answers nothing for nonsense", async () => {
    expect(await findCity("saint", 3)).toHaveLength(3);
    expect(await findCity("zzzzqqqq")).toEqual([]);
    expect(await findCity("%_\\'")).toEqual([]);
  });

  it("refuses bad bodies with a 400 naming the field, and writes without the access header", async () => {
    for (const [body, field] of [
      [{ q: "" }, "q"],
      [{}, "q"],
      [{ q: "x".repeat(101) }, "q"],
      [{ q: "lyon", limit: 500 }, "limit"],
      [{ q: "lyon", limit: "many" }, "limit"],
    ] as const) {
      const res = await post("/api/find-city", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ code: "BAD_REQUEST", field });
    }
    const noHeader = await post("/api/find-city", { q: "lyon" }, {});
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json().error.code).toBe("MISSING_ACCESS_HEADER");
  });

  it("answers the next query after a trigram search (no hang)", async () => {
    await findCity("grenble");
    const started = Date.now();
    const res = await get("/api/regions");
    expect(res.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("POST /api/geocode-location", () => {
  it("names the commune nearest to coordinates", async () => {
    const res = await post("/api/geocode-location", { lat: 45.1885, lng: 5.7245 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.city).toMatchObject({ code: "38185", name: "Grenoble", departmentCode: "38" });
    expect(body.distanceKm).toBeLessThan(3);
  });

  it("agrees with a direct query for the nearest commune centre", async () => {
    const point = { lat: 44.5, lng: 4.3 };
    const direct = (await t.database.db.execute(
      sql`SELECT code FROM communes
          ORDER BY earth_distance(ll_to_earth(${point.lat}, ${point.lng}), ll_to_earth(lat, lng)) LIMIT 1`,
    )) as unknown as { rows: { code: string }[] };
    const res = await post("/api/geocode-location", point);
    expect(res.json().city.code).toBe(direct.rows[0]?.code);
  });

  it("answers ITEM_NOT_FOUND far from France", async () => {
    const res = await post("/api/geocode-location", { lat: 40, lng: -30 });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("ITEM_NOT_FOUND");
    const en = await post("/api/geocode-location", { lat: 0, lng: 0 }, { ...accessHeaders, "x-locale": "en" });
    expect(en.statusCode).toBe(404);
    expect(en.json().error.message).toMatch(/not found/i);
  });

  it("refuses bad coordinates with a 400 naming the field", async () => {
    for (const [body, field] of [
      [{ lat: 100, lng: 5 }, "lat"],
      [{ lat: 45 }, "lng"],
      [{ lat: "north", lng: 5 }, "lat"],
      [{ lat: 45, lng: 200 }, "lng"],
    ] as const) {
      const res = await post("/api/geocode-location", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatchObject({ code: "BAD_REQUEST", field });
    }
  });
});
