/**
 * Dates and times of the event page. Times are instants shown in the race's time zone, whatever the
 * reader's: a start at 07:30 in Chamonix reads 07:30 everywhere. Intl only splits the instant into
 * numbers (the same on every engine); the words come from date-fns, so the server and the browser
 * render the same text.
 */
import { format } from "date-fns";
import type { Locale } from "../../../shared/constants.ts";
import { DATE_FNS_LOCALES, formatLongDate, parseIsoDate } from "../../../shared/dates.ts";

export type ZonedParts = { year: number; month: number; day: number; hour: number; minute: number };

const partFormatters = new Map<string, Intl.DateTimeFormat>();

/** Calendar fields of an instant in a time zone. */
export function zonedParts(instant: string | Date, timeZone: string): ZonedParts {
  let formatter = partFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    partFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(
    formatter.formatToParts(typeof instant === "string" ? new Date(instant) : instant).map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
  };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "YYYY-MM-DD" of an instant in a time zone. */
export function zonedIsoDate(instant: string | Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** "07:30" in both languages (24-hour clock). */
/**
 * Whether a course's start carries a time: the editor stores a course without one at midnight,
 * local time (nobody starts a race at 00:00 sharp; a 24-hour race starting then gives a time).
 */
export function hasStartTime(instant: string | Date | null, timeZone: string): instant is string | Date {
  if (!instant) return false;
  const p = zonedParts(instant, timeZone);
  return p.hour !== 0 || p.minute !== 0;
}

export function formatClock(instant: string | Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${pad(p.hour)}:${pad(p.minute)}`;
}

/** "sam. 13 juin" / "Sat 13 June": a day close to the event, in course lists. */
export function formatShortDay(isoDate: string, locale: Locale): string {
  const date = parseIsoDate(isoDate);
  if (!date) return "";
  return format(date, "EEE d MMMM", { locale: DATE_FNS_LOCALES[locale] });
}

/**
 * "samedi 13 juin 2026", or for several days "du samedi 13 au dimanche 14 juin 2026" /
 * "Saturday 13 to Sunday 14 June 2026", sharing the month and year when they are the same.
 */
export function formatLongDateRange(start: string, end: string, locale: Locale): string {
  if (!end || end === start) return formatLongDate(start, locale);
  const a = parseIsoDate(start);
  const b = parseIsoDate(end);
  if (!a || !b) return formatLongDate(start, locale);
  const dfl = { locale: DATE_FNS_LOCALES[locale] };
  const sameYear = a.getFullYear() === b.getFullYear();
  const sameMonth = sameYear && a.getMonth() === b.getMonth();
  const day = (d: Date) => (locale === "fr" && d.getDate() === 1 ? "'1er'" : "d");
  const first = sameMonth
    ? format(a, `EEEE ${day(a)}`, dfl)
    : sameYear
      ? format(a, `EEEE ${day(a)} MMMM`, dfl)
      : formatLongDate(a, locale);
  const last = formatLongDate(b, locale);
  return locale === "en" ? `${first} to ${last}` : `du ${first} au ${last}`;
}

/** The UTC offset of a time zone at an instant, "+02:00". */
export function utcOffset(instant: string | Date, timeZone: string): string {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  const p = zonedParts(date, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  const minutes = Math.round((asUtc - Math.floor(date.getTime() / 60_000) * 60_000) / 60_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An instant as local ISO date-time with its offset, "2026-06-13T07:30:00+02:00" (schema.org dates). */
export function zonedIsoDateTime(instant: string | Date, timeZone: string): string {
  const p = zonedParts(instant, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:00${utcOffset(instant, timeZone)}`;
}
