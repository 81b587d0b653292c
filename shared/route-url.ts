/**
 * Named routes of the spec (sections 2 and 7) and the URL builder that fills them.
 *
 * Patterns use whole-segment variables: `{id}` is required, `{id?}` optional. Route names are
 * stable identifiers (`api.event.status`, `poster.export`, …): code refers to routes by name so
 * a path can change in one place.
 */
import { type QueryInput, toQueryString } from "./query-string.ts";

export type HttpMethod = "GET" | "POST" | "DELETE";

export interface RouteDefinition<P extends string = string> {
  readonly path: P;
  readonly methods: readonly HttpMethod[];
  /** Parameters that must be all digits (spec: "Most ids must be numeric"). */
  readonly numeric: readonly string[];
  /** Values an optional trailing parameter takes when absent; the builder omits them. */
  readonly defaults: Readonly<Record<string, string>>;
}

interface RouteOptions {
  /** Overrides the default numeric set, which is every parameter named `id` or `event`. */
  numeric?: readonly string[];
  defaults?: Readonly<Record<string, string>>;
}

const DEFAULT_NUMERIC_PARAMS = new Set(["id", "event"]);

function paramNames(path: string): string[] {
  return [...path.matchAll(/\{([^}?]+)\??\}/g)].map((m) => m[1]);
}

function route<const P extends string>(
  path: P,
  methods: readonly HttpMethod[] = ["GET"],
  options: RouteOptions = {},
): RouteDefinition<P> {
  const numeric = options.numeric ?? paramNames(path).filter((name) => DEFAULT_NUMERIC_PARAMS.has(name));
  return { path, methods, numeric, defaults: options.defaults ?? {} };
}

const GET: readonly HttpMethod[] = ["GET"];
const POST: readonly HttpMethod[] = ["POST"];
const DELETE: readonly HttpMethod[] = ["DELETE"];
const GET_POST: readonly HttpMethod[] = ["GET", "POST"];
const GET_DELETE: readonly HttpMethod[] = ["GET", "DELETE"];
const POST_DELETE: readonly HttpMethod[] = ["POST", "DELETE"];
/** Free segments: ids that are slugs or external references, and the catch-all's parts. */
const FREE: RouteOptions = { numeric: [] };

