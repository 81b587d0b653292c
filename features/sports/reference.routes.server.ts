import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LOCALES } from "../../shared/constants.ts";
import { resources } from "../../shared/i18n/resources.ts";
import { access } from "../identity/access.server.ts";
import { sportSchema } from "./sports.contract.ts";

export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/sports",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["reference"],
        summary: "The sports of the calendar, with French and English names and URL slugs",
        response: { 200: z.object({ sports: z.array(sportSchema) }) },
      },
    },
    async () => ({ sports: await app.services.sports.list() }),
  );

  app.get(
    "/api/locale/:_locale",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["reference"],
        summary: "Every translation namespace of one language",
        params: z.object({ _locale: z.enum(LOCALES) }),
        response: { 200: z.record(z.string(), z.record(z.string(), z.unknown())) },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "public, max-age=300");
      return resources[request.params._locale] as unknown as Record<string, Record<string, unknown>>;
    },
  );
};
