/**
 * A small iCalendar (RFC 5545) writer for race entries, all-day or at an instant in UTC: CRLF line
 * ends, lines folded at 75 octets without splitting a UTF-8 character, TEXT values escaped, DTEND
 * exclusive. What a race's entry holds is decided in one place, race-ics.ts.
 */

export type IcsStatus = "CONFIRMED" | "TENTATIVE" | "CANCELLED";

export type IcsEvent = {
  /** Globally unique and stable for the race, e.g. "course-42@dossard" (race-ics.ts). */
  uid: string;
  summary: string;
  /** First day, "YYYY-MM-DD". */
  start: string;
  /** Last day (inclusive), "YYYY-MM-DD"; DTEND is written as the day after. */
  end?: string;
  /** A start time: DTSTART and DTEND are these instants in UTC instead of whole days. */
  startAt?: Date;
  endAt?: Date;
  location?: string | null;
  description?: string | null;
  url?: string | null;
  geo?: { lat: number; lng: number } | null;
  categories?: readonly string[];
  status?: IcsStatus;
  /** TRANSP: false when the entry takes the reader's time (OPAQUE); true by default. */
  transparent?: boolean;
  lastModified?: Date | null;
  created?: Date | null;
};

export type IcsCalendar = {
  /** PRODID, e.g. "-//Dossard//Calendrier des courses//FR". */
  prodId: string;
  /** Feed title (X-WR-CALNAME and NAME). */
  name?: string;
  description?: string;
  /** DTSTAMP of every event: when the feed was generated. */
  stamp: Date;
  /** How often calendar apps should refresh the feed, in hours. */
  refreshHours?: number;
  events: readonly IcsEvent[];
};

const MAX_OCTETS = 75;

/** UTF-8 length of one code point. */
function octetsOf(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** Escapes a TEXT value: backslash, semicolon, comma and line breaks (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not allowed in TEXT values
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\r\n|\r|\n/g, "\\n")
  );
}

/**
 * Folds a content line: at most 75 octets per physical line (the leading space of a
 * continuation line counts), never inside a UTF-8 sequence (RFC 5545 §3.1).
 */
export function foldLine(line: string): string {
  // At most 3 octets per UTF-16 unit: short lines need no counting.
  if (line.length * 3 <= MAX_OCTETS) return line;
  const parts: string[] = [];
  let start = 0;
  let octets = 0;
  let index = 0;
  for (const char of line) {
    const size = octetsOf(char.codePointAt(0) as number);
    const limit = parts.length === 0 ? MAX_OCTETS : MAX_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(line.slice(start, index));
      start = index;
      octets = 0;
    }
    octets += size;
    index += char.length;
  }
  if (parts.length === 0) return line;
  parts.push(line.slice(start));
  return parts.join("\r\n ");
}

/** "2026-06-01" → "20260601". */
export function icsDate(isoDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new RangeError(`Not a date: ${isoDate}`);
  return isoDate.replaceAll("-", "");
}

/** The calendar day after "YYYY-MM-DD", for an exclusive DTEND. */
export function nextDay(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** A UTC date-time: "20260601T100000Z". */
export function icsDateTime(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

function eventLines(event: IcsEvent, stamp: Date): string[] {
  const lines = [
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${icsDateTime(stamp)}`,
    ...(event.startAt
      ? [`DTSTART:${icsDateTime(event.startAt)}`, `DTEND:${icsDateTime(event.endAt ?? event.startAt)}`]
      : [
          `DTSTART;VALUE=DATE:${icsDate(event.start)}`,
          `DTEND;VALUE=DATE:${icsDate(nextDay(event.end && event.end > event.start ? event.end : event.start))}`,
        ]),
    `SUMMARY:${escapeText(event.summary)}`,
  ];
  if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`);
  if (event.geo && Number.isFinite(event.geo.lat) && Number.isFinite(event.geo.lng)) {
    lines.push(`GEO:${event.geo.lat.toFixed(6)};${event.geo.lng.toFixed(6)}`);
  }
  if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
  if (event.url) lines.push(`URL:${event.url.replace(/[\r\n]/g, "")}`);
  if (event.categories?.length) lines.push(`CATEGORIES:${event.categories.map(escapeText).join(",")}`);
  if (event.status) lines.push(`STATUS:${event.status}`);
  lines.push(event.transparent === false ? "TRANSP:OPAQUE" : "TRANSP:TRANSPARENT");
  if (event.created) lines.push(`CREATED:${icsDateTime(event.created)}`);
  if (event.lastModified) lines.push(`LAST-MODIFIED:${icsDateTime(event.lastModified)}`);
  lines.push("END:VEVENT");
  return lines;
}

/** The whole VCALENDAR, lines folded and ended with CRLF. */
export function toIcs(calendar: IcsCalendar): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", `PRODID:${calendar.prodId}`, "CALSCALE:GREGORIAN", "METHOD:PUBLISH"];
  if (calendar.name) lines.push(`NAME:${escapeText(calendar.name)}`, `X-WR-CALNAME:${escapeText(calendar.name)}`);
  if (calendar.description) {
    lines.push(`DESCRIPTION:${escapeText(calendar.description)}`, `X-WR-CALDESC:${escapeText(calendar.description)}`);
  }
  if (calendar.refreshHours) {
    lines.push(
      `REFRESH-INTERVAL;VALUE=DURATION:PT${calendar.refreshHours}H`,
      `X-PUBLISHED-TTL:PT${calendar.refreshHours}H`,
    );
  }
  for (const event of calendar.events) lines.push(...eventLines(event, calendar.stamp));
  lines.push("END:VCALENDAR");
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
