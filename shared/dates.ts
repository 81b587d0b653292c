/**
 * Date display and calendar-date helpers (spec section 9 "Date display", section 5 "Output:
 * YYYY-MM-DD").
 *
 * Calendar dates (race days, ranges) are days, not instants. They travel as "YYYY-MM-DD" strings
 * and, in memory, as Date objects at local midnight read with local getters, so no time-zone
 * offset can move them to the previous or next day. Never build them with `new Date("2026-06-14")`,
 * which means UTC midnight and shows as 13 June west of Greenwich; use parseIsoDate.
 */
import { differenceInCalendarDays, format, isValid, startOfDay } from "date-fns";
import type { Locale as DateFnsLocale } from "date-fns/locale";
import { enGB } from "date-fns/locale/en-GB";
import { fr } from "date-fns/locale/fr";
import type { Locale } from "./constants.ts";

/** Spec: "Default date locale: French." */
export const DEFAULT_DATE_LOCALE: Locale = "fr";

/** English is British English: day before month, 24-hour clock, weeks from Monday. */
export const DATE_FNS_LOCALES = { fr, en: enGB } as const satisfies Record<Locale, DateFnsLocale>;

/** The date-fns locale of a language code ("en", "en-GB", "fr-FR"…); French for anything else. */
export function dateFnsLocale(locale: string = DEFAULT_DATE_LOCALE): DateFnsLocale {
  return locale.toLowerCase().startsWith("en") ? enGB : fr;
}

function isEnglish(locale: string): boolean {
  return locale.toLowerCase().startsWith("en");
}

