/**
 * Pure navigation helpers (spec section 2, "Navigation behaviour"). They compute URLs and
 * decisions only; components pass the results to React Router's `navigate` or `<Link>`.
 */
import { getPublicOrigin } from "./public-url.ts";
import { parseQuery, type QueryInput, toQueryString } from "./query-string.ts";
import { isServerPath } from "./route-url.ts";

export { parseQuery, type QueryInput, type QueryObject, toQueryString } from "./query-string.ts";

/** The parts of a location the helpers read (React Router's `Location` and `window.location` fit). */
export interface LocationLike {
  pathname: string;
  search?: string;
}

export interface HistoryOptions {
  /** Target path; the current pathname when omitted (only the query changes). */
  path?: string;
  /** Query parameters of the target; null, undefined and "" values are dropped. */
  query?: QueryInput;
  /**
   * Carry the current query string over. Its values win over `query`, which only adds keys the
   * current query lacks (for example a new path keeping the active filters).
   */
  keepQuery?: boolean;
  /**
   * Merge `query` into the current query string. `query` wins, and a null, undefined or "" value
   * removes the key (for example changing one filter). Takes precedence over keepQuery.
   */
  mergeQuery?: boolean;
  /** Replace the current history entry instead of pushing a new one. */
  replace?: boolean;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

function splitTarget(path: string): { pathname: string; search: string } {
  const withoutHash = path.split("#")[0];
  const q = withoutHash.indexOf("?");
  return q === -1
    ? { pathname: withoutHash, search: "" }
    : { pathname: withoutHash.slice(0, q), search: withoutHash.slice(q) };
}

/**
 * The URL to push or replace: target path plus the resulting query, without empty values.
 * A query written in `path` itself counts as part of `query`.
 */
export function buildNextUrl(current: LocationLike, options: HistoryOptions = {}): string {
  const target = splitTarget(options.path ?? current.pathname);
  const requested: Record<string, unknown> = { ...parseQuery(target.search), ...(options.query ?? {}) };
  const existing = options.keepQuery || options.mergeQuery ? parseQuery(current.search ?? "") : {};

  let result: Record<string, unknown>;
  if (options.mergeQuery) {
    result = { ...existing };
    for (const [key, value] of Object.entries(requested)) {
      if (isEmpty(value)) delete result[key];
      else result[key] = value;
    }
  } else if (options.keepQuery) {
    result = { ...existing };
    for (const [key, value] of Object.entries(requested)) {
      if (!(key in result)) result[key] = value;
    }
  } else {
    result = requested;
  }

  const query = toQueryString(result as QueryInput, { dropEmpty: true });
  // A target of only "?query" stays on the current page.
  const pathname = target.pathname || current.pathname || "/";
  return query ? `${pathname}?${query}` : pathname;
}

/** What to hand to React Router: `navigate(entry.to, { replace: entry.replace })`. */
export function nextHistoryEntry(
  current: LocationLike,
  options: HistoryOptions = {},
): { to: string; replace: boolean } {
  return { to: buildNextUrl(current, options), replace: options.replace ?? false };
}

export interface PathSegmentOptions {
  /** Skip the /en locale prefix so French and English pages read the same index (default true). */
  ignoreLocalePrefix?: boolean;
}

/** The path's segments, decoded; the /en prefix removed unless told otherwise. */
export function pathSegments(pathname: string, options: PathSegmentOptions = {}): string[] {
  const segments = splitTarget(pathname)
    .pathname.split("/")
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment; // a malformed escape is read as typed rather than failing the page
      }
    });
  if ((options.ignoreLocalePrefix ?? true) && segments[0] === "en") segments.shift();
  return segments;
}

/** One path segment by 0-based index (negative counts from the end), or undefined. */
export function pathSegment(pathname: string, index: number, options: PathSegmentOptions = {}): string | undefined {
  return pathSegments(pathname, options).at(index);
}

export interface LinkContext {
  /**
   * Origin of the running site. When omitted: `window.location.origin` in the browser, the
   * configured public origin on the server (they agree once configurePublicOrigin has run).
   */
  origin?: string;
  /** The anchor's target attribute: `_blank` always means a plain anchor. */
  target?: string;
  /** A download link is fetched by the browser, not routed. */
  download?: boolean | string;
}

const SCHEME = /^[a-z][a-z\d+.-]*:/i;

function currentOrigin(origin: string | undefined): string {
  if (origin) return origin;
  return typeof window === "undefined" ? getPublicOrigin() : window.location.origin;
}

/**
 * The in-app path (`/x?y#z`) of an href when React Router can handle it, or null when it needs a
 * plain anchor: another origin, a non-http scheme (mailto:, tel:, …), target=_blank, a download,
 * or a path served by Fastify (API, sign-in, exports, redirects), which needs a full page load.
 */
export function inAppPath(href: string, context: LinkContext = {}): string | null {
  const value = href.trim();
  if (value === "") return null;
  if (context.target && context.target !== "_self") return null;
  if (context.download !== undefined && context.download !== false) return null;

  let path: string;
  if (value.startsWith("//") || SCHEME.test(value)) {
    const origin = currentOrigin(context.origin);
    let url: URL;
    try {
      url = new URL(value, origin);
    } catch {
      return null;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.origin !== new URL(origin).origin) return null;
    path = `${url.pathname}${url.search}${url.hash}`;
  } else {
    // A relative path ("/x", "x", "?q", "#top") stays on this site.
    path = value;
  }
  return isServerPath(path.startsWith("/") ? path : `/${path}`) ? null : path;
}

/** Whether an href renders as an in-app `<Link>` (true) or a plain `<a>` (false). */
export function isInAppLink(href: string, context: LinkContext = {}): boolean {
  return inAppPath(href, context) !== null;
}

/** Whether an href leaves the site over http(s): such anchors get rel="noopener noreferrer". */
export function isExternalHttpLink(href: string, origin?: string): boolean {
  const value = href.trim();
  if (!value.startsWith("//") && !/^https?:/i.test(value)) return false;
  const base = currentOrigin(origin);
  try {
    return new URL(value, base).origin !== new URL(base).origin;
  } catch {
    return false;
  }
}