export const ROUTES = {
  // Pages and server routes (section 2).
  app: route("/{app?}/{param1?}/{param2?}/{param3?}/{param4?}", GET, FREE),
  login: route("/login"),
  "user.activity.strava": route("/user/activity/strava"),
  "user.activity": route("/user/activity/{id?}/{action?}"),
  "user.activities": route("/user/activities/{type?}", GET, { defaults: { type: "activity" } }),
  "admin.activities": route("/admin/activities"),
  "admin.challenge.create": route("/admin/challenge/create", GET_POST),
  "admin.challenge.edit": route("/admin/challenge/{id}", GET_POST),
  "admin.challenge.delete": route("/admin/challenge/delete/{id}", GET_POST),
  "connect.google": route("/connect/google"),
  "connect.strava": route("/connect/strava"),
  "connect.facebook": route("/connect/facebook"),
  logout: route("/logout"),
  "payment.price": route("/ext/payment/price/{id}"),
  "payment.retry": route("/ext/payment/retry/{uid}"),
  "payment.check": route("/ext/payment/check/{uid}"),
  "poster.export": route("/ext/user/poster/{id}/export/{format}"),
  "track.export.gpx": route("/track/export/{id}/gpx"),
  "mailing.view": route("/mailing/{token}"),
  redirect: route("/redirect/{type}/{id}/{slug?}"),
  "link.partner": route("/link/partner/{partner}/{id}/{slug}"),
  "link.mailing": route("/link/mailing/{token}/{key?}"),

  // API: thumbnails.
  "api.thumbnail": route("/api/thumbnail", POST),

  // API: admin.
  "api.admin.events": route("/api/admin/events"),
  "api.admin.comments": route("/api/admin/comments"),
  "api.admin.sports": route("/api/admin/sports"),
  "api.admin.sport": route("/api/admin/sport", POST),
  "api.admin.orders": route("/api/admin/orders"),
  "api.admin.users": route("/api/admin/users/{format?}"),
  "api.admin.user": route("/api/admin/user/{id}", GET_DELETE),
  "api.admin.videosImport": route("/api/admin/videos-import"),
  "api.admin.importParser": route("/api/admin/import-parser"),

  // API: content. Articles are read by id or slug, so that id is free.
  "api.article": route("/api/article/{id}", GET_DELETE, FREE),
  "api.article.save": route("/api/article/{type}/{id}", POST),
  "api.articles": route("/api/articles"),
  "api.articles.categories": route("/api/articles/categories"),
  "api.page": route("/api/page/{slug}"),
  "api.indexingUrl": route("/api/indexing-url", POST),

  // API: challenges.
  "api.challenges": route("/api/challenges/{format?}"),
  "api.challenge": route("/api/challenge/{id}"),

  // API: comments.
  "api.comments": route("/api/comments/{type}/{id?}"),
  "api.comment.save": route("/api/comment/{type}/{id}", POST),
  "api.comment.delete": route("/api/comment/{id}", DELETE),

  // API: reference data.
  "api.sports": route("/api/sports"),
  "api.countries": route("/api/countries"),
  "api.departments": route("/api/departments"),
  "api.regions": route("/api/regions"),
  "api.filters": route("/api/filters"),
  "api.context": route("/api/context"),
  "api.locale": route("/api/locale/{_locale}"),

  // API: location and error reporting.
  "api.findCity": route("/api/find-city", POST),
  "api.geocodeLocation": route("/api/geocode-location", POST),
  "api.catch": route("/api/catch", POST),

  // API: events. The read route's id is a slug or an id depending on its type.
  "api.event": route("/api/event/{type?}/{id}", GET, FREE),
  "api.event.save": route("/api/event/{id}", POST),
  "api.event.status": route("/api/event/{id}/status/{type}", POST),
  "api.event.participants": route("/api/event/participants/{id}"),
  "api.event.editions": route("/api/event/editions/{id}/{reference?}"),
  "api.event.checkOrganizer": route("/api/event/check-organizer", POST),
  "api.event.switchImage": route("/api/event/switch-image", POST),
  "api.event.organizer": route("/api/event/organizer/{id}", POST),
  "api.events": route("/api/events"),
  "api.events.format": route("/api/events/{format}"),
  "api.events.around": route("/api/events/around/{req}"),
  "api.eventsGroup": route("/api/events_group/{type}"),

  // API: organiser events and courses.
  "api.user.event": route("/api/user/event/{id?}"),
  "api.user.events": route("/api/user/events"),
  "api.user.course": route("/api/user/course/{id?}"),
  "api.course": route("/api/course/{id?}", GET_DELETE),

  // API: mailings.
  "api.mailing": route("/api/mailing/{id}", GET_DELETE),
  "api.mailing.list": route("/api/mailing/{id}/list"),
  "api.mailing.save": route("/api/mailing/{type}", POST),
  "api.mailing.create": route("/api/mailing/{id}/create", POST),
  "api.mailings": route("/api/mailings"),
  "api.mailingSubscription": route("/api/mailing-subscription", POST),

  // API: posters.
  "api.posters": route("/api/posters/{mode?}"),
  "api.poster": route("/api/poster/{type}/{id}"),
  "api.poster.products": route("/api/poster/products"),
  "api.poster.save": route("/api/poster", POST),
  "api.poster.delete": route("/api/poster/{id}", DELETE),

  // API: results.
  "api.results": route("/api/results/{id}", POST_DELETE),
  "api.results.import": route("/api/results/import", POST),
  "api.results.parse": route("/api/results/parse", POST),

  // API: shop.
  "api.shop.products": route("/api/shop/products"),
  "api.shop.home": route("/api/shop/home/{offer?}"),
  "api.shop.product": route("/api/shop/product/{id}", GET_DELETE),
  "api.shop.product.save": route("/api/shop/product/{type}/{id}", POST),
  "api.shop.lists": route("/api/shop/lists"),
  "api.shop.filters": route("/api/shop/filters"),
  "api.shop.suggest": route("/api/shop/suggest"),
  "api.shop.import": route("/api/shop/import/{save?}"),

  // API: tracks.
  "api.track": route("/api/track/{id}", GET_DELETE),
  "api.track.elevation": route("/api/track/{id}/elevation"),
  "api.tracks": route("/api/tracks/{format?}"),
  "api.track.set": route("/api/set-track/{type}", POST),

  // API: uploads and files.
  "api.fileSelector": route("/api/file-selector"),
  "api.upload.eventPhoto": route("/api/upload/event-photo", POST),
  "api.upload.userPhoto": route("/api/upload/user-photo", POST),
  "api.upload.track": route("/api/upload/track/{id}", POST),
  "api.upload.articleImage": route("/api/upload/article-image", POST),
  "api.upload.itemImage": route("/api/upload/item-image", POST),
  "api.upload.content": route("/api/upload/content", POST),
  "api.upload.file": route("/api/upload/file", DELETE),

  // API: ratings, calendar and favourites.
  "api.rating": route("/api/rating", POST),
  "api.rating.event": route("/api/rating/{event}"),
  "api.user.action": route("/api/user/action/{id}"),
  "api.user.calendar": route("/api/user/calendar"),
  "api.user.calendar.toggle": route("/api/user/calendar/{id}", POST_DELETE),
  "api.user.favorites": route("/api/user/favorites"),
  "api.user.favorite": route("/api/user/favorite/{id}", POST),

  // API: community.
  "api.rankings": route("/api/rankings/{type}/{order}"),
  "api.timeline": route("/api/timeline/{type}"),
  "api.community.users": route("/api/community/users/{type?}"),

  // API: orders.
  "api.orders": route("/api/orders"),
  "api.order": route("/api/orders/{uid}"),

  // API: messaging.
  "api.sendInvitation": route("/api/send-invitation", POST),
  "api.sendContactOrganizer": route("/api/send-contact-organizer", POST),
  "api.newsletter": route("/api/newsletter", POST),
  "api.contact": route("/api/contact", POST),

  // API: account.
  "api.me": route("/api/me"),
  "api.me.type": route("/api/me/{type}"),
  "api.user": route("/api/user/{slug?}"),
  "api.user.stats": route("/api/user/{slug}/stats"),
  "api.user.update": route("/api/user/{type}/{id}", POST),
  "api.logout": route("/api/logout"),
  "api.login": route("/api/login", POST),
  "api.register": route("/api/register", POST),
  "api.recoverPassword": route("/api/recover-password", POST),
  "api.resetPassword": route("/api/reset-password", POST),
  "api.user.disableAccount": route("/api/user/disable-account", POST),
  "api.user.verifyAccount": route("/api/user/verify-account", POST),
  "api.user.sendVerify": route("/api/user/send-verify", POST),

  // API: videos.
  "api.videos": route("/api/videos"),
  "api.videos.home": route("/api/videos/home"),
  "api.video": route("/api/video/{id}", ["GET", "POST", "DELETE"]),
  "api.video.filters": route("/api/video/filters"),
  "api.video.relative": route("/api/video/relative"),
  "api.video.check": route("/api/video/check", POST),
  "api.video.toggle": route("/api/video/toggle/{id}", POST),
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof ROUTES;

// Type-level reading of a pattern, so `routeUrl("api.track", {})` fails to compile without `id`.
type SegmentsOf<P extends string> = P extends `${infer Head}/${infer Tail}` ? Head | SegmentsOf<Tail> : P;
type OptionalParamOf<S> = S extends `{${infer K}?}` ? K : never;
type RequiredParamOf<S> = S extends `{${infer K}}` ? (K extends `${string}?` ? never : K) : never;
type PathOf<N extends RouteName> = (typeof ROUTES)[N]["path"];
type RequiredParams<N extends RouteName> = RequiredParamOf<SegmentsOf<PathOf<N>>>;
type OptionalParams<N extends RouteName> = OptionalParamOf<SegmentsOf<PathOf<N>>>;

export type PathValue = string | number;
export type RouteParams<N extends RouteName> = { [K in RequiredParams<N>]: PathValue } & {
  [K in OptionalParams<N>]?: PathValue | null;
} & QueryInput;
export type RouteUrlArgs<N extends RouteName> = [RequiredParams<N>] extends [never]
  ? [params?: RouteParams<N>]
  : [params: RouteParams<N>];

export class RouteError extends Error {
  override name = "RouteError";
}

type Segment = { kind: "literal"; value: string } | { kind: "param"; name: string; optional: boolean };

const segmentCache = new Map<string, Segment[]>();

function segmentsOf(path: string): Segment[] {
  let segments = segmentCache.get(path);
  if (!segments) {
    segments = path
      .split("/")
      .filter(Boolean)
      .map((part): Segment => {
        const match = /^\{([^}?]+)(\?)?\}$/.exec(part);
        return match ? { kind: "param", name: match[1], optional: match[2] === "?" } : { kind: "literal", value: part };
      });
    segmentCache.set(path, segments);
  }
  return segments;
}

