import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idOrNewParam, idParam, rowId, text } from "../../shared/input.ts";
import { access, param } from "../identity/access.server.ts";
import { requireRole, requireUser, requireVerifiedEmail } from "../identity/auth.server.ts";
import { EVENT_STATUS_TYPES, eventFormSchema, eventStatusBodySchema, isoDay } from "./editor.contract.ts";

/** An event or course id; 0 for a new event. */
const id = idOrNewParam;
const NO_STORE = "private, no-store";

/**
 * The event form and its moderation: a member's events, create/edit (or propose an edit), course
 * removal, status changes, history, duplicates, and the admin's queues, requests and copies.
 */
export const editorRoutes: FastifyPluginAsyncZod = async (app) => {
  const editor = () => app.services.editor;
  const actorOf = async (request: Parameters<typeof requireUser>[0]) => {
    const { user } = await requireUser(request);
    return { id: user.id, role: user.role, emailStatus: user.emailStatus, user };
  };

  app.addHook("onSend", async (_request, reply) => {
    if (!reply.getHeader("cache-control")) reply.header("Cache-Control", NO_STORE);
  });

  app.get(
    "/api/user/events",
    {
      config: { access: access.member },
      schema: { tags: ["event editor"], summary: "Events the member listed or organises" },
    },
    async (request) => ({ events: await editor().listMine(await actorOf(request)) }),
  );

  app.get(
    "/api/user/event/:id?",
    {
      config: { access: access.member, openapi: { errors: ["ITEM_NOT_FOUND", "FORBIDDEN"] } },
      schema: {
        tags: ["event editor"],
        summary: "An event as its form (with the caller's access); without id, the member's events",
        params: z.object({ id: id.optional() }),
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (!request.params.id) return { events: await editor().listMine(actor) };
      return { event: await editor().editable(actor, request.params.id) };
    },
  );

  app.get(
    "/api/user/course/:id?",
    {
      config: { access: access.editorOf("member", param("id", "course")), openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["event editor"],
        summary: "One course of an event the member edits",
        params: z.object({ id: id.optional() }),
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (!request.params.id) return { events: await editor().listMine(actor) };
      return { course: await editor().course(actor, request.params.id) };
    },
  );

  app.post(
    "/api/event/check-duplicates",
    {
      config: { access: access.member },
      schema: {
        tags: ["event editor"],
        summary: "Events already listed that look like this one (similar name, ± 3 days, within 20 km)",
        body: z.object({
          name: text().trim().min(3).max(150),
          startDate: isoDay,
          lat: z.number().min(-90).max(90).nullable().optional(),
          lng: z.number().min(-180).max(180).nullable().optional(),
          excludeId: rowId.optional(),
        }),
      },
    },
    async (request) => ({ duplicates: await editor().duplicates(await actorOf(request), request.body) }),
  );

  app.post(
    "/api/event/:id",
    {
      config: { access: access.verified, openapi: { errors: ["ITEM_NOT_FOUND", "FORBIDDEN", "DATE_RANGE_INVALID"] } },
      schema: {
        tags: ["event editor"],
        summary:
          "Save the event form: id 0 lists a new event (pending validation); an owner, organiser or admin edits; anyone else proposes a modification",
        params: z.object({ id }),
        body: eventFormSchema,
      },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      requireVerifiedEmail(actor.user);
      const result = await editor().save(actor, request.params.id, request.body);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );

  app.delete(
    "/api/course/:id",
    {
      config: {
        access: access.editorOf("member", param("id", "course")),
        openapi: { errors: ["CANNOT_DELETE_ALL_COURSES"] },
      },
      schema: {
        tags: ["event editor"],
        summary: "Remove a course (never the last one of its event)",
        params: z.object({ id: idParam }),
      },
    },
    async (request) => {
      await editor().deleteCourse(await actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/event/:id/status/:type",
    {
      config: {
        access: access.editorOf("verified", param("id", "event")),
        openapi: { errors: ["FIELD_REQUIRED", "DATE_RANGE_INVALID"] },
      },
      schema: {
        tags: ["event editor"],
        summary:
          "Change an event's status: cancel, uncancel, postpone (new dates), confirm-date, check (editors); validate, activate, deactivate (admins)",
        params: z.object({ id: idParam, type: z.enum(EVENT_STATUS_TYPES) }),
        body: eventStatusBodySchema.optional(),
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      requireVerifiedEmail(actor.user);
      return {
        event: await editor().setStatus(actor, request.params.id, request.params.type, request.body ?? {}),
      };
    },
  );

  app.get(
    "/api/event/:id/visuals",
    {
      config: { access: access.editorOf("member", param("id", "event")) },
      schema: {
        tags: ["event editor"],
        summary: "An event's cover, header and gallery, for its editors (pending events included)",
        params: z.object({ id: idParam }),
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      await editor().requireEditor(actor, request.params.id);
      return app.services.images.visuals(request.params.id);
    },
  );

  app.get(
    "/api/event/:id/requests",
    {
      config: { access: access.editorOf("member", param("id", "event")) },
      schema: {
        tags: ["event editor"],
        summary: "Pending modification requests of an event (its owner, organisers, admins)",
        params: z.object({ id: idParam }),
      },
    },
    async (request) => ({ requests: await editor().pendingRequests(await actorOf(request), request.params.id) }),
  );

  app.get(
    "/api/event/:id/history",
    {
      config: { access: access.editorOf("member", param("id", "event")) },
      schema: { tags: ["event editor"], summary: "An event's history (editors and admins)", params: z.object({ id }) },
    },
    async (request) => ({ history: await editor().history(await actorOf(request), request.params.id) }),
  );

  app.get(
    "/api/admin/events",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary: "Moderation queues: pending validation, to check, modification requests",
        querystring: z.object({
          queue: z.enum(["pending", "to_check", "requests"]).default("pending"),
          q: text().trim().max(100).optional(),
          page: z.coerce.number().int().min(1).max(10_000).default(1),
        }),
      },
    },
    async (request) => {
      await requireRole(request, "admin");
      return editor().moderationQueue(request.query);
    },
  );

  app.get(
    "/api/admin/event-request/:id",
    {
      config: { access: access.editorOf("member", param("id", "changeRequest")) },
      schema: {
        tags: ["admin"],
        summary: "A modification request beside the live event (organiser of the event or admin)",
        params: z.object({ id: idParam }),
      },
    },
    async (request) => ({ request: await editor().request(await actorOf(request), request.params.id) }),
  );

  app.post(
    "/api/admin/event-request/:id/:decision",
    {
      config: {
        access: access.editorOf("member", param("id", "changeRequest")),
        openapi: { errors: ["INVALID_TOKEN"] },
      },
      schema: {
        tags: ["admin"],
        summary: "Accept or reject a modification request",
        params: z.object({ id: idParam, decision: z.enum(["accept", "reject"]) }),
        body: z.object({ message: text().trim().max(2000).optional() }).optional(),
      },
    },
    async (request) =>
      editor().decideRequest(
        await actorOf(request),
        request.params.id,
        request.params.decision,
        request.body?.message ?? null,
      ),
  );

  app.post(
    "/api/admin/events/:id/copy",
    {
      config: { access: access.admin, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["admin"],
        summary: "Create next year's edition of an event now (automatic copy)",
        params: z.object({ id: idParam }),
      },
    },
    async (request, reply) => {
      const { user } = await requireRole(request, "admin");
      return reply.status(201).send(await editor().copyEdition(user.id, request.params.id));
    },
  );
};
