import { describe, expect, it } from "vitest";
import { STATIC_PAGE_KEYS, STATIC_PAGES, staticPageFromSlug, staticPagePath } from "./static-pages.ts";

describe("the site's own pages", () => {
  it("live under a slug in each language", () => {
    expect(staticPagePath("legal", "fr")).toBe("/page/mentions-legales");
    expect(staticPagePath("legal", "en")).toBe("/en/page/legal-notice");
    expect(staticPagePath("privacy", "fr")).toBe("/page/confidentialite");
    expect(staticPagePath("terms", "fr")).toBe("/page/conditions-utilisation");
  });

  it("find the page from the other language's slug or an old one, to redirect there", () => {
    expect(staticPageFromSlug("mentions-legales", "fr")).toEqual({ key: "legal", exact: true });
    expect(staticPageFromSlug("legal-notice", "fr")).toEqual({ key: "legal", exact: false });
    expect(staticPageFromSlug("terms", "fr")).toEqual({ key: "terms", exact: false });
    expect(staticPageFromSlug("contact", "en")).toEqual({ key: "contact", exact: true });
    expect(staticPageFromSlug("nope", "fr")).toBeNull();
  });

  it("never give two pages the same slug in a language", () => {
    for (const locale of ["fr", "en"] as const) {
      const slugs = STATIC_PAGE_KEYS.map((key) => STATIC_PAGES[key][locale]);
      expect(new Set(slugs).size).toBe(slugs.length);
    }
  });
});
