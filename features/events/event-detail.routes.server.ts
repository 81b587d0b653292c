import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { isbot } from "isbot";
import { z } from "zod";
import { requestLocale, sendError } from "../../platform/http/errors.server.ts";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { text } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import {
  courseResponseSchema,
  EDITION_REFERENCES,
  editionsResponseSchema,
  elevationProfileSchema,
  elevationQuerySchema,
  eventDetailSchema,
  eventTypeParamSchema,
  LINK_TYPES,
  type LinkType,
  numericId,
  trackCollectionSchema,
  trackFeatureSchema,
  trackSummarySchema,
  tracksQuerySchema,
} from "./event-detail.contract.ts";
import { GPX_MIME_TYPE } from "./gpx.ts";

const errors = { 400: apiErrorBodySchema, 404: apiErrorBodySchema };
const idParams = z.object({ id: numericId.describe("Numeric id") });

function found<T>(value: T | null): T {
  if (value === null) throw new ApiError("ITEM_NOT_FOUND");
  return value;
}

/**
 * The item-not-found page for browsers on the non-API routes (/redirect, /track/export): the same
 * page React Router renders for an unknown event, fetched from the page handler with an impossible
 * slug and sent with status 404. Other clients (and the API tests, which run without pages) get the
 * translated JSON error.
 */
async function sendItemNotFound(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  const accept = request.headers.accept ?? "";
  if (request.method === "GET" && accept.includes("text/html")) {
    const locale = requestLocale(request);
    const page = await app.inject({
      method: "GET",
      url: pagePath("event", locale, { slug: "-" }),
      headers: { accept: "text/html", "accept-language": locale },
    });
    const type = String(page.headers["content-type"] ?? "");
    if (page.statusCode === 404 && type.startsWith("text/html")) {
      reply.code(404).header("content-type", type).header("cache-control", "no-store");
      const csp = page.headers["content-security-policy"];
      if (csp) reply.header("content-security-policy", csp);
      return reply.send(page.body);
    }
  }
  return sendError(request, reply, "ITEM_NOT_FOUND");
}

