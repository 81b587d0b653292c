import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { apiErrorBodySchema } from "../../shared/api-error.ts";
import { LOCALES } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import {
  alertKindSchema,
  alertPreferencesBodySchema,
  alertsSchema,
  createAlertBodySchema,
  savedSearchSchema,
} from "./alerts.contract.ts";

const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 404: apiErrorBodySchema, 409: apiErrorBodySchema };

/** Saved searches, alert mail switches and the mails' one-click unsubscribe. */
export const alertsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.alerts;

  // Mail clients send the one-click POST as a form (RFC 8058); the body itself says nothing more.
  app.addContentTypeParser(
    ["application/x-www-form-urlencoded", "multipart/form-data"],
    { parseAs: "string", bodyLimit: 4096 },
    (_request, body, done) => done(null, body),
  );

  app.get(
    "/api/user/alerts",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "The member's saved searches and which alert mails are turned off",
        response: { 200: alertsSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("Cache-Control", "private, no-store");
      return service().list(user.id);
    },
  );

  app.post(
    "/api/user/alerts",
    {
      config: { access: access.verified },
      schema: {
        tags: ["account"],
        summary: "Saves a search ('alert me'): its new races are mailed weekly",
        body: createAlertBodySchema,
        response: { 200: savedSearchSchema, 201: savedSearchSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { search, created } = await service().create(user.id, request.body, user.locale === "en" ? "en" : "fr");
      return reply.code(created ? 201 : 200).send(search);
    },
  );

  app.delete(
    "/api/user/alerts/:id",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Deletes one of the member's saved searches",
        params: z.object({ id: idParam }),
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service().remove(user.id, request.params.id);
      return { ok: true as const };
    },
  );

  app.put(
    "/api/user/alerts/preferences",
    {
      config: { access: access.member },
      schema: {
        tags: ["account"],
        summary: "Turns alert mails on or off by kind",
        body: alertPreferencesBodySchema,
        response: { 200: z.object({ muted: z.array(alertKindSchema) }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().setPreferences(user.id, request.body.muted);
    },
  );

  app.post(
    "/api/admin/alerts/digest",
    {
      config: { access: access.admin },
      schema: {
        tags: ["admin"],
        summary: "Sends the saved searches' digest now (it otherwise goes out on Thursday mornings)",
        // Nothing to say: an empty JSON object; anything else is refused.
        body: z.object({}).strict().optional(),
        response: { 200: z.object({ queued: z.number().int() }), ...errors },
      },
    },
    async () => ({ queued: await service().sendDigests() }),
  );

  // The unsubscribe page's own address answers the POST: mail clients' one-click (RFC 8058, no
  // session, no access header) and the page's button (a plain form, sent back to the page).
  for (const locale of LOCALES) {
    const path = pagePath("unsubscribe", locale);
    app.post(
      path,
      {
        config: { access: access.secret("unsubscribe token") },
        schema: {
          tags: ["account"],
          summary: "One-click unsubscribe from an alert mail (the token names member and alert)",
          querystring: z.object({ token: z.string().max(200) }),
          response: { 200: z.object({ ok: z.literal(true), kind: alertKindSchema }), ...errors },
        },
      },
      async (request, reply) => {
        const { token } = request.query;
        const target = await service().unsubscribe(token);
        const fromPage = typeof request.body === "string" && /(^|&)confirm=/.test(request.body);
        if (fromPage) {
          return reply.redirect(`${path}?${new URLSearchParams({ token, done: "1" })}`, 303);
        }
        return { ok: true as const, kind: target.kind };
      },
    );
  }
};
