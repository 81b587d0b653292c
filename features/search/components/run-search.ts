/**
 * The loaders' call to the search service, forgiving a user's bad filter: a 400 naming a field
 * is answered by searching again without that field, and the page says which filter it ignored.
 */
import { isApiError } from "../../../shared/api-error.ts";
import type { SearchQuery, SearchResult } from "../search.contract.ts";
import { SEARCH_PARAM_ORDER, type SearchField, withoutField } from "../search-url.ts";

export type SearchFn = (query: SearchQuery) => Promise<SearchResult>;

export type ForgivingSearch = {
  result: SearchResult;
  /** The query the results are for (the asked one minus ignored fields). */
  query: SearchQuery;
  /** Fields left out because the service refused them. */
  ignored: SearchField[];
};

/**
 * The field of a 400 from the search service, or null for any other error (recognised by
 * isApiError: the loaders run in the page bundle, which has its own copy of the ApiError class).
 */
export function badRequestField(error: unknown): string | null | undefined {
  if (!isApiError(error) || error.status !== 400) return undefined;
  const field = error.field?.replace(/^(query|querystring)\./, "").split(/[.[]/)[0];
  return field && (SEARCH_PARAM_ORDER as readonly string[]).includes(field) ? field : null;
}

const MAX_RETRIES = 6;

export async function forgivingSearch(search: SearchFn, asked: SearchQuery): Promise<ForgivingSearch> {
  let query = asked;
  const ignored: SearchField[] = [];
  for (let attempt = 0; ; attempt++) {
    try {
      return { result: await search(query), query, ignored };
    } catch (error) {
      const field = badRequestField(error);
      if (field === undefined || attempt >= MAX_RETRIES) throw error;
      if (field === null || !(field in query)) {
        // A refusal that names no field of ours: show the unfiltered calendar rather than fail.
        if (Object.keys(query).length === 0) throw error;
        for (const key of Object.keys(query)) ignored.push(key as SearchField);
        query = {};
      } else {
        ignored.push(field as SearchField);
        query = withoutField(query, field);
      }
    }
  }
}
