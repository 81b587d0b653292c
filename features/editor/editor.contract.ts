/**
 * The event form (create and edit, four steps) and the organiser/moderation calls around it.
 * Isomorphic: the browser checks a step with the same rules and messages before sending it. A
 * check whose message is an error code answers with that code's text (see platform/http/errors.server.ts).
 */
import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import {
  type CHECK_STATUSES,
  type CONTENT_STATUSES,
  COURSE_TYPES,
  EVENT_OPTIONS,
  EVENT_SCOPES,
  SPORTS,
  VERIFICATION_CODE_LENGTH,
} from "../../shared/constants.ts";
import { isoDay, rowId, text } from "../../shared/input.ts";

const code = (c: ErrorCode) => ({ message: c });
const SPORT_KEYS = SPORTS.map((s) => s.key) as [string, ...string[]];

export { isoDay, isRealDay } from "../../shared/input.ts";

const isoDate = isoDay;
const optionalIsoDate = isoDay.nullable().optional();
const optionalText = (max: number) =>
  text()
    .trim()
    .max(max)
    .transform((v) => v || null)
    .nullable()
    .optional();
const required = (max: number) => text(code("FIELD_REQUIRED")).trim().min(1, code("FIELD_REQUIRED")).max(max);

/** An http(s) address, "www.x.fr" accepted and completed; empty means none. */
export const optionalUrl = text()
  .trim()
  .max(500, code("URL_INVALID"))
  .transform((v) => (v && !/^https?:\/\//i.test(v) ? `https://${v}` : v))
  .refine((v) => {
    if (!v) return true;
    try {
      const url = new URL(v);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.includes(".");
    } catch {
      return false;
    }
  }, code("URL_INVALID"))
  .transform((v) => v || null)
  .nullable()
  .optional();

const count = (max: number) => z.number().int().min(0).max(max).nullable().optional();

export const pricePeriodSchema = z.object({
  label: required(80),
  startsOn: optionalIsoDate,
  endsOn: optionalIsoDate,
  /** Euros, two decimals at most. */
  price: z.number(code("FIELD_REQUIRED")).min(0).max(100_000),
});
export type PricePeriod = z.infer<typeof pricePeriodSchema>;

/** True when two price periods share a day (open ends reach the whole calendar). */
export function periodsOverlap(a: PricePeriod, b: PricePeriod): boolean {
  const aStart = a.startsOn ?? "0000-01-01";
  const aEnd = a.endsOn ?? "9999-12-31";
  const bStart = b.startsOn ?? "0000-01-01";
  const bEnd = b.endsOn ?? "9999-12-31";
  return aStart <= bEnd && bStart <= aEnd;
}

export const courseFormSchema = z
  .object({
    /** Present when the course already exists. */
    id: rowId.optional(),
    name: required(120),
    type: z.enum(COURSE_TYPES).default("race"),
    /** Metres. */
    distance: z.number().int().min(1).max(2_000_000).nullable().optional(),
    /** Seconds (timed races: 6 h, 24 h…). */
    duration: z
      .number()
      .int()
      .min(60)
      .max(30 * 24 * 3600)
      .nullable()
      .optional(),
    elevationGain: count(20_000),
    bibQuota: count(100_000),
    description: optionalText(5000),
    date: isoDate,
    /** HH:MM local time. */
    startTime: text()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .nullable()
      .optional(),
    startPlace: optionalText(200),
    finishPlace: optionalText(200),
    refuellingPoints: count(200),
    mandatoryEquipment: optionalText(2000),
    minAge: count(99),
    itraPoints: count(6),
    utmbIndex: optionalText(16),
    challenge: optionalText(120),
    prices: z.array(pricePeriodSchema).max(20).default([]),
    /** An uploaded track (POST /api/upload/track/0) to attach to this course. */
    trackId: rowId.nullable().optional(),
  })
  .superRefine((course, ctx) => {
    // A course with a track may leave its distance to the track (filled when saved).
    if (!course.distance && !course.duration && !course.trackId) {
      ctx.addIssue({ code: "custom", path: ["distance"], message: "DISTANCE_OR_DURATION_REQUIRED" });
    }
    course.prices.forEach((price, i) => {
      if (price.startsOn && price.endsOn && price.endsOn < price.startsOn) {
        ctx.addIssue({ code: "custom", path: ["prices", i, "endsOn"], message: "DATE_RANGE_INVALID" });
      }
      if (course.prices.some((other, j) => j < i && periodsOverlap(other, price))) {
        ctx.addIssue({ code: "custom", path: ["prices", i, "startsOn"], message: "PRICE_PERIODS_OVERLAP" });
      }
    });
  });
export type CourseForm = z.infer<typeof courseFormSchema>;

/** Step 1: information. */
export const eventInfoSchema = z.object({
  name: required(150),
  sport: z.enum(SPORT_KEYS, code("FIELD_REQUIRED")),
  isCompetition: z.boolean().default(true),
  isConnected: z.boolean().default(false),
  scope: z.enum(EVENT_SCOPES).default("local"),
  startDate: isoDate,
  endDate: isoDate,
  dateConfirmed: z.boolean().default(false),
  /** The organiser certifies the information is accurate (needed to confirm the date). */
  certified: z.boolean().default(false),
  /** INSEE code of the commune picked in the autocomplete. */
  communeCode: text()
    .regex(/^(?:\d{5}|2[AB]\d{3})$/i)
    .nullable()
    .optional(),
  address: optionalText(200),
  zipcode: optionalText(10),
  city: required(120),
  place: optionalText(200),
  countryCode: text()
    .regex(/^[A-Z]{2}$/)
    .default("FR"),
  lat: z.number().min(-90).max(90).nullable().optional(),
  lng: z.number().min(-180).max(180).nullable().optional(),
  organizerName: optionalText(150),
  /** Rich text (a small HTML subset); sanitised on the server. */
  description: optionalText(20_000),
  options: z.object(Object.fromEntries(EVENT_OPTIONS.map((o) => [o, z.boolean().default(false)]))).default({}),
});

/** Step 2: communication. */
export const eventCommunicationSchema = z.object({
  contactEmail: text()
    .trim()
    .max(254)
    .transform((v) => v || null)
    .pipe(z.email(code("EMAIL_INVALID")).nullable())
    .nullable()
    .optional(),
  contactPhone: text()
    .trim()
    .max(30)
    .regex(/^[+\d][\d .()-]{5,}$|^$/, code("BAD_REQUEST"))
    .transform((v) => v || null)
    .nullable()
    .optional(),
  website: optionalUrl,
  registrationUrl: optionalUrl,
  registrationOpensAt: optionalIsoDate,
  liveTrackingUrl: optionalUrl,
  facebookUrl: optionalUrl,
  instagramUrl: optionalUrl,
  xUrl: optionalUrl,
  youtubeUrl: optionalUrl,
  vimeoUrl: optionalUrl,
  liveVideoUrl: optionalUrl,
});

/** The whole form: information, communication and at least one complete course. */
export const eventFormSchema = eventInfoSchema
  .extend(eventCommunicationSchema.shape)
  .extend({ courses: z.array(courseFormSchema).min(1, code("FIELD_REQUIRED")).max(30) })
  .superRefine((event, ctx) => {
    if (event.endDate < event.startDate) {
      ctx.addIssue({ code: "custom", path: ["endDate"], message: "DATE_RANGE_INVALID" });
    }
    if (event.dateConfirmed && !event.certified) {
      ctx.addIssue({ code: "custom", path: ["certified"], message: "CERTIFICATION_REQUIRED" });
    }
  });
export type EventForm = z.infer<typeof eventFormSchema>;
export type EventFormInput = z.input<typeof eventFormSchema>;

/** POST /api/event/{id}/status/{type}. */
export const EVENT_STATUS_TYPES = [
  "cancel",
  "uncancel",
  "postpone",
  "confirm-date",
  "check",
  "validate",
  "deactivate",
  "activate",
] as const;
export type EventStatusType = (typeof EVENT_STATUS_TYPES)[number];
export const eventStatusBodySchema = z.object({
  /** postpone: the new first day (and last day). */
  startDate: optionalIsoDate,
  endDate: optionalIsoDate,
  /** validate/deactivate: a message to the submitter. */
  message: optionalText(2000),
});

/** What the editor loads and the owner's list shows. */
export type EditableEvent = EventForm & {
  id: number;
  slug: string;
  status: (typeof CONTENT_STATUSES)[number];
  checkStatus: (typeof CHECK_STATUSES)[number];
  cancelled: boolean;
  postponed: boolean;
  originalDate: string | null;
  coverImage: string | null;
  headerImage: string | null;
  /** owner, organizer (verified), admin, or member (edits become requests). */
  access: "owner" | "organizer" | "admin" | "member";
};

/** POST /api/event/check-organizer and /api/event/organizer/{id}. */
export const checkOrganizerBodySchema = z.object({
  eventId: rowId,
  email: text()
    .trim()
    .pipe(z.email(code("EMAIL_INVALID"))),
  /** "I belong to the organisation" must be ticked. */
  belongs: z.literal(true, code("FIELD_REQUIRED")),
});
export const organizerCodeBodySchema = z.object({
  code: text(code("INVALID_CODE"))
    .trim()
    .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), code("INVALID_CODE")),
});
