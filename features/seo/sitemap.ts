/**
 * Sitemap XML (sitemaps.org 0.9 with xhtml:link hreflang alternates) and robots.txt, as pure
 * functions of the URLs to list. The protocol caps a file at 50,000 URLs: the index points at
 * numbered parts, each holding at most `urlsPerFile` URLs.
 */
import { LOCALES, type Locale } from "../../shared/constants.ts";
import { X_DEFAULT_LOCALE } from "../../shared/meta.ts";

/** The protocol's limit of URLs in one sitemap file. */
export const MAX_URLS_PER_SITEMAP = 50_000;

/** A page that exists in every language: one <url> per language, each listing all of them. */
export type LocalizedPage = {
  /** The page's path in each language ("/course/x", "/en/race/x"). */
  paths: Record<Locale, string>;
  /** Last modification, YYYY-MM-DD or a full ISO date-time. */
  lastmod?: string;
};

export type SitemapPartKind = "pages" | "events";
export type SitemapPart = { kind: SitemapPartKind; index: number };

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char]);
}

function absolute(origin: string, path: string): string {
  return `${origin.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/** How many URLs a list of localized pages gives (one per language). */
export function urlCount(pages: number): number {
  return pages * LOCALES.length;
}

/** How many localized pages fit in one file of `urlsPerFile` URLs (at least one). */
export function pagesPerFile(urlsPerFile: number): number {
  return Math.max(1, Math.floor(urlsPerFile / LOCALES.length));
}

/** The parts of the sitemap: page files first, then event files, numbered from 1. */
export function sitemapParts(pageCount: number, eventCount: number, urlsPerFile: number): SitemapPart[] {
  const per = pagesPerFile(urlsPerFile);
  const parts: SitemapPart[] = [];
  for (let i = 1; i <= Math.max(1, Math.ceil(pageCount / per)); i++) parts.push({ kind: "pages", index: i });
  for (let i = 1; i <= Math.ceil(eventCount / per); i++) parts.push({ kind: "events", index: i });
  return parts;
}

/** Path of a part: /sitemaps/pages-1.xml, /sitemaps/events-3.xml. */
export function sitemapPartPath(part: SitemapPart): string {
  return `/sitemaps/${part.kind}-${part.index}.xml`;
}

/** The part a file name stands for, or null. */
export function parseSitemapPart(file: string): SitemapPart | null {
  const match = /^(pages|events)-([1-9]\d{0,6})\.xml$/.exec(file);
  return match ? { kind: match[1] as SitemapPartKind, index: Number(match[2]) } : null;
}

/** The slice of localized pages a part holds. */
export function partRange(index: number, urlsPerFile: number): { offset: number; limit: number } {
  const per = pagesPerFile(urlsPerFile);
  return { offset: (index - 1) * per, limit: per };
}

/** The sitemap index: one <sitemap> per part. */
export function renderSitemapIndex(origin: string, parts: SitemapPart[], lastmod?: string): string {
  const entries = parts.map((part) => {
    const mod = lastmod ? `<lastmod>${xmlEscape(lastmod)}</lastmod>` : "";
    return `<sitemap><loc>${xmlEscape(absolute(origin, sitemapPartPath(part)))}</loc>${mod}</sitemap>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    "</sitemapindex>",
    "",
  ].join("\n");
}

/** A <urlset> with one <url> per page and language, each carrying every language's alternate. */
export function renderUrlSet(origin: string, pages: LocalizedPage[]): string {
  const lines: string[] = [];
  for (const page of pages) {
    const links = LOCALES.map(
      (locale) =>
        `<xhtml:link rel="alternate" hreflang="${locale}" href="${xmlEscape(absolute(origin, page.paths[locale]))}"/>`,
    );
    links.push(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${xmlEscape(absolute(origin, page.paths[X_DEFAULT_LOCALE]))}"/>`,
    );
    const mod = page.lastmod ? `<lastmod>${xmlEscape(page.lastmod)}</lastmod>` : "";
    for (const locale of LOCALES) {
      lines.push(`<url><loc>${xmlEscape(absolute(origin, page.paths[locale]))}</loc>${mod}${links.join("")}</url>`);
    }
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...lines,
    "</urlset>",
    "",
  ].join("\n");
}

/** Paths crawlers have no business in: the API, accounts, the back-office, click-counting redirects. */
export const DISALLOWED_PATHS = [
  "/api/",
  "/admin",
  "/en/admin",
  "/user/",
  "/en/user/",
  "/login",
  "/en/login",
  "/logout",
  "/en/logout",
  "/installation/",
  "/en/setup/",
  "/deconnexion",
  "/en/sign-out",
  "/redirect/",
  "/link/",
  "/ext/",
  "/mailing/",
  "/connect/",
];

export function renderRobots(origin: string): string {
  // Everything not disallowed is allowed: no "Allow: /" line, which parsers that apply the first
  // matching rule (the original robots.txt convention) would read as allowing everything.
  return [
    "User-agent: *",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absolute(origin, "/sitemap.xml")}`,
    "",
  ].join("\n");
}
