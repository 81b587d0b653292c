import { describe, expect, it } from "vitest";
import {
  buildNextUrl,
  inAppPath,
  isExternalHttpLink,
  isInAppLink,
  nextHistoryEntry,
  parseQuery,
  pathSegment,
  pathSegments,
  toQueryString,
} from "./navigation.ts";

const here = { pathname: "/courses", search: "?sport=trail&page=2" };

describe("buildNextUrl (push or replace history)", () => {
  it("uses only the new query by default and drops null, undefined and empty values", () => {
    expect(buildNextUrl(here, { query: { region: "bretagne", dept: null, q: "", x: undefined } })).toBe(
      "/courses?region=bretagne",
    );
    expect(buildNextUrl(here, { path: "/carte" })).toBe("/carte");
    expect(buildNextUrl(here, {})).toBe("/courses");
  });

  it("keepQuery carries the current query over, its values winning", () => {
    expect(buildNextUrl(here, { path: "/carte", keepQuery: true })).toBe("/carte?sport=trail&page=2");
    expect(buildNextUrl(here, { keepQuery: true, query: { page: 3, view: "map" } })).toBe(
      "/courses?sport=trail&page=2&view=map",
    );
  });

  it("mergeQuery merges the new query in, its values winning and empty ones removing keys", () => {
    expect(buildNextUrl(here, { mergeQuery: true, query: { page: 3, view: "map" } })).toBe(
      "/courses?sport=trail&page=3&view=map",
    );
    expect(buildNextUrl(here, { mergeQuery: true, query: { sport: null, page: "" } })).toBe("/courses");
    expect(buildNextUrl(here, { mergeQuery: true, keepQuery: true, query: { page: 3 } })).toBe(
      "/courses?sport=trail&page=3",
    );
  });

  it("writes arrays as repeated keys and reads a query given in the path", () => {
    expect(buildNextUrl(here, { query: { sport: ["trail", "running", null] } })).toBe(
      "/courses?sport=trail&sport=running",
    );
    expect(buildNextUrl(here, { path: "/carte?zoom=5&empty=" })).toBe("/carte?zoom=5");
    expect(buildNextUrl(here, { path: "?page=4", mergeQuery: true })).toBe("/courses?sport=trail&page=4");
  });

  it("says whether to push or replace", () => {
    expect(nextHistoryEntry(here, { query: { a: 1 } })).toEqual({ to: "/courses?a=1", replace: false });
    expect(nextHistoryEntry(here, { replace: true, keepQuery: true })).toEqual({
      to: "/courses?sport=trail&page=2",
      replace: true,
    });
  });
});

describe("parseQuery and toQueryString", () => {
  it("reads the query string into an object with empty values removed", () => {
    expect(parseQuery("?sport=trail&region=&q=saint+%C3%A9tienne")).toEqual({ sport: "trail", q: "saint étienne" });
    expect(parseQuery("")).toEqual({});
    expect(parseQuery(new URLSearchParams("a=1"))).toEqual({ a: "1" });
  });

  it("turns repeated keys into arrays", () => {
    expect(parseQuery("sport=trail&sport=&sport=running&sport=swimrun")).toEqual({
      sport: ["trail", "running", "swimrun"],
    });
  });

  it("skips null and undefined, keeping empty strings unless asked", () => {
    expect(toQueryString({ a: 1, b: null, c: undefined, d: "", e: true })).toBe("a=1&d=&e=true");
    expect(toQueryString({ a: 1, d: "", l: [] }, { dropEmpty: true })).toBe("a=1");
  });
});

describe("pathSegment", () => {
  it("reads a 0-based segment, ignoring the /en prefix by default", () => {
    expect(pathSegment("/courses/trail/bretagne", 0)).toBe("courses");
    expect(pathSegment("/en/races/trail/brittany", 0)).toBe("races");
    expect(pathSegment("/en/races/trail", 1)).toBe("trail");
    expect(pathSegment("/courses/trail", 5)).toBeUndefined();
    expect(pathSegment("/courses/trail", -1)).toBe("trail");
  });

  it("can keep the locale prefix, and decodes segments", () => {
    expect(pathSegment("/en/races", 0, { ignoreLocalePrefix: false })).toBe("en");
    expect(pathSegments("/page/mentions%20l%C3%A9gales?x=1")).toEqual(["page", "mentions légales"]);
    expect(pathSegments("/bad/%E0%A4%A")).toEqual(["bad", "%E0%A4%A"]);
    expect(pathSegments("/en")).toEqual([]);
    expect(pathSegments("/english")).toEqual(["english"]);
  });
});

describe("isInAppLink", () => {
  const origin = "https://dossard.fr";

  it("routes relative paths and same-origin URLs in the app", () => {
    expect(isInAppLink("/courses", { origin })).toBe(true);
    expect(isInAppLink("?page=2", { origin })).toBe(true);
    expect(isInAppLink("#comments", { origin })).toBe(true);
    expect(inAppPath("https://dossard.fr/courses?x=1#c", { origin })).toBe("/courses?x=1#c");
    expect(inAppPath("//dossard.fr/en/races", { origin })).toBe("/en/races");
  });

  it("renders a plain anchor for other origins, mailto:, tel:, new tabs and downloads", () => {
    expect(isInAppLink("https://www.strava.com/athletes/1", { origin })).toBe(false);
    expect(isInAppLink("http://dossard.fr/courses", { origin })).toBe(false);
    expect(isInAppLink("//cdn.example.com/x.png", { origin })).toBe(false);
    expect(isInAppLink("mailto:contact@dossard.fr", { origin })).toBe(false);
    expect(isInAppLink("tel:+33102030405", { origin })).toBe(false);
    expect(isInAppLink("javascript:alert(1)", { origin })).toBe(false);
    expect(isInAppLink("/courses", { origin, target: "_blank" })).toBe(false);
    expect(isInAppLink("/courses", { origin, target: "_self" })).toBe(true);
    expect(isInAppLink("/files/x.pdf", { origin, download: true })).toBe(false);
    expect(isInAppLink("", { origin })).toBe(false);
  });

  it("sends server routes through a full page load", () => {
    expect(isInAppLink("/connect/google", { origin })).toBe(false);
    expect(isInAppLink("/logout", { origin })).toBe(false);
    expect(isInAppLink("/track/export/4/gpx", { origin })).toBe(false);
    expect(isInAppLink("https://dossard.fr/redirect/event/4", { origin })).toBe(false);
    expect(isInAppLink("/user/activities", { origin })).toBe(true);
  });

  it("uses the configured public origin on the server", () => {
    expect(inAppPath("http://localhost:3000/courses")).toBe("/courses");
    expect(isExternalHttpLink("https://example.com/")).toBe(true);
    expect(isExternalHttpLink("/courses")).toBe(false);
    expect(isExternalHttpLink("mailto:a@b.fr")).toBe(false);
  });
});
