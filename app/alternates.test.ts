import type { UIMatch } from "react-router";
import { describe, expect, it } from "vitest";
import { alternateHref } from "./alternates.ts";

const match = (id: string, params: Record<string, string> = {}) =>
  ({ id, pathname: "", params, data: undefined, loaderData: undefined, handle: undefined }) as UIMatch;

describe("the page in the other language", () => {
  it("keeps the query: a poster's course, a search's filters, a ranking's period", () => {
    expect(
      alternateHref([match("root"), match("fr.posterNew")], "en", {
        pathname: "/poster/nouveau",
        search: "?course=12",
      }),
    ).toBe("/en/poster/new?course=12");
    expect(alternateHref([match("en.home")], "fr", { pathname: "/en", search: "?sport=trail&place=74010" })).toBe(
      "/?sport=trail&place=74010",
    );
    expect(
      alternateHref([match("fr.community")], "en", { pathname: "/communaute", search: "?period=1y&order=distance" }),
    ).toBe("/en/community?period=1y&order=distance");
  });

  it("adds nothing to a page without a query", () => {
    expect(alternateHref([match("fr.event", { slug: "trail-12" })], "en", { pathname: "/course/trail-12" })).toBe(
      "/en/race/trail-12",
    );
    expect(alternateHref([match("fr.home")], "en", { pathname: "/", search: "" })).toBe("/en");
  });
});
