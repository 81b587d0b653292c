import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import { rateBodySchema, ratingSummarySchema } from "./ratings.contract.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 404: apiErrorBodySchema, 409: apiErrorBodySchema };

/** Members' ratings of editions (spec: POST /api/rating, GET /api/rating/{event}). */
export const ratingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.ratings;

  app.post(
    "/api/rating",
    {
      config: { access: access.verified },
      schema: {
        tags: ["ratings"],
        summary: "Rate an edition that has taken place (overall 1–5 and optional criteria); rating again edits it",
        description:
          "One rating per member per edition. Signed-in members with a verified e-mail only (401, 409 " +
          "EMAIL_VERIFICATION_REQUIRED); an edition that has not started yet (Europe/Paris) is 409 EVENT_NOT_YET_HELD.",
        body: rateBodySchema,
        response: { 200: ratingSummarySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      return service().rate(user.id, request.body);
    },
  );

  app.get(
    "/api/rating/:event",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["ratings"],
        summary: "An edition's ratings: average, count, distribution and per-criterion averages",
        description:
          "Signed-in callers also get `mine` (their own rating or null): such answers are private, no-store; " +
          "anonymous answers may be cached for a minute.",
        params: z.object({ event: idParam }),
        response: { 200: ratingSummarySchema, 400: apiErrorBodySchema, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const auth = await request.auth();
      reply.header("Vary", "Cookie");
      if (auth) {
        reply.header("Cache-Control", "private, no-store");
        return service().summary(request.params.event, auth.user.id);
      }
      reply.header("Cache-Control", "public, max-age=60");
      return service().summary(request.params.event);
    },
  );
};
