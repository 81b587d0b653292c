/**
 * The event form as the editor holds it: text where the member types (kilometres with a decimal
 * comma, euros, counts), the API's shape once converted (`toPayload`), and the field paths the
 * contract's errors use ("courses.0.prices.1.startsOn"), so server and browser errors land on the
 * same inputs. Pure: no React, no DOM.
 */
import { COURSE_TYPES, type CourseType, EVENT_OPTIONS, type EventOption } from "../../../shared/constants.ts";
import {
  type CourseForm,
  type EditableEvent,
  type EventFormInput,
  eventCommunicationSchema,
  eventInfoSchema,
} from "../editor.contract.ts";

export const STEPS = ["info", "communication", "courses", "visuals"] as const;
export type Step = (typeof STEPS)[number];

/** What the track upload told us about a course's GPX file. */
export type TrackInfo = { id: number; name?: string | null; distance: number | null; elevationGain: number | null };

export type PriceDraft = {
  /** React key, stable across edits. */
  key: string;
  label: string;
  startsOn: string | null;
  endsOn: string | null;
  /** Euros as typed: "25", "12,50". */
  price: string;
};

export type CourseDraft = {
  key: string;
  id?: number;
  name: string;
  type: CourseType;
  /** A distance (km) or a duration (timed races). */
  measure: "distance" | "duration";
  /** Kilometres as typed: "42,195". */
  distance: string;
  /** Seconds. */
  duration: number | null;
  elevationGain: string;
  bibQuota: string;
  description: string;
  date: string | null;
  startTime: string;
  startPlace: string;
  finishPlace: string;
  refuellingPoints: string;
  mandatoryEquipment: string;
  minAge: string;
  itraPoints: string;
  utmbIndex: string;
  challenge: string;
  prices: PriceDraft[];
  trackId: number | null;
  track: TrackInfo | null;
};

export type EventDraft = {
  name: string;
  sport: string | null;
  isCompetition: boolean;
  isConnected: boolean;
  scope: "international" | "national" | "regional" | "local";
  startDate: string | null;
  endDate: string | null;
  dateConfirmed: boolean;
  certified: boolean;
  communeCode: string | null;
  address: string;
  zipcode: string;
  city: string;
  place: string;
  countryCode: string;
  lat: number | null;
  lng: number | null;
  organizerName: string;
  description: string;
  options: Record<EventOption, boolean>;
  contactEmail: string;
  contactPhone: string;
  website: string;
  registrationUrl: string;
  registrationOpensAt: string | null;
  liveTrackingUrl: string;
  facebookUrl: string;
  instagramUrl: string;
  xUrl: string;
  youtubeUrl: string;
  vimeoUrl: string;
  liveVideoUrl: string;
  courses: CourseDraft[];
};

/** Step 1 and step 2 fields, for routing an error to its step. */
export const INFO_FIELDS = Object.keys(eventInfoSchema.shape) as (keyof typeof eventInfoSchema.shape)[];
export const COMMUNICATION_FIELDS = Object.keys(
  eventCommunicationSchema.shape,
) as (keyof typeof eventCommunicationSchema.shape)[];
export const URL_FIELDS = [
  "website",
  "registrationUrl",
  "liveTrackingUrl",
  "facebookUrl",
  "instagramUrl",
  "xUrl",
  "youtubeUrl",
  "vimeoUrl",
  "liveVideoUrl",
] as const;

/** Course fields holding whole numbers typed as text. */
export const COUNT_FIELDS = ["elevationGain", "bibQuota", "refuellingPoints", "minAge", "itraPoints"] as const;

/** The step an error's field path belongs to. */
export function stepOfField(path: string): Step {
  const head = path.split(".")[0] ?? "";
  if (head === "courses") return "courses";
  if ((COMMUNICATION_FIELDS as readonly string[]).includes(head)) return "communication";
  return "info";
}

let keyCounter = 0;
export function newKey(prefix = "k"): string {
  keyCounter += 1;
  return `${prefix}${Date.now().toString(36)}${keyCounter}`;
}

/** "42,195", "42.195", "42 195" (a typed group space) → 42.195; "" → null; anything else → NaN. */
export function parseDecimal(text: string): number | null {
  const clean = text.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  if (!clean) return null;
  if (!/^\d+(\.\d+)?$/.test(clean)) return Number.NaN;
  return Number(clean);
}

/** Whole numbers: "1200", "1 200" → 1200; "" → null; else NaN. */
export function parseCount(text: string): number | null {
  const clean = text.replace(/[\s\u00a0\u202f]/g, "");
  if (!clean) return null;
  if (!/^\d+$/.test(clean)) return Number.NaN;
  return Number(clean);
}

