import { describe, expect, it } from "vitest";
import { DEFAULT_PER_PAGE, DISTANCE_SHORTCUT_KEYS, MAX_RADIUS_KM, searchQuerySchema } from "./search.contract.ts";
import {
  countSearchFilters,
  DEFAULT_PAGE_SIZE,
  DEFAULT_RADIUS,
  DISTANCE_KEYS,
  hasPlace,
  hasSearchFilters,
  normalizeSearchQuery,
  parseSearchParams,
  RADIUS_CHOICES,
  searchHref,
  searchParamsOf,
  searchQueryString,
  updateSearchQuery,
  withoutField,
} from "./search-url.ts";

describe("searchQueryString (canonical URL of a search)", () => {
  it("writes keys in a fixed order with readable comma lists", () => {
    expect(
      searchQueryString({
        from: "2026-06-01",
        region: "84",
        sport: ["ultra_trail", "trail"],
        q: "lac",
        to: "2026-06-30",
      }),
    ).toBe("q=lac&sport=trail,ultra_trail&region=84&from=2026-06-01&to=2026-06-30");
  });

  it("drops defaults and empty values", () => {
    expect(
      searchQueryString({
        q: "  ",
        sport: [],
        page: 1,
        perPage: 24,
        sort: "oldest",
        cancelled: false,
        past: false,
      }),
    ).toBe("");
    expect(searchQueryString({ page: 3, sort: "newest", cancelled: true, perPage: 12 })).toBe(
      "cancelled=1&sort=newest&page=3&perPage=12",
    );
  });

  it("deduplicates list values and orders them like the catalogue", () => {
    expect(
      searchQueryString({
        elevation: ["gt10000", "lt100", "lt100"],
        distance: ["ultra", "5k"],
        scope: ["local", "national"],
      }),
    ).toBe("distance=5k,ultra&elevation=lt100,gt10000&scope=national,local");
  });

  it("adds the view last unless it is the default grid", () => {
    expect(searchQueryString({ sport: ["trail"] }, "map")).toBe("sport=trail&view=map");
    expect(searchQueryString({ sport: ["trail"] }, "grid")).toBe("sport=trail");
    expect(searchQueryString({}, "list")).toBe("view=list");
  });

  it("encodes text safely", () => {
    const search = searchQueryString({ q: "Saint-Étienne & co" });
    expect(new URLSearchParams(search).get("q")).toBe("Saint-Étienne & co");
  });

  it("gives the same URL for the same filters in any order", () => {
    const a = searchHref("/", { region: "84", sport: ["trail", "running"], page: 2 });
    const b = searchHref("/", { page: 2, sport: ["running", "trail"], region: "84" });
    expect(a).toBe(b);
    expect(a).toBe("/?sport=running,trail&region=84&page=2");
    expect(searchHref("/en", {})).toBe("/en");
  });

  it("searchParamsOf gives URLSearchParams with comma lists", () => {
    const params = searchParamsOf({ sport: ["trail", "ultra_trail"], radius: 30, place: "38185" });
    expect(params.get("sport")).toBe("trail,ultra_trail");
    expect([...params.keys()]).toEqual(["sport", "place", "radius"]);
  });
});

const parse = (input: Parameters<typeof parseSearchParams>[0]) => parseSearchParams(input, searchQuerySchema.shape);

