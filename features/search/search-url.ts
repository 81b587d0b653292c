/**
 * The search page's state in its URL: SearchQuery ⇄ query string, with one canonical form (fixed
 * key order, list values deduplicated in the catalogue's order, defaults and empty values dropped)
 * so the same filters always give the same URL — one cache entry, one shareable link.
 *
 * Parsing is lenient: a field whose value does not pass `searchQuerySchema` is left out and
 * reported in `invalid`, so a hand-edited URL still shows results with a notice.
 */
import {
  ELEVATION_BANDS,
  type ElevationBandKey,
  EVENT_SCOPES,
  type EventScope,
  SPORT_KEYS,
  type SportKey,
} from "../../shared/constants.ts";
import { parseQuery, type QueryInput, toQueryString } from "../../shared/navigation.ts";
// Types only: the contract's zod schemas stay out of the browser bundle (loaders pass the schema in).
import type { DistanceShortcut, SearchQuery, SearchSort } from "./search.contract.ts";

/** The contract's distance shortcut keys and page size, repeated here without zod (a test keeps them equal). */
export const DISTANCE_KEYS = ["5k", "10k", "half", "marathon", "ultra"] as const satisfies readonly DistanceShortcut[];
export const DEFAULT_PAGE_SIZE = 24;

export type SearchField = keyof SearchQuery;

/** Order of the keys in a canonical URL: what the search is about first, presentation last. */
export const SEARCH_PARAM_ORDER = [
  "q",
  "literal",
  "sport",
  "region",
  "department",
  "place",
  "lat",
  "lng",
  "radius",
  "distance",
  "distanceMin",
  "distanceMax",
  "elevation",
  "from",
  "to",
  "range",
  "scope",
  "cancelled",
  "past",
  "minRating",
  "sort",
  "page",
  "perPage",
] as const satisfies readonly SearchField[];

/** The page's own presentation parameter (not a filter; the API ignores it). */
export const SEARCH_VIEWS = ["grid", "list", "map"] as const;
export type SearchView = (typeof SEARCH_VIEWS)[number];
export const DEFAULT_VIEW: SearchView = "grid";
export const VIEW_PARAM = "view";

/** Soonest first: what a runner looking for a race wants. */
export const DEFAULT_SORT: SearchSort = "oldest";

/** Radius choices of the filter panel, in km (the API accepts 1…MAX_RADIUS_KM). */
export const RADIUS_CHOICES = [10, 20, 30, 50, 100, 150, 200] as const;
export const DEFAULT_RADIUS = 30;

/** Fields that only shape the result list; every other field is a filter. */
const PRESENTATION_FIELDS = new Set<SearchField>(["literal", "sort", "page", "perPage"]);

const LIST_ORDER: Partial<Record<SearchField, readonly string[]>> = {
  sport: SPORT_KEYS,
  distance: DISTANCE_KEYS,
  elevation: ELEVATION_BANDS.map((band) => band.key),
  scope: EVENT_SCOPES,
};

/** List values deduplicated and put in the catalogue's order. */
function canonicalList<T extends string>(field: SearchField, values: readonly T[]): T[] {
  const order = LIST_ORDER[field];
  const unique = [...new Set(values)];
  if (!order) return unique;
  const rank = (value: string) => (order.includes(value) ? order.indexOf(value) : order.length);
  return unique.sort((a, b) => rank(a) - rank(b));
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

/** Whether a field's value is the default, so the URL leaves it out. */
function isDefault(field: SearchField, value: unknown): boolean {
  switch (field) {
    case "page":
      return value === 1;
    case "perPage":
      return value === DEFAULT_PAGE_SIZE;
    case "sort":
      return value === DEFAULT_SORT;
    case "cancelled":
    case "past":
    case "literal":
      return value === false;
    default:
      return false;
  }
}

/** A query without empty or default values, lists in canonical order. */
export function normalizeSearchQuery(query: SearchQuery): SearchQuery {
  const result: Record<string, unknown> = {};
  for (const field of SEARCH_PARAM_ORDER) {
    let value: unknown = query[field];
    if (typeof value === "string") value = value.trim();
    if (Array.isArray(value)) value = canonicalList(field, value as string[]);
    if (isEmpty(value) || isDefault(field, value)) continue;
    result[field] = value;
  }
  // "As typed" means nothing without a text.
  if (!result.q) delete result.literal;
  return result as SearchQuery;
}

export type ParsedSearch = {
  query: SearchQuery;
  view: SearchView;
  /** Fields present in the URL whose value was refused (left out of `query`). */
  invalid: SearchField[];
};

/** What validates one field: a zod schema's `safeParse` fits (`searchQuerySchema.shape`). */
export type FieldValidators = Record<SearchField, { safeParse(value: unknown): { success: boolean; data?: unknown } }>;

const ok = (data: unknown) => ({ success: data !== undefined, data });
const asList = (value: unknown) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(","))
    .map((v) => v.trim())
    .filter(Boolean);
