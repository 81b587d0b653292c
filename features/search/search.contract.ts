import { z } from "zod";
import {
  ELEVATION_BANDS,
  type ElevationBandKey,
  EVENT_SCOPES,
  QUICK_RANGES,
  SPORT_KEYS,
} from "../../shared/constants.ts";
import { isoDay, text } from "../../shared/input.ts";
import { eventCardSchema } from "../events/events.contract.ts";

/** Course distance shortcuts of the search, as [min, max] metres (inclusive). */
export const DISTANCE_SHORTCUTS = {
  "5k": [4_500, 5_500],
  "10k": [9_500, 10_500],
  half: [21_000, 21_200],
  marathon: [42_000, 42_300],
  ultra: [42_301, null],
} as const satisfies Record<string, readonly [number, number | null]>;
export type DistanceShortcut = keyof typeof DISTANCE_SHORTCUTS;
export const DISTANCE_SHORTCUT_KEYS = Object.keys(DISTANCE_SHORTCUTS) as [DistanceShortcut, ...DistanceShortcut[]];

export const ELEVATION_BAND_KEYS = ELEVATION_BANDS.map((b) => b.key) as unknown as [
  ElevationBandKey,
  ...ElevationBandKey[],
];

/**
 * oldest: soonest first (the default); newest: latest first; distance: nearest first (needs a
 * place or coordinates); relevance: best text match first (needs `q`, else chronological); rating:
 * best rated first (the edition's members' average, else its series' latest rated edition; unrated last).
 */
export const SEARCH_SORTS = ["oldest", "newest", "distance", "relevance", "rating"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export const MAX_RADIUS_KM = 200;
export const MAX_PER_PAGE = 60;
export const DEFAULT_PER_PAGE = 24;
export const MAX_TEXT_LENGTH = 100;
/** Radius used when a place or coordinates come without one, in km. */
export const DEFAULT_RADIUS_KM = 30;
/** Most markers the map view gets; `truncated` tells when there were more. */
export const MAX_MAP_MARKERS = 5_000;
/** Most events in an iCalendar feed (soonest first). */
export const MAX_ICS_EVENTS = 1_000;

/** "a,b" or repeated keys → array; empty strings dropped. */
const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => {
    if (value === undefined || value === null || value === "") return undefined;
    const raw = Array.isArray(value) ? value : [value];
    const parts = raw
      .flatMap((v) => String(v).split(","))
      .map((v) => v.trim())
      .filter(Boolean);
    return parts.length ? parts : undefined;
  }, z.array(item).optional());

const bool = z.preprocess(
  (v) => (v === "1" || v === "true" || v === true ? true : v === "0" || v === "false" || v === false ? false : v),
  z.boolean().optional(),
);

/** A real day of the calendar's years (date arithmetic past them fails). */
const isoDate = isoDay;

/** A number from the query string; an empty value counts as absent (not as 0). */
const num = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

/**
 * Every filter of the search, as the query string of `GET /api/events` and of the search pages
 * (the same names, so a page URL and its API call carry the same filters).
 *
 * Bad combinations (inverted dates, a radius without a place, a page past the end) are refused by
 * the service with a 400 naming the field.
 */
