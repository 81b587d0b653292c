// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { sitePages } from "./site-pages.ts";
import {
  MAX_URLS_PER_SITEMAP,
  pagesPerFile,
  parseSitemapPart,
  partRange,
  renderRobots,
  renderSitemapIndex,
  renderUrlSet,
  sitemapPartPath,
  sitemapParts,
  xmlEscape,
} from "./sitemap.ts";

const parse = (xml: string) => {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
  return doc;
};

describe("sitemap parts", () => {
  it("puts two URLs per localized page and never more than the limit per file", () => {
    expect(pagesPerFile(MAX_URLS_PER_SITEMAP)).toBe(25_000);
    expect(pagesPerFile(5)).toBe(2);
    expect(pagesPerFile(1)).toBe(1);
  });

  it("lists the page files then the event files", () => {
    expect(sitemapParts(3, 0, 50_000)).toEqual([{ kind: "pages", index: 1 }]);
    expect(sitemapParts(0, 0, 50_000)).toEqual([{ kind: "pages", index: 1 }]);
    expect(sitemapParts(25_001, 50_001, 50_000)).toEqual([
      { kind: "pages", index: 1 },
      { kind: "pages", index: 2 },
      { kind: "events", index: 1 },
      { kind: "events", index: 2 },
      { kind: "events", index: 3 },
    ]);
  });

  it("names and reads part files", () => {
    expect(sitemapPartPath({ kind: "events", index: 3 })).toBe("/sitemaps/events-3.xml");
    expect(parseSitemapPart("events-3.xml")).toEqual({ kind: "events", index: 3 });
    expect(parseSitemapPart("pages-1.xml")).toEqual({ kind: "pages", index: 1 });
    for (const bad of ["events-0.xml", "events-.xml", "other-1.xml", "pages-1.xml.gz", "../etc"]) {
      expect(parseSitemapPart(bad)).toBeNull();
    }
  });

  it("slices the pages of a part", () => {
    expect(partRange(1, 10)).toEqual({ offset: 0, limit: 5 });
    expect(partRange(3, 10)).toEqual({ offset: 10, limit: 5 });
  });
});

describe("XML", () => {
  it("the checker itself refuses malformed XML", () => {
    const doc = new DOMParser().parseFromString("<a><b></a>", "application/xml");
    expect(doc.getElementsByTagName("parsererror").length).toBeGreaterThan(0);
  });

  it("escapes the five XML characters", () => {
    expect(xmlEscape(`a&b<c>"d'`)).toBe("a&amp;b&lt;c&gt;&quot;d&apos;");
  });

  it("renders a valid index with absolute locations", () => {
    const doc = parse(
      renderSitemapIndex("https://dossard.example/", sitemapParts(1, 3, 4), "2026-06-01T00:00:00.000Z"),
    );
    const locs = [...doc.getElementsByTagName("loc")].map((n) => n.textContent);
    expect(locs).toEqual([
      "https://dossard.example/sitemaps/pages-1.xml",
      "https://dossard.example/sitemaps/events-1.xml",
      "https://dossard.example/sitemaps/events-2.xml",
    ]);
    expect(doc.getElementsByTagName("lastmod")[0].textContent).toBe("2026-06-01T00:00:00.000Z");
  });

  it("renders one <url> per language, each with every alternate and x-default", () => {
    const xml = renderUrlSet("https://dossard.example", [
      { paths: { fr: "/course/a&b", en: "/en/race/a&b" }, lastmod: "2026-05-01" },
    ]);
    const doc = parse(xml);
    const urls = doc.getElementsByTagName("url");
    expect(urls).toHaveLength(2);
    expect(urls[0].getElementsByTagName("loc")[0].textContent).toBe("https://dossard.example/course/a&b");
    expect(urls[1].getElementsByTagName("loc")[0].textContent).toBe("https://dossard.example/en/race/a&b");
    const links = [...urls[1].getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link")].map((l) => [
      l.getAttribute("hreflang"),
      l.getAttribute("href"),
    ]);
    expect(links).toEqual([
      ["fr", "https://dossard.example/course/a&b"],
      ["en", "https://dossard.example/en/race/a&b"],
      ["x-default", "https://dossard.example/course/a&b"],
    ]);
  });
});

describe("site pages", () => {
  it("lists home, static pages and landing pages with races, with each language's slugs", () => {
    const pages = sitePages({
      sports: { trail: 3, swimrun: 0 },
      regions: { bretagne: 2 },
      departments: { isere: 1 },
      sportRegions: { trail: { "auvergne-rhone-alpes": 3 } },
    });
    const fr = pages.map((p) => p.paths.fr);
    const en = pages.map((p) => p.paths.en);
    expect(fr).toEqual([
      "/",
      "/page/conditions-utilisation",
      "/page/mentions-legales",
      "/page/confidentialite",
      "/page/contact",
      "/page/credits",
      "/communaute",
      "/communaute/activite",
      "/communaute/membres",
      "/courses/trail",
      "/courses/region/bretagne",
      "/courses/departement/isere",
      "/courses/trail/auvergne-rhone-alpes",
    ]);
    expect(en).toEqual([
      "/en",
      "/en/page/terms",
      "/en/page/legal-notice",
      "/en/page/privacy",
      "/en/page/contact",
      "/en/page/credits",
      "/en/community",
      "/en/community/activity",
      "/en/community/members",
      "/en/races/trail-running",
      "/en/races/region/bretagne",
      "/en/races/department/isere",
      "/en/races/trail-running/auvergne-rhone-alpes",
    ]);
  });
});

describe("robots.txt", () => {
  it("allows the site, keeps crawlers out of the API and accounts, and points at the sitemap", () => {
    const robots = renderRobots("https://dossard.example");
    expect(robots).toMatch(/^User-agent: \*\nDisallow: /);
    // Read as first-match parsers read it: the first rule whose path starts the URL decides.
    const rules = robots
      .split("\n")
      .map((line) => /^(Allow|Disallow): (.+)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null);
    const allowed = (path: string) => (rules.find((m) => path.startsWith(m[2]))?.[1] ?? "Allow") === "Allow";
    for (const path of ["/", "/course/trail-des-cretes-2027", "/en/races/trail-running", "/page/mentions-legales"]) {
      expect(allowed(path), path).toBe(true);
    }
    for (const path of [
      "/api/events",
      "/admin",
      "/admin/evenements",
      "/en/user/profile",
      "/installation/abc",
      "/login",
    ]) {
      expect(allowed(path), path).toBe(false);
    }
    expect(robots).toContain("Disallow: /api/\n");
    expect(robots).toContain("Disallow: /admin\n");
    expect(robots).toContain("Sitemap: https://dossard.example/sitemap.xml\n");
  });
});
