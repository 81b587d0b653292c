import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { access } from "../identity/access.server.ts";
import {
  appLogsQuerySchema,
  appLogsResponseSchema,
  eventLogsQuerySchema,
  eventLogsResponseSchema,
} from "./logs.contract.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };

/** The admin's application log and event logs (admins only, never cached). */
export const logsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/logs",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "The server's application log kept on disk (rotated files under LOG_DIR), newest first: by lowest level, time range (French time), route or path, request id, member, text; one page of 50 and whether there are older ones. Passwords, codes, tokens, cookies and authorization headers are redacted before they are written",
        querystring: appLogsQuerySchema,
        response: { 200: appLogsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return app.services.logs.appLogs(request.query);
    },
  );

  app.get(
    "/api/admin/event-logs",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "The history of every event, newest first: who changed what and when (fields changed, moderation, dates, pictures, tracks), by event name, member, kind of change and days (French time)",
        querystring: eventLogsQuerySchema,
        response: { 200: eventLogsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return app.services.logs.eventLogs(request.query);
    },
  );
};