/** GET /api/event/..., /api/course/..., /api/track/..., /api/tracks, /track/export/{id}/gpx, /redirect/... */
export const eventDetailRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.eventDetails;

  app.get(
    "/api/event/:id",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["events"],
        summary: "An event by numeric id, with its courses, prices, tracks and editions",
        params: idParams,
        response: { 200: eventDetailSchema, ...errors },
      },
    },
    async (request) => found(await service().byId(request.params.id)),
  );

  app.get(
    "/api/event/:type/:id",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["events"],
        summary: "An event by id or by slug",
        description: "`type` is `id` (numeric `id`) or `slug` (`id` is the event's slug).",
        params: z.object({ type: eventTypeParamSchema, id: text().min(1).max(200) }),
        response: { 200: eventDetailSchema, ...errors },
      },
    },
    async (request) => {
      const { type, id } = request.params;
      if (type === "slug") return found(await service().bySlug(id));
      const parsed = numericId.safeParse(id);
      if (!parsed.success) throw new ApiError("BAD_REQUEST", { field: "id" });
      return found(await service().byId(parsed.data));
    },
  );

  app.get(
    "/api/event/:id/ics",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["events"],
        summary: "An event as an iCalendar file (add to my calendar)",
        description:
          "text/calendar, one VEVENT per course (UID `course-{id}@host`, the same as in the search feed and a " +
          "member's planning feed; decision 022). Texts follow the caller's language (`_locale`, `x-locale` or Accept-Language).",
        params: idParams,
        response: { 200: fileResponse("text/calendar", "The event as an iCalendar (RFC 5545) file"), ...errors },
      },
    },
    async (request, reply) => {
      const file = found(await service().ics(request.params.id, requestLocale(request)));
      return reply
        .type("text/calendar; charset=utf-8")
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .header("cache-control", "public, max-age=600")
        .send(file.body);
    },
  );

  app.get(
    "/api/event/editions/:id/:reference?",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["events"],
        summary: "The other editions of an event's race series",
        description: "`reference`: `all` (default), `past` (ended before today) or `upcoming`.",
        params: z.object({ id: numericId, reference: z.enum(EDITION_REFERENCES).default("all") }),
        response: { 200: editionsResponseSchema, ...errors },
      },
    },
    async (request) => found(await service().editions(request.params.id, request.params.reference)),
  );

  app.get(
    "/api/course/:id",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["events"],
        summary: "A course (a race of an event) with its prices and track",
        params: idParams,
        response: { 200: courseResponseSchema, ...errors },
      },
    },
    async (request) => found(await service().course(request.params.id)),
  );

  app.get(
    "/api/track/:id",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["tracks"],
        summary:
          "A track as a GeoJSON feature (a LineString, a MultiLineString for several segments) with its statistics",
        params: idParams,
        response: { 200: trackFeatureSchema, ...errors },
      },
    },
    async (request, reply) => {
      const feature = found(await service().track(request.params.id));
      return reply.type("application/geo+json; charset=utf-8").send(feature);
    },
  );

  app.get(
    "/api/track/:id/elevation",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["tracks"],
        summary: "A track's elevation profile, sampled for charts",
        querystring: elevationQuerySchema,
        params: idParams,
        response: { 200: elevationProfileSchema, ...errors },
      },
    },
    async (request) => found(await service().elevation(request.params.id, request.query.points)),
  );

  app.get(
    "/api/tracks/:format?",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["tracks"],
        summary: "The tracks of an event: summaries (json) or a GeoJSON FeatureCollection (geojson)",
        params: z.object({ format: z.enum(["json", "geojson"]).default("json") }),
        querystring: tracksQuerySchema,
        response: {
          200: z.union([z.object({ tracks: z.array(trackSummarySchema) }), trackCollectionSchema]),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      if (request.params.format === "geojson") {
        const features = found(await service().trackFeatures(request.query.event));
        return reply.type("application/geo+json; charset=utf-8").send({ type: "FeatureCollection" as const, features });
      }
      return { tracks: found(await service().trackSummaries(request.query.event)) };
    },
  );

  app.get(
    "/track/export/:id/gpx",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["tracks"],
        summary: "A track as a GPX 1.1 download",
        params: z.object({ id: text() }),
        response: { 200: fileResponse(GPX_MIME_TYPE, "The track as a GPX 1.1 file"), ...errors },
      },
    },
    async (request, reply) => {
      const id = numericId.safeParse(request.params.id);
      const file = id.success ? await service().gpx(id.data) : null;
      if (!file) {
        if (!id.success && !(request.headers.accept ?? "").includes("text/html"))
          return sendError(request, reply, "BAD_REQUEST", { field: "id" });
        return sendItemNotFound(app, request, reply);
      }
      return reply
        .type(`${GPX_MIME_TYPE}; charset=utf-8`)
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .header("cache-control", "public, max-age=3600")
        .send(file.xml);
    },
  );

  app.get(
    "/redirect/:type/:id/:slug?",
    {
      config: {
        access: access.anyone,
        openapi: { errors: ["ITEM_NOT_FOUND"], redirect: { status: 302, to: "To the link's address" } },
      },
      schema: {
        tags: ["events"],
        summary: "Counts a click on an event's external link and redirects to it (302)",
        description: `\`type\`: ${LINK_TYPES.join(", ")}. An unknown event, type or link gives the item-not-found page (404).`,
        params: z.object({ type: text(), id: text(), slug: text().optional() }),
        response: { 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const type = request.params.type as LinkType;
      const id = numericId.safeParse(request.params.id);
      const target = LINK_TYPES.includes(type) && id.success ? await service().linkTarget(type, id.data) : null;
      if (!target || !id.success) return sendItemNotFound(app, request, reply);
      const agent = request.headers["user-agent"] ?? "";
      // Link checkers (HEAD) and crawlers follow the link without being readers: not counted.
      if (request.method === "GET" && !isbot(agent)) await service().recordClick(id.data, type);
      return reply
        .header("cache-control", "no-store")
        .header("x-robots-tag", "noindex, nofollow")
        .redirect(target.url, 302);
    },
  );
};
