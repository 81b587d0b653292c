import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** GET /api/regions, /api/departments, /api/countries; POST /api/find-city, /api/geocode-location. */
export const geoRoutes: FastifyPluginAsyncZod = async () => {};
