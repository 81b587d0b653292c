/**
 * Pure rules of the date field (spec §5 "Date fields"): numeric day, month and year, month 1 to 12,
 * year 1 to 275760 (the largest year a browser date accepts), days per month honoured, and the
 * whole date bounded by optional min and max dates. Output "YYYY-MM-DD" or null.
 */

export const MIN_YEAR = 1;
export const MAX_YEAR = 275760;
export const DATE_PARTS = ["day", "month", "year"] as const;
export type DatePart = (typeof DATE_PARTS)[number];
export type DateTexts = Record<DatePart, string>;
export type DateBoundsInput = { min?: string | null; max?: string | null };

/** Most characters a part may hold. A year is complete once it has 4 digits ("0001" for year 1). */
export const DATE_PART_MAX_LENGTH: Record<DatePart, number> = { day: 2, month: 2, year: 6 };
const YEAR_MIN_LENGTH = 4;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month (1-12); February counts 29 days when the year is unknown. */
export function daysInMonth(month: number, year?: number): number {
  if (month === 2) return year === undefined || isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** Builds "YYYY-MM-DD" (years above 9999 keep all their digits). */
export function isoFromParts(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** "YYYY-MM-DD" (also up to 6-digit years) to zero-padded texts; empty texts when not a date string. */
export function partsFromIso(value: string | null | undefined): DateTexts {
  const match = /^(\d{4,6})-(\d{2})-(\d{2})$/.exec(value ?? "");
  if (!match) return { day: "", month: "", year: "" };
  return { day: match[3], month: match[2], year: match[1] };
}

/** Comparable number for an ISO date string; works for any year length. */
function dateKey(iso: string): number {
  const { day, month, year } = partsFromIso(iso);
  return Number(year) * 10_000 + Number(month) * 100 + Number(day);
}

export type DateEvaluation = {
  /** "YYYY-MM-DD" when the three parts form a valid date inside the bounds, else null. */
  value: string | null;
  /** Every part is filled in (year with at least 4 digits). */
  complete: boolean;
  /** Parts whose text breaks a rule. */
  invalid: Record<DatePart, boolean>;
  /** The date is complete and valid but outside min/max. */
  outOfBounds: boolean;
};

/** Checks the three texts together (a day depends on its month and year). */
export function evaluateDate(texts: DateTexts, bounds: DateBoundsInput = {}): DateEvaluation {
  const digits = (text: string, max: number) => text === "" || (/^\d+$/.test(text) && text.length <= max);
  const number = (text: string) => (text === "" ? undefined : Number(text));
  const year = number(texts.year);
  const month = number(texts.month);
  const day = number(texts.day);
  const yearComplete = texts.year.length >= YEAR_MIN_LENGTH;

  const invalid: Record<DatePart, boolean> = {
    year: !digits(texts.year, DATE_PART_MAX_LENGTH.year) || (yearComplete && (year! < MIN_YEAR || year! > MAX_YEAR)),
    month: !digits(texts.month, DATE_PART_MAX_LENGTH.month) || (month !== undefined && (month < 1 || month > 12)),
    day: !digits(texts.day, DATE_PART_MAX_LENGTH.day),
  };
  if (!invalid.day && day !== undefined) {
    const knownMonth = !invalid.month && month !== undefined ? month : undefined;
    const knownYear = !invalid.year && yearComplete ? year : undefined;
    const maxDay = knownMonth === undefined ? 31 : daysInMonth(knownMonth, knownYear);
    invalid.day = day < 1 || day > maxDay;
  }

  const complete = day !== undefined && month !== undefined && yearComplete;
  const valid = complete && !invalid.day && !invalid.month && !invalid.year;
  const iso = valid ? isoFromParts(year!, month!, day!) : null;
  let outOfBounds = false;
  if (iso) {
    const key = dateKey(iso);
    const min = bounds.min && partsFromIso(bounds.min).year ? dateKey(bounds.min) : undefined;
    const max = bounds.max && partsFromIso(bounds.max).year ? dateKey(bounds.max) : undefined;
    outOfBounds = (min !== undefined && key < min) || (max !== undefined && key > max);
  }
  return { value: outOfBounds ? null : iso, complete, invalid, outOfBounds };
}
