import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import enSearch from "../../locales/en/search.json";
import frSearch from "../../locales/fr/search.json";
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import {
  ELEVATION_BANDS,
  type ElevationBandKey,
  EVENT_SCOPES,
  type EventScope,
  type Locale,
  SPORTS,
  type SportKey,
} from "../../shared/constants.ts";
import { addIsoDays } from "../../shared/dates.ts";
import { parseIsoDate, quickRange, toIsoDate } from "../../shared/ui/date-range.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { eventState } from "../events/event-state.ts";
import { toIcs } from "../events/ics.ts";
import { eventIcsEvents, type RaceCourse } from "../events/race-ics.ts";
import type { Department, Region } from "../geo/geo.contract.ts";
import { geoService, INSEE_CODE, pgArray, rows } from "../geo/geo.service.server.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import { sportsService } from "../sports/sports.service.server.ts";
import { normalizeText, typoAllowance, typoCorrections, type Vocabulary, vocabularyOf } from "./free-text.ts";
import {
  DEFAULT_PER_PAGE,
  DEFAULT_RADIUS_KM,
  DISTANCE_SHORTCUT_KEYS,
  DISTANCE_SHORTCUTS,
  type FiltersResult,
  MAX_ICS_EVENTS,
  MAX_MAP_MARKERS,
  type MapMarker,
  type MapResult,
  type SearchItem,
  type SearchQuery,
  type SearchResult,
  type SearchSort,
  searchQuerySchema,
} from "./search.contract.ts";

/** Filter dimensions a facet count leaves out (its own); "geo" is the region and the department. */
type Dimension = "sport" | "geo" | "department" | "distance" | "elevation" | "scope";

type ResolvedPlace = NonNullable<SearchResult["place"]>;

/** A search query checked and resolved against the reference data: what the SQL is built from. */
export type SearchPlan = {
  today: string;
  /** The text as typed (for ranking), null without text. */
  phrase: string | null;
  /**
   * Significant words (stop words left out): as typed (lower case), accent-free, and whether some
   * event's text has it (else it is probably misspelt: matched by trigrams and by `corrections`,
   * the words of event names, towns, venues and organisers it is a typo of).
   */
  words: { raw: string; norm: string; known: boolean; corrections: string[] }[];
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

/** Lower bounds of the elevation bands after the first: width_bucket() gives each course its band index. */
const BAND_THRESHOLDS = ELEVATION_BANDS.slice(1).map((band) => band.min);
const BAND_ARRAY = sql.raw(`ARRAY[${BAND_THRESHOLDS.join(",")}]`);
/** Bit of the mask for a matching course whose elevation gain is unknown. */
const UNKNOWN_BAND_BIT = ELEVATION_BANDS.length;

const NAME_NORM = sql.raw("immutable_unaccent(lower(e.name))");
const CITY_NORM = sql.raw("immutable_unaccent(lower(e.city))");
const EVENT_EARTH = sql.raw("ll_to_earth(e.lat, e.lng)");
/** An active event's position and start day: the key of events_active_earth_day_idx. */
const EVENT_EARTH_DAY = sql.raw("cube(ll_to_earth(e.lat, e.lng)::cube, (e.start_date - DATE '2000-01-01')::float8)");
const DAY_ZERO = Date.UTC(2000, 0, 1);

/** Days from 2000-01-01 to a "YYYY-MM-DD" day, as in the radius index. */
function dayNumber(isoDate: string): number {
  return Math.round((Date.parse(`${isoDate}T00:00:00Z`) - DAY_ZERO) / 86_400_000);
}
/** A card's columns (events alias e), its course distances and durations shortest first. */
const CARD_COLUMNS = sql.raw(`e.id, e.slug, e.name, e.sport_id, e.start_date::text AS start_date,
  e.end_date::text AS end_date, e.city, e.department_code, e.scope, e.cancelled, e.postponed, e.max_elevation,
  e.cover_image, e.lat, e.lng,
  (SELECT array_agg(c.distance ORDER BY c.distance) FROM courses c
    WHERE c.event_id = e.id AND c.distance IS NOT NULL) AS distances,
  (SELECT array_agg(c.duration ORDER BY c.duration) FROM courses c
    WHERE c.event_id = e.id AND c.duration IS NOT NULL) AS durations`);
const MAX_WORDS = 8;

/**
 * An event's members' rating for search (features/ratings): its own average, else that of the
 * latest earlier edition of its series that was rated — an upcoming edition has no ratings yet.
 */
const RATING_EXPR = sql.raw(`coalesce(e.rating_average, (SELECT g.rating_average FROM events g
  WHERE e.group_id IS NOT NULL AND g.group_id = e.group_id AND g.rating_count > 0 AND g.start_date < e.start_date
  ORDER BY g.start_date DESC LIMIT 1))`);

const ICS_TEXT = { fr: frSearch.ics, en: enSearch.ics } as const;

/** A search's iCalendar feed, one page of it. */
export type IcsFeed = { body: string; total: number; page: number; pages: number };

function firstField(error: { issues: { path: PropertyKey[] }[] }): string | undefined {
  const key = error.issues[0]?.path[0];
  return key === undefined ? undefined : String(key);
}

/** Words of a text query: letters and digits, lower case, 2 to 40 characters, at most 8. */
export function queryWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 && w.length <= 40);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** The weekend (Saturday–Sunday) of the ISO week of a day, `offset` weeks later; today onwards. */
export function weekendRange(today: string, offset = 0): { from: string; to: string } {
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  const saturday = addIsoDays(today, (weekday === 0 ? -1 : 6 - weekday) + 7 * offset);
  const sunday = addIsoDays(saturday, 1);
  return { from: saturday < today ? today : saturday, to: sunday };
}

type ItemRow = {
  id: number;
  slug: string;
  name: string;
  sport_id: number;
  start_date: string;
  end_date: string;
  city: string | null;
  department_code: string | null;
  scope: EventScope;
  cancelled: boolean;
  postponed: boolean;
  max_elevation: number | null;
  cover_image: string | null;
  lat: number | null;
  lng: number | null;
  metres: number | null;
  distances: number[] | null;
  durations: number[] | null;
};

