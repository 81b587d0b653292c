/**
 * Counting: the total, the facets (per sport, region and elevation band, each leaving out its own
 * filter) and optionally one page, in one statement; and the filter panel's counts of every option
 * with the other current filters.
 */
import { type SQL, sql } from "drizzle-orm";
import { rows } from "../../platform/db/rows.server.ts";
import { ELEVATION_BANDS, EVENT_SCOPES, type EventScope, SPORTS } from "../../shared/constants.ts";
import {
  DISTANCE_SHORTCUT_KEYS,
  DISTANCE_SHORTCUTS,
  type FiltersResult,
  type SearchItem,
  type SearchResult,
} from "./search.contract.ts";
import { pgArray, type SearchContext } from "./search-context.server.ts";
import { toItems } from "./search-listing.server.ts";
import type { SearchPlan } from "./search-plan.server.ts";
import {
  BAND_ARRAY,
  bandBits,
  CARD_COLUMNS,
  conditions,
  courseCondition,
  EVENT_EARTH,
  type ItemRow,
  orderBy,
  placeEarth,
  RATING_EXPR,
  rankExpression,
  UNKNOWN_BAND_BIT,
  whereOf,
} from "./search-sql.server.ts";

/** What a search counts: its total and facets. */
export type Counted = { total: number; facets: SearchResult["facets"] };

type FacetRow = {
  g: number;
  sport_id: number | null;
  region_code: string | null;
  n_sport: number;
  n_region: number;
  n_total: number;
} & Record<`b${number}`, number>;

/**
 * The total, the facets and (with `withPage`) one page, in one statement and one pass over the
 * events matching every filter but the faceted ones (sport, region/department, course distance
 * and elevation). Each of those events gets a bit mask of the elevation bands of its courses
 * that pass the distance filters: without a distance filter, the events.elevation_bands column
 * (in the covering indexes); with one, computed from courses where a count needs it. The total,
 * the page and each facet then apply the other dimensions' conditions (the usual faceting rule).
 */
export function countAndPageStatement(plan: SearchPlan, withPage: boolean): SQL {
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

export async function countAndPage(
  context: SearchContext,
  plan: SearchPlan,
  withPage: boolean,
): Promise<Counted & { items: SearchItem[] }> {
  const [row] = await rows<{ counts: FacetRow[] | null; items?: ItemRow[] | null }>(
    context.db,
    countAndPageStatement(plan, withPage),
  );
  const { keyById } = await context.sportMaps();
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
  const items = withPage ? await toItems(context, plan.today, row?.items ?? []) : [];
  return { total, facets: result, items };
}

/** Counts of each dimension's options with the other filters (the filter panel). */
export async function filterCounts(context: SearchContext, plan: SearchPlan): Promise<FiltersResult> {
  const bandCondition = courseCondition(plan, { distance: false, elevation: true });
  const shortcutBits = DISTANCE_SHORTCUT_KEYS.map((key, i) => {
    const [min, max] = DISTANCE_SHORTCUTS[key];
    const test = max === null ? sql`c.distance >= ${min}` : sql`c.distance BETWEEN ${min} AND ${max}`;
    return sql`CASE WHEN ${test} THEN ${1 << i} ELSE 0 END`;
  });
  const distanceMask = sql`(SELECT coalesce(bit_or(${sql.join(shortcutBits, sql` | `)}), 0)
    FROM courses c WHERE c.event_id = e.id${bandCondition ? sql` AND ${bandCondition}` : sql``})`;
  const [counted, byDepartment, byScope, byDistance, sports, regionList, departmentList] = await Promise.all([
    countAndPage(context, plan, false),
    rows<{ code: string; n: number }>(
      context.db,
      sql`SELECT e.department_code AS code, count(*)::int AS n FROM events e
          WHERE ${whereOf(conditions(plan, new Set(["department"])))} GROUP BY 1`,
    ),
    rows<{ scope: EventScope; n: number }>(
      context.db,
      sql`SELECT e.scope, count(*)::int AS n FROM events e
          WHERE ${whereOf(conditions(plan, new Set(["scope"])))} GROUP BY 1`,
    ),
    rows<Record<string, number>>(
      context.db,
      sql`SELECT ${sql.join(
        DISTANCE_SHORTCUT_KEYS.map(
          (_, i) => sql`count(*) FILTER (WHERE (m & ${1 << i}) <> 0)::int AS ${sql.raw(`d${i}`)}`,
        ),
        sql`, `,
      )}
          FROM (SELECT ${distanceMask} AS m FROM events e
                WHERE ${whereOf(conditions(plan, new Set(["distance", "elevation"])))}) t`,
    ),
    context.sportMaps(),
    context.geo.regions(),
    context.geo.departments(),
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
