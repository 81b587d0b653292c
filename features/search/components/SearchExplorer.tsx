import { lazy, Suspense } from "react";
import type { Locale } from "../../../shared/constants.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import { useHydrated } from "../../../shared/ui/use-hydrated.ts";
import type { BroaderSuggestion } from "../broader.ts";
import type { SearchQuery, SearchResult } from "../search.contract.ts";
import { hasSearchFilters, type SearchField, type SearchView, searchQueryString } from "../search-url.ts";
import { ActiveFilters } from "./ActiveFilters.tsx";
import { FilterPanel } from "./FilterPanel.tsx";
import type { DepartmentRef, RegionRef } from "./geo-refs.ts";
import { type HomeGroup, HomeGroups } from "./HomeGroups.tsx";
import { IgnoredNotice } from "./IgnoredNotice.tsx";
import { MapPlaceholder } from "./MapPlaceholder.tsx";
import { NoResults } from "./NoResults.tsx";
import { Pagination } from "./Pagination.tsx";
import { ResultList } from "./ResultList.tsx";
import { ResultsHeader } from "./ResultsHeader.tsx";
import type { SearchSlots } from "./search-slots.ts";
import { useSearchState } from "./use-search-state.ts";

// MapLibre and its styles load only when the map view is shown.
const SearchMap = lazy(() => import("./SearchMap.tsx"));

export type SearchPageData = {
  query: SearchQuery;
  view: SearchView;
  result: SearchResult;
  ignored: SearchField[];
  regions: RegionRef[];
  departments: DepartmentRef[];
  mapStyleUrl?: string;
  /** Strips shown above the results when no filter is set. */
  groups?: HomeGroup[];
  /** The search box's words as typed, when the page turned them into filters. */
  typed?: string | null;
  /** With no result: the nearest broader search that finds some. */
  broader?: BroaderSuggestion | null;
};

/** The search screen: filter panel, then the results as grid, list or map, with pagination. */
/** `slots`: the heart on each race and "alert me", filled by the page (app/components/search-slots.tsx). */
export function SearchExplorer({ data, locale, slots }: { data: SearchPageData; locale: Locale; slots?: SearchSlots }) {
  const state = useSearchState(data.query, data.view);
  const hydrated = useHydrated();
  const { result } = data;
  const view = state.view;
  const filtered = hasSearchFilters(data.query);
  const resetHref = filtered ? state.pathname : undefined;

  return (
    <div className="mx-auto max-w-6xl px-4 pt-4 pb-12 lg:grid lg:grid-cols-[300px_minmax(0,1fr)] lg:gap-6 lg:pt-6">
      <aside className="lg:self-start">
        <FilterPanel
          state={state}
          regions={data.regions}
          departments={data.departments}
          facets={result.facets}
          placeName={result.place?.name}
          total={result.total}
          resultsHeadingId="results-heading"
        />
      </aside>
      <section
        aria-labelledby="results-heading"
        aria-busy={state.loading}
        className="min-w-0"
        data-search={searchQueryString(data.query, data.view)}
      >
        <IgnoredNotice fields={data.ignored} />
        {data.groups && view !== "map" ? <HomeGroups groups={data.groups} locale={locale} slots={slots} /> : null}
        <ResultsHeader state={state} total={result.total} headingId="results-heading" />
        <ActiveFilters
          query={data.query}
          view={data.view}
          place={result.place}
          regions={data.regions}
          departments={data.departments}
          href={state.href}
          typed={data.typed}
          action={(label) => slots?.alert?.(searchQueryString(data.query), label)}
        />
        <div className={state.loading ? "opacity-60 transition-opacity" : "transition-opacity"}>
          {view === "map" ? (
            <div className="mb-6">
              {hydrated ? (
                <Suspense fallback={<MapPlaceholder />}>
                  <SearchMap query={data.query} place={result.place} styleUrl={data.mapStyleUrl} slots={slots} />
                </Suspense>
              ) : (
                <MapPlaceholder />
              )}
            </div>
          ) : null}
          {result.total === 0 ? (
            <NoResults
              resetHref={resetHref}
              broader={data.broader ? { ...data.broader, href: state.href(data.broader.query, data.view) } : null}
              text={data.query.q}
            />
          ) : (
            <ResultList
              items={result.items}
              layout={view === "grid" ? "grid" : "list"}
              locale={locale}
              eager={data.groups ? 0 : 3}
              slots={slots}
            />
          )}
          <Pagination
            page={result.page}
            pages={result.pages}
            hrefFor={(page) => state.href({ ...data.query, page }, data.view)}
          />
        </div>
      </section>
      <LazyToastHost />
    </div>
  );
}
