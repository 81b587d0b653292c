/**
 * Pure rules of the date-range picker (spec §5 "Date-range picker", §9 "Quick ranges", "Date display").
 * Dates are handled as local calendar days; the wire format is always "YYYY-MM-DD".
 */
import {
  addMonths,
  addWeeks,
  addYears,
  endOfISOWeek,
  endOfMonth,
  isAfter,
  isBefore,
  startOfDay,
  startOfISOWeek,
  startOfMonth,
} from "date-fns";
import { QUICK_RANGES, type QuickRange } from "../constants.ts";

/** Earliest selectable day when neither minDate nor future=true says otherwise. */
export const DEFAULT_MIN_DATE = "2017-01-01";
/** How far ahead a future-only picker reaches. */
export const FUTURE_YEARS = 5;

export type DateRange = { start: Date; end: Date };
/** What the picker emits: both ends as "YYYY-MM-DD" (equal in single mode). */
export type DateRangeOutput = { startDate: string; endDate: string };
type LooseDate = Date | string | null | undefined;
/** Accepted input forms: a [start, end] pair, "start|end", or { startDate, endDate }. */
export type DateRangeValue =
  | readonly [LooseDate, LooseDate]
  | string
  | { startDate?: LooseDate; endDate?: LooseDate }
  | null
  | undefined;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Local calendar day of a Date as "YYYY-MM-DD". */
export function toIsoDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "YYYY-MM-DD" (or a Date) to a local midnight Date; null when it is not a real calendar day. */
export function parseIsoDate(value: LooseDate): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : startOfDay(value);
  if (typeof value !== "string") return null;
  const match = ISO_DATE.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  date.setFullYear(year); // years 0-99 would otherwise map to 1900-1999
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date;
}

/** Any accepted value form to a {start, end} range (ends swapped if reversed); null when empty or invalid. */
export function parseRangeValue(value: DateRangeValue): DateRange | null {
  if (value == null || value === "") return null;
  let startRaw: LooseDate;
  let endRaw: LooseDate;
  if (typeof value === "string") {
    const [a, b] = value.split("|");
    startRaw = a;
    endRaw = b ?? a;
  } else if (Array.isArray(value)) {
    [startRaw, endRaw] = value as readonly [LooseDate, LooseDate];
  } else {
    const object = value as { startDate?: LooseDate; endDate?: LooseDate };
    startRaw = object.startDate;
    endRaw = object.endDate;
  }
  const start = parseIsoDate(startRaw);
  const end = parseIsoDate(endRaw ?? startRaw) ?? start;
  if (!start || !end) return null;
  return isAfter(start, end) ? { start: end, end: start } : { start, end };
}

export function toRangeOutput(range: DateRange): DateRangeOutput {
  return { startDate: toIsoDate(range.start), endDate: toIsoDate(range.end) };
}

export type BoundsOptions = {
  today: Date;
  /** true: from today to today + 5 years; false: up to today; undefined: no future restriction. */
  future?: boolean;
  minDate?: LooseDate;
  maxDate?: LooseDate;
};

/**
 * Selectable bounds. An explicit minDate/maxDate wins; otherwise future=true starts today,
 * everything else starts on 2017-01-01; future=true ends 5 years after today, future=false ends today.
 */
export function dateBounds({ today, future, minDate, maxDate }: BoundsOptions): { min: Date; max: Date | null } {
  const day = startOfDay(today);
  const min = parseIsoDate(minDate) ?? (future === true ? day : (parseIsoDate(DEFAULT_MIN_DATE) as Date));
  const explicitMax = parseIsoDate(maxDate);
  let max: Date | null = explicitMax;
  if (!max && future === true) max = addYears(day, FUTURE_YEARS);
  if (!max && future === false) max = day;
  return { min, max };
}

/** Keeps a range inside the bounds; null when nothing of it is selectable. */
export function clampRange(range: DateRange, bounds: { min: Date; max: Date | null }): DateRange | null {
  const start = isBefore(range.start, bounds.min) ? bounds.min : range.start;
  const end = bounds.max && isAfter(range.end, bounds.max) ? bounds.max : range.end;
  return isAfter(start, end) ? null : { start, end };
}

/** The calendar period a shortcut names, with ISO weeks (Monday to Sunday). */
export function quickRange(key: QuickRange, today: Date): DateRange {
  const day = startOfDay(today);
  const week = (offset: number): DateRange => {
    const ref = addWeeks(day, offset);
    return { start: startOfISOWeek(ref), end: startOfDay(endOfISOWeek(ref)) };
  };
  const month = (offset: number): DateRange => {
    const ref = addMonths(startOfMonth(day), offset);
    return { start: startOfMonth(ref), end: startOfDay(endOfMonth(ref)) };
  };
  switch (key) {
    case "this_week":
      return week(0);
    case "next_week":
      return week(1);
    case "previous_week":
      return week(-1);
    case "this_month":
      return month(0);
    case "next_month":
      return month(1);
    case "previous_month":
      return month(-1);
  }
}

/** Past-only mode (future === false) hides next_*; the default and future modes hide previous_*. */
export function visibleQuickRanges(future: boolean | undefined): QuickRange[] {
  const hidden = future === false ? "next_" : "previous_";
  return QUICK_RANGES.filter((key) => !key.startsWith(hidden));
}

/** A shortcut's range as the picker would apply it (clamped to the bounds); null when out of bounds. */
export function resolvedQuickRange(
  key: QuickRange,
  today: Date,
  bounds: { min: Date; max: Date | null },
): DateRange | null {
  return clampRange(quickRange(key, today), bounds);
}

export function sameRange(a: DateRange | null, b: DateRange | null): boolean {
  if (!a || !b) return false;
  return toIsoDate(a.start) === toIsoDate(b.start) && toIsoDate(a.end) === toIsoDate(b.end);
}

/** The visible shortcut the current range equals, if any (it gets highlighted). */
export function matchingQuickRange(
  range: DateRange | null,
  keys: readonly QuickRange[],
  today: Date,
  bounds: { min: Date; max: Date | null },
): QuickRange | null {
  if (!range) return null;
  return keys.find((key) => sameRange(range, resolvedQuickRange(key, today, bounds))) ?? null;
}

/** Short date of the spec: yy-MM-dd in English, dd/MM/yy in every other language. */
export function formatShortDate(date: Date, language: string): string {
  const yy = pad(date.getFullYear() % 100);
  const mm = pad(date.getMonth() + 1);
  const dd = pad(date.getDate());
  return language.toLowerCase().startsWith("en") ? `${yy}-${mm}-${dd}` : `${dd}/${mm}/${yy}`;
}

/** Both ends of a range in short form; `single` when it covers one day (the label then shows one date). */
export function shortRangeParts(range: DateRange, language: string): { start: string; end: string; single: boolean } {
  return {
    start: formatShortDate(range.start, language),
    end: formatShortDate(range.end, language),
    single: toIsoDate(range.start) === toIsoDate(range.end),
  };
}
