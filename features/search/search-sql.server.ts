/**
 * Building the search's SQL from a plan: the WHERE conditions of each filter (leaving out the
 * faceted dimensions a count asks to), the rank of a text search, the orders, the page of
 * matching events chosen on narrow columns, and the columns of a card. Builds only, runs nothing.
 */
import { type SQL, sql } from "drizzle-orm";
import { ELEVATION_BANDS, type EventScope } from "../../shared/constants.ts";
import type { SearchSort } from "./search.contract.ts";
import { pgArray } from "./search-context.server.ts";
import type { ResolvedPlace, SearchPlan } from "./search-plan.server.ts";

/** Filter dimensions a facet count leaves out (its own); "geo" is the region and the department. */
export type Dimension = "sport" | "geo" | "department" | "distance" | "elevation" | "scope";

/** Lower bounds of the elevation bands after the first: width_bucket() gives each course its band index. */
const BAND_THRESHOLDS = ELEVATION_BANDS.slice(1).map((band) => band.min);
export const BAND_ARRAY = sql.raw(`ARRAY[${BAND_THRESHOLDS.join(",")}]`);
/** Bit of the mask for a matching course whose elevation gain is unknown. */
export const UNKNOWN_BAND_BIT = ELEVATION_BANDS.length;

const NAME_NORM = sql.raw("immutable_unaccent(lower(e.name))");
const CITY_NORM = sql.raw("immutable_unaccent(lower(e.city))");
export const EVENT_EARTH = sql.raw("ll_to_earth(e.lat, e.lng)");
/** An active event's position and start day: the key of events_active_earth_day_idx. */
const EVENT_EARTH_DAY = sql.raw("cube(ll_to_earth(e.lat, e.lng)::cube, (e.start_date - DATE '2000-01-01')::float8)");
const DAY_ZERO = Date.UTC(2000, 0, 1);

/** Days from 2000-01-01 to a "YYYY-MM-DD" day, as in the radius index. */
function dayNumber(isoDate: string): number {
  return Math.round((Date.parse(`${isoDate}T00:00:00Z`) - DAY_ZERO) / 86_400_000);
}

/** A card's columns (events alias e), its course distances and durations shortest first. */
export const CARD_COLUMNS = sql.raw(`e.id, e.slug, e.name, e.sport_id, e.start_date::text AS start_date,
  e.end_date::text AS end_date, e.city, e.department_code, e.scope, e.cancelled, e.postponed, e.max_elevation,
  e.cover_image, e.lat, e.lng,
  (SELECT array_agg(c.distance ORDER BY c.distance) FROM courses c
    WHERE c.event_id = e.id AND c.distance IS NOT NULL) AS distances,
  (SELECT array_agg(c.duration ORDER BY c.duration) FROM courses c
    WHERE c.event_id = e.id AND c.duration IS NOT NULL) AS durations`);

/**
 * An event's members' rating for search (features/ratings): its own average, else that of the
 * latest earlier edition of its series that was rated — an upcoming edition has no ratings yet.
 */
export const RATING_EXPR = sql.raw(`coalesce(e.rating_average, (SELECT g.rating_average FROM events g
  WHERE e.group_id IS NOT NULL AND g.group_id = e.group_id AND g.rating_count > 0 AND g.start_date < e.start_date
  ORDER BY g.start_date DESC LIMIT 1))`);

/** A card's row as CARD_COLUMNS reads it, with its distance from the searched place in metres. */
export type ItemRow = {
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

export function placeEarth(place: ResolvedPlace): SQL {
  return sql`ll_to_earth(${place.lat}::float8, ${place.lng}::float8)`;
}

/** The bits of the selected elevation bands (as in events.elevation_bands); 0 without a band filter. */
export function bandBits(plan: SearchPlan): number {
  const bands = plan.bands;
  if (!bands) return 0;
  return ELEVATION_BANDS.reduce((bits, band, i) => (bands.includes(band.key) ? bits | (1 << i) : bits), 0);
}

/** Conditions on one course (alias c): the distance parts, the elevation band parts, or both. */
export function courseCondition(plan: SearchPlan, parts: { distance: boolean; elevation: boolean }): SQL | null {
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
export function conditions(plan: SearchPlan, except: ReadonlySet<Dimension> = new Set()): SQL[] {
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

export const whereOf = (parts: SQL[]) => sql.join(parts, sql` AND `);

export function rankExpression(plan: SearchPlan): SQL {
  return sql`(ts_rank_cd(e.search_vector, websearch_to_tsquery('fr_unaccent', ${plan.phrase}))
    + word_similarity(immutable_unaccent(lower(${plan.phrase})), ${NAME_NORM}))`;
}

/** ORDER BY of a sort on columns start_date, id, metres, rank and created_at, named by `a`. */
export function orderOf(sort: SearchSort | "created", a: (column: string) => SQL): SQL {
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
export function orderBy(sort: SearchSort, alias: string): SQL {
  return orderOf(sort, (column) => sql.raw(`${alias}.${column}`));
}

/**
 * `page AS (…)`: the ids (and sort columns) of one slice of the matching events, chosen on the
 * narrow columns so the covering indexes can answer alone; the caller joins events for the rest
 * and orders by `orderOf(sort, (c) => page.c)`.
 */
export function pageCte(
  plan: SearchPlan,
  limit: number,
  offset: number,
  sort: SearchSort | "created",
  extra?: SQL,
): SQL {
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

export const pageOrder = (sort: SearchSort | "created") => orderOf(sort, (column) => sql.raw(`page.${column}`));
