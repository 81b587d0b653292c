import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { access } from "../identity/access.server.ts";
import { adminCountsSchema, dashboardSchema } from "./admin.contract.ts";

const errors = { 401: apiErrorBodySchema, 403: apiErrorBodySchema };

/** The admin area's own API: the dashboard and the menu's counts (admins only). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/dashboard",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "The dashboard: cpu, memory, disk (DATA_DIR and the database), traffic (requests per minute, error rate, p95 latency, 24 h and 30 d history, page views without cookies), uptime, version, business figures and what waits",
        response: { 200: dashboardSchema, ...errors },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return app.services.admin.dashboard();
    },
  );

  app.get(
    "/api/admin/counts",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "What waits for an admin: pending events and change requests, reported comments, result claims, jobs failed in the last day",
        response: { 200: adminCountsSchema, ...errors },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return app.services.admin.counts();
    },
  );
};
