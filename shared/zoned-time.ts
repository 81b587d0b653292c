/** Wall-clock times in a time zone, and today's date in France, where the races are. */

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

/** Built once: creating an Intl formatter costs ~0.1 ms. */
const PARIS_DAY = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" });

/** Today's calendar date in France ("2026-11-24"). */
export function parisToday(now = new Date()): string {
  return PARIS_DAY.format(now);
}
