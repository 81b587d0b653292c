/**
 * Query-string helpers shared by the route URL builder and the navigation helpers.
 * Isomorphic: only URLSearchParams, which both Node and browsers provide.
 */

export type QueryScalar = string | number | boolean | bigint;
export type QueryValue = QueryScalar | null | undefined | readonly (QueryScalar | null | undefined)[];
export type QueryInput = Readonly<Record<string, QueryValue>>;
/** A parsed query: one value per key, or an array when the key is repeated. */
export type QueryObject = Record<string, string | string[]>;

export interface ToQueryStringOptions {
  /** Also drop empty strings and empty arrays (navigation does; the route builder keeps `?q=`). */
  dropEmpty?: boolean;
}

function isMissing(value: unknown, dropEmpty: boolean): value is null | undefined {
  if (value === null || value === undefined) return true;
  if (typeof value === "number" && Number.isNaN(value)) return true;
  return dropEmpty && value === "";
}

/**
 * Serialises params as `a=1&b=x&b=y` (no leading "?"): null and undefined are skipped, arrays
 * become repeated keys, keys keep their insertion order.
 */
export function toQueryString(input: QueryInput, options: ToQueryStringOptions = {}): string {
  const dropEmpty = options.dropEmpty ?? false;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (!isMissing(item, dropEmpty)) search.append(key, String(item));
    }
  }
  return search.toString();
}

/**
 * Reads a query string (with or without "?") into an object. Empty values are removed and
 * repeated keys become arrays, so `?a=&b=1&b=2` gives `{ b: ["1", "2"] }`.
 */
export function parseQuery(search: string | URLSearchParams): QueryObject {
  const params = typeof search === "string" ? new URLSearchParams(search.replace(/^\?/, "")) : search;
  const result: QueryObject = {};
  for (const [key, value] of params) {
    if (value === "" || key === "") continue;
    const previous = result[key];
    if (previous === undefined) result[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else result[key] = [previous, value];
  }
  return result;
}
