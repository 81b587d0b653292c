/**
 * When races are held: a day drawn by month weight and moved to the preferred weekday, and the
 * start hour by sport (night races in the evening, ultra trails before dawn or at night).
 */
import type { Rng } from "../../platform/prng.ts";
import type { SportKey } from "../../shared/constants.ts";
import { addMonths, dayNumber, fromDayNumber, weekday } from "./dates.ts";

/** The start hour and minute of a series. */
export function hourOf(sport: SportKey, night: boolean, rng: Rng): [number, number] {
  const minute = rng.pick([0, 0, 15, 30, 30, 45]);
  if (night) return [rng.int(18, 20), minute];
  switch (sport) {
    case "ultra_trail":
      return rng.chance(0.3) ? [rng.int(21, 23), 0] : [rng.int(4, 7), minute];
    case "marathon":
    case "half_marathon":
      return [rng.int(8, 9), minute];
    case "trail":
    case "short_trail":
      return [rng.int(7, 9), minute];
    case "triathlon":
    case "ironman":
      return [rng.int(7, 13), minute];
    case "cycling":
      return [rng.int(7, 8), minute];
    default:
      return [rng.int(8, 10), minute];
  }
}

const segmentCache = new Map<string, [number, number, number][]>();

/** The calendar months overlapping [from, to], as [first day, last day, month number]. */
function monthSegments(from: number, to: number): [number, number, number][] {
  const key = `${from}|${to}`;
  let segments = segmentCache.get(key);
  if (!segments) {
    segments = [];
    for (let start = from; start <= to; ) {
      const iso = fromDayNumber(start);
      const end = Math.min(to, dayNumber(addMonths(`${iso.slice(0, 8)}01`, 1)) - 1);
      segments.push([start, end, Number(iso.slice(5, 7))]);
      start = end + 1;
    }
    if (segmentCache.size > 100) segmentCache.clear();
    segmentCache.set(key, segments);
  }
  return segments;
}

/** A day in [from, to] drawn by month weight, moved to the preferred weekday when it stays in range. */
export function pickDay(
  rng: Rng,
  from: number,
  to: number,
  monthWeight: (month: number) => number,
  preferredWeekday: number,
): number {
  const months = monthSegments(from, to).map(([a, b, month]) => [[a, b], monthWeight(month) * (b - a + 1)] as const);
  const [a, b] = months.some(([, w]) => w > 0) ? rng.weighted(months) : [from, to];
  let day = rng.int(a, b);
  if (rng.chance(0.9)) {
    let shift = preferredWeekday - weekday(fromDayNumber(day));
    if (shift > 3) shift -= 7;
    if (shift < -3) shift += 7;
    if (day + shift < from) shift += 7;
    if (day + shift > to) shift -= 7;
    if (day + shift >= from && day + shift <= to) day += shift;
  }
  return day;
}
