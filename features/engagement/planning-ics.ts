import type { Locale } from "../../shared/constants.ts";
import { formatDistance, formatDuration } from "../../shared/format.ts";
import { createI18n } from "../../shared/i18n/index.ts";
import { escapeText, foldLine, icsDate, icsDateTime, nextDay } from "../events/ics.ts";
import type { CalendarEntry } from "./engagement.contract.ts";

/** Europe/Paris since 1996 (EU rules): last Sunday of March and of October. */
const PARIS_VTIMEZONE = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Paris",
  "X-LIC-LOCATION:Europe/Paris",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "TZNAME:CEST",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "TZNAME:CET",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE",
];

const parisParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Paris",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/** An instant as Paris wall-clock time: "20260614T090000". */
export function parisLocal(date: Date): string {
  const part = Object.fromEntries(parisParts.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part.year}${part.month}${part.day}T${part.hour}${part.minute}${part.second}`;
}

/** The feed's words, from the engagement catalogue (calendar apps show them as they are). */
const translators = { fr: createI18n("fr"), en: createI18n("en") };

export type PlanningIcsEntry = CalendarEntry & { address: string | null; updatedAt: Date };

/**
 * A member's planning as an iCalendar feed (RFC 5545) that calendar apps subscribe to: one VEVENT
 * per planned course, at its start time in Europe/Paris when known (for the target time, else the
 * race's duration, else an hour), all day otherwise; cancelled races say so.
 */
export function planningIcs(
  entries: readonly PlanningIcsEntry[],
  options: { locale: Locale; now: Date; host: string; eventUrl: (slug: string) => string },
): string {
  const t = translators[options.locale].t;
  const name = t("engagement:ics.name");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//Dossard//${name}//${options.locale.toUpperCase()}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `NAME:${escapeText(name)}`,
    `X-WR-CALNAME:${escapeText(name)}`,
    `X-WR-CALDESC:${escapeText(t("engagement:ics.description"))}`,
    "X-WR-TIMEZONE:Europe/Paris",
    "REFRESH-INTERVAL;VALUE=DURATION:PT6H",
    "X-PUBLISHED-TTL:PT6H",
    ...PARIS_VTIMEZONE,
  ];
  for (const entry of entries) {
    if (entry.shown === "dns") continue;
    const { course, event } = entry;
    const distance = course.distance ? formatDistance(course.distance, options.locale) : null;
    const summary = [event.name, distance ?? course.name].join(" — ");
    const url = options.eventUrl(event.slug);
    const description = [
      `${course.name}${distance && course.name !== distance ? ` (${distance})` : ""}`,
      t(`engagement:plan.statuses.${entry.shown}`),
      entry.targetTime ? t("engagement:ics.target", { time: formatDuration(entry.targetTime, options.locale) }) : null,
      t("engagement:ics.page", { url }),
    ]
      .filter(Boolean)
      .join("\n");
    lines.push("BEGIN:VEVENT", `UID:course-${entry.courseId}@${options.host}`, `DTSTAMP:${icsDateTime(options.now)}`);
    if (course.startAt) {
      const start = new Date(course.startAt);
      const seconds = entry.targetTime ?? course.duration ?? 3600;
      lines.push(
        `DTSTART;TZID=Europe/Paris:${parisLocal(start)}`,
        `DTEND;TZID=Europe/Paris:${parisLocal(new Date(start.getTime() + seconds * 1000))}`,
      );
    } else {
      lines.push(
        `DTSTART;VALUE=DATE:${icsDate(event.startDate)}`,
        `DTEND;VALUE=DATE:${icsDate(nextDay(event.endDate > event.startDate ? event.endDate : event.startDate))}`,
      );
    }
    lines.push(`SUMMARY:${escapeText(summary)}`);
    const location = [event.city, event.departmentCode && `(${event.departmentCode})`].filter(Boolean).join(" ");
    const place = [entry.address, location].filter(Boolean).join(", ");
    if (place) lines.push(`LOCATION:${escapeText(place)}`);
    lines.push(`DESCRIPTION:${escapeText(description)}`, `URL:${url.replace(/[\r\n]/g, "")}`);
    lines.push(
      `STATUS:${event.cancelled ? "CANCELLED" : entry.shown === "planned" ? "TENTATIVE" : "CONFIRMED"}`,
      "TRANSP:OPAQUE",
      `LAST-MODIFIED:${icsDateTime(entry.updatedAt)}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
