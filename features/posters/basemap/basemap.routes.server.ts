import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError, apiErrorBodySchema } from "../../../shared/api-error.ts";
import { access } from "../../identity/access.server.ts";
import { MAP_STYLE_IDS } from "../poster.contract.ts";
import { styleAvailable } from "../render/render.ts";
import { BasemapUnavailableError } from "./basemap.server.ts";
import { type BBox, basemapLayerSchema, degreesToBbox } from "./layer.ts";

/** The widest box the preview may ask for (degrees): a poster of a 100-mile race fits. */
const MAX_SPAN_DEG = 4;
/** The preview's detail: the export job asks for the print's own (basemap.server.ts caps the tiles). */
const MAX_PREVIEW_PX = 1600;
const bboxParam = z
  .string()
  .transform((value, ctx) => {
    const parts = value.split(",").map(Number);
    const [w, s, e, n] = parts;
    const ok =
      parts.length === 4 &&
      parts.every(Number.isFinite) &&
      w >= -180 &&
      e <= 180 &&
      s >= -85 &&
      n <= 85 &&
      w < e &&
      s < n &&
      e - w <= MAX_SPAN_DEG &&
      n - s <= MAX_SPAN_DEG;
    if (!ok) {
      ctx.addIssue({ code: "custom", message: "INVALID_FIELD" });
      return z.NEVER;
    }
    return parts as BBox;
  })
  .describe("west,south,east,north in degrees (WGS 84), at most 4° each way");

/** GET /api/poster/basemap: the creator's preview gets the same map data the export draws (decision 037). */
export const basemapRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/poster/basemap",
    {
      config: { access: access.anyone, openapi: { errors: ["POSTER_MAP_UNAVAILABLE", "TOO_MANY_ATTEMPTS"] } },
      schema: {
        tags: ["posters"],
        summary: "The map data of a poster style over a box, as the renderer's basemap layer",
        description:
          "For the styles that draw from the configured tiles or elevation (and the contour styles when an " +
          "elevation source is configured): shapes on a 0…20000 grid across the box (Web Mercator), a shaded " +
          "relief image, contour rings, and the credits to print; with towns=1, France's borders, land and town names " +
          "from the open data where it covers the box (decision 038). `layer` is null when there is nothing to draw. " +
          "503 POSTER_MAP_UNAVAILABLE when a source fails or does not answer in time.",
        querystring: z.object({
          style: z.enum(MAP_STYLE_IDS),
          bbox: bboxParam,
          px: z.coerce.number().int().min(64).max(MAX_PREVIEW_PX).default(900),
          towns: z
            .enum(["0", "1"])
            .default("0")
            .transform((v) => v === "1")
            .describe("1: add France's borders and town names (decision 038) where the open data covers the box"),
        }),
        response: {
          200: z.object({ layer: basemapLayerSchema.nullable() }),
          400: apiErrorBodySchema,
          429: apiErrorBodySchema,
          503: apiErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      await app.services.posters.countBasemapRequest(request.ip);
      const { style, bbox, px, towns } = request.query;
      const posters = app.services.posters;
      if (!styleAvailable(style, posters.sources)) throw new ApiError("INVALID_FIELD", { field: "style" });
      try {
        const layer = await posters.mapLayer(style, degreesToBbox(bbox), px, towns);
        reply.header("Cache-Control", "public, max-age=86400");
        return { layer };
      } catch (error) {
        if (error instanceof BasemapUnavailableError) {
          request.log.warn({ err: error }, "poster basemap source failed");
          throw new ApiError("POSTER_MAP_UNAVAILABLE");
        }
        throw error;
      }
    },
  );
};