const asNumber = (value: unknown) => {
  const n = typeof value === "number" ? value : Number(String(value).trim());
  return Number.isFinite(n) ? n : undefined;
};
const asBool = (value: unknown) =>
  value === true || value === "1" || value === "true"
    ? true
    : value === false || value === "0" || value === "false"
      ? false
      : undefined;
const LIST_FIELDS = new Set<SearchField>(["sport", "distance", "elevation", "scope"]);
const NUMBER_FIELDS = new Set<SearchField>(["lat", "lng", "radius", "distanceMin", "distanceMax", "page", "perPage"]);

/**
 * Structural reading without the contract's rules (lists split, numbers and booleans coerced):
 * what the browser uses for the search being loaded, which the server validates for real.
 */
export const LENIENT_FIELDS = Object.fromEntries(
  SEARCH_PARAM_ORDER.map((field) => [
    field,
    {
      safeParse: (value: unknown) =>
        LIST_FIELDS.has(field)
          ? ok(asList(value))
          : NUMBER_FIELDS.has(field)
            ? ok(asNumber(value))
            : field === "cancelled" || field === "past" || field === "literal"
              ? ok(asBool(value))
              : ok(String(value).trim() || undefined),
    },
  ]),
) as FieldValidators;

/**
 * Reads a page URL's query string (or parsed query object) into a SearchQuery, field by field:
 * a bad value drops that field only. Repeated keys (`sport=a&sport=b`, what a plain HTML form
 * sends) and comma lists (`sport=a,b`) are both accepted. Loaders pass `searchQuerySchema.shape`
 * as `fields`; without it the reading is only structural.
 */
export function parseSearchParams(
  input: URLSearchParams | string | Record<string, unknown>,
  fields: FieldValidators = LENIENT_FIELDS,
): ParsedSearch {
  const raw: Record<string, unknown> =
    typeof input === "string" || input instanceof URLSearchParams ? parseQuery(input) : input;
  const query: Record<string, unknown> = {};
  const invalid: SearchField[] = [];
  for (const field of SEARCH_PARAM_ORDER) {
    const value = raw[field];
    if (isEmpty(value)) continue;
    // A single-valued field given twice keeps its last value, like most servers do.
    const single = Array.isArray(value) && !LIST_FIELDS.has(field) ? value.at(-1) : value;
    const parsed = fields[field].safeParse(single);
    if (parsed.success) {
      if (!isEmpty(parsed.data)) query[field] = parsed.data;
    } else {
      invalid.push(field);
    }
  }
  const rawView = Array.isArray(raw[VIEW_PARAM]) ? (raw[VIEW_PARAM] as unknown[]).at(-1) : raw[VIEW_PARAM];
  const view = (SEARCH_VIEWS as readonly unknown[]).includes(rawView) ? (rawView as SearchView) : DEFAULT_VIEW;
  return { query: normalizeSearchQuery(query as SearchQuery), view, invalid };
}

