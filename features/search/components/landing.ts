/**
 * Landing pages for search engines: by sport, region, department, and sport within a region.
 * Pure helpers shared by the route's loader, its meta and its component.
 */
import type { TFunction } from "i18next";
import { type Locale, SPORTS, type SportKey } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { type PageId, pagePath } from "../../../shared/i18n/pages.ts";

export const LANDING_KINDS = ["sport", "region", "department", "sportRegion"] as const;
export type LandingKind = (typeof LANDING_KINDS)[number];

export const LANDING_PAGE_IDS: Record<LandingKind, PageId> = {
  sport: "landingSport",
  region: "landingRegion",
  department: "landingDepartment",
  sportRegion: "landingSportRegion",
};

/** The kind of landing page from its route id ("fr.landingSport") or, in a loader, its params. */
export function landingKind(params: { sport?: string; region?: string; department?: string }): LandingKind | null {
  if (params.sport && params.region) return "sportRegion";
  if (params.sport) return "sport";
  if (params.region) return "region";
  if (params.department) return "department";
  return null;
}

type Sport = (typeof SPORTS)[number];

export function sportSlugFor(sport: Sport, locale: Locale): string {
  return locale === "en" ? sport.slugEn : sport.slugFr;
}

/**
 * The sport of a URL slug: `exact` when the slug is this language's, otherwise the sport whose
 * slug in the other language it is (the page then redirects to the right slug).
 */
export function sportFromSlug(slug: string, locale: Locale): { sport: Sport; exact: boolean } | null {
  const own = SPORTS.find((sport) => sportSlugFor(sport, locale) === slug);
  if (own) return { sport: own, exact: true };
  const other = SPORTS.find((sport) => sportSlugFor(sport, locale === "en" ? "fr" : "en") === slug);
  return other ? { sport: other, exact: false } : null;
}

export type LandingSubject = {
  kind: LandingKind;
  sport?: SportKey;
  region?: { code: string; name: string; slug: string };
  department?: { code: string; name: string; slug: string; regionCode: string };
};

/** The page's path in a language (sport slugs differ; region and department slugs do not). */
export function landingPath(subject: LandingSubject, locale: Locale, page = 1): string {
  const sport = subject.sport ? SPORTS.find((s) => s.key === subject.sport) : undefined;
  const path = pagePath(LANDING_PAGE_IDS[subject.kind], locale, {
    sport: sport ? sportSlugFor(sport, locale) : "",
    region: subject.region?.slug ?? "",
    department: subject.department?.slug ?? "",
  });
  return page > 1 ? `${path}?page=${page}` : path;
}

export function sportLandingPath(sport: SportKey, locale: Locale): string {
  return landingPath({ kind: "sport", sport }, locale);
}

/** The search filters a landing page stands for. */
export function landingQuery(subject: LandingSubject): { sport?: SportKey[]; region?: string; department?: string } {
  return {
    ...(subject.sport ? { sport: [subject.sport] } : {}),
    ...(subject.region && subject.kind !== "department" ? { region: subject.region.code } : {}),
    ...(subject.department ? { department: subject.department.code } : {}),
  };
}

export type LandingTexts = { heading: string; title: string; description: string; intro: string };

/** Heading, title, description and introduction of a landing page, in the translator's language. */
export function landingTexts(
  t: TFunction,
  subject: LandingSubject,
  count: number,
  year: number,
  locale: Locale,
): LandingTexts {
  const sport = subject.sport ? SPORTS.find((s) => s.key === subject.sport) : undefined;
  const values = {
    count,
    formatted: formatNumber(count, locale),
    year,
    sport: sport ? sport[locale] : "",
    sportInline: sport ? t(`landing:sportInline.${sport.key}`) : "",
    region: subject.region?.name ?? "",
    department: subject.department?.name ?? "",
    code: subject.department?.code ?? "",
  };
  const base = `landing:page.${subject.kind}`;
  return {
    heading: t(`${base}.heading`, values),
    title: t(`${base}.title`, values),
    description: t(`${base}.description`, values),
    intro: t(`${base}.intro`, values),
  };
}