/** Kilometres as typed to metres (the API's unit). */
export function kmTextToMetres(text: string): number | null {
  const km = parseDecimal(text);
  if (km === null || Number.isNaN(km)) return km;
  return Math.round(km * 1000);
}

/** Metres to kilometres as the member would type them: 42195 → "42,195" in French. */
export function metresToKmText(metres: number | null | undefined, locale: "fr" | "en"): string {
  if (metres === null || metres === undefined) return "";
  const km = String(Math.round(metres) / 1000);
  return locale === "fr" ? km.replace(".", ",") : km;
}

/** Euros to the typed form: 25 → "25", 12.5 → "12,50". */
export function euroText(price: number, locale: "fr" | "en"): string {
  const text = Number.isInteger(price) ? String(price) : price.toFixed(2);
  return locale === "fr" ? text.replace(".", ",") : text;
}

function countText(value: number | null | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

export function emptyPrice(): PriceDraft {
  return { key: newKey("p"), label: "", startsOn: null, endsOn: null, price: "" };
}

export function emptyCourse(date: string | null = null): CourseDraft {
  return {
    key: newKey("c"),
    name: "",
    type: "race",
    measure: "distance",
    distance: "",
    duration: null,
    elevationGain: "",
    bibQuota: "",
    description: "",
    date,
    startTime: "",
    startPlace: "",
    finishPlace: "",
    refuellingPoints: "",
    mandatoryEquipment: "",
    minAge: "",
    itraPoints: "",
    utmbIndex: "",
    challenge: "",
    prices: [],
    trackId: null,
    track: null,
  };
}

/** A copy of a course to add beside it: no id, no track (a track belongs to one course). */
export function duplicateCourse(course: CourseDraft, copyName: (name: string) => string): CourseDraft {
  return {
    ...course,
    key: newKey("c"),
    id: undefined,
    name: copyName(course.name),
    prices: course.prices.map((p) => ({ ...p, key: newKey("p") })),
    trackId: null,
    track: null,
  };
}

export function emptyEvent(): EventDraft {
  return {
    name: "",
    sport: null,
    isCompetition: true,
    isConnected: false,
    scope: "local",
    startDate: null,
    endDate: null,
    dateConfirmed: false,
    certified: false,
    communeCode: null,
    address: "",
    zipcode: "",
    city: "",
    place: "",
    countryCode: "FR",
    lat: null,
    lng: null,
    organizerName: "",
    description: "",
    options: Object.fromEntries(EVENT_OPTIONS.map((o) => [o, false])) as Record<EventOption, boolean>,
    contactEmail: "",
    contactPhone: "",
    website: "",
    registrationUrl: "",
    registrationOpensAt: null,
    liveTrackingUrl: "",
    facebookUrl: "",
    instagramUrl: "",
    xUrl: "",
    youtubeUrl: "",
    vimeoUrl: "",
    liveVideoUrl: "",
    courses: [emptyCourse()],
  };
}

function courseDraft(course: CourseForm, locale: "fr" | "en"): CourseDraft {
  return {
    key: newKey("c"),
    id: course.id,
    name: course.name,
    type: (COURSE_TYPES as readonly string[]).includes(course.type) ? course.type : "race",
    measure: !course.distance && course.duration ? "duration" : "distance",
    distance: metresToKmText(course.distance, locale),
    duration: course.duration ?? null,
    elevationGain: countText(course.elevationGain),
    bibQuota: countText(course.bibQuota),
    description: course.description ?? "",
    date: course.date,
    startTime: course.startTime ?? "",
    startPlace: course.startPlace ?? "",
    finishPlace: course.finishPlace ?? "",
    refuellingPoints: countText(course.refuellingPoints),
    mandatoryEquipment: course.mandatoryEquipment ?? "",
    minAge: countText(course.minAge),
    itraPoints: countText(course.itraPoints),
    utmbIndex: course.utmbIndex ?? "",
    challenge: course.challenge ?? "",
    prices: course.prices.map((p) => ({
      key: newKey("p"),
      label: p.label,
      startsOn: p.startsOn ?? null,
      endsOn: p.endsOn ?? null,
      price: euroText(p.price, locale),
    })),
    trackId: course.trackId ?? null,
    track: null,
  };
}

/** A saved event as the editor's draft. */
export function draftFromEvent(event: EditableEvent, locale: "fr" | "en"): EventDraft {
  const base = emptyEvent();
  return {
    ...base,
    name: event.name,
    sport: event.sport,
    isCompetition: event.isCompetition,
    isConnected: event.isConnected,
    scope: event.scope,
    startDate: event.startDate,
    endDate: event.endDate,
    dateConfirmed: event.dateConfirmed,
    certified: event.certified,
    communeCode: event.communeCode ?? null,
    address: event.address ?? "",
    zipcode: event.zipcode ?? "",
    city: event.city ?? "",
    place: event.place ?? "",
    countryCode: event.countryCode ?? "FR",
    lat: event.lat ?? null,
    lng: event.lng ?? null,
    organizerName: event.organizerName ?? "",
    description: event.description ?? "",
    options: { ...base.options, ...(event.options as Partial<Record<EventOption, boolean>>) },
    contactEmail: event.contactEmail ?? "",
    contactPhone: event.contactPhone ?? "",
    website: event.website ?? "",
    registrationUrl: event.registrationUrl ?? "",
    registrationOpensAt: event.registrationOpensAt ?? null,
    liveTrackingUrl: event.liveTrackingUrl ?? "",
    facebookUrl: event.facebookUrl ?? "",
    instagramUrl: event.instagramUrl ?? "",
    xUrl: event.xUrl ?? "",
    youtubeUrl: event.youtubeUrl ?? "",
    vimeoUrl: event.vimeoUrl ?? "",
    liveVideoUrl: event.liveVideoUrl ?? "",
    courses: event.courses.length ? event.courses.map((c) => courseDraft(c, locale)) : [emptyCourse(event.startDate)],
  };
}

/** Keys only matter to React: two drafts with the same content compare equal without them. */
export function comparable(draft: EventDraft): string {
  return JSON.stringify({
    ...draft,
    courses: draft.courses.map(({ key: _k, track: _t, ...c }) => ({
      ...c,
      prices: c.prices.map(({ key: _p, ...p }) => p),
    })),
  });
}

/** Empty text → undefined, so the contract's "required" and "optional" rules apply as on the server. */
const opt = (text: string) => text.trim();

export function coursePayload(course: CourseDraft): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    name: course.name,
    type: course.type,
    distance: course.measure === "distance" ? kmTextToMetres(course.distance) : null,
    duration: course.measure === "duration" ? course.duration : null,
    description: opt(course.description),
    date: course.date ?? undefined,
    startTime: course.startTime || null,
    startPlace: opt(course.startPlace),
    finishPlace: opt(course.finishPlace),
    mandatoryEquipment: opt(course.mandatoryEquipment),
    utmbIndex: opt(course.utmbIndex),
    challenge: opt(course.challenge),
    prices: course.prices.map((p) => ({
      label: p.label,
      startsOn: p.startsOn,
      endsOn: p.endsOn,
      price: parseDecimal(p.price) ?? undefined,
    })),
    trackId: course.trackId,
  };
  if (course.id) payload.id = course.id;
  for (const field of COUNT_FIELDS) payload[field] = parseCount(course[field]);
  return payload;
}

