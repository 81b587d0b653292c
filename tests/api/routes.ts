import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import type { RouteAccess } from "../../features/identity/access.server.ts";

/** One route of the app as it was added: a method, its URL pattern and its schema. */
export type AppRoute = { method: string; url: string; schema?: FastifySchema };

/** Methods that change something: the access header and the authorisation matrix are about these. */
export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The app's own route table, filled by Fastify's onRoute hook while buildApp registers its plugins:
 * pass `onRoute` to createTestApp, then read `routes` (a route added tomorrow is listed too).
 */
export function routeRecorder() {
  const routes: AppRoute[] = [];
  return {
    routes,
    onRoute(route: RouteOptions) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push({ method, url: route.url, schema: route.schema });
    },
    /** POST, PUT, PATCH and DELETE routes under /api, each once. */
    apiWrites(): AppRoute[] {
      const seen = new Set<string>();
      return routes.filter((r) => {
        const key = `${r.method} ${r.url}`;
        if (!WRITE_METHODS.has(r.method) || !r.url.startsWith("/api/") || seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    },
  };
}

/** The app's routes with their access rules (app.routeAccess), HEAD copies left out. */
export function routesOf(app: FastifyInstance): RouteAccess[] {
  return app.routeAccess.filter((route) => route.method !== "HEAD");
}

/**
 * A concrete address for a route pattern: each `:name` (or optional `:name?`) becomes
 * `value(name)` (left out when an optional one has none), and a wildcard becomes "x".
 */
export function fillUrl(pattern: string, value: (name: string, optional: boolean) => string | undefined): string {
  return pattern
    .replace(/\/:([A-Za-z_]\w*)(\?)?/g, (_all, name: string, optional?: string) => {
      const filled = value(name, Boolean(optional));
      return filled === undefined ? "" : `/${encodeURIComponent(filled)}`;
    })
    .replace(/\*$/, "x");
}
