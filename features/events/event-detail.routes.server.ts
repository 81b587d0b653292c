import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** GET /api/event/..., /api/course/..., /api/track/..., /track/export/{id}/gpx, /redirect/... */
export const eventDetailRoutes: FastifyPluginAsyncZod = async () => {};
