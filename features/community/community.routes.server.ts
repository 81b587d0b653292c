import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import {
  DIRECTORY_PAGE_SIZE,
  type DirectorySort,
  directoryParamsSchema,
  directoryQuerySchema,
  directorySchema,
  finishersSchema,
  NEARBY_EVENTS_RADIUS_M,
  NEW_EVENTS_DAYS,
  RANKING_PAGE_SIZE,
  rankingParamsSchema,
  rankingQuerySchema,
  rankingSchema,
  TIMELINE_PAGE_SIZE,
  timelineParamsSchema,
  timelineQuerySchema,
  timelineSchema,
} from "./community.contract.ts";

const errors = { 400: apiErrorBodySchema };

/** Anonymous answers are the same for everyone (a minute in shared caches); a member's are their own. */
async function viewer(request: FastifyRequest, reply: FastifyReply): Promise<number | undefined> {
  const auth = await request.auth();
  reply.header("Vary", "Cookie");
  reply.header("Cache-Control", auth ? "private, no-store" : "public, max-age=60");
  return auth?.user.id;
}

/** The community (spec: rankings, timeline, members directory) and an edition's finishers. */
export const communityRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.community;

  app.get(
    "/api/rankings/:type/:order",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["community"],
        summary: "Members ranked by finished races, distance or positive elevation over a period",
        description:
          "`type` is the period, by the editions' start day (Europe/Paris): `all` (all time), `1y` (the last year), " +
          "`1m` (the last month), `last_week` (the last seven days). `order`: `races` (finished results), " +
          "`distance` (sum of the courses' distances, metres) or `elevation` (sum of their D+, metres). " +
          `Only members with a public profile; equal values share a rank. ${RANKING_PAGE_SIZE} a page; a signed-in ` +
          "member with a public profile also gets their own line in `me`.",
        params: rankingParamsSchema,
        querystring: rankingQuerySchema,
        response: { 200: rankingSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewerId = await viewer(request, reply);
      return service().ranking(request.params.type, request.params.order, {
        page: request.query.page,
        viewerId,
      });
    },
  );

  app.get(
    "/api/timeline/:type",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["community"],
        summary: "The community's activity, newest first",
        description:
          "`type`: `all`, or one kind — `results` (results members recorded or claimed), `planning` (races " +
          "members plan or registered for), `ratings`, `comments` (on events; deleted ones never), `badges`, " +
          `\`events\` (events listed in the last ${NEW_EVENTS_DAYS} days within ${NEARBY_EVENTS_RADIUS_M / 1000} km ` +
          "of the signed-in member's town; empty for visitors or when the town is unknown). Only members with a " +
          `public profile appear. ${TIMELINE_PAGE_SIZE} items a page; pass \`next\` as \`cursor\` for the next one.`,
        params: timelineParamsSchema,
        querystring: timelineQuerySchema,
        response: { 200: timelineSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewerId = await viewer(request, reply);
      return service().timeline(request.params.type, { cursor: request.query.cursor, viewerId });
    },
  );

  for (const path of ["/api/community/users", "/api/community/users/:type"]) {
    app.get(
      path,
      {
        config: { access: access.anyone },
        schema: {
          tags: ["community"],
          summary: "The members directory: public profiles, searchable",
          description:
            "`type`: `newest` (default: newest members first), `active` (most finished races over the last year, " +
            "then all time) or `name`. `q` searches names and pseudos, `city` the town, `sport` a sport's key. " +
            `${DIRECTORY_PAGE_SIZE} a page.`,
          ...(path.endsWith(":type") ? { params: directoryParamsSchema.required() } : {}),
          querystring: directoryQuerySchema,
          response: { 200: directorySchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header("Cache-Control", "public, max-age=60");
        const { type } = (request.params ?? {}) as { type?: DirectorySort };
        return service().directory(type ?? "newest", request.query);
      },
    );
  }

  app.get(
    "/api/community/finishers/:event",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["community"],
        summary: "An edition's finishers: how many, the members with a public profile, the others counted",
        params: z.object({ event: idParam }),
        response: { 200: finishersSchema, ...errors, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const answer = await service().finishers(request.params.event);
      if (!answer) throw new ApiError("ITEM_NOT_FOUND");
      reply.header("Cache-Control", "public, max-age=60");
      return answer;
    },
  );
};
