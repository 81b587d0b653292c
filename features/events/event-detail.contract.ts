/**
 * Shapes of the event page's API (issue 3): one event with its courses, prices, tracks and editions,
 * a course, tracks as GeoJSON, elevation profiles, and the external links behind /redirect.
 */
import { z } from "zod";
import {
  CHECK_STATUSES,
  COURSE_TYPES,
  EVENT_OPTIONS,
  EVENT_SCOPES,
  EVENT_STATES,
  SPORT_KEYS,
} from "../../shared/constants.ts";
import { idParam } from "../../shared/input.ts";

/** External links of an event, each reachable through `/redirect/{type}/{id}/{slug?}`. */
export const LINK_TYPES = [
  "website",
  "registration",
  "live",
  "facebook",
  "instagram",
  "x",
  "youtube",
  "vimeo",
  "video",
] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** Most points a chart may ask of `/api/track/{id}/elevation`. */
export const MAX_PROFILE_POINTS = 500;
export const DEFAULT_PROFILE_POINTS = 200;

const id = z.number().int().positive();
const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/** A path parameter that must be all digits (spec: "Most ids must be numeric"), within int4. */
export const numericId = idParam;

export const sportRefSchema = z.object({ key: z.enum(SPORT_KEYS), nameFr: z.string(), nameEn: z.string() });

export const namedAreaSchema = z.object({ code: z.string(), name: z.string(), slug: z.string() });

export const eventPlaceSchema = z.object({
  /** Venue ("Stade municipal"). */
  place: z.string().nullable(),
  address: z.string().nullable(),
  zipcode: z.string().nullable(),
  city: z.string().nullable(),
  commune: z.object({ code: z.string(), name: z.string() }).nullable(),
  department: namedAreaSchema.nullable(),
  region: namedAreaSchema.nullable(),
  country: z.object({ code: z.string(), nameFr: z.string(), nameEn: z.string() }),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** IANA time zone of the place: course start times are shown in it. */
  timeZone: z.string(),
});
export type EventPlace = z.infer<typeof eventPlaceSchema>;

export const eventOptionsSchema = z.object(
  Object.fromEntries(EVENT_OPTIONS.map((o) => [o, z.boolean()])) as Record<
    (typeof EVENT_OPTIONS)[number],
    z.ZodBoolean
  >,
);

export const eventLinkSchema = z.object({
  type: z.enum(LINK_TYPES),
  /** The organiser's address. */
  url: z.url(),
  /** Our counting redirect to it, relative to the site root. */
  redirect: z.string(),
});
export type EventLink = z.infer<typeof eventLinkSchema>;

export const coursePriceSchema = z.object({
  id,
  label: z.string(),
  startsOn: isoDate.nullable(),
  endsOn: isoDate.nullable(),
  /** Euros. */
  price: z.number(),
  /** The period open today (Paris time). */
  current: z.boolean(),
});
export type CoursePrice = z.infer<typeof coursePriceSchema>;

export const trackSummarySchema = z.object({
  id,
  name: z.string(),
  courseId: id.nullable(),
  /** Metres along the line. */
  distance: z.number().int(),
  /** Metres; null when the track's file had no elevation (unknown, not 0). */
  elevationGain: z.number().int().nullable(),
  elevationLoss: z.number().int().nullable(),
  minElevation: z.number().int().nullable(),
  maxElevation: z.number().int().nullable(),
  start: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  /** Where the GPX download is. */
  gpx: z.string(),
});
export type TrackSummary = z.infer<typeof trackSummarySchema>;

export const courseSchema = z.object({
  id,
  name: z.string(),
  type: z.enum(COURSE_TYPES),
  /**
   * Metres; null for a timed race. One answer per figure (issue 26 item 3): the course's own when
   * the organiser set it, else its track's.
   */
  distance: z.number().int().nullable(),
  /** Seconds, for timed races (6 h, 24 h). */
  duration: z.number().int().nullable(),
  /** Metres of D+: the course's own, else its track's; null when neither knows. */
  elevationGain: z.number().int().nullable(),
  startAt: isoDateTime.nullable(),
  startPlace: z.string().nullable(),
  finishPlace: z.string().nullable(),
  bibQuota: z.number().int().nullable(),
  description: z.string().nullable(),
  refuellingPoints: z.number().int().nullable(),
  mandatoryEquipment: z.string().nullable(),
  minAge: z.number().int().nullable(),
  itraPoints: z.number().int().nullable(),
  utmbIndex: z.string().nullable(),
  challenge: z.string().nullable(),
  complete: z.boolean(),
  prices: z.array(coursePriceSchema),
  track: trackSummarySchema.nullable(),
});
export type CourseDetail = z.infer<typeof courseSchema>;

export const editionSchema = z.object({
  id,
  slug: z.string(),
  name: z.string(),
  startDate: isoDate,
  endDate: isoDate,
  state: z.enum(EVENT_STATES),
});
export type Edition = z.infer<typeof editionSchema>;

