import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { LOCALES } from "../../shared/constants.ts";
import { text } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import {
  citySchema,
  countrySchema,
  departmentSchema,
  findCityBodySchema,
  geocodeBodySchema,
  geocodeResultSchema,
  regionSchema,
} from "./geo.contract.ts";

/** A failed schema validation as a 400 naming the top-level field ("limit", not "limit.0"). */
export function validationField(error: unknown): string | undefined {
  const validation = (error as { validation?: { instancePath?: string; params?: { missingProperty?: string } }[] })
    .validation;
  const first = validation?.[0];
  const path = first?.instancePath?.replace(/^\//, "").split("/")[0];
  return path || first?.params?.missingProperty || undefined;
}

const REFERENCE_CACHE = "public, max-age=3600";

/** GET /api/regions, /api/departments, /api/countries; POST /api/find-city, /api/geocode-location. */
export const geoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/regions",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["reference"],
        summary: "The regions of France, by name",
        response: { 200: z.object({ regions: z.array(regionSchema) }) },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", REFERENCE_CACHE);
      return { regions: await app.services.geo.regions() };
    },
  );

  app.get(
    "/api/departments",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["reference"],
        summary: "The departments of France by code, or those of one region (code or slug)",
        querystring: z.object({ region: text().trim().max(60).optional() }),
        response: { 200: z.object({ departments: z.array(departmentSchema) }) },
      },
    },
    async (request, reply) => {
      const { region } = request.query;
      let regionCode: string | undefined;
      if (region) {
        const found = await app.services.geo.region(region);
        if (!found) throw new ApiError("BAD_REQUEST", { field: "region" });
        regionCode = found.code;
      }
      reply.header("Cache-Control", REFERENCE_CACHE);
      return { departments: await app.services.geo.departments(regionCode) };
    },
  );

  app.get(
    "/api/countries",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["reference"],
        summary: "Every country, named and sorted in the caller's language (`_locale`, `x-locale`, Accept-Language)",
        querystring: z.object({ _locale: z.enum(LOCALES).optional() }),
        response: { 200: z.object({ countries: z.array(countrySchema) }) },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", REFERENCE_CACHE);
      reply.header("Vary", "Accept-Language, x-locale");
      return { countries: await app.services.geo.countries(requestLocale(request)) };
    },
  );

  app.post(
    "/api/find-city",
    {
      config: { access: access.anyone },
      attachValidation: true,
      schema: {
        tags: ["reference"],
        summary: "Place autocomplete: communes by name (accents and typos tolerated) or postal code prefix",
        security: [{ access: [] }],
        body: findCityBodySchema,
        response: { 200: z.object({ cities: z.array(citySchema) }) },
      },
    },
    async (request) => {
      if (request.validationError) {
        throw new ApiError("BAD_REQUEST", { field: validationField(request.validationError) ?? "q" });
      }
      return { cities: await app.services.geo.findCity(request.body.q, request.body.limit) };
    },
  );

  app.post(
    "/api/geocode-location",
    {
      config: { access: access.anyone, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      attachValidation: true,
      schema: {
        tags: ["reference"],
        summary: "The commune nearest to coordinates (404 ITEM_NOT_FOUND farther than 50 km from any)",
        security: [{ access: [] }],
        body: geocodeBodySchema,
        response: { 200: geocodeResultSchema },
      },
    },
    async (request) => {
      if (request.validationError) {
        throw new ApiError("BAD_REQUEST", { field: validationField(request.validationError) ?? "lat" });
      }
      const found = await app.services.geo.nearest(request.body.lat, request.body.lng);
      if (!found) throw new ApiError("ITEM_NOT_FOUND");
      return found;
    },
  );
};