export function hasRoute(name: string): name is RouteName {
  return Object.hasOwn(ROUTES, name);
}

export function getRoute(name: string): RouteDefinition {
  if (!hasRoute(name)) throw new RouteError(`The requested route does not exist: "${name}"`);
  return ROUTES[name];
}

const NUMERIC = /^\d+$/;

/**
 * Builds the URL of a named route: fills its path variables (URL-encoded), omits unfilled
 * optional segments, and appends every other parameter as a query string (null and undefined
 * skipped, arrays as repeated keys).
 *
 * An unfilled optional segment followed by a filled optional one cannot be left out (the later
 * value would land in its place), so it is reported as required. An optional segment before a
 * required one (`/api/event/{type?}/{id}`) can be left out: the segment count tells them apart.
 *
 * @throws RouteError "route does not exist" for an unknown name, "requires the parameter" for a
 *   missing (or non-numeric, where numeric is required) path variable.
 */
export function routeUrl<N extends RouteName>(name: N, ...[params]: RouteUrlArgs<N>): string {
  const definition = getRoute(name);
  const rest: Record<string, unknown> = { ...(params ?? {}) };
  const segments = segmentsOf(definition.path);

  const values = segments.map((segment) => {
    if (segment.kind === "literal") return segment.value;
    const raw = rest[segment.name];
    delete rest[segment.name];
    if (raw === null || raw === undefined || raw === "") return null;
    if (typeof raw !== "string" && typeof raw !== "number") {
      throw new RouteError(`Route "${name}" requires the parameter "${segment.name}" as a string or number`);
    }
    const value = String(raw);
    if (definition.numeric.includes(segment.name) && !NUMERIC.test(value)) {
      throw new RouteError(`Route "${name}" requires the parameter "${segment.name}" to be numeric, got "${value}"`);
    }
    return value;
  });

  // Trailing optionals equal to their default are left out: one canonical URL per page.
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i];
    if (segment.kind !== "param" || !segment.optional) break;
    if (values[i] !== null && values[i] !== definition.defaults[segment.name]) break;
    values[i] = null;
  }

  const parts: string[] = [];
  segments.forEach((segment, i) => {
    const value = values[i];
    if (segment.kind === "literal") {
      parts.push(segment.value);
      return;
    }
    if (value !== null) {
      parts.push(encodeURIComponent(value));
      return;
    }
    if (!segment.optional) throw new RouteError(`Route "${name}" requires the parameter "${segment.name}"`);
    const laterOptionalFilled = segments.some(
      (later, j) => j > i && later.kind === "param" && later.optional && values[j] !== null,
    );
    if (laterOptionalFilled) throw new RouteError(`Route "${name}" requires the parameter "${segment.name}"`);
  });

  const query = toQueryString(rest as QueryInput);
  return `/${parts.join("/")}${query ? `?${query}` : ""}`;
}

