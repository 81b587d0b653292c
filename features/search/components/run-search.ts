/**
 * Reading the search service's refusals where a loader meets them. The search pages themselves
 * call the service's lenient search, which leaves every refused filter out in one call and names
 * them (search.service.server.ts).
 */
import { isApiError } from "../../../shared/api-error.ts";
import { SEARCH_PARAM_ORDER } from "../search-url.ts";

/**
 * The field of a 400 from the search service, or null for any other error (recognised by
 * isApiError: the loaders run in the page bundle, which has its own copy of the ApiError class).
 */
export function badRequestField(error: unknown): string | null | undefined {
  if (!isApiError(error) || error.status !== 400) return undefined;
  const field = error.field?.replace(/^(query|querystring)\./, "").split(/[.[]/)[0];
  return field && (SEARCH_PARAM_ORDER as readonly string[]).includes(field) ? field : null;
}