export const searchQuerySchema = z.object({
  /** Free text: name, place, organiser; accent/case-insensitive, French stemming, typo-tolerant. */
  q: text().trim().max(MAX_TEXT_LENGTH).optional(),
  /**
   * Pages only: search `q` as typed. Without it the search pages read sports, places, months and
   * distances in the text as filters ("trail annecy"); the API always searches the text as given.
   */
  literal: bool,
  sport: list(z.enum(SPORT_KEYS)),
  /** Region code (INSEE, e.g. "84") or slug. */
  region: text().trim().max(60).optional(),
  /** Department code ("38", "2A", "974") or slug. */
  department: text().trim().max(60).optional(),
  /** Around a place: commune INSEE code ("38185") or postal code ("38000"). */
  place: text().trim().max(10).optional(),
  lat: num(z.coerce.number().min(-90).max(90)),
  lng: num(z.coerce.number().min(-180).max(180)),
  /** Kilometres around the place or the coordinates (DEFAULT_RADIUS_KM when a place comes without). */
  radius: num(z.coerce.number().int().min(1).max(MAX_RADIUS_KM)),
  distance: list(z.enum(DISTANCE_SHORTCUT_KEYS)),
  /** Course distance range in km. */
  distanceMin: num(z.coerce.number().min(0).max(1000)),
  distanceMax: num(z.coerce.number().min(0).max(1000)),
  elevation: list(z.enum(ELEVATION_BAND_KEYS)),
  from: isoDate.optional(),
  to: isoDate.optional(),
  range: z.enum(QUICK_RANGES).optional(),
  scope: list(z.enum(EVENT_SCOPES)),
  /** Include cancelled events (default false). */
  cancelled: bool,
  /** Include finished events (default false: from today on, unless `from` says otherwise). */
  past: bool,
  sort: z.enum(SEARCH_SORTS).optional(),
  /** Members' average rating at least this (1–5): the edition's, else its series' latest rated edition. */
  minRating: num(z.coerce.number().min(1).max(5)),
  page: num(z.coerce.number().int().min(1).max(10_000)),
  perPage: num(z.coerce.number().int().min(1).max(MAX_PER_PAGE)),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const searchItemSchema = eventCardSchema.extend({
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Great-circle km from the searched place, when there is one. */
  distanceKm: z.number().nullable(),
});
export type SearchItem = z.infer<typeof searchItemSchema>;

export const facetsSchema = z.object({
  sport: z.record(z.string(), z.number().int()),
  region: z.record(z.string(), z.number().int()),
  elevation: z.record(z.string(), z.number().int()),
});

export const searchResultSchema = z.object({
  items: z.array(searchItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  perPage: z.number().int(),
  pages: z.number().int(),
  facets: facetsSchema,
  /** The place searched around, resolved (for labels and the map centre). */
  place: z
    .object({
      code: z.string(),
      name: z.string(),
      lat: z.number(),
      lng: z.number(),
      radius: z.number(),
      /** How the place was given: a commune code, a postal code, or coordinates (named after the nearest commune). */
      kind: z.enum(["commune", "postal_code", "coordinates"]).optional(),
    })
    .nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** Light markers for the map view: every matching event, no pagination. */
export const mapMarkerSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  sport: z.enum(SPORT_KEYS),
  startDate: z.iso.date(),
  lat: z.number(),
  lng: z.number(),
});
export type MapMarker = z.infer<typeof mapMarkerSchema>;

export const mapResultSchema = z.object({
  markers: z.array(mapMarkerSchema),
  /** Matching events with coordinates (may exceed the markers sent). */
  total: z.number().int(),
  /** More than MAX_MAP_MARKERS matched: only the soonest are sent. */
  truncated: z.boolean(),
});
export type MapResult = z.infer<typeof mapResultSchema>;

/** `GET /api/events/around/{req}`: the search filters minus the place, which `req` gives. */
export const aroundQuerySchema = searchQuerySchema.omit({ place: true, lat: true, lng: true });
export type AroundQuery = z.infer<typeof aroundQuerySchema>;

const countedSchema = { count: z.number().int() };

/** Filter options with how many events each would give with the other current filters. */
export const filtersResultSchema = z.object({
  sports: z.array(
    z.object({
      key: z.enum(SPORT_KEYS),
      parent: z.enum(SPORT_KEYS).nullable(),
      nameFr: z.string(),
      nameEn: z.string(),
      slugFr: z.string(),
      slugEn: z.string(),
      /** Events of this sport or of its sub-sports (what choosing it gives). */
      ...countedSchema,
    }),
  ),
  regions: z.array(z.object({ code: z.string(), name: z.string(), slug: z.string(), ...countedSchema })),
  departments: z.array(
    z.object({ code: z.string(), name: z.string(), slug: z.string(), regionCode: z.string(), ...countedSchema }),
  ),
  elevation: z.array(
    z.object({ key: z.enum(ELEVATION_BAND_KEYS), min: z.number(), max: z.number().nullable(), ...countedSchema }),
  ),
  distances: z.array(
    z.object({ key: z.enum(DISTANCE_SHORTCUT_KEYS), min: z.number(), max: z.number().nullable(), ...countedSchema }),
  ),
  scopes: z.array(z.object({ key: z.enum(EVENT_SCOPES), ...countedSchema })),
});
export type FiltersResult = z.infer<typeof filtersResultSchema>;