export const eventImageSchema = z.object({
  id,
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  caption: z.string().nullable(),
});

export const eventDetailSchema = z.object({
  id,
  slug: z.string(),
  name: z.string(),
  sport: sportRefSchema,
  description: z.string().nullable(),
  /** The description as safe HTML for the page (sanitised rich text, or escaped paragraphs). */
  descriptionHtml: z.string().nullable(),
  organizerName: z.string().nullable(),
  isCompetition: z.boolean(),
  isConnected: z.boolean(),
  scope: z.enum(EVENT_SCOPES),
  startDate: isoDate,
  endDate: isoDate,
  /** The first announced date of a postponed event. */
  originalDate: isoDate.nullable(),
  cancelled: z.boolean(),
  postponed: z.boolean(),
  state: z.enum(EVENT_STATES),
  checkStatus: z.enum(CHECK_STATUSES),
  dateConfirmed: z.boolean(),
  registrationOpensAt: isoDateTime.nullable(),
  place: eventPlaceSchema,
  options: eventOptionsSchema,
  links: z.array(eventLinkSchema),
  /** Header photo and cover (flyer), resolved to site paths or URLs; null when the event has none. */
  headerImage: z.string().nullable(),
  coverImage: z.string().nullable(),
  images: z.array(eventImageSchema),
  group: z.object({ id, name: z.string(), slug: z.string() }).nullable(),
  courses: z.array(courseSchema),
  /** The other editions of the same race series, oldest first. */
  editions: z.array(editionSchema),
  /** Members' ratings of this edition (features/ratings): average 1–5 (null without ratings) and count. */
  rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
  updatedAt: isoDateTime,
});
export type EventDetail = z.infer<typeof eventDetailSchema>;

export const eventTypeParamSchema = z.enum(["id", "slug"]);

export const EDITION_REFERENCES = ["all", "past", "upcoming"] as const;
export const editionsResponseSchema = z.object({
  event: z.object({ id, slug: z.string(), name: z.string() }),
  group: z.object({ id, name: z.string(), slug: z.string() }).nullable(),
  editions: z.array(editionSchema),
});

export const courseResponseSchema = z.object({
  course: courseSchema,
  event: z.object({
    id,
    slug: z.string(),
    name: z.string(),
    startDate: isoDate,
    endDate: isoDate,
    state: z.enum(EVENT_STATES),
  }),
});

const position = z.array(z.number()).min(2).max(3);

export const trackFeatureSchema = z.object({
  type: z.literal("Feature"),
  id,
  bbox: z.array(z.number()).length(4),
  /** A LineString, or a MultiLineString for a track of several segments (no line across a gap). */
  geometry: z.discriminatedUnion("type", [
    z.object({ type: z.literal("LineString"), coordinates: z.array(position) }),
    z.object({ type: z.literal("MultiLineString"), coordinates: z.array(z.array(position)) }),
  ]),
  properties: trackSummarySchema.extend({ eventId: id, eventSlug: z.string() }),
});
export type TrackFeature = z.infer<typeof trackFeatureSchema>;

export const trackCollectionSchema = z.object({
  type: z.literal("FeatureCollection"),
  features: z.array(trackFeatureSchema),
});

export const tracksQuerySchema = z.object({
  event: numericId,
});

export const elevationQuerySchema = z.object({
  points: z.coerce.number().int().min(2).max(MAX_PROFILE_POINTS).default(DEFAULT_PROFILE_POINTS),
});

export const elevationProfileSchema = z.object({
  id,
  distance: z.number().int(),
  /** Metres; null when the track's file had no elevation (unknown, not 0). */
  elevationGain: z.number().int().nullable(),
  elevationLoss: z.number().int().nullable(),
  minElevation: z.number().int().nullable(),
  maxElevation: z.number().int().nullable(),
  /**
   * [distance from the start in m, elevation in m], evenly spaced within each segment; the distance
   * leaves out the gaps between segments.
   */
  points: z.array(z.tuple([z.number(), z.number()])),
  /** Indexes in `points` where a new segment starts: no line is to be drawn from the point before. */
  breaks: z.array(z.number().int()),
});
export type ElevationProfile = z.infer<typeof elevationProfileSchema>;

/** A course's track as the event page draws it: a simplified line and a chart-sized profile. */
export type EventPageTrack = {
  courseId: number;
  trackId: number;
  /** [lng, lat], simplified for drawing. */
  line: [number, number][];
  /** Indexes in `line` where a new segment starts (the file's <trkseg>s). */
  breaks: number[];
  /** [distance m, elevation m], the distance without the gaps between segments. */
  profile: [number, number][];
  /** Indexes in `profile` where a new segment starts. */
  profileBreaks: number[];
};

/** What the event page's loader gets. */
export type EventPageData = {
  event: EventDetail;
  tracks: EventPageTrack[];
  /** Today in Paris, as the service saw it (states and past editions are relative to it). */
  today: string;
  /** Waiting for moderation: shown to the event's editors only, never indexed nor cached. */
  pending?: true;
};
