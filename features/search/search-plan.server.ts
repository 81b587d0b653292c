/**
 * Reading a search query into a plan: the query checked against its schema and the reference data
 * (sports, regions, departments, the place and its radius, dates), its text split into classified
 * words. Strictly, every refusal is a 400 naming the field; leniently (the search pages), every
 * refused field is left out in one pass and named.
 */
import { sql } from "drizzle-orm";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type ElevationBandKey, type EventScope, SPORTS } from "../../shared/constants.ts";
import { addIsoDays } from "../../shared/dates.ts";
import { parseIsoDate, quickRange, toIsoDate } from "../../shared/ui/date-range.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import {
  DEFAULT_PER_PAGE,
  DEFAULT_RADIUS_KM,
  DISTANCE_SHORTCUTS,
  type SearchQuery,
  type SearchResult,
  type SearchSort,
  searchQuerySchema,
} from "./search.contract.ts";
import { type Department, INSEE_CODE, type Region, type SearchContext } from "./search-context.server.ts";
import { type SearchField, withoutField } from "./search-url.ts";
import { type QueryWord, type queryWordReader, queryWords } from "./search-words.server.ts";

export type ResolvedPlace = NonNullable<SearchResult["place"]>;

/** A search query checked and resolved against the reference data: what the SQL is built from. */
export type SearchPlan = {
  today: string;
  /** The text as typed (for ranking), null without text. */
  phrase: string | null;
  /** Significant words (stop words left out), classified against the events' text. */
  words: QueryWord[];
  sportIds: number[] | null;
  region: Region | null;
  department: Department | null;
  place: ResolvedPlace | null;
  /** Course distance shortcuts as [min, max] metres (max null: no upper bound). */
  distanceRanges: (readonly [number, number | null])[] | null;
  distanceMin: number | null;
  distanceMax: number | null;
  bands: ElevationBandKey[] | null;
  /** Events still running on or after this day (end_date ≥ lower). */
  lower: string | null;
  /**
   * `lower` minus the longest event span: no event ending on or after `lower` starts before it,
   * so this bound lets the start_date indexes serve "not finished yet" in order.
   */
  lowerStart: string | null;
  /** Events starting on or before this day. */
  upper: string | null;
  scopes: EventScope[] | null;
  includeCancelled: boolean;
  minRating: number | null;
  sort: SearchSort;
  page: number;
  perPage: number;
};

/** A plan made leniently: the query it is for (the asked one minus the refused fields) and those fields. */
export type LenientPlan = { plan: SearchPlan; query: SearchQuery; ignored: SearchField[] };

/** The weekend (Saturday–Sunday) of the ISO week of a day, `offset` weeks later; today onwards. */
export function weekendRange(today: string, offset = 0): { from: string; to: string } {
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  const saturday = addIsoDays(today, (weekday === 0 ? -1 : 6 - weekday) + 7 * offset);
  const sunday = addIsoDays(saturday, 1);
  return { from: saturday < today ? today : saturday, to: sunday };
}

function firstField(error: { issues: { path: PropertyKey[] }[] }): string | undefined {
  const key = error.issues[0]?.path[0];
  return key === undefined ? undefined : String(key);
}

/** A refusal naming no field of the query: the lenient plan starts again from no filter at all. */
class RefusedAll extends Error {}

/**
 * A plan in the making: the query as asked and as checked, and the fields refused so far. Strict,
 * a refused field is a 400 naming it. Lenient, it is noted and the query goes on without it (and
 * the fields that go with it, as withoutField says); a refused field the query does not hold (the
 * missing half of a coordinate pair) drops every filter.
 */
type Refusals = { lenient: boolean; asked: Record<string, unknown>; query: SearchQuery; ignored: string[] };

function refuse(state: Refusals, field: string | undefined): void {
  if (!state.lenient) throw new ApiError("BAD_REQUEST", { field });
  if (field === undefined || !(field in state.asked)) throw new RefusedAll();
  state.ignored.push(field);
  state.asked = withoutField(state.asked as SearchQuery, field);
  state.query = withoutField(state.query, field);
}

