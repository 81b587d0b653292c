import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** /sitemap.xml (and its parts) and /robots.txt (issue 3). */
export const seoRoutes: FastifyPluginAsyncZod = async () => {};
