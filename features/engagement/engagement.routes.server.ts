import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import {
  calendarBodySchema,
  calendarEntrySchema,
  calendarFeedResponseSchema,
  calendarResponseSchema,
  eventActionsSchema,
  favoriteBodySchema,
  favoriteResponseSchema,
  favoritesResponseSchema,
  participantsResponseSchema,
} from "./engagement.contract.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 404: apiErrorBodySchema };
const id = z.object({ id: idParam });

/** The member's side of events (spec: "User data", "Ratings and calendar", participants). */
export const engagementRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.engagement;

  // Every answer but the participants depends on who asks.
  app.addHook("onSend", async (_request, reply) => {
    if (!reply.hasHeader("cache-control")) reply.header("Cache-Control", "private, no-store");
  });

  app.get(
    "/api/user/action/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "The signed-in member's state for one event: access, favourite, planned courses",
        params: id,
        response: { 200: eventActionsSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().eventActions(user, request.params.id);
    },
  );

  app.post(
    "/api/user/favorite/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Save or unsave an event: `{}` toggles, `{ on }` sets",
        params: id,
        body: favoriteBodySchema,
        response: { 200: favoriteResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().setFavorite(user.id, request.params.id, request.body.on);
    },
  );

  app.get(
    "/api/user/favorites",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "The member's saved events, soonest first",
        response: { 200: favoritesResponseSchema, 401: apiErrorBodySchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().favorites(user.id);
    },
  );

  app.get(
    "/api/user/calendar",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "The member's planning: courses with status and target time, totals per month and year",
        response: { 200: calendarResponseSchema, 401: apiErrorBodySchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().calendar(user.id);
    },
  );

  app.post(
    "/api/user/calendar/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Add a course (by id) to the member's planning, or change its status and target time",
        params: id,
        body: calendarBodySchema,
        response: { 200: calendarEntrySchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().plan(user.id, request.params.id, request.body);
    },
  );

  app.delete(
    "/api/user/calendar/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Remove a course (by id) from the member's planning",
        params: id,
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service().unplan(user.id, request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/user/calendar/feed",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "The private address of the member's planning as a calendar feed (null until created)",
        response: { 200: calendarFeedResponseSchema, 401: apiErrorBodySchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return { url: await service().calendarFeedUrl(user.id) };
    },
  );

  app.post(
    "/api/user/calendar/feed",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Create the planning's calendar address, or replace it (the old address stops working)",
        response: { 200: calendarFeedResponseSchema, 401: apiErrorBodySchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return { url: await service().resetCalendarFeed(user.id) };
    },
  );

  app.get(
    "/api/user/calendar.ics",
    {
      // The token is the credential: calendar apps subscribe without a session.
      config: { access: access.secret("the planning feed's token") },
      schema: {
        tags: ["account"],
        summary: "A member's planning as iCalendar, for calendar apps (private address)",
        querystring: z.object({ token: z.string().max(100), lang: z.enum(["fr", "en"]).optional() }),
        response: { 200: z.string().describe("text/calendar"), 400: apiErrorBodySchema, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      const locale = request.query.lang ?? requestLocale(request);
      const body = await service().calendarFeed(request.query.token, locale);
      if (body === null) throw new ApiError("ITEM_NOT_FOUND");
      reply.header("Cache-Control", "private, max-age=300");
      reply.header("Content-Disposition", 'inline; filename="dossard-planning.ics"');
      return reply.type("text/calendar; charset=utf-8").send(body);
    },
  );

  app.get(
    "/api/event/participants/:id",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["events"],
        summary: "Members going to or having run each course of an event (public profiles named), favourites, views",
        params: id,
        response: { 200: participantsResponseSchema, 400: apiErrorBodySchema, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "public, max-age=60");
      return service().participants(request.params.id);
    },
  );
};