/**
 * Matches a pathname against one named route and returns its decoded parameters, or null.
 * Numeric parameters only match digits, which is what separates `/user/activity/strava` from
 * `/user/activity/{id?}` and `/admin/challenge/create` from `/admin/challenge/{id}`.
 */
export function matchRoute(name: RouteName, pathname: string): Record<string, string> | null {
  const definition = getRoute(name);
  const segments = segmentsOf(definition.path);
  const names: string[] = [];
  let source = "";
  let openGroups = 0;
  segments.forEach((segment, i) => {
    if (segment.kind === "literal") {
      source += `/${segment.value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      return;
    }
    names.push(segment.name);
    const value = definition.numeric.includes(segment.name) ? "(\\d+)" : "([^/]+)";
    if (!segment.optional) source += `/${value}`;
    else if (segments.slice(i + 1).some((later) => later.kind === "param" && later.optional)) {
      // Later optionals only exist when this one is present, as routeUrl builds them.
      source += `(?:/${value}`;
      openGroups++;
    } else source += `(?:/${value})?`;
  });
  source += ")?".repeat(openGroups);
  const match = new RegExp(`^${source}/?$`).exec(pathname);
  if (!match) return null;
  const params: Record<string, string> = {};
  names.forEach((paramName, i) => {
    const raw = match[i + 1];
    if (raw !== undefined) params[paramName] = decodeURIComponent(raw);
    else if (definition.defaults[paramName] !== undefined) params[paramName] = definition.defaults[paramName];
  });
  return params;
}

/**
 * Path prefixes served by Fastify rather than by React Router pages (ARCHITECTURE.md): links to
 * them need a full document load, never a client-side transition.
 */
export const SERVER_PATH_PREFIXES = [
  "/api/",
  "/connect/",
  "/logout",
  "/ext/",
  "/track/export/",
  "/mailing/",
  "/redirect/",
  "/link/",
] as const;

export function isServerPath(pathname: string): boolean {
  const path = pathname.split(/[?#]/)[0];
  return SERVER_PATH_PREFIXES.some((prefix) =>
    prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`),
  );
}
