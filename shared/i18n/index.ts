import i18next, { type InitOptions, type i18n } from "i18next";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../constants.ts";
import { FRENCH_ELISION, frenchElisionProcessor } from "./french-elision.ts";
import { NAMESPACES, resources } from "./resources.ts";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** i18next's options for a locale, with the catalogues of `bundles` (every language by default). */
export function i18nOptions(locale: Locale, bundles: Partial<typeof resources> = resources): InitOptions {
  return {
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    ns: NAMESPACES,
    defaultNS: "common",
    resources: bundles as unknown as Record<string, Record<string, object>>,
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    // "Autour de Annecy" → "Autour d'Annecy" (french-elision.ts; the browser's stand-in does the same).
    postProcess: [FRENCH_ELISION],
  };
}

/**
 * A fresh, synchronously initialised i18next instance for one locale (one per request on the server).
 * In the browser build, i18next is i18next-lite.ts and `resources` the page's language only.
 */
export function createI18n(locale: Locale = DEFAULT_LOCALE): i18n {
  const instance = i18next.createInstance().use(frenchElisionProcessor);
  instance.init(i18nOptions(locale));
  return instance;
}

/** Locale of a pathname: English under /en, French everywhere else. */
export function localeFromPath(pathname: string): Locale {
  return pathname === "/en" || pathname.startsWith("/en/") ? "en" : "fr";
}

/** The same page in another locale. */
export function switchLocalePath(pathname: string, to: Locale): string {
  const bare = localeFromPath(pathname) === "en" ? pathname.slice(3) || "/" : pathname;
  if (to === "fr") return bare;
  return bare === "/" ? "/en" : `/en${bare}`;
}

/** Prefix an app path with the locale's root. */
export function localePath(locale: Locale, pathname: string): string {
  if (locale === "fr") return pathname;
  return pathname === "/" ? "/en" : `/en${pathname}`;
}

/**
 * The URL a same-site navigation from `from` to `to` leads to when it leaves `locale` for the
 * other language; null when it stays in `locale` or leaves the site.
 */
export function otherLocaleTarget(to: string, from: URL, locale: Locale): URL | null {
  const target = new URL(to, from);
  if (target.origin !== from.origin || localeFromPath(target.pathname) === locale) return null;
  return target;
}
