import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { fileResponse } from "../../platform/http/route-docs.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { DEFAULT_LOCALE, LOCALES } from "../../shared/constants.ts";
import { text } from "../../shared/input.ts";
import { regionSchema } from "../geo/geo.contract.ts";
import { validationField } from "../geo/geo.routes.server.ts";
import { access } from "../identity/access.server.ts";
import { sportSchema } from "../sports/sports.contract.ts";
import {
  aroundQuerySchema,
  filtersResultSchema,
  MAX_ICS_EVENTS,
  mapResultSchema,
  type SearchQuery,
  searchQuerySchema,
  searchResultSchema,
} from "./search.contract.ts";

/** The query string keys the routes accept on top of the search filters. */
const withLocale = <T extends z.ZodObject>(schema: T) => schema.extend({ _locale: z.enum(LOCALES).optional() });

/** A refused query string as a 400 on its top-level field ("sport", not "sport.1"). */
function refuse(error: unknown): never {
  throw new ApiError("BAD_REQUEST", { field: validationField(error) });
}

function filtersOf(query: SearchQuery & { _locale?: string }): SearchQuery {
  const { _locale: _, ...filters } = query;
  return filters;
}

/**
 * The hottest route's answer is built field by field by the search service (never a raw row), so
 * it is serialised without re-validating it against its schema; the schema still documents it and
 * the API tests check the shape (search.api.test.ts parses responses with searchResultSchema).
 */
const fastJson = () => (data: unknown) => JSON.stringify(data);

const LANGUAGE_NAMES = { fr: "Français", en: "English" } as const;

/** GET /api/events, /api/events/{format}, /api/events/around/{req}, /api/filters, /api/context. */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/events",
    {
      config: { access: access.anyone },
      attachValidation: true,
      serializerCompiler: fastJson,
      schema: {
        tags: ["events"],
        summary: "Search events: every filter combinable, paginated, with the total and facet counts",
        querystring: withLocale(searchQuerySchema),
        response: { 200: searchResultSchema },
      },
    },
    async (request) => {
      if (request.validationError) refuse(request.validationError);
      return app.services.search.search(filtersOf(request.query));
    },
  );

  app.get(
    "/api/events/:format",
    {
      config: {
        access: access.anyone,
        openapi: {
          headers: {
            "X-Total-Count": "How many events the search finds (the feed may hold only a page of them)",
            Link: 'The feed\'s next page when it is cut: `<…&page=N>; rel="next"`',
          },
        },
      },
      attachValidation: true,
      schema: {
        tags: ["events"],
        summary: "The search as map markers (`map`, JSON) or as an iCalendar feed (`ics`, text/calendar)",
        params: z.object({ format: z.enum(["map", "ics"]) }),
        querystring: withLocale(searchQuerySchema),
        response: {
          200: z.union([
            mapResultSchema,
            fileResponse(
              "text/calendar",
              "The search as an iCalendar (RFC 5545) feed when the format is `ics`: one page of at most " +
                `${MAX_ICS_EVENTS} events (\`page\`), one VEVENT per course of each; a cut feed says so with \`X-Total-Count\` and a ` +
                '`Link: <…>; rel="next"` header.',
            ),
          ]),
        },
      },
    },
    async (request, reply) => {
      if (request.validationError) refuse(request.validationError);
      const filters = filtersOf(request.query);
      if (request.params.format === "ics") {
        const feed = await app.services.search.ics(filters, requestLocale(request));
        if (feed.page < feed.pages) {
          // A feed cut at MAX_ICS_EVENTS points to the rest of its search.
          const next = new URL(request.url, "http://local");
          next.searchParams.set("page", String(feed.page + 1));
          reply.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
        }
        return reply
          .header("X-Total-Count", String(feed.total))
          .type("text/calendar; charset=utf-8")
          .header("Content-Disposition", 'inline; filename="dossard.ics"')
          .header("Cache-Control", "public, max-age=900")
          .serializer((payload: unknown) => payload as string)
          .send(feed.body);
      }
      return app.services.search.mapMarkers(filters);
    },
  );

  app.get(
    "/api/events/around/:req",
    {
      config: { access: access.anyone },
      attachValidation: true,
      schema: {
        tags: ["events"],
        summary: "Events around a commune (INSEE code), a postal code or `lat,lng`, nearest first",
        params: z.object({ req: text().max(60) }),
        querystring: withLocale(aroundQuerySchema),
        response: { 200: searchResultSchema },
      },
    },
    async (request) => {
      if (request.validationError) refuse(request.validationError);
      return app.services.search.around(request.params.req, filtersOf(request.query));
    },
  );

  app.get(
    "/api/filters",
    {
      config: { access: access.anyone },
      attachValidation: true,
      schema: {
        tags: ["events"],
        summary: "Filter options with counts (each dimension counted with the other current filters)",
        querystring: withLocale(searchQuerySchema),
        response: { 200: filtersResultSchema },
      },
    },
    async (request) => {
      if (request.validationError) refuse(request.validationError);
      return app.services.search.filters(filtersOf(request.query));
    },
  );

  app.get(
    "/api/context",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["reference"],
        summary: "What the client needs at start: languages, sports, regions, user, map style",
        response: {
          200: z.object({
            languages: z.array(z.object({ code: z.enum(LOCALES), name: z.string() })),
            defaultLanguage: z.enum(LOCALES),
            locale: z.enum(LOCALES),
            sports: z.array(sportSchema),
            regions: z.array(regionSchema),
            /** The signed-in member; always null until accounts exist. */
            user: z.null(),
            mapStyleUrl: z.string(),
          }),
        },
      },
    },
    async (request) => {
      const [sports, regions] = await Promise.all([app.services.sports.list(), app.services.geo.regions()]);
      return {
        languages: LOCALES.map((code) => ({ code, name: LANGUAGE_NAMES[code] })),
        defaultLanguage: DEFAULT_LOCALE,
        locale: requestLocale(request),
        sports,
        regions,
        user: null,
        mapStyleUrl: app.config.MAP_STYLE_URL,
      };
    },
  );
};
