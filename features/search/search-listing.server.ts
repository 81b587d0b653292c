/**
 * Reading matching events for display: pages of cards (in the search's order or the most recently
 * listed first), map markers, the cards of given events, and what was published since a date.
 */
import { type SQL, sql } from "drizzle-orm";
import { rows } from "../../platform/db/rows.server.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { eventState } from "../events/event-state.ts";
import { MAX_MAP_MARKERS, type MapResult, type SearchItem } from "./search.contract.ts";
import type { SearchContext } from "./search-context.server.ts";
import type { SearchPlan } from "./search-plan.server.ts";
import { CARD_COLUMNS, conditions, type ItemRow, pageCte, pageOrder, whereOf } from "./search-sql.server.ts";

/** Cards of the rows read with CARD_COLUMNS: sport keys, department names, state on `today`. */
export async function toItems(context: SearchContext, today: string, found: ItemRow[]): Promise<SearchItem[]> {
  if (!found.length) return [];
  const [{ keyById }, departmentList] = await Promise.all([context.sportMaps(), context.geo.departments()]);
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

/**
 * One page of matching events as cards. The page is chosen on the narrow columns first (an
 * index-only scan when the filters allow), then only its rows are read in full.
 */
export async function pageItems(
  context: SearchContext,
  plan: SearchPlan,
  limit: number,
  offset: number,
  order: "search" | "created" = "search",
  extra?: SQL,
): Promise<SearchItem[]> {
  const sort = order === "created" ? "created" : plan.sort;
  const found = await rows<ItemRow>(
    context.db,
    sql`WITH ${pageCte(plan, limit, offset, sort, extra)}
        SELECT ${CARD_COLUMNS}, page.metres
        FROM page JOIN events e ON e.id = page.id
        ORDER BY ${pageOrder(sort)}`,
  );
  return toItems(context, plan.today, found);
}

/** Light markers of the matching events with coordinates (at most MAX_MAP_MARKERS), the total and whether cut. */
export async function mapMarkers(context: SearchContext, plan: SearchPlan): Promise<MapResult> {
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
    context.db,
    sql`WITH ${pageCte(plan, MAX_MAP_MARKERS + 1, 0, plan.sort, withCoordinates)}
        SELECT e.id, e.slug, e.name, e.sport_id, e.start_date::text AS start_date, e.lat, e.lng
        FROM page JOIN events e ON e.id = page.id
        ORDER BY ${pageOrder(plan.sort)}`,
  );
  const truncated = found.length > MAX_MAP_MARKERS;
  let total = found.length;
  if (truncated) {
    const [row] = await rows<{ n: number }>(
      context.db,
      sql`SELECT count(*)::int AS n FROM events e WHERE ${whereOf([...conditions(plan), withCoordinates])}`,
    );
    total = Number(row?.n ?? 0);
  }
  const { keyById } = await context.sportMaps();
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

/** The cards of these events (listed ones only), soonest first. */
export async function cardsOf(context: SearchContext, ids: readonly number[]): Promise<SearchItem[]> {
  if (!ids.length) return [];
  const found = await rows<ItemRow>(
    context.db,
    sql`SELECT ${CARD_COLUMNS}, NULL AS metres FROM events e
        WHERE e.id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) AND e.status = 'active'
        ORDER BY e.start_date, e.id`,
  );
  return toItems(context, parisToday(context.clock()), found);
}

/**
 * Matching events published after `since` — listed active then, or validated / activated since —
 * the most recent first, at most `limit`, and how many there are.
 */
export async function publishedSince(
  context: SearchContext,
  plan: SearchPlan,
  since: Date,
  limit: number,
): Promise<{ total: number; items: SearchItem[] }> {
  const after = since.toISOString();
  const published = sql`(e.created_at > ${after}::timestamptz OR EXISTS (
    SELECT 1 FROM event_history h WHERE h.event_id = e.id
      AND h.type IN ('validation', 'activation') AND h.created_at > ${after}::timestamptz))`;
  const [counted] = await rows<{ n: number }>(
    context.db,
    sql`SELECT count(*)::int AS n FROM events e WHERE ${whereOf([...conditions(plan), published])}`,
  );
  const total = Number(counted?.n ?? 0);
  const items = total > 0 ? await pageItems(context, plan, limit, 0, "created", published) : [];
  return { total, items };
}
