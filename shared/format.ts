/**
 * Numbers, money, distances, elevation and durations by locale.
 *
 * Intl does the digit work, but the spaces it emits changed between ICU versions (French
 * grouping went from U+00A0 to U+202F), so the output is rebuilt from `formatToParts` with fixed
 * characters and is the same on every server and browser:
 * - French digit grouping: U+202F NARROW NO-BREAK SPACE, the French thin space ("1 200");
 * - English digit grouping: a comma ("1,200");
 * - between a number and its unit or currency: U+00A0 NO-BREAK SPACE ("42,2 km", "25 €"),
 *   so a value never wraps away from its unit;
 * - minus sign: "-" (U+002D).
 */
import type { Locale } from "./constants.ts";

export const NBSP = "\u00a0";
export const NNBSP = "\u202f";

const INTL_LOCALES = { fr: "fr-FR", en: "en-GB" } as const satisfies Record<Locale, string>;
const GROUP_SEPARATORS = { fr: NNBSP, en: "," } as const satisfies Record<Locale, string>;

function localeOf(locale: string): Locale {
  return locale.toLowerCase().startsWith("en") ? "en" : "fr";
}

function rebuild(parts: Intl.NumberFormatPart[], locale: Locale): string {
  return parts
    .map((part) => {
      if (part.type === "group") return GROUP_SEPARATORS[locale];
      if (part.type === "minusSign") return "-";
      if (part.type === "literal" && /^\s+$/u.test(part.value)) return NBSP;
      return part.value;
    })
    .join("");
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Intl formatters are slow to create (~0.1 ms each): one per locale and options, kept. */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, formatter);
  }
  return formatter;
}

export interface NumberFormatOptions {
  minimumFractionDigits?: number;
  /** 2 by default. */
  maximumFractionDigits?: number;
}

/** "1 200,5" in French (thin-space groups, decimal comma), "1,200.5" in English. "" when not finite. */
export function formatNumber(value: number, locale: string = "fr", options: NumberFormatOptions = {}): string {
  if (!Number.isFinite(value)) return "";
  const lang = localeOf(locale);
  const maximumFractionDigits = options.maximumFractionDigits ?? 2;
  const formatter = numberFormat(INTL_LOCALES[lang], {
    minimumFractionDigits: Math.min(options.minimumFractionDigits ?? 0, maximumFractionDigits),
    maximumFractionDigits,
  });
  return rebuild(formatter.formatToParts(value), lang);
}

export interface MoneyFormatOptions {
  /** ISO 4217 code, EUR by default. */
  currency?: string;
  /** Always two decimals ("25,00 €"), as orders and receipts show amounts. */
  fixed?: boolean;
}

/**
 * "25 €" / "25,50 €" in French, "€25" / "€25.50" in English: whole amounts without decimals,
 * others with two. `amount` is in currency units (euros), not cents.
 */
export function formatMoney(amount: number, locale: string = "fr", options: MoneyFormatOptions = {}): string {
  if (!Number.isFinite(amount)) return "";
  const lang = localeOf(locale);
  const whole = !options.fixed && Math.round(amount * 100) % 100 === 0;
  const formatter = numberFormat(INTL_LOCALES[lang], {
    style: "currency",
    currency: options.currency ?? "EUR",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  });
  return rebuild(formatter.formatToParts(amount), lang);
}

/** Same as formatMoney for an amount in cents (2550 → "25,50 €"). */
export function formatMoneyCents(cents: number, locale: string = "fr", options: MoneyFormatOptions = {}): string {
  return formatMoney(cents / 100, locale, options);
}

export interface DistanceFormatOptions {
  /** Decimals of kilometre values, 3 (metre precision) by default; trailing zeros are dropped. */
  maximumFractionDigits?: number;
}

/**
 * A distance given in metres: "42,195 km" / "42.195 km", "10 km"; under one kilometre in whole
 * metres: "800 m"; nothing at all in kilometres, the unit totals and races are counted in: "0 km".
 */
export function formatDistance(metres: number, locale: string = "fr", options: DistanceFormatOptions = {}): string {
  if (!Number.isFinite(metres)) return "";
  const rounded = Math.round(metres);
  if (rounded === 0) return `0${NBSP}km`;
  if (Math.abs(rounded) < 1000) return `${formatNumber(rounded, locale, { maximumFractionDigits: 0 })}${NBSP}m`;
  const km = formatNumber(metres / 1000, locale, { maximumFractionDigits: options.maximumFractionDigits ?? 3 });
  return `${km}${NBSP}km`;
}

/**
 * A course's distance to write beside its name, or null when the name already gives it ("Le 10 km",
 * "Trail des Cimes – 35 km", "Semi 21,1 km" for 21 097 m: a figure in km or m within 1 %, and
 * 100 m, of the distance) or the course has none.
 */
export function distanceBesideName(
  name: string,
  metres: number | null | undefined,
  locale: string = "fr",
  options: DistanceFormatOptions = {},
): string | null {
  if (!metres) return null;
  for (const [, figure = "", unit = ""] of name.matchAll(/(\d+(?:[.,]\d+)?)\s*(km|m)(?![\p{L}\d])/giu)) {
    const named = Number(figure.replace(",", ".")) * (unit.toLowerCase() === "km" ? 1000 : 1);
    if (Math.abs(named - metres) <= Math.max(100, metres * 0.01)) return null;
  }
  return formatDistance(metres, locale, options);
}

/** A distance given in kilometres (course distances): 42.195 → "42,195 km". */
export function formatKm(km: number, locale: string = "fr", options: DistanceFormatOptions = {}): string {
  return formatDistance(km * 1000, locale, options);
}

/**
 * Positive elevation gain in whole metres. French race notation puts "D+" first:
 * "D+ 1 200 m". English lists it after the value, "1,200 m D+", the form trail races in English
 * use, kept short for cards and tables.
 */
export function formatElevation(metres: number, locale: string = "fr"): string {
  if (!Number.isFinite(metres)) return "";
  const value = `${formatNumber(Math.round(metres), locale, { maximumFractionDigits: 0 })}${NBSP}m`;
  return localeOf(locale) === "en" ? `${value}${NBSP}D+` : `D+${NBSP}${value}`;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/**
 * A duration in seconds, rounded to the minute, in each language's usual short notation:
 * French "2 h 05", "6 h", "45 min"; English "2h 05m", "6h", "45 min" ("min" rather than "m"
 * under an hour, so it cannot be read as metres next to distances). Hours do not roll over into
 * days ("100 h"). "" when negative or not finite.
 */
export function formatDuration(seconds: number, locale: string = "fr"): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  const totalMinutes = Math.round(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes}${NBSP}min`;
  if (localeOf(locale) === "en") return minutes === 0 ? `${hours}h` : `${hours}h${NBSP}${pad2(minutes)}m`;
  return minutes === 0 ? `${hours}${NBSP}h` : `${hours}${NBSP}h${NBSP}${pad2(minutes)}`;
}

/** A finishing time as results tables show it in both languages: "2:05:09", "45:09" under an hour. */
export function formatRaceTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  return hours > 0 ? `${hours}:${pad2(minutes)}:${pad2(secs)}` : `${minutes}:${pad2(secs)}`;
}

/** A pace in seconds per kilometre: "4:30 /km" in both languages. */
export function formatPace(secondsPerKm: number): string {
  const time = formatRaceTime(secondsPerKm);
  return time ? `${time}${NBSP}/km` : "";
}
