/**
 * A time range filter of the admin lists (`from`, `to` in the address), in French time: a day
 * ("2026-03-14": the whole day) or a minute ("2026-03-14T09:30": that minute), both ends
 * included. Pure and isomorphic: the API checks the fields, the services turn them into instants.
 */
import { z } from "zod";
import { isCalendarDay } from "../../shared/input.ts";
import { zonedTime } from "../../shared/zoned-time.ts";

export const ADMIN_TIME_ZONE = "Europe/Paris";

const MOMENT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2}))?$/;

function parts(value: string): { day: string; hour: number; minute: number; wholeDay: boolean } | null {
  const match = MOMENT.exec(value);
  if (!match?.[1] || !isCalendarDay(match[1])) return null;
  if (match[2] === undefined) return { day: match[1], hour: 0, minute: 0, wholeDay: true };
  const hour = Number(match[2]);
  const minute = Number(match[3]);
  if (hour > 23 || minute > 59) return null;
  return { day: match[1], hour, minute, wholeDay: false };
}

/** A day or a minute, French time ("2026-03-14" or "2026-03-14T09:30"). */
export const adminMoment = z
  .string()
  .max(16)
  .refine((value) => parts(value) !== null, "YYYY-MM-DD or YYYY-MM-DDTHH:mm (French time)");

/** A day, French time ("2026-03-14"). */
export const adminDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
  .refine(isCalendarDay, "YYYY-MM-DD");

/** The first instant of a range's start. */
export function periodStart(value: string | undefined): Date | undefined {
  const found = value ? parts(value) : null;
  return found ? zonedTime(found.day, found.hour, found.minute, ADMIN_TIME_ZONE) : undefined;
}

/** The instant just after a range's end (the end day or minute included). */
export function periodEnd(value: string | undefined): Date | undefined {
  const found = value ? parts(value) : null;
  if (!found) return undefined;
  if (!found.wholeDay)
    return new Date(zonedTime(found.day, found.hour, found.minute, ADMIN_TIME_ZONE).getTime() + 60_000);
  const next = new Date(`${found.day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return zonedTime(next.toISOString().slice(0, 10), 0, 0, ADMIN_TIME_ZONE);
}

const DATE_TIME = {
  fr: new Intl.DateTimeFormat("fr-FR", { dateStyle: "short", timeStyle: "medium", timeZone: ADMIN_TIME_ZONE }),
  en: new Intl.DateTimeFormat("en-GB", { dateStyle: "short", timeStyle: "medium", timeZone: ADMIN_TIME_ZONE }),
};

/** An instant as the admin lists show it, in French time: "14/03/2026 09:30:12". */
export function formatAdminDateTime(iso: string | Date, locale: string): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return "";
  return (locale === "en" ? DATE_TIME.en : DATE_TIME.fr).format(date);
}

/**
 * The list's fields from a page address, each checked alone against the API's schema: a wrong
 * one is left out (an old bookmark still opens the list) instead of failing the page.
 */
export function readQueryLeniently<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  params: URLSearchParams,
): z.output<z.ZodObject<Shape>> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const raw = params.get(key);
    const parsed = field.safeParse(raw === null || raw === "" ? undefined : raw);
    if (parsed.success) out[key] = parsed.data;
    else {
      const fallback = field.safeParse(undefined);
      if (fallback.success) out[key] = fallback.data;
    }
  }
  return out as z.output<z.ZodObject<Shape>>;
}
