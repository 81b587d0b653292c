import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import {
  emailLogsQuerySchema,
  emailLogsResponseSchema,
  emailResendSchema,
  emailViewSchema,
} from "./mail-log.contract.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };

/** The admin's e-mail log: the list, the viewer and the resend (admins only, never cached). */
export const mailLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/admin/email-logs",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "Every message sent or queued, newest first: recipient, template, subject, status, attempts and error, by recipient, template, status and days (French time). Opens and clicks are not tracked",
        querystring: emailLogsQuerySchema,
        response: { 200: emailLogsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return app.services.mailLog.list(request.query);
    },
  );

  app.get(
    "/api/admin/email-logs/:id",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "One message as its recipient got it: the HTML and text rendered again from its template and stored parameters, the secrets it carried (codes, reset and unsubscribe links, never stored) masked and named",
        params: z.object({ id: idParam }),
        response: { 200: emailViewSchema, 404: apiErrorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("Cache-Control", "private, no-store");
      return app.services.mailLog.view(request.params.id);
    },
  );

  app.post(
    "/api/admin/email-logs/:id/resend",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary:
          "Queue the same message again (same recipient, template and parameters) as a new one; refused (409 MAIL_RESEND_SECRET) for a message that carried a code or a link, which are not kept",
        params: z.object({ id: idParam }),
        response: { 200: emailResendSchema, 404: apiErrorBodySchema, 409: apiErrorBodySchema, ...errors },
      },
    },
    async (request) => app.services.mailLog.resend(request.params.id),
  );
};
