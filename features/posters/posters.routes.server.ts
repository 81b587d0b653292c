import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam, rowId } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import {
  EXPORT_FORMATS,
  MAP_STYLE_IDS,
  MAP_STYLES,
  POSTER_SOURCE_TYPES,
  posterDesignSchema,
  posterExportSchema,
  posterListSchema,
  posterOpenSchema,
  posterProductsSchema,
  posterViewSchema,
} from "./poster.contract.ts";
import { POSTER_EDIT_LIMIT } from "./posters.service.server.ts";
import { POSTER_PRODUCTS } from "./products.ts";
import { styleAvailable } from "./render/render.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 404: apiErrorBodySchema };

/** Posters (spec: /api/posters/{mode?}, /api/poster/{type}/{id}, /api/poster, /api/poster/products, exports). */
export const postersRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.posters;

  app.get(
    "/api/poster/products",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["posters"],
        summary: "What a poster can be bought as (credit packs, prints per size), the sizes and map styles",
        description:
          "Prices in euro cents, VAT included. `styles` says which map styles can be drawn with the configured data sources.",
        response: { 200: posterProductsSchema },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "public, max-age=300");
      const sources = service().sources;
      return {
        products: [...POSTER_PRODUCTS],
        editLimit: POSTER_EDIT_LIMIT,
        styles: MAP_STYLE_IDS.map((id) => ({
          id,
          needs: MAP_STYLES[id].needs,
          available: styleAvailable(id, sources),
        })),
        openData: service().openData,
      };
    },
  );

  app.get(
    "/api/posters/public",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["posters"],
        summary: "The public gallery: exported posters that are not private, newest first",
        response: { 200: posterListSchema },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "public, max-age=60");
      return service().list("public", null);
    },
  );

  app.get(
    "/api/posters/:mode?",
    {
      config: { access: access.member },
      schema: {
        tags: ["posters"],
        summary: "The caller's posters (mode mine, the default; /api/posters/public is the gallery)",
        params: z.object({ mode: z.enum(["mine"]).optional() }),
        response: { 200: posterListSchema, 400: apiErrorBodySchema, 401: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      return service().list("mine", user.id);
    },
  );

  app.get(
    "/api/poster/:type/:id",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["posters"],
        summary: "A new design started from a course, a track or an activity, or a saved poster (type poster)",
        description:
          "A course needs a track; an uploaded track not attached to a course is its uploader's only. A poster is " +
          "its owner's, or anyone's once exported and not private. An activity is its owner's only (404 for anyone " +
          "else, as on its page); linked to a course, it starts with that race's names and the member's result.",
        params: z.object({ type: z.enum([...POSTER_SOURCE_TYPES, "poster"]), id: idParam }),
        response: { 200: posterOpenSchema, ...errors },
      },
    },
    async (request, reply) => {
      const auth = await request.auth();
      reply.header("Cache-Control", "private, no-store");
      reply.header("Vary", "Cookie");
      const lang = requestLocale(request) === "en" ? "en" : "fr";
      return service().open(request.params.type, request.params.id, auth?.user.id ?? null, lang);
    },
  );

  app.post(
    "/api/poster",
    {
      config: { access: access.member, openapi: { errors: ["POSTER_EDIT_LIMIT"] } },
      schema: {
        tags: ["posters"],
        summary: "Creates (without id) or saves a poster",
        description: `After a poster's export, ${POSTER_EDIT_LIMIT} saves are allowed (409 POSTER_EDIT_LIMIT after that).`,
        body: z.object({ id: z.union([rowId, z.null()]).optional(), design: posterDesignSchema }),
        response: { 200: z.object({ poster: posterViewSchema }), ...errors, 409: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      return { poster: await service().save(user.id, request.body) };
    },
  );

  app.delete(
    "/api/poster/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["posters"],
        summary: "Deletes one of the caller's posters (an export's credit is not given back)",
        params: z.object({ id: idParam }),
        response: { 200: z.object({ ok: z.boolean() }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service().remove(user.id, request.params.id);
      return { ok: true };
    },
  );

  const exportParams = z.object({ id: idParam, format: z.enum(EXPORT_FORMATS) });

  app.post(
    "/ext/user/poster/:id/export/:format",
    {
      config: { access: access.member, openapi: { errors: ["NO_POSTER_CREDIT"] } },
      schema: {
        tags: ["posters"],
        summary: "Starts an export (svg, png at 300 dpi, vector pdf) of one of the caller's posters",
        description:
          "The poster's first export spends a credit (402 NO_POSTER_CREDIT without one). The file is drawn by a " +
          "background job: poll GET on the same address for its progress, then the file.",
        params: exportParams,
        response: { 200: posterExportSchema, 202: posterExportSchema, ...errors, 402: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      const started = await service().requestExport(user.id, request.params.id, request.params.format);
      return reply.code(started.status === "done" ? 200 : 202).send({ export: started });
    },
  );

  app.get(
    "/ext/user/poster/:id/export/:format",
    {
      config: { access: access.member, openapi: { errors: ["POSTER_MAP_UNAVAILABLE"] } },
      schema: {
        tags: ["posters"],
        summary: "The export's file once drawn (attachment), else its progress (202, JSON)",
        params: exportParams,
        querystring: z.object({ download: z.enum(["0", "1"]).optional() }),
        response: { 202: posterExportSchema, ...errors, 503: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      const found = await service().exportFile(user.id, request.params.id, request.params.format);
      if (!found.file) {
        if (found.export.status === "failed") throw new ApiError(found.failure ?? "GENERIC");
        return reply.code(202).send({ export: found.export });
      }
      const download = request.query.download !== "0";
      return reply
        .type(found.file.contentType)
        .header("Content-Disposition", `${download ? "attachment" : "inline"}; filename="${found.file.name}"`)
        .header("Content-Length", String(found.file.bytes.length))
        .send(found.file.bytes as never);
    },
  );
};
