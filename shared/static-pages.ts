/**
 * The site's own pages under /page/<slug>, each with its slug in every language
 * (`/page/mentions-legales`, `/en/page/legal-notice`).
 */
import type { Locale } from "./constants.ts";
import { pagePath } from "./i18n/pages.ts";

export const STATIC_PAGES = {
  terms: { fr: "conditions-utilisation", en: "terms" },
  legal: { fr: "mentions-legales", en: "legal-notice" },
  privacy: { fr: "confidentialite", en: "privacy" },
  contact: { fr: "contact", en: "contact" },
  credits: { fr: "credits", en: "credits" },
} as const satisfies Record<string, Record<Locale, string>>;
export type StaticPageKey = keyof typeof STATIC_PAGES;
export const STATIC_PAGE_KEYS = Object.keys(STATIC_PAGES) as StaticPageKey[];

export function staticPagePath(key: StaticPageKey, locale: Locale): string {
  return pagePath("page", locale, { slug: STATIC_PAGES[key][locale] });
}

/**
 * The page a slug names in a language; `exact` is false for the other language's slug or an
 * old one (the page then redirects to its address in this language).
 */
export function staticPageFromSlug(slug: string, locale: Locale): { key: StaticPageKey; exact: boolean } | null {
  for (const key of STATIC_PAGE_KEYS) if (STATIC_PAGES[key][locale] === slug) return { key, exact: true };
  for (const key of STATIC_PAGE_KEYS) {
    if (key === slug || Object.values(STATIC_PAGES[key]).includes(slug as never)) return { key, exact: false };
  }
  return null;
}

/** What a deployment says about itself on the legal pages (LEGAL_* settings). */
export type LegalSettings = {
  publisher: string;
  address: string;
  email: string;
  phone: string;
  director: string;
  registration: string;
  host: string;
  hostAddress: string;
};
/** The setting behind each field, named on the page while it is not filled in. */
export const LEGAL_SETTING_NAMES: Record<keyof LegalSettings, string> = {
  publisher: "LEGAL_PUBLISHER",
  address: "LEGAL_ADDRESS",
  email: "LEGAL_EMAIL",
  phone: "LEGAL_PHONE",
  director: "LEGAL_DIRECTOR",
  registration: "LEGAL_REGISTRATION",
  host: "LEGAL_HOST",
  hostAddress: "LEGAL_HOST_ADDRESS",
};
