import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { text } from "../../shared/input.ts";
import { SHARE_IMAGE, SHARE_ROOT } from "../../shared/share-image.ts";
import { access } from "../identity/access.server.ts";
import { shareImagesService } from "./share-images.server.ts";

const file = text().max(210).describe("The source picture's file name, then .jpg");

/** One route per folder of pictures that have a share version (shared/share-image.ts). */
const FOLDERS = [
  {
    path: `${SHARE_ROOT}/event/:dir/:file`,
    summary: "An event photo's share image",
    params: z.object({
      dir: z
        .string()
        .regex(/^\d{1,10}$/)
        .describe("The event's id"),
      file,
    }),
  },
  {
    path: `${SHARE_ROOT}/art/:file`,
    summary: "A drawn landscape's share image",
    params: z.object({ file }),
  },
  {
    path: `${SHARE_ROOT}/user/:file`,
    summary: "A member's photo as a share image",
    params: z.object({ file }),
  },
] as const;

/**
 * GET /media/share/…: the JPEG (1200 × 630) a page names as its og:image, cut from the picture at
 * the same path under /media on first request, then read from storage. More specific than the
 * /media/ static files, so these routes answer these addresses.
 */
export const shareImageRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = shareImagesService({ storage: app.storage, generatedImages: app.services.generatedImages });
  for (const folder of FOLDERS) {
    app.get(
      folder.path,
      {
        config: { access: access.anyone, openapi: { errors: ["FILE_NOT_FOUND", "SERVER_BUSY"] } },
        schema: {
          tags: ["images"],
          summary: folder.summary,
          description: `A JPEG of ${SHARE_IMAGE.width} × ${SHARE_IMAGE.height} pixels, for social networks (og:image).`,
          params: folder.params,
          response: { 200: fileResponse("image/jpeg", "The share image") },
        },
      },
      async (request, reply) => {
        const { dir = "", file } = request.params as { dir?: string; file: string };
        const data = await service.file(folder.path.replace(":dir", dir).replace(":file", file));
        if (!data) throw new ApiError("FILE_NOT_FOUND");
        return reply.type("image/jpeg").header("Cache-Control", "public, max-age=86400").send(data);
      },
    );
  }
};
