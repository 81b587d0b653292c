import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { access } from "../identity/access.server.ts";

/**
 * GET /media/art/<landscape>.webp (and its card crops): the landscapes of the demo
 * catalogue, drawn on the first request and then read from disk. More specific than the /media/
 * static files, so it answers these addresses.
 */
export const illustrationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/media/art/:file",
    {
      config: { access: access.anyone, openapi: { errors: ["FILE_NOT_FOUND"] } },
      schema: {
        tags: ["images"],
        summary: "A landscape drawn by code (image/webp), as an event of the demo catalogue shows it",
        params: z.object({ file: z.string().max(60) }),
        response: { 200: fileResponse("image/webp", "The drawing as a WebP image") },
      },
    },
    async (request, reply) => {
      const data = await app.services.generatedImages.file(request.params.file);
      if (!data) throw new ApiError("FILE_NOT_FOUND");
      return reply.type("image/webp").header("Cache-Control", "public, max-age=86400").send(data);
    },
  );
};