export function searchPlanner(context: SearchContext, words: ReturnType<typeof queryWordReader>) {
  const { db, clock, geo } = context;
  let span: { at: number; days: Promise<number> } | undefined;

  /**
   * The longest event in days (end_date - start_date), read from events_span_idx and kept ten
   * seconds: an event longer than every other one appears in "not finished yet" searches at most
   * that late, and only while it is already in progress.
   */
  function longestSpan(): Promise<number> {
    const now = Date.now();
    if (!span || now - span.at > 10_000) {
      const days = rows<{ days: number }>(
        db,
        sql`SELECT coalesce(max(end_date - start_date), 0)::int AS days FROM events`,
      ).then(([row]) => Math.max(0, Number(row?.days ?? 0)));
      days.catch(() => {
        span = undefined;
      });
      span = { at: now, days };
    }
    return span.days;
  }

  /** The schema check: strictly the first refused field is a 400; leniently every refused field is left out. */
  function parse(state: Refusals): void {
    const parsed = searchQuerySchema.safeParse(state.asked);
    if (parsed.success) {
      state.query = parsed.data;
      return;
    }
    if (!state.lenient) throw new ApiError("BAD_REQUEST", { field: firstField(parsed.error) });
    const refused = parsed.error.issues.map((issue) => issue.path[0]);
    if (refused.some((field) => field === undefined)) throw new RefusedAll();
    // The fields the schema accepted, then each refused one left out (a field already left out
    // with another one, like coordinates with their place, is not named twice).
    const accepted = searchQuerySchema.safeParse(
      Object.fromEntries(Object.entries(state.asked).filter(([key]) => !refused.includes(key))),
    );
    if (!accepted.success) throw new RefusedAll();
    state.query = accepted.data;
    for (const field of new Set(refused.map(String))) if (field in state.asked) refuse(state, field);
  }

  /** Checks a query and resolves its references; every refusal is a 400 naming the field. */
  function resolve(input: unknown): Promise<SearchPlan> {
    return plan({ lenient: false, asked: (input ?? {}) as Record<string, unknown>, query: {}, ignored: [] });
  }

  async function plan(state: Refusals): Promise<SearchPlan> {
    parse(state);
    let query = state.query;
    /** The query without the fields refused since (lenient only: strict refusals throw). */
    const current = () => {
      query = state.query;
      return query;
    };
    const today = parisToday(clock());

    const phrase = query.q?.replace(/\0/g, "").trim() || null;
    const planWords = phrase ? await words.classify(queryWords(phrase)) : [];

    let sportIds: number[] | null = null;
    if (query.sport?.length) {
      const { idByKey } = await context.sportMaps();
      const selected = new Set<string>(query.sport);
      for (const sport of SPORTS) if (sport.parent && selected.has(sport.parent)) selected.add(sport.key);
      const ids = [...selected].map((key) => idByKey.get(key));
      if (ids.some((id) => id === undefined)) refuse(state, "sport");
      else sportIds = ids as number[];
    }

    let region: Region | null = null;
    if (query.region) {
      region = await geo.region(query.region);
      if (!region) refuse(state, "region");
    }
    let department: Department | null = null;
    if (query.department) {
      department = await geo.department(query.department);
      if (!department) refuse(state, "department");
    }

    let place: ResolvedPlace | null = null;
    if (query.place) {
      const city = INSEE_CODE.test(query.place) ? await geo.communeByCodeOrPostal(query.place) : null;
      if (!city) refuse(state, "place");
      else {
        place = {
          code: city.code,
          name: city.name,
          lat: city.lat,
          lng: city.lng,
          radius: query.radius ?? DEFAULT_RADIUS_KM,
          kind: city.code === query.place.toUpperCase() ? "commune" : "postal_code",
        };
      }
    } else if (query.lat !== undefined || query.lng !== undefined) {
      if (query.lat === undefined) refuse(state, "lat");
      else if (query.lng === undefined) refuse(state, "lng");
      else {
        const near = await geo.nearest(query.lat, query.lng);
        place = {
          code: near?.city.code ?? "",
          name: near?.city.name ?? `${query.lat.toFixed(4)}, ${query.lng.toFixed(4)}`,
          lat: query.lat,
          lng: query.lng,
          radius: query.radius ?? DEFAULT_RADIUS_KM,
          kind: "coordinates",
        };
      }
    }
    query = current();
    if (query.radius !== undefined && !place) refuse(state, "radius");
    query = current();
    if (query.sort === "distance" && !place) refuse(state, "sort");
    query = current();

    if (query.distanceMin !== undefined && query.distanceMax !== undefined && query.distanceMin > query.distanceMax) {
      refuse(state, "distanceMin");
      query = current();
    }

    let from = query.from ?? null;
    let to = query.to ?? null;
    if (from && to && from > to) {
      refuse(state, "to");
      query = current();
      from = query.from ?? null;
      to = query.to ?? null;
    }
    if (query.range) {
      const range = quickRange(query.range, parseIsoDate(today) as Date);
      from = toIsoDate(range.start);
      to = toIsoDate(range.end);
    }
    // Finished events are left out unless asked for; a start date in the past asks for them.
    let lower: string | null;
    if (query.past === true) lower = from;
    else if (query.past === false) lower = from && from > today ? from : today;
    else lower = from ?? today;

    const lowerStart = lower ? addIsoDays(lower, -(await longestSpan())) : null;

    let sort: SearchSort = query.sort ?? "oldest";
    if (sort === "relevance" && !phrase) sort = "oldest";

    return {
      today,
      phrase,
      words: planWords,
      sportIds,
      region,
      department,
      place,
      distanceRanges: query.distance?.length ? query.distance.map((key) => DISTANCE_SHORTCUTS[key]) : null,
      distanceMin: query.distanceMin !== undefined ? Math.round(query.distanceMin * 1000) : null,
      distanceMax: query.distanceMax !== undefined ? Math.round(query.distanceMax * 1000) : null,
      bands: query.elevation?.length ? [...new Set(query.elevation)] : null,
      lower,
      lowerStart,
      upper: to,
      scopes: query.scope?.length ? [...new Set(query.scope)] : null,
      includeCancelled: query.cancelled === true,
      minRating: query.minRating ?? null,
      sort,
      page: query.page ?? 1,
      perPage: query.perPage ?? DEFAULT_PER_PAGE,
    };
  }

  return {
    resolve,

    /**
     * Checks a query once and resolves its references, leaving out every refused field (with the
     * fields that go with it) and naming them; a refusal naming no field of the query leaves out
     * every filter.
     */
    async resolveLenient(input: SearchQuery): Promise<LenientPlan> {
      const state: Refusals = { lenient: true, asked: { ...input }, query: {}, ignored: [] };
      try {
        const resolved = await plan(state);
        return { plan: resolved, query: state.asked as SearchQuery, ignored: state.ignored as SearchField[] };
      } catch (error) {
        if (!(error instanceof RefusedAll)) throw error;
        const ignored = [...state.ignored, ...Object.keys(state.asked)] as SearchField[];
        return { plan: await resolve({}), query: {}, ignored };
      }
    },

    /** Forgets the longest span (events were written). */
    forget() {
      span = undefined;
    },
  };
}

export type SearchPlanner = ReturnType<typeof searchPlanner>;
