import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { eventCardSchema, upcomingQuerySchema } from "./events.contract.ts";

export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/events_group/:type",
    {
      schema: {
        tags: ["events"],
        summary: "A group of events for the home page",
        params: z.object({ type: z.enum(["upcoming"]) }),
        querystring: upcomingQuerySchema,
        response: { 200: z.object({ events: z.array(eventCardSchema) }) },
      },
    },
    async (request) => ({ events: await app.services.events.upcoming(request.query.limit) }),
  );
};
