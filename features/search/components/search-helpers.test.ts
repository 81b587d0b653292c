import { describe, expect, it } from "vitest";
import { citiesFromBody, cityFromBody } from "../../geo/cities.ts";
import { toDepartmentRefs, toRegionRefs } from "./geo-refs.ts";
import { landingKind, landingPath, landingQuery, sportFromSlug } from "./landing.ts";
import { METROPOLE, searchMapBounds } from "./map-view.ts";
import { pageWindow } from "./pagination.ts";

describe("pageWindow", () => {
  it("shows first, last, the current page and its neighbours, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 0)).toEqual([]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 11)).toEqual([1, 2, null, 11]);
    expect(pageWindow(6, 11)).toEqual([1, null, 5, 6, 7, null, 11]);
    expect(pageWindow(11, 11)).toEqual([1, null, 10, 11]);
  });

  it("fills a gap of one page with the page itself", () => {
    expect(pageWindow(4, 11)).toEqual([1, 2, 3, 4, 5, null, 11]);
    expect(pageWindow(99, 5)).toEqual([1, null, 4, 5]);
  });
});

describe("cities", () => {
  const grenoble = {
    code: "38185",
    name: "Grenoble",
    slug: "grenoble",
    postalCodes: ["38000", "38100"],
    departmentCode: "38",
    departmentName: "Isère",
  };

  it("reads the autocomplete and reverse-geocoding answers", () => {
    expect(citiesFromBody({ cities: [grenoble, { name: "no code" }] })).toEqual([
      { code: "38185", name: "Grenoble", postalCode: "38000", departmentCode: "38", departmentName: "Isère" },
    ]);
    expect(citiesFromBody([grenoble])).toHaveLength(1);
    expect(citiesFromBody(null)).toEqual([]);
    expect(cityFromBody({ city: grenoble, distanceKm: 1.2 })?.code).toBe("38185");
    expect(cityFromBody({})).toBeNull();
  });
});

describe("geo references", () => {
  it("sorts regions by name and departments by code", () => {
    expect(
      toRegionRefs({
        regions: [
          { code: "84", name: "Auvergne-Rhône-Alpes", slug: "auvergne-rhone-alpes" },
          { code: "11", name: "Île-de-France", slug: "ile-de-france" },
          { code: "53", name: "Bretagne", slug: "bretagne" },
        ],
      }).map((r) => r.code),
    ).toEqual(["84", "53", "11"]);
    expect(
      toDepartmentRefs([
        { code: "974", name: "La Réunion", slug: "la-reunion", regionCode: "04" },
        { code: "2A", name: "Corse-du-Sud", slug: "corse-du-sud", regionCode: "94" },
        { code: "01", name: "Ain", slug: "ain", regionCode: "84" },
        { code: "21", name: "Côte-d'Or", slug: "cote-d-or", regionCode: "27" },
      ]).map((d) => d.code),
    ).toEqual(["01", "2A", "21", "974"]);
  });
});

describe("landing pages", () => {
  const region = { code: "84", name: "Auvergne-Rhône-Alpes", slug: "auvergne-rhone-alpes" };
  const department = { code: "38", name: "Isère", slug: "isere", regionCode: "84" };

  it("tells the kind from the params", () => {
    expect(landingKind({ sport: "trail" })).toBe("sport");
    expect(landingKind({ sport: "trail", region: "bretagne" })).toBe("sportRegion");
    expect(landingKind({ region: "bretagne" })).toBe("region");
    expect(landingKind({ department: "isere" })).toBe("department");
    expect(landingKind({})).toBeNull();
  });

  it("reads sport slugs of the page's language, and knows the other language's", () => {
    expect(sportFromSlug("trail", "fr")).toMatchObject({ sport: { key: "trail" }, exact: true });
    expect(sportFromSlug("trail-running", "en")).toMatchObject({ sport: { key: "trail" }, exact: true });
    expect(sportFromSlug("trail", "en")).toMatchObject({ sport: { key: "trail" }, exact: false });
    expect(sportFromSlug("course-a-pied", "en")).toMatchObject({ sport: { key: "running" }, exact: false });
    expect(sportFromSlug("marathon", "en")).toMatchObject({ sport: { key: "marathon" }, exact: true });
    expect(sportFromSlug("curling", "fr")).toBeNull();
  });

  it("builds each language's path with its own slugs", () => {
    expect(landingPath({ kind: "sport", sport: "trail" }, "fr")).toBe("/courses/trail");
    expect(landingPath({ kind: "sport", sport: "trail" }, "en")).toBe("/en/races/trail-running");
    expect(landingPath({ kind: "sportRegion", sport: "mtb", region }, "en", 2)).toBe(
      "/en/races/mountain-bike/auvergne-rhone-alpes?page=2",
    );
    expect(landingPath({ kind: "region", region }, "fr")).toBe("/courses/region/auvergne-rhone-alpes");
    expect(landingPath({ kind: "department", department, region }, "fr")).toBe("/courses/departement/isere");
    expect(landingPath({ kind: "department", department, region }, "en")).toBe("/en/races/department/isere");
  });

  it("stands for the search filters of its subject", () => {
    expect(landingQuery({ kind: "sportRegion", sport: "trail", region })).toEqual({
      sport: ["trail"],
      region: "84",
    });
    expect(landingQuery({ kind: "department", department, region })).toEqual({ department: "38" });
  });
});

describe("search map view", () => {
  const lyon = { lat: 45.76, lng: 4.84 };
  const brest = { lat: 48.39, lng: -4.49 };
  const reunion = { lat: -21.11, lng: 55.53 };

  it("frames the radius around a place", () => {
    const [west, south, east, north] = searchMapBounds([lyon], { ...lyon, radius: 50 })!;
    expect(north - south).toBeCloseTo(100 / 111, 2);
    expect(east - west).toBeGreaterThan(north - south);
  });

  it("keeps the mainland in view when a few races are overseas", () => {
    const bounds = searchMapBounds([lyon, brest, reunion])!;
    expect(bounds[0]).toBeLessThan(brest.lng);
    expect(bounds[2]).toBeGreaterThan(lyon.lng);
    expect(bounds[1]).toBeGreaterThan(METROPOLE[1] - 1);
  });

  it("lets the map fit the races otherwise", () => {
    expect(searchMapBounds([lyon, brest])).toBeUndefined();
    expect(searchMapBounds([reunion])).toBeUndefined();
    expect(searchMapBounds([])).toBeUndefined();
  });
});