describe("parseSearchParams", () => {
  it("reads comma lists and repeated keys (a plain HTML form sends those)", () => {
    expect(parse("?sport=trail,ultra_trail&region=84").query).toEqual({
      sport: ["trail", "ultra_trail"],
      region: "84",
    });
    expect(parse("sport=ultra_trail&sport=trail&elevation=lt100").query).toEqual({
      sport: ["trail", "ultra_trail"],
      elevation: ["lt100"],
    });
  });

  it("coerces numbers and booleans and drops defaults", () => {
    const { query, invalid } = parse("place=38185&radius=50&page=1&cancelled=1&past=0&sort=oldest&lat=45.1&lng=5.7");
    expect(query).toEqual({ place: "38185", radius: 50, cancelled: true, lat: 45.1, lng: 5.7 });
    expect(invalid).toEqual([]);
  });

  it("drops only the bad fields and names them", () => {
    const { query, invalid } = parse(
      `sport=trail,curling&region=84&from=2026-02-30&radius=${MAX_RADIUS_KM + 1}&page=zero&q=lac`,
    );
    expect(query).toEqual({ region: "84", q: "lac" });
    expect(invalid).toEqual(["sport", "radius", "from", "page"]);
  });

  it("ignores empty values from a submitted form", () => {
    const { query, invalid } = parse("q=&sport=&region=&department=&place=&radius=30&from=&to=");
    expect(query).toEqual({ radius: 30 });
    expect(invalid).toEqual([]);
  });

  it("keeps the last value of a single-valued field given twice", () => {
    expect(parse("region=84&region=93").query).toEqual({ region: "93" });
  });

  it("reads the view and falls back to the grid", () => {
    expect(parse("view=map").view).toBe("map");
    expect(parse("view=list").view).toBe("list");
    expect(parse("view=globe").view).toBe("grid");
    expect(parse("").view).toBe("grid");
  });

  it("accepts a parsed query object (a loader's parseQuery output)", () => {
    expect(parse({ sport: ["trail", "running"], page: "2" }).query).toEqual({
      sport: ["running", "trail"],
      page: 2,
    });
  });

  it("without the schema, reads the structure only (the browser's view of a pending search)", () => {
    expect(parseSearchParams("sport=trail,curling&radius=x&page=2&past=1&q=+lac+").query).toEqual({
      sport: ["trail", "curling" as never],
      page: 2,
      past: true,
      q: "lac",
    });
  });

  it("round-trips through the canonical string", () => {
    const query = normalizeSearchQuery({
      q: "ultra",
      sport: ["trail"],
      department: "38",
      distance: ["marathon"],
      distanceMin: 10,
      distanceMax: 50,
      elevation: ["1000-2000"],
      from: "2026-06-01",
      to: "2026-09-30",
      scope: ["regional"],
      past: true,
      sort: "newest",
      page: 4,
    });
    const parsed = parse(searchQueryString(query, "list"));
    expect(parsed.query).toEqual(query);
    expect(parsed.view).toBe("list");
    expect(parsed.invalid).toEqual([]);
  });
});

describe("updateSearchQuery", () => {
  it("sets and clears fields and goes back to page 1", () => {
    const next = updateSearchQuery({ sport: ["trail"], page: 3 }, { region: "84", sport: [] });
    expect(next).toEqual({ region: "84" });
  });

  it("keeps the page when the patch sets it", () => {
    expect(updateSearchQuery({ sport: ["trail"] }, { page: 2 })).toEqual({ sport: ["trail"], page: 2 });
  });

  it("leaving the place leaves the radius and the nearest-first sort", () => {
    const next = updateSearchQuery({ place: "38185", radius: 50, sort: "distance" }, { place: undefined });
    expect(next).toEqual({});
    expect(updateSearchQuery({ place: "38185", radius: 50 }, { sort: "distance" })).toEqual({
      place: "38185",
      radius: 50,
      sort: "distance",
    });
  });

  it("leaving the text leaves the relevance sort", () => {
    expect(updateSearchQuery({ q: "lac", sort: "relevance" }, { q: undefined })).toEqual({});
  });

  it("explicit dates replace a quick range", () => {
    expect(updateSearchQuery({ range: "this_month" }, { from: "2026-06-01", to: "2026-06-02" })).toEqual({
      from: "2026-06-01",
      to: "2026-06-02",
    });
  });
});

describe("withoutField", () => {
  it("drops a field and the fields that go with it", () => {
    expect(withoutField({ sport: ["trail"], page: 9 }, "page")).toEqual({ sport: ["trail"] });
    expect(withoutField({ place: "00000", radius: 20, sort: "distance", q: "x" }, "place")).toEqual({ q: "x" });
    expect(withoutField({ from: "2026-09-01", to: "2026-06-01", q: "x" }, "to")).toEqual({ q: "x" });
  });
});

describe("constants repeated without zod", () => {
  it("match the contract", () => {
    expect([...DISTANCE_KEYS]).toEqual([...DISTANCE_SHORTCUT_KEYS]);
    expect(DEFAULT_PAGE_SIZE).toBe(DEFAULT_PER_PAGE);
  });
});

describe("filters", () => {
  it("tells whether filters are set and counts them", () => {
    expect(hasSearchFilters({})).toBe(false);
    expect(hasSearchFilters({ sort: "newest", page: 2 })).toBe(false);
    expect(hasSearchFilters({ sport: ["trail"] })).toBe(true);
    expect(countSearchFilters({ sport: ["trail", "running"], place: "38185", radius: 30, page: 2 })).toBe(3);
    expect(countSearchFilters({ from: "2026-06-01", to: "2026-06-30" })).toBe(1);
  });

  it("knows when the search is around a place", () => {
    expect(hasPlace({ place: "38185" })).toBe(true);
    expect(hasPlace({ lat: 45, lng: 5 })).toBe(true);
    expect(hasPlace({ lat: 45 })).toBe(false);
  });

  it("offers radius choices the API accepts", () => {
    for (const radius of RADIUS_CHOICES) expect(radius).toBeLessThanOrEqual(MAX_RADIUS_KM);
    expect(RADIUS_CHOICES).toContain(DEFAULT_RADIUS);
  });
});
