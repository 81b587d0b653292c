/**
 * The site's indexable pages other than events: home, static pages and the landing pages that
 * have races to show, each with its path in every language (sport slugs differ by language).
 */
import { LOCALES, type Locale, SPORTS } from "../../shared/constants.ts";
import { type PageId, pagePath } from "../../shared/i18n/pages.ts";
import { STATIC_PAGE_KEYS, STATIC_PAGES } from "../../shared/static-pages.ts";
import type { LandingCounts } from "./seo.service.server.ts";
import type { LocalizedPage } from "./sitemap.ts";

type SportDef = (typeof SPORTS)[number];

/** A sport's URL slug in a language. */
export function sportSlug(sport: SportDef, locale: Locale): string {
  return locale === "en" ? sport.slugEn : sport.slugFr;
}

function localized(page: PageId, params: (locale: Locale) => Record<string, string> = () => ({})): LocalizedPage {
  const paths = {} as Record<Locale, string>;
  for (const locale of LOCALES) paths[locale] = pagePath(page, locale, params(locale));
  return { paths };
}

export function sitePages(counts: LandingCounts): LocalizedPage[] {
  const pages: LocalizedPage[] = [localized("home")];
  for (const key of STATIC_PAGE_KEYS) pages.push(localized("page", (locale) => ({ slug: STATIC_PAGES[key][locale] })));
  pages.push(localized("community"), localized("communityActivity"), localized("communityMembers"));
  for (const sport of SPORTS) {
    if (!counts.sports[sport.key]) continue;
    pages.push(localized("landingSport", (locale) => ({ sport: sportSlug(sport, locale) })));
  }
  for (const region of Object.keys(counts.regions).sort()) {
    pages.push(localized("landingRegion", () => ({ region })));
  }
  for (const department of Object.keys(counts.departments).sort()) {
    pages.push(localized("landingDepartment", () => ({ department })));
  }
  for (const sport of SPORTS) {
    const byRegion = counts.sportRegions[sport.key] ?? {};
    for (const region of Object.keys(byRegion).sort()) {
      if (!byRegion[region]) continue;
      pages.push(localized("landingSportRegion", (locale) => ({ sport: sportSlug(sport, locale), region })));
    }
  }
  return pages;
}
