import { useLocation, useNavigate, useNavigation } from "react-router";
import type { SearchQuery } from "../search.contract.ts";
import { parseSearchParams, type SearchView, searchHref, updateSearchQuery } from "../search-url.ts";

/**
 * The search the page shows, with the one being loaded taking over as soon as it is asked for (so
 * a ticked chip stays ticked while results load), and the ways to change it: every change is a
 * navigation to the search's canonical URL.
 */
export function useSearchState(loaded: SearchQuery, loadedView: SearchView) {
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const pendingLocation =
    navigation.location && navigation.location.pathname === location.pathname ? navigation.location : null;
  const pending = pendingLocation ? parseSearchParams(pendingLocation.search) : null;
  const query = pending?.query ?? loaded;
  const view = pending?.view ?? loadedView;

  const go = (next: SearchQuery, nextView: SearchView = view, replace = false) =>
    navigate(searchHref(location.pathname, next, nextView), { preventScrollReset: true, replace });

  return {
    query,
    view,
    pathname: location.pathname,
    loading: navigation.state !== "idle",
    go,
    /** Changes some filters (back to page 1). */
    apply: (patch: Partial<SearchQuery>, options: { replace?: boolean } = {}) =>
      go(updateSearchQuery(query, patch), view, options.replace),
    href: (next: SearchQuery, nextView: SearchView = view) => searchHref(location.pathname, next, nextView),
  };
}
export type SearchState = ReturnType<typeof useSearchState>;
