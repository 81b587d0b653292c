/**
 * One race, one calendar entry (decision 022): every iCalendar file the site sends — an event's
 * .ics, the search feed, a member's private planning feed — writes a race (a course) with this
 * builder, so that a calendar which imports several of them shows the race once.
 *
 * - UID per course, `course-<id>@<host>`: a member plans a course, and an event of three races is
 *   three entries (`event-<id>@<host>` only for an event without any course).
 * - STATUS from the event's state alone: CANCELLED once cancelled; CONFIRMED when its date is
 *   confirmed or it was postponed to a new date its organiser set; TENTATIVE otherwise. A member's
 *   own status (planned, registered) is said in the description, never in STATUS.
 * - SUMMARY "<event> — <distance, else duration, else the course's name>", prefixed when cancelled.
 * - When: the course's start as an instant in UTC when it has a time (DTEND: the member's target,
 *   else the race's duration, else an hour later); else the whole day of the course; else the
 *   event's days. No floating time, so no VTIMEZONE.
 */
import enSearch from "../../locales/en/search.json";
import frSearch from "../../locales/fr/search.json";
import type { Locale } from "../../shared/constants.ts";
import { formatDistance, formatDuration, formatElevation } from "../../shared/format.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { formatClock, hasStartTime, zonedIsoDate } from "./components/event-format.ts";
import type { IcsEvent, IcsStatus } from "./ics.ts";

const CANCELLED_TITLE = { fr: frSearch.ics.cancelledSummary, en: enSearch.ics.cancelledSummary } as const;

/** What a race's entry says of its event. */
export type RaceEvent = {
  id: number;
  slug: string;
  name: string;
  /** First and last day, "YYYY-MM-DD". */
  startDate: string;
  endDate: string;
  cancelled: boolean;
  postponed: boolean;
  dateConfirmed: boolean;
  /** The venue, the street address, the post code and town: LOCATION, in that order. */
  place: string | null;
  address: string | null;
  zipcode: string | null;
  city: string | null;
  lat: number | null;
  lng: number | null;
  /** IANA zone of the place (course times are instants; their day is read there). */
  timeZone: string;
  /** The sport's name in the file's language (CATEGORIES). */
  sport?: string | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
};

/** What it says of the course. */
export type RaceCourse = {
  id: number;
  name: string;
  /** Metres; null for a timed race. */
  distance: number | null;
  /** Seconds, for timed races. */
  duration: number | null;
  elevationGain?: number | null;
  /** ISO instant; local midnight when only the day is known; null when not even that. */
  startAt: string | Date | null;
};

export type RaceIcsOptions = {
  locale: Locale;
  /** The site's public origin (the configured one when omitted): URL and the UIDs' host. */
  origin?: string;
  /** Lines of the description after the course's own line (the event's text, a member's status…). */
  notes?: readonly (string | null | undefined)[];
  /** Seconds from the start to DTEND for a course with a start time (a member's target time). */
  expectedSeconds?: number | null;
  /** The entry takes the reader's time (a member's planning): TRANSP OPAQUE rather than TRANSPARENT. */
  busy?: boolean;
  lastModified?: Date | null;
};

/** STATUS from the event's state (see the file's comment). */
export function raceStatus(event: Pick<RaceEvent, "cancelled" | "postponed" | "dateConfirmed">): IcsStatus {
  // A postponed event has its new date set by its organiser: that date is confirmed.
  return event.cancelled ? "CANCELLED" : event.dateConfirmed || event.postponed ? "CONFIRMED" : "TENTATIVE";
}

/** "42,195 km", else "24 h", else the course's name. */
function courseLabel(course: RaceCourse, locale: Locale): string {
  if (course.distance) return formatDistance(course.distance, locale, { maximumFractionDigits: 1 });
  if (course.duration) return formatDuration(course.duration, locale);
  return course.name;
}

/** "Grand trail · 42,195 km · D+ 2 100 m · 07:30": the course on one line. */
function courseLine(course: RaceCourse, locale: Locale, timeZone: string): string {
  const parts = [course.name];
  if (course.distance !== null) parts.push(formatDistance(course.distance, locale));
  else if (course.duration !== null) parts.push(formatDuration(course.duration, locale));
  if (course.elevationGain) parts.push(formatElevation(course.elevationGain, locale));
  if (hasStartTime(course.startAt, timeZone)) parts.push(formatClock(course.startAt, timeZone));
  return parts.join(" · ");
}

const HOUR = 3600;

/** When the race takes place: an instant and its end, or whole days. */
function when(
  event: RaceEvent,
  course: RaceCourse | null,
  expectedSeconds: number | null | undefined,
): Pick<IcsEvent, "start" | "end" | "startAt" | "endAt"> {
  if (course && hasStartTime(course.startAt, event.timeZone)) {
    const start = new Date(course.startAt);
    const seconds = expectedSeconds ?? course.duration ?? HOUR;
    const day = zonedIsoDate(start, event.timeZone);
    return { start: day, startAt: start, endAt: new Date(start.getTime() + seconds * 1000) };
  }
  if (course?.startAt) {
    const day = zonedIsoDate(course.startAt, event.timeZone);
    return { start: day, end: day };
  }
  return { start: event.startDate, end: event.endDate };
}

/** The entry of one race (or of an event without any course, `course` null). */
export function raceIcsEvent(event: RaceEvent, course: RaceCourse | null, options: RaceIcsOptions): IcsEvent {
  const { locale } = options;
  const url = options.origin
    ? publicUrl(pagePath("event", locale, { slug: event.slug }), options.origin)
    : publicUrl(pagePath("event", locale, { slug: event.slug }));
  const host = new URL(url).hostname;
  const title = course ? `${event.name} — ${courseLabel(course, locale)}` : event.name;
  const town = [event.zipcode, event.city].filter(Boolean).join(" ");
  const location = [event.place, event.address, town].filter(Boolean).join(", ");
  return {
    uid: course ? `course-${course.id}@${host}` : `event-${event.id}@${host}`,
    summary: event.cancelled ? CANCELLED_TITLE[locale].replace("{{name}}", title) : title,
    status: raceStatus(event),
    ...when(event, course, options.expectedSeconds),
    location: location || null,
    geo: event.lat !== null && event.lng !== null ? { lat: Number(event.lat), lng: Number(event.lng) } : null,
    description: [course ? courseLine(course, locale, event.timeZone) : null, ...(options.notes ?? []), url]
      .filter(Boolean)
      .join("\n"),
    url,
    categories: event.sport ? [event.sport] : [],
    transparent: !options.busy,
    created: event.createdAt ?? null,
    lastModified: options.lastModified ?? event.updatedAt ?? null,
  };
}

/** Every race of an event, in the courses' order; the event itself when it has none. */
export function eventIcsEvents(
  event: RaceEvent,
  courses: readonly RaceCourse[],
  options: Omit<RaceIcsOptions, "expectedSeconds" | "busy">,
): IcsEvent[] {
  if (courses.length === 0) return [raceIcsEvent(event, null, options)];
  return courses.map((course) => raceIcsEvent(event, course, options));
}
