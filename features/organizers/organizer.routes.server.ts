import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { checkOrganizerBodySchema, organizerCodeBodySchema } from "../editor/editor.contract.ts";
import { numericId } from "../events/event-detail.contract.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import {
  checkOrganizerResponseSchema,
  contactOrganizerBodySchema,
  invitationBodySchema,
  organizerGrantedResponseSchema,
  sentResponseSchema,
} from "./organizer.contract.ts";

const okSchema = z.object({ ok: z.literal(true) });

const errors = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
  429: apiErrorBodySchema,
};

/**
 * "I am the organiser" (POST /api/event/check-organizer, /api/event/organizer/{id}), messages to
 * organisers (/api/send-contact-organizer) and invitations (/api/send-invitation).
 */
export const organizerRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.organizers;

  // Answers depend on who asks and send mail: never cached.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("Cache-Control", "private, no-store");
  });

  app.post(
    "/api/event/check-organizer",
    {
      config: {
        access: access.verified,
        openapi: { errors: ["ITEM_NOT_FOUND", "NO_ORGANIZER_CONTACT", "EMAIL_ALREADY_SENT", "TOO_MANY_ATTEMPTS"] },
      },
      schema: {
        tags: ["events"],
        summary:
          "Mail a 5-digit code to the event's contact address (or to the address given when its domain is the website's)",
        body: checkOrganizerBodySchema,
        response: { 200: checkOrganizerResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().checkOrganizer(user, request.body, { ip: request.ip, locale: requestLocale(request) });
    },
  );

  app.post(
    "/api/event/organizer/:id",
    {
      config: {
        access: access.verified,
        openapi: { errors: ["ITEM_NOT_FOUND", "INVALID_CODE", "CODE_EXPIRED", "TOO_MANY_ATTEMPTS"] },
      },
      schema: {
        tags: ["events"],
        summary: "With the mailed code, make the signed-in member an organiser of the event",
        params: z.object({ id: numericId.describe("Event id") }),
        body: organizerCodeBodySchema,
        response: { 200: organizerGrantedResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const access = await service().confirmOrganizer(user, request.params.id, request.body.code, {
        ip: request.ip,
        locale: requestLocale(request),
      });
      return { access };
    },
  );

  app.post(
    "/api/send-contact-organizer",
    {
      config: {
        access: access.anyone,
        openapi: { errors: ["ITEM_NOT_FOUND", "NO_ORGANIZER_CONTACT", "TOO_MANY_ATTEMPTS"] },
      },
      schema: {
        tags: ["messaging"],
        summary: "Write to an event's organiser; replies go to the sender, the organiser's address is never shown",
        body: contactOrganizerBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await service().contactOrganizer(request.body, { ip: request.ip, locale: requestLocale(request) });
      return { ok: true as const };
    },
  );

  app.post(
    "/api/send-invitation",
    {
      config: { access: access.verified, openapi: { errors: ["ITEM_NOT_FOUND", "TOO_MANY_ATTEMPTS"] } },
      schema: {
        tags: ["messaging"],
        summary: "Invite up to five friends to an event (members with a verified address)",
        body: invitationBodySchema,
        response: { 200: sentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const sent = await service().invite(user, request.body, { ip: request.ip, locale: requestLocale(request) });
      return { ok: true as const, sent };
    },
  );
};
