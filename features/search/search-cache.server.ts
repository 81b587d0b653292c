/**
 * What the search keeps in memory and for how long: whole answers for the same query
 * (`resultCacheMs`, off unless the site turns it on with its page cache), and the total and facets
 * — and the filter panel's counts — of slow searches for their other pages and orders
 * (`countCacheMs`, kept only when they took at least `slowCountMs`). All forgotten by clear().
 */
import type { FiltersResult } from "./search.contract.ts";
import type { Counted } from "./search-facets.server.ts";
import type { SearchPlan } from "./search-plan.server.ts";

export type SearchCacheOptions = {
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
};

/** A cache key of everything but the page, the page size and the order. */
function countKey(plan: SearchPlan): string {
  const { sort: _sort, page: _page, perPage: _perPage, region, department, ...rest } = plan;
  return JSON.stringify({ ...rest, region: region?.code, department: department?.code });
}

export function searchCaches(options: SearchCacheOptions, today: () => string) {
  const resultCache = new Map<string, { at: number; value: Promise<unknown> }>();
  const countCache = new Map<string, { at: number; value: Counted }>();
  const filtersCache = new Map<string, { at: number; value: Promise<FiltersResult> }>();

  return {
    /** The answer of `kind` for `query` from the result cache while fresh (one computation shared), else computed. */
    reuse<T>(kind: string, query: unknown, compute: () => Promise<T>): Promise<T> {
      if (options.resultCacheMs <= 0) return compute();
      const key = `${kind}|${today()}|${JSON.stringify(query)}`;
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
    },

    /** The kept total and facets of a search, while fresh. */
    cachedCounts(plan: SearchPlan): Counted | undefined {
      const key = countKey(plan);
      const hit = countCache.get(key);
      if (!hit) return undefined;
      if (Date.now() - hit.at > options.countCacheMs) {
        countCache.delete(key);
        return undefined;
      }
      return hit.value;
    },

    /** Keeps a search's total and facets if counting them was slow. */
    rememberCounts(plan: SearchPlan, value: Counted, elapsedMs: number) {
      if (options.countCacheMs <= 0 || elapsedMs < options.slowCountMs) return;
      if (countCache.size >= 500) countCache.delete(countCache.keys().next().value as string);
      countCache.set(countKey(plan), { at: Date.now(), value });
    },

    /** The filter panel's counts for a search, kept like the search counts when slow. */
    async filters(plan: SearchPlan, compute: () => Promise<FiltersResult>): Promise<FiltersResult> {
      const key = countKey(plan);
      const now = Date.now();
      const hit = filtersCache.get(key);
      if (hit && now - hit.at < options.countCacheMs) return hit.value;
      const started = performance.now();
      const value = await compute();
      // Like the search counts: only slow answers are kept (the unfiltered panel, broad filters).
      if (options.countCacheMs > 0 && performance.now() - started >= options.slowCountMs) {
        if (filtersCache.size >= 100) filtersCache.delete(filtersCache.keys().next().value as string);
        filtersCache.set(key, { at: now, value: Promise.resolve(value) });
      }
      return value;
    },

    /** Forgets every kept answer and count. */
    clear() {
      resultCache.clear();
      countCache.clear();
      filtersCache.clear();
    },
  };
}

export type SearchCaches = ReturnType<typeof searchCaches>;
