import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../app/context.ts";
import { loader as homeLoader } from "../../app/routes/home.tsx";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import type { SearchQuery } from "./search.contract.ts";

/**
 * The search box's words against the real reference data (every commune, department and region of
 * the seeded database) and the home page's loader, as React Router calls it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const TODAY = "2026-11-24";

async function interpret(q: string, rest: SearchQuery = {}) {
  const found = await t.app.services.searchText.interpret({ q, ...rest }, TODAY);
  return found?.query ?? null;
}

describe("search text read as filters", () => {
  it.each<[string, SearchQuery]>([
    ["trail annecy", { sport: ["trail"], place: "74010" }],
    ["marathon lyon octobre", { sport: ["marathon"], place: "69123", from: "2027-10-01", to: "2027-10-31" }],
    ["10 km nantes", { distance: ["10k"], place: "44109" }],
    ["trail à Annecy en juin", { sport: ["trail"], place: "74010", from: "2027-06-01", to: "2027-06-30" }],
    [
      "semi marathn bordeaux en mars",
      { sport: ["half_marathon"], place: "33063", from: "2027-03-01", to: "2027-03-31" },
    ],
    ["trial anecy", { sport: ["trail"], place: "74010" }],
    ["course la rochelle", { sport: ["running"], place: "17300" }],
    ["Saint-Étienne", { place: "42218" }],
    ["trail haute savoie", { sport: ["trail"], department: "74" }],
    ["vtt bretagne", { sport: ["mtb"], region: "53" }],
    ["paris", { place: "75056" }],
  ])("%s", async (q, expected) => {
    expect(await interpret(q)).toEqual(expected);
  });

  it("reads a postal code as its town, and a distance right after it as the radius", async () => {
    expect(await interpret("74000")).toEqual({ place: "74010" });
    expect(await interpret("38000 20 km")).toEqual({ place: "38185", radius: 20 });
    const cross = await interpret("cross près de 69003");
    expect(cross).toMatchObject({ place: "69123" });
    expect(cross?.q ?? "").not.toMatch(/\d|près/);
    // A distance elsewhere in the text is still a course's distance.
    expect(await interpret("10 km 44000")).toEqual({ distance: ["10k"], place: "44109" });
    // Five digits that are no postal code stay text.
    expect(await interpret("99999")).toBeNull();
  });

  it("keeps the words that are not filters as text", async () => {
    expect(await interpret("trail des aiguilles rouges")).toEqual({ sport: ["trail"], q: "aiguilles rouges" });
    expect(await interpret("foulées de la plage annecy")).toEqual({ q: "foulées de la plage", place: "74010" });
  });

  it("leaves a text with nothing to read alone", async () => {
    expect(await interpret("foulées des remparts")).toBeNull();
  });

  it("replaces the same filters of the current search and keeps the others", async () => {
    expect(await interpret("lyon", { place: "74010", radius: 50, sport: ["trail"], page: 3 })).toEqual({
      sport: ["trail"],
      place: "69123",
      radius: 50,
    });
    expect(await interpret("savoie", { region: "84", elevation: ["500-1000"] })).toEqual({
      department: "73",
      elevation: ["500-1000"],
    });
  });
});

describe("the home page's loader", () => {
  function load(path: string) {
    const context = {
      services: t.app.services,
      config: { PUBLIC_URL: "http://localhost", MAP_STYLE_URL: "" },
      user: null,
    } as unknown as AppContext;
    const request = new Request(`http://localhost${path}`);
    return homeLoader({ request, context, params: {}, unstable_pattern: "" } as never);
  }

  async function redirectOf(path: string): Promise<string | null> {
    try {
      await load(path);
      return null;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.headers.get("location");
      throw thrown;
    }
  }

  it("redirects a search whose words name filters to that search, with the words as typed", async () => {
    const location = await redirectOf("/?q=trail+annecy");
    expect(location).not.toBeNull();
    const url = new URL(location as string, "http://localhost");
    expect(url.pathname).toBe("/");
    expect(Object.fromEntries(url.searchParams)).toEqual({ sport: "trail", place: "74010", typed: "trail annecy" });
    // The English page stays English.
    expect(await redirectOf("/en?q=marathon+lyon")).toMatch(/^\/en\?sport=marathon&place=69123&typed=/);
  });

  it("shows the words as typed beside the search they became, and searches them as typed on request", async () => {
    const data = await load("/?sport=trail&place=74010&typed=trail+annecy");
    expect(data).toMatchObject({ typed: "trail annecy", query: { sport: ["trail"], place: "74010" } });
    expect(await redirectOf("/?q=trail+annecy&literal=1")).toBeNull();
    const literal = await load("/?q=trail+annecy&literal=1");
    expect(literal).toMatchObject({ query: { q: "trail annecy", literal: true } });
  });

  it("offers the nearest broader search that finds races when nothing matches", async () => {
    const data = (await load("/?q=zzqxw&sport=trail")) as { result: { total: number }; broader: unknown };
    expect(data.result.total).toBe(0);
    expect(data.broader).toMatchObject({ changes: ["text"], query: { sport: ["trail"] } });
    expect((data.broader as { count: number }).count).toBeGreaterThan(0);
    // Nothing one step away: the steps add up (no such word, and no trail around Annecy on those days).
    const trail = (await t.app.inject({ url: "/api/events?sport=trail&perPage=1" }).then((r) => r.json())) as {
      items: { departmentCode: string }[];
    };
    const department = trail.items[0].departmentCode;
    const far = (await load(`/?q=zzqxw&sport=trail&department=${department}&from=2035-01-01&to=2035-01-02`)) as {
      broader: unknown;
    };
    expect(far.broader).toMatchObject({ changes: ["text", "dates"], query: { sport: ["trail"], department } });
  });
});
