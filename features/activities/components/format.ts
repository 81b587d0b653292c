/** Display helpers of the activity pages (dates in Paris time, pace from distance and time). */
import type { Locale } from "../../../shared/constants.ts";
import { formatPace } from "../../../shared/format.ts";

const tag = (locale: Locale) => (locale === "en" ? "en-GB" : "fr-FR");

/** "dim. 17 mai 2026, 09:30" / "Sun 17 May 2026, 09:30", in Paris time. */
export function formatActivityDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(tag(locale), {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Paris",
  }).format(new Date(iso));
}

/** The day alone, "dim. 17 mai 2026", in Paris time: an activity whose time is not known. */
export function formatActivityDay(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(tag(locale), {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "Europe/Paris",
  }).format(new Date(iso));
}

/**
 * When an activity was, as much as is known: day and time when recorded, the day alone when the
 * member gave it for a file without times, `unknown` (the caller's words) when neither is known.
 */
export function formatActivityStart(
  activity: { startedAt: string; startPrecision: "time" | "day" | "none" },
  locale: Locale,
  unknown: string,
): string {
  if (activity.startPrecision === "none") return unknown;
  return activity.startPrecision === "day"
    ? formatActivityDay(activity.startedAt, locale)
    : formatActivityDate(activity.startedAt, locale);
}

/** "09:30" in Paris time. */
export function formatClock(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(tag(locale), { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Paris" }).format(
    new Date(iso),
  );
}

/** "5:30 /km", or "" without a distance or a time. */
export function paceOf(distance: number, seconds: number | null): string {
  if (!seconds || distance < 100) return "";
  return formatPace(seconds / (distance / 1000));
}