/** Step 1's fields as the API takes them. */
export function infoPayload(draft: EventDraft): Record<string, unknown> {
  return {
    name: draft.name,
    sport: draft.sport ?? undefined,
    isCompetition: draft.isCompetition,
    isConnected: draft.isConnected,
    scope: draft.scope,
    startDate: draft.startDate ?? undefined,
    endDate: draft.endDate ?? undefined,
    dateConfirmed: draft.dateConfirmed,
    certified: draft.dateConfirmed ? draft.certified : false,
    communeCode: draft.communeCode,
    address: opt(draft.address),
    zipcode: opt(draft.zipcode),
    city: draft.city,
    place: opt(draft.place),
    countryCode: draft.countryCode,
    lat: draft.lat,
    lng: draft.lng,
    organizerName: opt(draft.organizerName),
    description: emptyHtml(draft.description) ? "" : draft.description,
    options: draft.options,
  };
}

export function communicationPayload(draft: EventDraft): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const field of COMMUNICATION_FIELDS) {
    const value = draft[field];
    payload[field] = typeof value === "string" ? value.trim() : value;
  }
  return payload;
}

/** The whole form as POST /api/event/{id} takes it. */
export function toPayload(draft: EventDraft): EventFormInput {
  return {
    ...infoPayload(draft),
    ...communicationPayload(draft),
    courses: draft.courses.map(coursePayload),
  } as EventFormInput;
}

/** A rich-text description with no words in it ("<p><br></p>") counts as empty. */
export function emptyHtml(html: string): boolean {
  return (
    html
      .replace(/<[^>]*>/g, "")
      .replace(/&nbsp;/g, " ")
      .trim() === ""
  );
}