/** The canonical query object of a search, ready for `toQueryString`. */
export function searchQueryObject(query: SearchQuery, view: SearchView = DEFAULT_VIEW): QueryInput {
  const normal = normalizeSearchQuery(query);
  const result: Record<string, string> = {};
  for (const field of SEARCH_PARAM_ORDER) {
    const value = normal[field];
    if (value === undefined) continue;
    if (Array.isArray(value)) result[field] = value.join(",");
    else if (typeof value === "boolean") result[field] = value ? "1" : "0";
    else result[field] = String(value);
  }
  if (view !== DEFAULT_VIEW) result[VIEW_PARAM] = view;
  return result;
}

/** The canonical query string (no "?"), commas left readable: `sport=trail,ultra_trail&region=84`. */
export function searchQueryString(query: SearchQuery, view: SearchView = DEFAULT_VIEW): string {
  return toQueryString(searchQueryObject(query, view), { dropEmpty: true }).replace(/%2C/gi, ",");
}

/** The canonical URLSearchParams of a search. */
export function searchParamsOf(query: SearchQuery, view: SearchView = DEFAULT_VIEW): URLSearchParams {
  return new URLSearchParams(searchQueryString(query, view));
}

/** A page path with the search's canonical query string. */
export function searchHref(pathname: string, query: SearchQuery, view: SearchView = DEFAULT_VIEW): string {
  const search = searchQueryString(query, view);
  return search ? `${pathname}?${search}` : pathname;
}

/**
 * A new search from the current one: `patch` wins (undefined or [] clears a field). Any change of
 * a filter goes back to page 1; leaving the place also leaves the radius and the "nearest" sort.
 */
export function updateSearchQuery(query: SearchQuery, patch: Partial<SearchQuery>): SearchQuery {
  const next: Record<string, unknown> = { ...query };
  for (const [key, value] of Object.entries(patch)) {
    if (isEmpty(value)) delete next[key];
    else next[key] = value;
  }
  if (!("page" in patch)) delete next.page;
  // A new text is read afresh (sports, places, months in it become filters) unless asked otherwise.
  if ("q" in patch && !("literal" in patch)) delete next.literal;
  const hasPlace = Boolean(next.place) || (next.lat !== undefined && next.lng !== undefined);
  if (!hasPlace) {
    delete next.radius;
    if (next.sort === "distance") delete next.sort;
  }
  if (!next.q && next.sort === "relevance") delete next.sort;
  if (next.from || next.to) delete next.range;
  return normalizeSearchQuery(next as SearchQuery);
}

/** The same search without one field (the fallback when the API refuses that field). */
export function withoutField(query: SearchQuery, field: string): SearchQuery {
  const next: Record<string, unknown> = { ...query };
  delete next[field];
  // A place and its radius or coordinates go together.
  if (field === "place" || field === "lat" || field === "lng") {
    delete next.place;
    delete next.lat;
    delete next.lng;
    delete next.radius;
    if (next.sort === "distance") delete next.sort;
  }
  if (field === "from" || field === "to" || field === "range") {
    delete next.from;
    delete next.to;
    delete next.range;
  }
  return normalizeSearchQuery(next as SearchQuery);
}

/** Whether any filter is set (sorting and paging do not count). */
export function hasSearchFilters(query: SearchQuery): boolean {
  return Object.keys(normalizeSearchQuery(query)).some((field) => !PRESENTATION_FIELDS.has(field as SearchField));
}

/** How many filters are set, for the "Filters (3)" button: each list value counts once. */
export function countSearchFilters(query: SearchQuery): number {
  const normal = normalizeSearchQuery(query);
  let count = 0;
  for (const [field, value] of Object.entries(normal)) {
    if (PRESENTATION_FIELDS.has(field as SearchField)) continue;
    if (field === "lng" || field === "radius" || field === "to" || field === "distanceMax") continue;
    count += Array.isArray(value) ? value.length : 1;
  }
  return count;
}

/** Whether the search is around a place (so "nearest first" makes sense). */
export function hasPlace(query: SearchQuery): boolean {
  return Boolean(query.place) || (query.lat !== undefined && query.lng !== undefined);
}

export type { DistanceShortcut, ElevationBandKey, EventScope, SportKey };
