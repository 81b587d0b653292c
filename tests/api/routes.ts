import type { FastifySchema, RouteOptions } from "fastify";

/** One route of the app as it was added: a method, its URL pattern and its schema. */
export type AppRoute = { method: string; url: string; schema?: FastifySchema };

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

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
