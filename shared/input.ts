/**
 * The zod primitives every request contract is built from, so each limit of the database and of
 * Unicode is checked once, at the edge, with the error catalogue's messages:
 * - `text()`: a string that PostgreSQL can store and that is real Unicode (no NUL, no lone
 *   surrogate), normalised to NFC so "é" typed two ways is one name;
 * - `rowId`, `idParam`, `idOrNewParam`: ids within PostgreSQL's `integer` (int4);
 * - `isoDay`: a real calendar day within years the services' date arithmetic supports.
 * Isomorphic: the browser's forms check with the same rules.
 */
import { z } from "zod";
import type { ErrorCode } from "./api-error.ts";

/** PostgreSQL's `integer`, the type of every id column. */
export const INT4_MAX = 2_147_483_647;
/** The calendar's years: enough for history and planning, and far from the end of date arithmetic. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2199;

const code = (c: ErrorCode) => ({ message: c });

/** A lone surrogate: half of a UTF-16 pair without its other half (not a Unicode character). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;

/** False for text no field may hold: NUL (PostgreSQL refuses it in text) or a lone surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && !LONE_SURROGATE.test(value);
}

/**
 * A text field: refuses NUL and lone surrogates (BAD_REQUEST naming the field) and normalises to
 * NFC. A zod string still: `.trim()`, `.min()`, `.max()`, `.regex()`, `.pipe(z.email())` chain on.
 */
export function text(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, code("BAD_REQUEST")).normalize("NFC");
}

/** Text kept exactly as typed, for passwords: their hash depends on every code unit. */
export function secretText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, code("BAD_REQUEST"));
}

/**
 * A number, or a string holding one (forms and older clients send "8"), to `.pipe()` into the
 * number's checks. Unlike z.coerce.number(), never an array ([8]), a boolean (true → 1), an empty
 * string ("" → 0) or a hexadecimal ("0x10").
 */
export const numeric = z.union([
  z.number(),
  text()
    .trim()
    .regex(/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/)
    .transform(Number),
]);

/** An id in a JSON body: a positive int4. */
export const rowId = z.number().int().positive().max(INT4_MAX);

/** A score 1–5 (a rating of an edition, the one a comment may carry): a number or a numeric string (forms). */
export const scoreSchema = numeric.pipe(z.number().int(code("INVALID_FIELD")).min(1).max(5));

/** A path or query id: digits only (no sign, exponent, spaces or hex), a positive int4. */
export const idParam = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(rowId);

/** A path id where 0 means "a new one" (the event form's POST /api/event/0). */
export const idOrNewParam = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().min(0).max(INT4_MAX));

/** A real calendar day "YYYY-MM-DD" (2025-02-30 and 2025-13-01 are refused). */
export function isRealDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A day of the calendar's years (MIN_YEAR to MAX_YEAR). */
export function isCalendarDay(value: string): boolean {
  const year = Number(value.slice(0, 4));
  return isRealDay(value) && year >= MIN_YEAR && year <= MAX_YEAR;
}

/** "YYYY-MM-DD", a real day of the calendar's years; any failure is the form's FIELD_REQUIRED. */
export const isoDay = z
  .string(code("FIELD_REQUIRED"))
  .regex(/^\d{4}-\d{2}-\d{2}$/, code("FIELD_REQUIRED"))
  .refine(isCalendarDay, code("FIELD_REQUIRED"));
