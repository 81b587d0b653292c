import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import {
  DEFAULT_RADIUS_KM,
  type FiltersResult,
  MAX_ICS_EVENTS,
  type MapMarker,
  type MapResult,
  type SearchItem,
  type SearchQuery,
  type SearchResult,
} from "./search.contract.ts";
import { type SearchCacheOptions, searchCaches } from "./search-cache.server.ts";
import { INSEE_CODE, searchContext } from "./search-context.server.ts";
import { type Counted, countAndPage, countAndPageStatement, filterCounts } from "./search-facets.server.ts";
import { type IcsFeed, icsFeed } from "./search-feed.server.ts";
import { cardsOf, mapMarkers, pageItems, publishedSince } from "./search-listing.server.ts";
import { type SearchPlan, searchPlanner } from "./search-plan.server.ts";
import type { SearchField } from "./search-url.ts";
import { queryWordReader } from "./search-words.server.ts";

export type { IcsFeed } from "./search-feed.server.ts";
export { type SearchPlan, weekendRange } from "./search-plan.server.ts";
export { queryWords } from "./search-words.server.ts";

/** Event search (issue 3): filters, facets, map markers, iCalendar feed. */
export type SearchServiceOptions = SearchCacheOptions & {
  /** Events per iCalendar feed page (MAX_ICS_EVENTS). */
  icsPageSize: number;
};

/** A search made leniently (the search pages): its result, the query it is for and the fields left out. */
export type LenientSearch = { result: SearchResult; query: SearchQuery; ignored: SearchField[] };

/**
 * The search service: the query read into a plan (search-plan), its SQL (search-sql) run for
 * counts and facets (search-facets), cards and markers (search-listing) or a feed (search-feed),
 * answers kept as search-cache says.
 */
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
  const context = searchContext(db, clock);
  const words = queryWordReader(db);
  const planner = searchPlanner(context, words);
  const { resolve } = planner;
  const caches = searchCaches(options, () => parisToday(clock()));

  /** The total and facets of a plan and one page: the counts from the cache when kept, else in one statement. */
  async function counted(plan: SearchPlan): Promise<Counted & { items: SearchItem[] }> {
    const kept = caches.cachedCounts(plan);
    if (kept) return { ...kept, items: await pageItems(context, plan, plan.perPage, (plan.page - 1) * plan.perPage) };
    const started = performance.now();
    const result = await countAndPage(context, plan, true);
    caches.rememberCounts(plan, { total: result.total, facets: result.facets }, performance.now() - started);
    return result;
  }

  function toResult(plan: SearchPlan, found: Counted & { items: SearchItem[] }): SearchResult {
    return {
      items: found.items,
      total: found.total,
      page: plan.page,
      perPage: plan.perPage,
      pages: Math.ceil(found.total / plan.perPage),
      facets: found.facets,
      place: plan.place,
    };
  }

  const pastTheEnd = (plan: SearchPlan, total: number) => total > 0 && plan.page > Math.ceil(total / plan.perPage);

  async function search(query: SearchQuery): Promise<SearchResult> {
    const plan = await resolve(query);
    const found = await counted(plan);
    if (pastTheEnd(plan, found.total)) throw new ApiError("BAD_REQUEST", { field: "page" });
    return toResult(plan, found);
  }

  /** The search with every refused field left out at once (a page past the end: the first page). */
  async function lenient(query: SearchQuery): Promise<LenientSearch> {
    const { plan, query: kept, ignored } = await planner.resolveLenient(query);
    let found = await counted(plan);
    if (!pastTheEnd(plan, found.total)) return { result: toResult(plan, found), query: kept, ignored };
    const first = { ...plan, page: 1 };
    found = { ...found, items: await pageItems(context, first, first.perPage, 0) };
    const { page: _page, ...withoutPage } = kept;
    return { result: toResult(first, found), query: withoutPage, ignored: [...ignored, "page"] };
  }

  /** How many events a resolved search finds (cached like the search's own counts). */
  async function countOf(plan: SearchPlan): Promise<number> {
    const cached = caches.cachedCounts(plan);
    if (cached) return cached.total;
    const started = performance.now();
    const result = await countAndPage(context, plan, false);
    caches.rememberCounts(plan, { total: result.total, facets: result.facets }, performance.now() - started);
    return result.total;
  }

  async function ics(query: SearchQuery, locale: Locale = "fr"): Promise<IcsFeed> {
    const plan = await resolve({ ...query, page: undefined, perPage: undefined });
    const total = await countOf(plan);
    return icsFeed(context, plan, { page: query.page ?? 1, size: options.icsPageSize, total }, locale);
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

  return {
    /** One page of matching events with the total, the page count, facets and the resolved place. */
    search: (query: SearchQuery): Promise<SearchResult> => caches.reuse("search", query, () => search(query)),

    /**
     * The search pages' search: the query checked once, every refused field left out (with the
     * fields that go with it) and named in `ignored`, a page past the end answered with the first
     * page; `query` is the search the result is for.
     */
    lenient: (query: SearchQuery): Promise<LenientSearch> => caches.reuse("lenient", query, () => lenient(query)),

    /** Light markers of every matching event with coordinates (at most MAX_MAP_MARKERS). */
    async markers(query: SearchQuery): Promise<MapMarker[]> {
      return (await caches.reuse("map", query, async () => mapMarkers(context, await resolve(query)))).markers;
    },

    /** The markers with the matching total and whether the list was cut at MAX_MAP_MARKERS. */
    mapMarkers: (query: SearchQuery): Promise<MapResult> =>
      caches.reuse("map", query, async () => mapMarkers(context, await resolve(query))),

    /**
     * The search as an iCalendar feed of at most MAX_ICS_EVENTS events, all-day, soonest first;
     * `query.page` pages through a longer search, and a feed that holds only part of its search
     * says so in its description (the route adds a `Link: rel="next"` header).
     */
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
      return caches.filters(plan, () => filterCounts(context, plan));
    },

    /**
     * Matching events as cards without counting them (home-page groups), in the search's order
     * or, with `order: "created"`, the most recently listed first.
     */
    list(query: SearchQuery, limit: number, order: "search" | "created" = "search"): Promise<SearchItem[]> {
      return caches.reuse(`list-${limit}-${order}`, query, async () =>
        pageItems(context, await resolve(query), limit, 0, order),
      );
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
      return publishedSince(context, await resolve(query), since, limit);
    },

    /** The cards of these events (listed ones only), soonest first: a member's favourites. */
    cards: (ids: readonly number[]): Promise<SearchItem[]> => cardsOf(context, ids),

    /** How many events match (no page, no facets kept): what a "broader search" suggestion needs. */
    async count(query: SearchQuery): Promise<number> {
      return countOf(await resolve(query));
    },

    /** Forgets cached answers, counts, filter counts and the longest span (call after writing events). */
    invalidate() {
      caches.clear();
      planner.forget();
      words.forget();
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
