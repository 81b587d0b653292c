import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../accounts/access.server.ts";
import { requireUser } from "../accounts/auth.server.ts";
import { eventActionsSchema } from "./engagement.contract.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 404: apiErrorBodySchema };

/** The member's side of events (spec: "User data" routes). */
export const engagementRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.engagement;

  // Answers depend on who asks.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("Cache-Control", "private, no-store");
  });

  app.get(
    "/api/user/action/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "What the signed-in member can do and has done on an event (organiser tools and the like)",
        params: z.object({ id: idParam }),
        response: { 200: eventActionsSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().eventActions(user, request.params.id);
    },
  );
};