/** A calendar date: "YYYY-MM-DD", a full ISO date-time (read as local time), or a Date. */
export type CalendarDateInput = Date | string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Strict "YYYY-MM-DD" to local midnight; null for anything else or an impossible day (2026-02-30). */
export function parseIsoDate(value: string): Date | null {
  const match = ISO_DATE.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  date.setFullYear(year); // the Date constructor maps years 0-99 to 1900-1999
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/** "YYYY-MM-DD" of the local calendar day of a Date. */
export function formatIsoDate(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, "0");
  const m = String(date.getMonth() + 1).padStart(2, "0");
  const d = String(date.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/**
 * The calendar day of a Date built at UTC midnight (`new Date("2026-06-14")`, a JSON date):
 * reads its UTC fields, so west of Greenwich it does not fall on the day before.
 */
export function fromUtcMidnight(date: Date): Date {
  const local = new Date(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  local.setFullYear(date.getUTCFullYear());
  return local;
}

/** Any calendar date input to local midnight of its day; null when invalid or absent. */
export function toCalendarDate(input: CalendarDateInput | null | undefined): Date | null {
  if (input === null || input === undefined) return null;
  if (input instanceof Date) return isValid(input) ? startOfDay(input) : null;
  const iso = parseIsoDate(input);
  if (iso) return iso;
  // Only ISO date-times: other strings parse differently from one JavaScript engine to another.
  if (!ISO_DATE_TIME.test(input)) return null;
  const parsed = new Date(input);
  return isValid(parsed) ? startOfDay(parsed) : null;
}

/** Today's calendar day as "YYYY-MM-DD". */
export function todayIso(now: Date = new Date()): string {
  return formatIsoDate(now);
}

/** Compact date of the spec: "14/06/26" (dd/MM/yy) in French, "26-06-14" (yy-MM-dd) in English. */
export function formatCompactDate(
  input: CalendarDateInput | null | undefined,
  locale: string = DEFAULT_DATE_LOCALE,
): string {
  const date = toCalendarDate(input);
  if (!date) return "";
  return format(date, isEnglish(locale) ? "yy-MM-dd" : "dd/MM/yy");
}

/**
 * Long date: "samedi 13 juin 2026" (French writes the first of the month "1er") and
 * "Saturday 13 June 2026" (British order, no comma).
 */
export function formatLongDate(
  input: CalendarDateInput | null | undefined,
  locale: string = DEFAULT_DATE_LOCALE,
): string {
  const date = toCalendarDate(input);
  if (!date) return "";
  if (isEnglish(locale)) return format(date, "EEEE d MMMM yyyy", { locale: enGB });
  return format(date, date.getDate() === 1 ? "EEEE '1er' MMMM yyyy" : "EEEE d MMMM yyyy", { locale: fr });
}

/** Separator between the two dates of a range: a no-break space keeps the dash off a line start. */
export const RANGE_SEPARATOR = "\u00a0– ";
/** Joins two days of the same month: an en dash, unspaced. */
export const DAY_RANGE_DASH = "–";

/**
 * Short range label, sharing the common part once (the part written on the right in French,
 * on the left in English's big-endian yy-MM-dd):
 *
 * | range                   | French               | English              |
 * |-------------------------|----------------------|----------------------|
 * | one day                 | 14/06/26             | 26-06-14             |
 * | same month              | 14–15/06/26          | 26-06-14–15          |
 * | same year               | 14/06 – 02/07/26     | 26-06-14 – 07-02     |
 * | different years         | 28/12/26 – 03/01/27  | 26-12-28 – 27-01-03  |
 *
 * Reversed ends are swapped; a missing end (or start) gives the one-day label.
 */
export function formatDateRange(
  startInput: CalendarDateInput | null | undefined,
  endInput: CalendarDateInput | null | undefined,
  locale: string = DEFAULT_DATE_LOCALE,
): string {
  let start = toCalendarDate(startInput);
  let end = toCalendarDate(endInput);
  if (!start) [start, end] = [end, null];
  if (!start) return "";
  if (!end || end.getTime() === start.getTime()) return formatCompactDate(start, locale);
  if (end < start) [start, end] = [end, start];

  const sameYear = start.getFullYear() === end.getFullYear();
  const sameMonth = sameYear && start.getMonth() === end.getMonth();
  if (isEnglish(locale)) {
    if (sameMonth) return `${format(start, "yy-MM-dd")}${DAY_RANGE_DASH}${format(end, "dd")}`;
    if (sameYear) return `${format(start, "yy-MM-dd")}${RANGE_SEPARATOR}${format(end, "MM-dd")}`;
    return `${format(start, "yy-MM-dd")}${RANGE_SEPARATOR}${format(end, "yy-MM-dd")}`;
  }
  if (sameMonth) return `${format(start, "dd")}${DAY_RANGE_DASH}${format(end, "dd/MM/yy")}`;
  if (sameYear) return `${format(start, "dd/MM")}${RANGE_SEPARATOR}${format(end, "dd/MM/yy")}`;
  return `${format(start, "dd/MM/yy")}${RANGE_SEPARATOR}${format(end, "dd/MM/yy")}`;
}

/**
 * A date as pages show it in running text and labels: the spec's compact form in French
 * ("19/12/26"), and in English what English readers read at a glance ("Sat 19 Dec 2026") rather
 * than the spec component's big-endian "26-12-19".
 */
export function formatPageDate(
  input: CalendarDateInput | null | undefined,
  locale: string = DEFAULT_DATE_LOCALE,
): string {
  const date = toCalendarDate(input);
  if (!date) return "";
  return isEnglish(locale) ? format(date, "EEE d MMM yyyy", { locale: enGB }) : formatCompactDate(date, locale);
}

/**
 * A range for labels (filter chips): French keeps the spec's compact range ("01–30/06/27"),
 * English shares what it can ("1–30 Jun 2027", "28 Nov – 3 Dec 2026", "28 Dec 2026 – 3 Jan 2027").
 */
export function formatPageDateRange(
  startInput: CalendarDateInput | null | undefined,
  endInput: CalendarDateInput | null | undefined,
  locale: string = DEFAULT_DATE_LOCALE,
): string {
  if (!isEnglish(locale)) return formatDateRange(startInput, endInput, locale);
  let start = toCalendarDate(startInput);
  let end = toCalendarDate(endInput);
  if (!start) [start, end] = [end, null];
  if (!start) return "";
  if (!end || end.getTime() === start.getTime()) return formatPageDate(start, locale);
  if (end < start) [start, end] = [end, start];
  const dfl = { locale: enGB };
  if (start.getFullYear() !== end.getFullYear()) {
    return `${format(start, "d MMM yyyy", dfl)}${RANGE_SEPARATOR}${format(end, "d MMM yyyy", dfl)}`;
  }
  if (start.getMonth() === end.getMonth())
    return `${format(start, "d", dfl)}${DAY_RANGE_DASH}${format(end, "d MMM yyyy", dfl)}`;
  return `${format(start, "d MMM", dfl)}${RANGE_SEPARATOR}${format(end, "d MMM yyyy", dfl)}`;
}

/** An ISO day ("2026-06-13") moved by `days` calendar days, as an ISO day (UTC arithmetic, no DST). */
export function addIsoDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier), whatever the hours. */
export function daysBetween(from: CalendarDateInput, to: CalendarDateInput): number {
  const a = toCalendarDate(from);
  const b = toCalendarDate(to);
  if (!a || !b) throw new RangeError(`Invalid calendar date: ${String(a ? to : from)}`);
  return differenceInCalendarDays(b, a);
}

/** Days left until a date: 0 today, 1 tomorrow, negative once past. */
export function daysUntil(date: CalendarDateInput, now: Date = new Date()): number {
  return daysBetween(now, date);
}

/** "aujourd’hui", "demain", "dans 3 jours", "il y a 2 jours" / "today", "tomorrow", "in 3 days", "2 days ago". */
export function formatRelativeDays(days: number, locale: string = DEFAULT_DATE_LOCALE): string {
  return new Intl.RelativeTimeFormat(isEnglish(locale) ? "en-GB" : "fr-FR", { numeric: "auto" }).format(days, "day");
}
