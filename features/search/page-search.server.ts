/**
 * What the search pages add to the search service: reading the search box's words as filters
 * (then redirecting to the search they mean, so the URL and the filter chips show it), and a
 * broader search to offer when nothing matches.
 */
import { type BroaderSuggestion, broaderSearches } from "./broader.ts";
import type { Interpretation } from "./interpret.server.ts";
import type { SearchQuery } from "./search.contract.ts";
import { type SearchView, searchHref } from "./search-url.ts";

/** One-shot parameter of the redirect: the words as typed, for "search them as typed instead". */
export const TYPED_PARAM = "typed";

type Interpreter = { interpret(query: SearchQuery): Promise<Interpretation | null> };
type Counter = { count(query: SearchQuery): Promise<number> };

/**
 * Where a search whose text names filters should go ("trail annecy" → trail around Annecy), or
 * null when the text is only words to look for (or was asked to be searched as typed).
 */
export async function understoodSearchHref(
  interpreter: Interpreter,
  pathname: string,
  query: SearchQuery,
  view: SearchView,
): Promise<string | null> {
  if (!query.q || query.literal) return null;
  const interpretation = await interpreter.interpret(query);
  if (!interpretation) return null;
  const href = searchHref(pathname, interpretation.query, view);
  const typed = new URLSearchParams({ [TYPED_PARAM]: query.q }).toString();
  return `${href}${href.includes("?") ? "&" : "?"}${typed}`;
}

/**
 * The nearest broader search that finds races (at most `tries` candidates, counted at once), or
 * null.
 */
export async function broaderSuggestion(
  search: Counter,
  query: SearchQuery,
  tries = 12,
): Promise<BroaderSuggestion | null> {
  const candidates = broaderSearches(query).slice(0, tries);
  const counts = await Promise.all(candidates.map((candidate) => search.count(candidate.query)));
  const nearest = counts.findIndex((count) => count > 0);
  return nearest < 0 ? null : { ...candidates[nearest], count: counts[nearest] };
}