type FacetRow = {
  g: number;
  sport_id: number | null;
  region_code: string | null;
  n_sport: number;
  n_region: number;
  n_total: number;
} & Record<`b${number}`, number>;

/** Event search (issue 3): filters, facets, map markers, iCalendar feed. */
export type SearchServiceOptions = {
  /**
   * How long the total and facets of a slow search (see slowCountMs) are reused for its other
   * pages and orders, in ms; 0 never reuses them.
   */
  countCacheMs: number;
  /** Only counts that took at least this long are kept. */
  slowCountMs: number;
  /**
   * How long whole answers (a page of results, map markers, a home-page list) are reused for the
   * same query, in ms; 0 (the default) never reuses them. The site turns it on with its page
   * cache and calls invalidate() after every write.
   */
  resultCacheMs: number;
  /** Events per iCalendar feed page (MAX_ICS_EVENTS). */
  icsPageSize: number;
};

export function searchService(
  db: Db,
  clock: () => Date = () => new Date(),
  settings: Partial<SearchServiceOptions> = {},
) {
  const options: SearchServiceOptions = {
    countCacheMs: 30_000,
    slowCountMs: 25,
    resultCacheMs: 0,
    icsPageSize: MAX_ICS_EVENTS,
    ...settings,
  };
  const resultCache = new Map<string, { at: number; value: Promise<unknown> }>();

  /** The answer for `key` from resultCache while fresh (one computation shared), else computed. */
  function reuse<T>(kind: string, query: unknown, compute: () => Promise<T>): Promise<T> {
    if (options.resultCacheMs <= 0) return compute();
    const key = `${kind}|${parisToday(clock())}|${JSON.stringify(query)}`;
    const now = Date.now();
    const hit = resultCache.get(key);
    if (hit && now - hit.at < options.resultCacheMs) return hit.value as Promise<T>;
    const value = compute();
    if (resultCache.size >= 1_000) resultCache.delete(resultCache.keys().next().value as string);
    resultCache.set(key, { at: now, value });
    value.catch(() => {
      if (resultCache.get(key)?.value === value) resultCache.delete(key);
    });
    return value;
  }
  const countCache = new Map<string, { at: number; value: { total: number; facets: SearchResult["facets"] } }>();
  const geo = geoService(db);
  const sportList = sportsService(db);
  /**
   * Query words: accent-free form, stop word or not, and whether some event has it (as a word or
   * the start of one) in its text vector. Cached: known words for good, unknown ones a minute.
   */
  const wordCache = new Map<string, { norm: string; stop: boolean; known: boolean; at: number }>();
  const filtersCache = new Map<string, { at: number; value: Promise<FiltersResult> }>();
  /**
   * The words of active events' names, towns, venues and organisers (accent-free, 5 letters or
   * more) that an unknown query word may be a typo of. Read when first needed (split here: the
   * same in SQL takes several times longer), kept ten minutes, forgotten by invalidate().
   */
  let vocabulary: { at: number; words: Promise<Vocabulary> } | undefined;

  function typoVocabulary(): Promise<Vocabulary> {
    const now = Date.now();
    if (!vocabulary || now - vocabulary.at > 600_000) {
      const words = rows<{ text: string }>(
        db,
        sql`SELECT concat_ws(' ', name, city, place, organizer_name) AS text FROM events WHERE status = 'active'`,
      ).then((found) =>
        vocabularyOf(
          found.flatMap((row) =>
            normalizeText(row.text)
              .split(/[^\p{L}\p{N}]+/u)
              .filter((w) => w.length >= 5),
          ),
        ),
      );
      words.catch(() => {
        vocabulary = undefined;
      });
      vocabulary = { at: now, words };
    }
    return vocabulary.words;
  }

  async function sportMaps() {
    const list = await sportList.list();
    return {
      idByKey: new Map(list.map((s) => [s.key, s.id])),
      keyById: new Map(list.map((s) => [s.id, s.key as SportKey])),
      list,
    };
  }

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

  async function classifyWords(words: string[]): Promise<SearchPlan["words"]> {
    const now = Date.now();
    const missing = words.filter((w) => {
      const hit = wordCache.get(w);
      return !hit || (!hit.known && now - hit.at > 60_000);
    });
    if (missing.length) {
      const found = await rows<{ w: string; norm: string; stop: boolean; known: boolean }>(
        db,
        sql`SELECT w, norm, stop, NOT stop AND EXISTS (
              SELECT 1 FROM events x WHERE x.search_vector @@ to_tsquery('fr_unaccent', w || ':*')) AS known
            FROM (SELECT w, immutable_unaccent(w) AS norm,
                    coalesce(cardinality(ts_lexize('french_stem', immutable_unaccent(w))), 1) = 0 AS stop
                  FROM unnest(${pgArray(missing)}::text[]) AS w) AS words`,
      );
      if (wordCache.size > 5_000) wordCache.clear();
      for (const row of found) wordCache.set(row.w, { norm: row.norm, stop: row.stop, known: row.known, at: now });
    }
    const kept = words.flatMap((w) => {
      const hit = wordCache.get(w);
      return hit && !hit.stop ? [{ raw: w, norm: hit.norm, known: hit.known, corrections: [] as string[] }] : [];
    });
    if (kept.some((w) => !w.known && typoAllowance(w.norm.length) > 0)) {
      const known = await typoVocabulary();
      for (const w of kept) if (!w.known) w.corrections = typoCorrections(w.norm, known);
    }
    return kept;
  }

  /** Checks a query and resolves its references; every refusal is a 400 naming the field. */
  async function resolve(input: unknown): Promise<SearchPlan> {
    const parsed = searchQuerySchema.safeParse(input ?? {});
    if (!parsed.success) throw new ApiError("BAD_REQUEST", { field: firstField(parsed.error) });
    const query = parsed.data;
    const today = parisToday(clock());

    const phrase = query.q?.replace(/\0/g, "").trim() || null;
    let words: SearchPlan["words"] = [];
    if (phrase) {
      words = await classifyWords(queryWords(phrase));
    }

    let sportIds: number[] | null = null;
    if (query.sport?.length) {
      const { idByKey } = await sportMaps();
      const selected = new Set<string>(query.sport);
      for (const sport of SPORTS) if (sport.parent && selected.has(sport.parent)) selected.add(sport.key);
      sportIds = [...selected].map((key) => {
        const id = idByKey.get(key);
        if (id === undefined) throw new ApiError("BAD_REQUEST", { field: "sport" });
        return id;
      });
    }

    let region: Region | null = null;
    if (query.region) {
      region = await geo.region(query.region);
      if (!region) throw new ApiError("BAD_REQUEST", { field: "region" });
    }
    let department: Department | null = null;
    if (query.department) {
      department = await geo.department(query.department);
      if (!department) throw new ApiError("BAD_REQUEST", { field: "department" });
    }

    let place: ResolvedPlace | null = null;
    if (query.place) {
      const city = INSEE_CODE.test(query.place) ? await geo.communeByCodeOrPostal(query.place) : null;
      if (!city) throw new ApiError("BAD_REQUEST", { field: "place" });
      place = {
        code: city.code,
        name: city.name,
        lat: city.lat,
        lng: city.lng,
        radius: query.radius ?? DEFAULT_RADIUS_KM,
        kind: city.code === query.place.toUpperCase() ? "commune" : "postal_code",
      };
    } else if (query.lat !== undefined || query.lng !== undefined) {
      if (query.lat === undefined) throw new ApiError("BAD_REQUEST", { field: "lat" });
      if (query.lng === undefined) throw new ApiError("BAD_REQUEST", { field: "lng" });
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
    if (query.radius !== undefined && !place) throw new ApiError("BAD_REQUEST", { field: "radius" });
    if (query.sort === "distance" && !place) throw new ApiError("BAD_REQUEST", { field: "sort" });

    if (query.distanceMin !== undefined && query.distanceMax !== undefined && query.distanceMin > query.distanceMax) {
      throw new ApiError("BAD_REQUEST", { field: "distanceMin" });
    }

    let from = query.from ?? null;
    let to = query.to ?? null;
    if (from && to && from > to) throw new ApiError("BAD_REQUEST", { field: "to" });
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
      words,
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

  function placeEarth(place: ResolvedPlace): SQL {
    return sql`ll_to_earth(${place.lat}::float8, ${place.lng}::float8)`;
  }

  /** The bits of the selected elevation bands (as in events.elevation_bands); 0 without a band filter. */
  function bandBits(plan: SearchPlan): number {
    const bands = plan.bands;
    if (!bands) return 0;
    return ELEVATION_BANDS.reduce((bits, band, i) => (bands.includes(band.key) ? bits | (1 << i) : bits), 0);
  }

  /** Conditions on one course (alias c): the distance parts, the elevation band parts, or both. */
  function courseCondition(plan: SearchPlan, parts: { distance: boolean; elevation: boolean }): SQL | null {
    const conditions: SQL[] = [];
    if (parts.distance) {
      if (plan.distanceRanges) {
        const ranges = plan.distanceRanges.map(([min, max]) =>
          max === null ? sql`c.distance >= ${min}` : sql`c.distance BETWEEN ${min} AND ${max}`,
        );
        conditions.push(sql`(${sql.join(ranges, sql` OR `)})`);
      }
      if (plan.distanceMin !== null) conditions.push(sql`c.distance >= ${plan.distanceMin}`);
      if (plan.distanceMax !== null) conditions.push(sql`c.distance <= ${plan.distanceMax}`);
    }
    if (parts.elevation && plan.bands) {
      const bands = ELEVATION_BANDS.filter((band) => plan.bands?.includes(band.key)).map((band) => {
        const low = band.min > 0 ? sql`c.elevation_gain >= ${band.min}` : null;
        const high = band.max !== null ? sql`c.elevation_gain < ${band.max}` : null;
        if (low && high) return sql`(${low} AND ${high})`;
        return low ?? high ?? sql`c.elevation_gain IS NOT NULL`;
      });
      conditions.push(sql`(${sql.join(bands, sql` OR `)})`);
    }
    return conditions.length ? sql.join(conditions, sql` AND `) : null;
  }

  /** WHERE conditions on events (alias e), leaving out the dimensions in `except`. */
  function conditions(plan: SearchPlan, except: ReadonlySet<Dimension> = new Set()): SQL[] {
    // The literal `status = 'active'` lets the planner use the partial covering index.
    const where: SQL[] = [sql.raw("e.status = 'active'")];
    if (!plan.includeCancelled) where.push(sql.raw("NOT e.cancelled"));
    if (plan.lower) {
      where.push(sql`e.end_date >= ${plan.lower}::date`);
      if (plan.lowerStart) where.push(sql`e.start_date >= ${plan.lowerStart}::date`);
    }
    if (plan.upper) where.push(sql`e.start_date <= ${plan.upper}::date`);
    if (plan.minRating !== null) where.push(sql`${RATING_EXPR} >= ${plan.minRating}::float8`);
    if (plan.phrase) {
      // A known word must be in the text vector (French stem, no accents, or the start of one:
      // "ardech" finds "Ardèche"); an unknown one, probably misspelt, must be close to a word of
      // the name or of the town (trigrams), or one of the words it is a typo of must be in the
      // text vector (trigrams miss swapped letters: "ecahppee" shares 5 of 13 with "echappee").
      // With a misspelt word, the whole text very close to the name also matches (a full name
      // typed with a typo in a short word).
      const words = plan.words.map((w) => {
        if (w.known) return sql`e.search_vector @@ to_tsquery('fr_unaccent', ${`${w.raw}:*`})`;
        const close = sql`${w.norm} <% ${NAME_NORM} OR ${w.norm} <% ${CITY_NORM}
                OR (${CITY_NORM} % ${w.norm} AND similarity(${CITY_NORM}, ${w.norm}) >= 0.5)`;
        if (!w.corrections.length) return sql`(${close})`;
        return sql`(e.search_vector @@ to_tsquery('fr_unaccent', ${w.corrections.join(" | ")}) OR ${close})`;
      });
      const phrase = sql`immutable_unaccent(lower(${plan.phrase}))`;
      const whole = sql`(${phrase} <% ${NAME_NORM} AND word_similarity(${phrase}, ${NAME_NORM}) >= 0.75)`;
      if (!words.length) where.push(sql`(${phrase} <% ${NAME_NORM} OR ${phrase} <% ${CITY_NORM})`);
      else if (words.length > 1 && plan.words.some((w) => !w.known)) {
        where.push(sql`((${sql.join(words, sql` AND `)}) OR ${whole})`);
      } else where.push(sql.join(words, sql` AND `));
    }
    if (plan.place) {
      // The bounding box of the circle (earth_box) extended with the start days that can match,
      // on events_active_earth_day_idx; then the exact great-circle distance.
      const metres = plan.place.radius * 1000;
      const here = placeEarth(plan.place);
      const firstDay = plan.lowerStart ? dayNumber(plan.lowerStart) : -1e6;
      const lastDay = plan.upper ? dayNumber(plan.upper) : 1e6;
      where.push(
        sql`cube(earth_box(${here}, ${metres}::float8)::cube, ${firstDay}::float8, ${lastDay}::float8) @> ${EVENT_EARTH_DAY}`,
      );
      where.push(sql`earth_distance(${here}, ${EVENT_EARTH}) <= ${metres}::float8`);
    }
    if (plan.scopes && !except.has("scope")) where.push(sql`e.scope = ANY(${pgArray(plan.scopes)}::event_scope[])`);
    if (plan.sportIds && !except.has("sport")) where.push(sql`e.sport_id = ANY(${pgArray(plan.sportIds)}::int[])`);
    if (!except.has("geo")) {
      if (plan.region) where.push(sql`e.region_code = ${plan.region.code}`);
      if (plan.department && !except.has("department")) {
        where.push(sql`e.department_code = ${plan.department.code}`);
      }
    }
    const distance = courseCondition(plan, { distance: !except.has("distance"), elevation: false });
    const bands = except.has("elevation") ? 0 : bandBits(plan);
    if (distance) {
      // Distance and elevation together: one course must match both.
      const course = courseCondition(plan, { distance: true, elevation: bands !== 0 });
      where.push(sql`EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id AND ${course})`);
    } else if (bands) {
      // Elevation alone: the event's band mask (kept from its courses by triggers).
      where.push(sql`(e.elevation_bands & ${bands}) <> 0`);
    }
    return where;
  }

  const whereOf = (parts: SQL[]) => sql.join(parts, sql` AND `);

  function rankExpression(plan: SearchPlan): SQL {
    return sql`(ts_rank_cd(e.search_vector, websearch_to_tsquery('fr_unaccent', ${plan.phrase}))
      + word_similarity(immutable_unaccent(lower(${plan.phrase})), ${NAME_NORM}))`;
  }

  /** ORDER BY of a sort on columns start_date, id, metres, rank and created_at, named by `a`. */
  function orderOf(sort: SearchSort | "created", a: (column: string) => SQL): SQL {
    switch (sort) {
      case "created":
        return sql`${a("created_at")} DESC, ${a("id")} DESC`;
      case "newest":
        return sql`${a("start_date")} DESC, ${a("id")} DESC`;
      case "distance":
        return sql`${a("metres")} ASC, ${a("start_date")} ASC, ${a("id")} ASC`;
      case "relevance":
        return sql`${a("rank")} DESC, ${a("start_date")} ASC, ${a("id")} ASC`;
      case "rating":
        return sql`${a("rating")} DESC NULLS LAST, ${a("start_date")} ASC, ${a("id")} ASC`;
      default:
        return sql`${a("start_date")} ASC, ${a("id")} ASC`;
    }
  }

  /** ORDER BY of a sort on a row source that has every sort column under `alias`. */
  function orderBy(sort: SearchSort, alias: string): SQL {
    return orderOf(sort, (column) => sql.raw(`${alias}.${column}`));
  }

  /**
   * One page of matching events as cards. The page is chosen on the narrow columns first (an
   * index-only scan when the filters allow), then only its rows are read in full.
   */
  /**
   * `page AS (…)`: the ids (and sort columns) of one slice of the matching events, chosen on the
   * narrow columns so the covering indexes can answer alone; the caller joins events for the rest
   * and orders by `orderOf(sort, (c) => page.c)`.
   */
  function pageCte(plan: SearchPlan, limit: number, offset: number, sort: SearchSort | "created", extra?: SQL): SQL {
    const metres = plan.place ? sql`earth_distance(${placeEarth(plan.place)}, ${EVENT_EARTH})` : sql`NULL::float8`;
    const rank = plan.sort === "relevance" ? rankExpression(plan) : sql`0::float8`;
    // Inside the page query, metres and rank are its output columns; the rest are events' columns.
    const inner = orderOf(sort, (column) =>
      sql.raw(column === "metres" || column === "rank" || column === "rating" ? column : `e.${column}`),
    );
    const rating = sort === "rating" ? RATING_EXPR : sql`NULL::float8`;
    const where = extra ? [...conditions(plan), extra] : conditions(plan);
    return sql`page AS (
        SELECT e.id, e.start_date, e.created_at, ${metres} AS metres, ${rank} AS rank, ${rating} AS rating
        FROM events e
        WHERE ${whereOf(where)}
        ORDER BY ${inner} LIMIT ${limit} OFFSET ${offset}
      )`;
  }

  const pageOrder = (sort: SearchSort | "created") => orderOf(sort, (column) => sql.raw(`page.${column}`));

  async function pageItems(
    plan: SearchPlan,
    limit: number,
    offset: number,
    order: "search" | "created" = "search",
    extra?: SQL,
  ): Promise<SearchItem[]> {
    const sort = order === "created" ? "created" : plan.sort;
    const found = await rows<ItemRow>(
      db,
      sql`WITH ${pageCte(plan, limit, offset, sort, extra)}
          SELECT ${CARD_COLUMNS}, page.metres
          FROM page JOIN events e ON e.id = page.id
          ORDER BY ${pageOrder(sort)}`,
    );
    return toItems(plan.today, found);
  }

  async function toItems(today: string, found: ItemRow[]): Promise<SearchItem[]> {
    if (!found.length) return [];
    const [{ keyById }, departmentList] = await Promise.all([sportMaps(), geo.departments()]);
    const departmentName = new Map(departmentList.map((d) => [d.code, d.name]));
    return found.map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      sport: keyById.get(r.sport_id) ?? "running",
      startDate: r.start_date,
      endDate: r.end_date,
      city: r.city,
      departmentCode: r.department_code,
      departmentName: r.department_code ? (departmentName.get(r.department_code) ?? null) : null,
      scope: r.scope,
      state: eventState(
        { cancelled: r.cancelled, postponed: r.postponed, startDate: r.start_date, endDate: r.end_date },
        today,
      ),
      distances: (r.distances ?? []).map(Number),
      durations: (r.durations ?? []).map(Number),
      maxElevation: r.max_elevation,
      coverImage: r.cover_image,
      lat: r.lat === null ? null : Number(r.lat),
      lng: r.lng === null ? null : Number(r.lng),
      distanceKm: r.metres === null || r.metres === undefined ? null : Math.round(Number(r.metres) / 100) / 10,
    }));
  }

  type Counted = { total: number; facets: SearchResult["facets"] };

  /** A cache key of everything but the page, the page size and the order. */
  function countKey(plan: SearchPlan): string {
    const { sort: _sort, page: _page, perPage: _perPage, region, department, ...rest } = plan;
    return JSON.stringify({ ...rest, region: region?.code, department: department?.code });
  }

  function cachedCounts(plan: SearchPlan): Counted | undefined {
    const key = countKey(plan);
    const hit = countCache.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at > options.countCacheMs) {
      countCache.delete(key);
      return undefined;
    }
    return hit.value;
  }

  function rememberCounts(plan: SearchPlan, value: Counted, elapsedMs: number) {
    if (options.countCacheMs <= 0 || elapsedMs < options.slowCountMs) return;
    if (countCache.size >= 500) countCache.delete(countCache.keys().next().value as string);
    countCache.set(countKey(plan), { at: Date.now(), value });
  }

  /**
   * The total, the facets and (with `withPage`) one page, in one statement and one pass over the
   * events matching every filter but the faceted ones (sport, region/department, course distance
   * and elevation). Each of those events gets a bit mask of the elevation bands of its courses
   * that pass the distance filters: without a distance filter, the events.elevation_bands column
   * (in the covering indexes); with one, computed from courses where a count needs it. The total,
   * the page and each facet then apply the other dimensions' conditions (the usual faceting rule).
   */
  function countAndPageStatement(plan: SearchPlan, withPage: boolean): SQL {
    const distance = courseCondition(plan, { distance: true, elevation: false });
    const sportOk = plan.sportIds ? sql`sport_id = ANY(${pgArray(plan.sportIds)}::int[])` : sql`TRUE`;
    const geoParts: SQL[] = [];
    if (plan.region) geoParts.push(sql`region_code = ${plan.region.code}`);
    if (plan.department) geoParts.push(sql`department_code = ${plan.department.code}`);
    const geoOk = geoParts.length ? sql`(${sql.join(geoParts, sql` AND `)})` : sql`TRUE`;
    let courseOk = sql`TRUE`;
    if (plan.bands) {
      courseOk = sql`(mask & ${bandBits(plan)}) <> 0`;
    } else if (distance) {
      courseOk = sql`mask <> 0`;
    }
    let mask = sql.raw("e.elevation_bands");
    if (distance) {
      // Only the bands of the courses within the distance filters count: computed from courses.
      // The sport and region counts need the mask too (every course filter goes through it).
      mask = sql`CASE WHEN (${sportOk} OR ${geoOk}) THEN (
        SELECT coalesce(bit_or(1 << coalesce(width_bucket(c.elevation_gain, ${BAND_ARRAY}), ${UNKNOWN_BAND_BIT})), 0)
        FROM courses c WHERE c.event_id = e.id AND ${distance}) ELSE 0 END`;
    }
    const base = conditions(plan, new Set(["sport", "geo", "distance", "elevation"]));
    // Every count needs a course within the distance filters: the base can require one.
    if (distance) base.push(sql`EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id AND ${distance})`);
    const metres = plan.place ? sql`earth_distance(${placeEarth(plan.place)}, ${EVENT_EARTH})` : sql`NULL::float8`;
    const rank = plan.sort === "relevance" ? rankExpression(plan) : sql`0::float8`;
    const bandCounts = ELEVATION_BANDS.map(
      (_, i) =>
        sql`count(*) FILTER (WHERE ${sportOk} AND ${geoOk} AND (mask & ${1 << i}) <> 0)::int AS ${sql.raw(`b${i}`)}`,
    );
    const pageCte = withPage
      ? sql`, page AS (
            SELECT id, start_date, created_at, metres, rank, rating FROM base
            WHERE ${sportOk} AND ${geoOk} AND ${courseOk}
            ORDER BY ${orderBy(plan.sort, "base")}
            LIMIT ${plan.perPage} OFFSET ${(plan.page - 1) * plan.perPage}
          )`
      : sql``;
    const pageJson = withPage
      ? sql`, (SELECT json_agg(x ORDER BY x.n) FROM (
            SELECT ${CARD_COLUMNS}, page.metres, row_number() OVER (ORDER BY ${orderBy(plan.sort, "page")}) AS n
            FROM page JOIN events e ON e.id = page.id) x) AS items`
      : sql``;
    return sql`WITH base AS MATERIALIZED (
            SELECT e.id, e.start_date, e.created_at, e.sport_id, e.region_code, e.department_code,
              ${metres} AS metres, ${rank} AS rank, ${plan.sort === "rating" ? RATING_EXPR : sql`NULL::float8`} AS rating,
              ${mask} AS mask
            FROM events e WHERE ${whereOf(base)}
          ), counts AS (
            SELECT grouping(sport_id, region_code) AS g, sport_id, region_code,
              count(*) FILTER (WHERE ${geoOk} AND ${courseOk})::int AS n_sport,
              count(*) FILTER (WHERE ${sportOk} AND ${courseOk})::int AS n_region,
              count(*) FILTER (WHERE ${sportOk} AND ${geoOk} AND ${courseOk})::int AS n_total,
              ${sql.join(bandCounts, sql`, `)}
            FROM base
            GROUP BY GROUPING SETS ((sport_id), (region_code), ())
          )${pageCte}
          SELECT (SELECT json_agg(counts) FROM counts) AS counts${pageJson}`;
  }

  async function countAndPage(plan: SearchPlan, withPage: boolean): Promise<Counted & { items: SearchItem[] }> {
    const [row] = await rows<{ counts: FacetRow[] | null; items?: ItemRow[] | null }>(
      db,
      countAndPageStatement(plan, withPage),
    );
    const { keyById } = await sportMaps();
    const result: SearchResult["facets"] = { sport: {}, region: {}, elevation: {} };
    let total = 0;
    for (const count of row?.counts ?? []) {
      const g = Number(count.g);
      if (g === 1 && count.sport_id !== null) {
        const key = keyById.get(Number(count.sport_id));
        if (key && Number(count.n_sport) > 0) result.sport[key] = Number(count.n_sport);
      } else if (g === 2 && count.region_code !== null) {
        if (Number(count.n_region) > 0) result.region[count.region_code] = Number(count.n_region);
      } else if (g === 3) {
        total = Number(count.n_total);
        ELEVATION_BANDS.forEach((band, i) => {
          const n = Number(count[`b${i}`]);
          if (n > 0) result.elevation[band.key] = n;
        });
      }
    }
    const items = withPage ? await toItems(plan.today, row?.items ?? []) : [];
    return { total, facets: result, items };
  }

  async function search(query: SearchQuery): Promise<SearchResult> {
    const plan = await resolve(query);
    let counted = cachedCounts(plan);
    let items: SearchItem[];
    if (counted) {
      items = await pageItems(plan, plan.perPage, (plan.page - 1) * plan.perPage);
    } else {
      const started = performance.now();
      const result = await countAndPage(plan, true);
      counted = { total: result.total, facets: result.facets };
      rememberCounts(plan, counted, performance.now() - started);
      items = result.items;
    }
    const pages = Math.ceil(counted.total / plan.perPage);
    if (counted.total > 0 && plan.page > pages) throw new ApiError("BAD_REQUEST", { field: "page" });
    return {
      items,
      total: counted.total,
      page: plan.page,
      perPage: plan.perPage,
      pages,
      facets: counted.facets,
      place: plan.place,
    };
  }

  async function mapMarkers(query: SearchQuery): Promise<MapResult> {
    const plan = await resolve(query);
    const withCoordinates = sql`e.lat IS NOT NULL AND e.lng IS NOT NULL`;
    const found = await rows<{
      id: number;
      slug: string;
      name: string;
      sport_id: number;
      start_date: string;
      lat: number;
      lng: number;
    }>(
      db,
      sql`WITH ${pageCte(plan, MAX_MAP_MARKERS + 1, 0, plan.sort, withCoordinates)}
          SELECT e.id, e.slug, e.name, e.sport_id, e.start_date::text AS start_date, e.lat, e.lng
          FROM page JOIN events e ON e.id = page.id
          ORDER BY ${pageOrder(plan.sort)}`,
    );
    const truncated = found.length > MAX_MAP_MARKERS;
    let total = found.length;
    if (truncated) {
      const [row] = await rows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM events e WHERE ${whereOf([...conditions(plan), withCoordinates])}`,
      );
      total = Number(row?.n ?? 0);
    }
    const { keyById } = await sportMaps();
    const markers = found.slice(0, MAX_MAP_MARKERS).map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      sport: keyById.get(r.sport_id) ?? "running",
      startDate: r.start_date,
      // Five decimals (about a metre): plenty for a marker, lighter to send and to cluster.
      lat: Math.round(Number(r.lat) * 1e5) / 1e5,
      lng: Math.round(Number(r.lng) * 1e5) / 1e5,
    }));
    return { markers, total, truncated };
  }

  /** A short title for a feed of this search: its sports, then its area. */
  async function feedTitle(plan: SearchPlan, locale: Locale): Promise<string> {
    const text = ICS_TEXT[locale];
    const parts: string[] = [];
    if (plan.sportIds) {
      const { keyById } = await sportMaps();
      const keys = plan.sportIds.map((id) => keyById.get(id));
      const top = SPORTS.filter((s) => keys.includes(s.key) && !(s.parent && keys.includes(s.parent)));
      parts.push(top.map((s) => s[locale]).join(", "));
    }
    const area = plan.place?.name ?? plan.department?.name ?? plan.region?.name;
    if (area) parts.push(area);
    if (plan.phrase) parts.push(`« ${plan.phrase} »`);
    return parts.length ? text.titleFiltered.replace("{{filters}}", parts.join(" · ")) : text.title;
  }

  /**
   * The search as an iCalendar feed of at most MAX_ICS_EVENTS events, soonest first; `query.page`
   * pages through a longer search, and a feed that holds only part of its search says so in its
   * description (the route adds a `Link: rel="next"` header).
   */
  async function ics(query: SearchQuery, locale: Locale = "fr"): Promise<IcsFeed> {
    const plan = await resolve({ ...query, page: undefined, perPage: undefined });
    const page = query.page ?? 1;
    const total = await countOf(plan);
    const size = options.icsPageSize;
    const pages = Math.max(1, Math.ceil(total / size));
    if (page > pages) throw new ApiError("BAD_REQUEST", { field: "page" });
    const found = await rows<{
      id: number;
      slug: string;
      name: string;
      sport_id: number;
      start_date: string;
      end_date: string;
      city: string | null;
      place: string | null;
      address: string | null;
      zipcode: string | null;
      department_code: string | null;
      cancelled: boolean;
      date_confirmed: boolean;
      postponed: boolean;
      lat: number | null;
      lng: number | null;
      created: number;
      updated: number;
      courses: RaceCourse[];
    }>(
      db,
      sql`WITH ${pageCte(plan, size, (page - 1) * size, plan.sort)}
          SELECT e.id, e.slug, e.name, e.sport_id, e.start_date::text AS start_date, e.end_date::text AS end_date,
            e.city, e.place, e.address, e.zipcode, e.department_code, e.cancelled, e.postponed, e.date_confirmed,
            e.lat, e.lng,
            extract(epoch FROM e.created_at)::float8 AS created, extract(epoch FROM e.updated_at)::float8 AS updated,
            (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'distance', c.distance,
                'duration', c.duration, 'elevationGain', c.elevation_gain, 'startAt', c.start_at)
                ORDER BY c.position, c.id), '[]'::json)
              FROM courses c WHERE c.event_id = e.id) AS courses
          FROM page JOIN events e ON e.id = page.id
          ORDER BY ${pageOrder(plan.sort)}`,
    );
    const text = ICS_TEXT[locale];
    const { keyById } = await sportMaps();
    // One entry per race (race-ics.ts): the same UID and STATUS as the event's .ics and a member's planning.
    const events = found.flatMap((r) => {
      const sport = SPORTS.find((s) => s.key === keyById.get(r.sport_id));
      return eventIcsEvents(
        {
          id: r.id,
          slug: r.slug,
          name: r.name,
          startDate: r.start_date,
          endDate: r.end_date,
          cancelled: r.cancelled,
          postponed: r.postponed,
          dateConfirmed: r.date_confirmed,
          place: r.place,
          address: r.address,
          zipcode: r.zipcode,
          city: r.city,
          lat: r.lat,
          lng: r.lng,
          timeZone: timeZoneOfDepartment(r.department_code),
          sport: sport?.[locale] ?? null,
          createdAt: new Date(Number(r.created) * 1000),
          updatedAt: new Date(Number(r.updated) * 1000),
        },
        r.courses,
        { locale },
      );
    });
    const first = (page - 1) * size + 1;
    const part =
      pages > 1
        ? text.partial
            .replace("{{first}}", String(first))
            .replace("{{last}}", String(first + found.length - 1))
            .replace("{{total}}", String(total))
        : null;
    const body = toIcs({
      prodId: `-//Dossard//${text.prodId}//${locale.toUpperCase()}`,
      name: await feedTitle(plan, locale),
      description: part ? `${text.description} ${part}` : text.description,
      stamp: clock(),
      refreshHours: 12,
      events,
    });
    return { body, total, page, pages };
  }

  /** How many events a resolved search finds (cached like the search's own counts). */
  async function countOf(plan: SearchPlan): Promise<number> {
    const cached = cachedCounts(plan);
    if (cached) return cached.total;
    const started = performance.now();
    const result = await countAndPage(plan, false);
    rememberCounts(plan, { total: result.total, facets: result.facets }, performance.now() - started);
    return result.total;
  }

  async function around(req: string, opts: Record<string, unknown> = {}): Promise<SearchResult> {
    const value = String(req ?? "").trim();
    const coords = /^(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(value);
    const query: Record<string, unknown> = { ...opts };
    delete query.place;
    delete query.lat;
    delete query.lng;
    if (coords) {
      const lat = Number(coords[1]);
      const lng = Number(coords[2]);
      if (Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new ApiError("BAD_REQUEST", { field: "req" });
      query.lat = lat;
      query.lng = lng;
    } else if (INSEE_CODE.test(value)) {
      query.place = value;
    } else {
      throw new ApiError("BAD_REQUEST", { field: "req" });
    }
    query.radius ??= DEFAULT_RADIUS_KM;
    query.sort ??= "distance";
    try {
      return await search(query as SearchQuery);
    } catch (error) {
      if (error instanceof ApiError && (error.field === "place" || error.field === "lat" || error.field === "lng")) {
        throw new ApiError(error.code, { field: "req", cause: error });
      }
      throw error;
    }
  }

  /** Counts of each dimension's options with the other filters (the filter panel). */
  async function computeFilters(plan: SearchPlan): Promise<FiltersResult> {
    const bandCondition = courseCondition(plan, { distance: false, elevation: true });
    const shortcutBits = DISTANCE_SHORTCUT_KEYS.map((key, i) => {
      const [min, max] = DISTANCE_SHORTCUTS[key];
      const test = max === null ? sql`c.distance >= ${min}` : sql`c.distance BETWEEN ${min} AND ${max}`;
      return sql`CASE WHEN ${test} THEN ${1 << i} ELSE 0 END`;
    });
    const distanceMask = sql`(SELECT coalesce(bit_or(${sql.join(shortcutBits, sql` | `)}), 0)
      FROM courses c WHERE c.event_id = e.id${bandCondition ? sql` AND ${bandCondition}` : sql``})`;
    const [counted, byDepartment, byScope, byDistance, sports, regionList, departmentList] = await Promise.all([
      countAndPage(plan, false),
      rows<{ code: string; n: number }>(
        db,
        sql`SELECT e.department_code AS code, count(*)::int AS n FROM events e
            WHERE ${whereOf(conditions(plan, new Set(["department"])))} GROUP BY 1`,
      ),
      rows<{ scope: EventScope; n: number }>(
        db,
        sql`SELECT e.scope, count(*)::int AS n FROM events e
            WHERE ${whereOf(conditions(plan, new Set(["scope"])))} GROUP BY 1`,
      ),
      rows<Record<string, number>>(
        db,
        sql`SELECT ${sql.join(
          DISTANCE_SHORTCUT_KEYS.map(
            (_, i) => sql`count(*) FILTER (WHERE (m & ${1 << i}) <> 0)::int AS ${sql.raw(`d${i}`)}`,
          ),
          sql`, `,
        )}
            FROM (SELECT ${distanceMask} AS m FROM events e
                  WHERE ${whereOf(conditions(plan, new Set(["distance", "elevation"])))}) t`,
      ),
      sportMaps(),
      geo.regions(),
      geo.departments(),
    ]);
    const own = counted.facets.sport;
    const departmentCounts = new Map(byDepartment.map((r) => [r.code, Number(r.n)]));
    const scopeCounts = new Map(byScope.map((r) => [r.scope, Number(r.n)]));
    const distanceRow = byDistance[0] ?? {};
    return {
      sports: SPORTS.map((s) => {
        const row = sports.list.find((x) => x.key === s.key);
        const children = SPORTS.filter((c) => c.parent === s.key);
        return {
          key: s.key,
          parent: s.parent,
          nameFr: row?.nameFr ?? s.fr,
          nameEn: row?.nameEn ?? s.en,
          slugFr: row?.slugFr ?? s.slugFr,
          slugEn: row?.slugEn ?? s.slugEn,
          count: (own[s.key] ?? 0) + children.reduce((sum, c) => sum + (own[c.key] ?? 0), 0),
        };
      }),
      regions: regionList.map((r) => ({ ...r, count: counted.facets.region[r.code] ?? 0 })),
      departments: departmentList.map((d) => ({ ...d, count: departmentCounts.get(d.code) ?? 0 })),
      elevation: ELEVATION_BANDS.map((band) => ({
        key: band.key,
        min: band.min,
        max: band.max,
        count: counted.facets.elevation[band.key] ?? 0,
      })),
      distances: DISTANCE_SHORTCUT_KEYS.map((key, i) => ({
        key,
        min: DISTANCE_SHORTCUTS[key][0],
        max: DISTANCE_SHORTCUTS[key][1],
        count: Number(distanceRow[`d${i}`] ?? 0),
      })),
      scopes: EVENT_SCOPES.map((key) => ({ key, count: scopeCounts.get(key) ?? 0 })),
    };
  }

  return {
    /** One page of matching events with the total, the page count, facets and the resolved place. */
    search: (query: SearchQuery): Promise<SearchResult> => reuse("search", query, () => search(query)),

    /** Light markers of every matching event with coordinates (at most MAX_MAP_MARKERS). */
    async markers(query: SearchQuery): Promise<MapMarker[]> {
      return (await reuse("map", query, () => mapMarkers(query))).markers;
    },

    /** The markers with the matching total and whether the list was cut at MAX_MAP_MARKERS. */
    mapMarkers: (query: SearchQuery): Promise<MapResult> => reuse("map", query, () => mapMarkers(query)),

    /** The search as an iCalendar feed (at most MAX_ICS_EVENTS events, all-day, soonest first). */
    ics,

    /**
     * Events around `req`, an INSEE code, a postal code or "lat,lng", within `opts.radius`
     * (DEFAULT_RADIUS_KM by default), nearest first unless `opts.sort` says otherwise; the other
     * search filters apply. A bad `req` is a 400 on the field "req".
     */
    around,

    /** Filter options with counts for the other current filters (slow answers cached like counts). */
    async filters(query: SearchQuery = {}): Promise<FiltersResult> {
      const plan = await resolve(query);
      const key = countKey(plan);
      const now = Date.now();
      const hit = filtersCache.get(key);
      if (hit && now - hit.at < options.countCacheMs) return hit.value;
      const started = performance.now();
      const value = await computeFilters(plan);
      // Like the search counts: only slow answers are kept (the unfiltered panel, broad filters).
      if (options.countCacheMs > 0 && performance.now() - started >= options.slowCountMs) {
        if (filtersCache.size >= 100) filtersCache.delete(filtersCache.keys().next().value as string);
        filtersCache.set(key, { at: now, value: Promise.resolve(value) });
      }
      return value;
    },

    /**
     * Matching events as cards without counting them (home-page groups), in the search's order
     * or, with `order: "created"`, the most recently listed first.
     */
    list(query: SearchQuery, limit: number, order: "search" | "created" = "search"): Promise<SearchItem[]> {
      return reuse(`list-${limit}-${order}`, query, async () => pageItems(await resolve(query), limit, 0, order));
    },

    /**
     * Matching events published after `since` — listed active then, or validated / activated
     * since — the most recent first, at most `limit`, and how many there are (alert digests).
     */
    async publishedSince(
      query: SearchQuery,
      since: Date,
      limit: number,
    ): Promise<{ total: number; items: SearchItem[] }> {
      const plan = await resolve(query);
      const after = since.toISOString();
      const published = sql`(e.created_at > ${after}::timestamptz OR EXISTS (
        SELECT 1 FROM event_history h WHERE h.event_id = e.id
          AND h.type IN ('validation', 'activation') AND h.created_at > ${after}::timestamptz))`;
      const [counted] = await rows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM events e WHERE ${whereOf([...conditions(plan), published])}`,
      );
      const total = Number(counted?.n ?? 0);
      const items = total > 0 ? await pageItems(plan, limit, 0, "created", published) : [];
      return { total, items };
    },

    /** How many events match (no page, no facets kept): what a "broader search" suggestion needs. */
    /** The cards of these events (listed ones only), soonest first: a member's favourites. */
    async cards(ids: readonly number[]): Promise<SearchItem[]> {
      if (!ids.length) return [];
      const found = await rows<ItemRow>(
        db,
        sql`SELECT ${CARD_COLUMNS}, NULL AS metres FROM events e
            WHERE e.id IN (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )}) AND e.status = 'active'
            ORDER BY e.start_date, e.id`,
      );
      return toItems(parisToday(clock()), found);
    },

    async count(query: SearchQuery): Promise<number> {
      return countOf(await resolve(query));
    },

    /** Forgets cached answers, counts, filter counts and the longest span (call after writing events). */
    invalidate() {
      resultCache.clear();
      countCache.clear();
      filtersCache.clear();
      span = undefined;
      vocabulary = undefined;
      for (const [word, entry] of wordCache) if (!entry.known) wordCache.delete(word);
    },

    /** The query checked and resolved (exposed for tests and the benchmark). */
    resolve,

    /**
     * The SQL text and parameters of the statement behind `search(query)` (total, facets and
     * page in one), for the benchmark's bare-SQL comparison and for EXPLAIN.
     */
    async statement(query: SearchQuery): Promise<{ sql: string; params: unknown[] }> {
      const { sql: text, params } = new PgDialect().sqlToQuery(countAndPageStatement(await resolve(query), true));
      return { sql: text, params };
    },
  };
}
export type SearchService = ReturnType<typeof searchService>;
