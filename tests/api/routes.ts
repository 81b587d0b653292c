import type { FastifyInstance } from "fastify";
import type { RouteAccess } from "../../features/accounts/access.server.ts";

/** Methods that change something: the access header and the authorisation matrix are about these. */
export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The app's routes from its own table, HEAD copies left out. */
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
