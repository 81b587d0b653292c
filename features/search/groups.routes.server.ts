import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { eventCardSchema, upcomingQuerySchema } from "../events/events.contract.ts";
import { access } from "../identity/access.server.ts";
import { EVENT_GROUPS } from "./groups.service.server.ts";
import { searchQuerySchema } from "./search.contract.ts";

export const eventGroupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/events_group/:type",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["events"],
        summary: "A group of events for the home page: upcoming, this or next weekend, new listings, or by sport",
        params: z.object({ type: z.enum(EVENT_GROUPS) }),
        querystring: upcomingQuerySchema,
        response: {
          200: z.object({
            events: z.array(eventCardSchema),
            /** The search filters listing the whole group (for a "see all" link). */
            search: searchQuerySchema.partial(),
          }),
        },
      },
    },
    async (request) => app.services.groups.group(request.params.type, request.query.limit),
  );
};
