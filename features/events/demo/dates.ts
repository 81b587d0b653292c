/** Calendar helpers on ISO dates ("2025-06-14"), computed in UTC so that they never depend on the host's zone. */

const DAY = 86_400_000;

export function toIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function dayNumber(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / DAY);
}

export function fromDayNumber(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

export function addDays(iso: string, days: number): string {
  return fromDayNumber(dayNumber(iso) + days);
}

/** Same day of month `months` later (clamped to the month's last day). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number);
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, last));
  return toIsoDate(target);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(iso: string): number {
  return (((dayNumber(iso) + 4) % 7) + 7) % 7;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of a time zone from UTC at an instant, in minutes (Europe/Paris in summer: 120). */
function zoneOffsetMinutes(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((asUtc - instant) / 60_000);
}

const offsetCache = new Map<string, number>();

/** The instant of a local wall-clock time in a zone ("2025-06-14" 08:30 Europe/Paris → 06:30Z). */
export function zonedTime(iso: string, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.parse(`${iso}T00:00:00Z`) + (hour * 60 + minute) * 60_000;
  const key = `${timeZone}|${iso}|${hour}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    // First guess from the wall time read as UTC, then the offset at the instant it gives.
    offset = zoneOffsetMinutes(wall, timeZone);
    offset = zoneOffsetMinutes(wall - offset * 60_000, timeZone);
    offsetCache.set(key, offset);
  }
  return new Date(wall - offset * 60_000);
}
