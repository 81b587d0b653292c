import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** GET /api/events, /api/events/{format}, /api/events/around/{req}, /api/filters, /api/context. */
export const searchRoutes: FastifyPluginAsyncZod = async () => {};
