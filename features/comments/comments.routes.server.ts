import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import {
  commentBodySchema,
  commentPageSchema,
  commentsQuerySchema,
  commentTargetSchema,
  replySchema,
  reportBodySchema,
  reportQueueSchema,
  resolveReportBodySchema,
} from "./comments.contract.ts";

const errors = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
};
const okSchema = z.object({ ok: z.literal(true) });
const postedSchema = z.object({ comment: replySchema.extend({ parentId: z.number().int().nullable() }).nullable() });

/** Comments, replies and the encouragement wall (spec: /api/comments, /api/comment). */
export const commentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.comments;

  app.get(
    "/api/comments/:type/:id?",
    {
      config: { access: access.anyone },
      schema: {
        tags: ["comments"],
        summary: "Comments of a target, newest first, replies nested one level (type wall: the encouragement wall)",
        description:
          "Without id: the latest comments of that type on every target. `page` starts at 1. " +
          "`scope=series` (type event): the comments of every edition of the event's series, each with its `edition`.",
        params: z.object({ type: commentTargetSchema, id: idParam.optional() }),
        querystring: commentsQuerySchema,
        response: { 200: commentPageSchema, 400: apiErrorBodySchema, 404: apiErrorBodySchema },
      },
    },
    async (request, reply) => {
      // The same for everyone, but fresh after each post: revalidated every time.
      reply.header("Cache-Control", "no-cache");
      return service().list(request.params.type, request.params.id, request.query.page ?? 1, request.query.scope);
    },
  );

  app.post(
    "/api/comment/:type/:id",
    {
      config: { access: access.verified },
      schema: {
        tags: ["comments"],
        summary: "Post a comment (parentId: a reply), or edit one's own comment (commentId)",
        description:
          "Edits go through this same route with `commentId` in the body (no PATCH): only the author may edit " +
          "(403 otherwise). Signed-in members with a verified e-mail (401, 409 EMAIL_VERIFICATION_REQUIRED). " +
          "Plain text, at most 2,000 characters (140 on the wall, COMMENT_TOO_LONG). Comments on an event " +
          "(not its wall) wait until it has started (409 EVENT_NOT_YET_HELD). 201 when created, 200 when edited.",
        params: z.object({ type: commentTargetSchema, id: idParam }),
        body: commentBodySchema,
        response: { 200: postedSchema, 201: postedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const result = await service().post(user, request.params.type, request.params.id, request.body);
      reply.header("Cache-Control", "private, no-store").code(result.status);
      return { comment: result.comment };
    },
  );

  app.delete(
    "/api/comment/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["comments"],
        summary: "Delete a comment: its author, the event's owner and organisers, admins",
        params: z.object({ id: idParam }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service().remove(user, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/comment/report/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["comments"],
        summary: "Report an abusive comment to the moderators (once per member per comment)",
        params: z.object({ id: idParam }),
        body: reportBodySchema.optional(),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service().report(user.id, request.params.id, request.body?.reason);
      return { ok: true as const };
    },
  );

  app.get(
    "/api/admin/comments",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary: "Reported comments waiting for a moderator, most reported first",
        response: { 200: reportQueueSchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema },
      },
    },
    async (_request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return service().reportQueue();
    },
  );

  app.post(
    "/api/admin/comments",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary: "Settle a reported comment: dismiss its reports, or delete it",
        body: resolveReportBodySchema,
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service().resolve(user, request.body.commentId, request.body.action);
      return { ok: true as const };
    },
  );
};
