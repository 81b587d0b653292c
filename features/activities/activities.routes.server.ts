import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../platform/http/errors.server.ts";
import { uploadedFile } from "../../platform/http/route-docs.server.ts";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { idParam } from "../../shared/input.ts";
import { access } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import { refuseDeclaredOversize } from "../media/uploads.server.ts";
import { TRACK_MAX_BYTES } from "../tracks/track-processing.ts";
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_FILES_PER_UPLOAD,
  activitiesQuerySchema,
  activitiesResponseSchema,
  activityActionBodySchema,
  activityDaySchema,
  activityDetailSchema,
  adminActivitiesSchema,
  stravaEventSchema,
  stravaStatusSchema,
  uploadResponseSchema,
} from "./activities.contract.ts";
import type { ReadActivityFile } from "./activity-files.ts";
import { activityWorkers } from "./activity-workers.server.ts";

const NO_STORE = "private, no-store";
const errors = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema, 404: apiErrorBodySchema };
const okSchema = z.object({ ok: z.literal(true) });

/**
 * The activities API: the Strava connection (connect, callback, status, sync, disconnect), Strava's
 * push subscription, file uploads, the member's activities and their actions, and the admin's
 * counts. Every member route reads the caller's own activities only.
 */
export const activitiesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.activities;

  await app.register(fastifyMultipart, {
    limits: {
      fileSize: TRACK_MAX_BYTES,
      files: ACTIVITY_FILES_PER_UPLOAD,
      fields: 2,
      parts: ACTIVITY_FILES_PER_UPLOAD + 2,
    },
  });
  app.addHook("onClose", async () => activityWorkers.stop());
  app.addHook("onSend", async (_request, reply) => {
    if (!reply.getHeader("cache-control")) reply.header("Cache-Control", NO_STORE);
  });

  // ---------------------------------------------------------------------------------------------
  // Strava connection

  app.get(
    "/api/strava/connect",
    {
      config: {
        access: access.member,
        openapi: { errors: ["STRAVA_UNAVAILABLE"], redirect: { status: 302, to: "Strava's authorisation page" } },
      },
      schema: {
        tags: ["activities"],
        summary: "Connect Strava for activities (activity:read_all): redirects to Strava's authorisation page",
        querystring: z.object({ lang: z.enum(["fr", "en"]).optional() }),
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      return reply.redirect(service().connectUrl(user, request.query.lang ?? requestLocale(request)), 302);
    },
  );

  app.get(
    "/api/strava/callback",
    {
      config: { access: access.member, openapi: { redirect: { status: 302, to: "the member's Strava page" } } },
      schema: {
        tags: ["activities"],
        summary:
          "Strava's redirect after authorisation: keeps the grant and starts the first sync, then sends the member to their Strava page (`?error=CODE` when it failed)",
        querystring: z.object({
          code: z.string().max(200).optional(),
          scope: z.string().max(200).optional(),
          state: z.string().max(300).optional(),
          error: z.string().max(200).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const page = pagePath(
        "stravaActivity",
        service().stateLocale(request.query.state) ?? (user.locale === "en" ? "en" : "fr"),
      );
      try {
        await service().completeConnect(user, request.query);
        return reply.redirect(`${page}?connected=1`, 302);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        request.log.warn({ code: error.code }, "strava connect failed");
        return reply.redirect(`${page}?error=${error.code}`, 302);
      }
    },
  );

  app.get(
    "/api/user/activity/strava",
    {
      config: { access: access.member },
      schema: {
        tags: ["activities"],
        summary: "The member's Strava connection: status, sync progress, last sync",
        response: { 200: stravaStatusSchema, ...errors },
      },
    },
    async (request) => service().status((await requireUser(request)).user),
  );

  app.post(
    "/api/user/activity/strava/sync",
    {
      config: { access: access.member, openapi: { errors: ["STRAVA_NOT_CONNECTED"] } },
      schema: {
        tags: ["activities"],
        summary: "Sync now: reads what is new on Strava (the whole history the first time) in the background",
        response: { 200: stravaStatusSchema, ...errors, 409: apiErrorBodySchema },
      },
    },
    async (request) => service().requestSync((await requireUser(request)).user),
  );

  app.delete(
    "/api/user/activity/strava",
    {
      config: { access: access.member, openapi: { errors: ["STRAVA_NOT_CONNECTED"] } },
      schema: {
        tags: ["activities"],
        summary:
          "Disconnect Strava: revokes the grant at Strava and deletes every imported activity (`revoked` false when Strava could not be reached; the data is deleted anyway)",
        response: {
          200: z.object({ revoked: z.boolean(), deleted: z.number().int() }),
          ...errors,
          409: apiErrorBodySchema,
        },
      },
    },
    async (request) => service().disconnect((await requireUser(request)).user),
  );

  // ---------------------------------------------------------------------------------------------
  // Strava's push subscription (called by Strava: no session, no access header)

  app.get(
    "/api/strava/webhook",
    {
      config: { access: access.secret("the subscription's verify token") },
      schema: {
        tags: ["activities"],
        summary: "Strava's subscription validation: answers hub.challenge when hub.verify_token is ours",
        querystring: z.object({
          "hub.mode": z.string().max(20),
          "hub.verify_token": z.string().max(200),
          "hub.challenge": z.string().min(1).max(200),
        }),
        response: { 200: z.object({ "hub.challenge": z.string() }), ...errors },
      },
    },
    async (request) => ({
      "hub.challenge": service().verifyWebhook({
        mode: request.query["hub.mode"],
        token: request.query["hub.verify_token"],
        challenge: request.query["hub.challenge"],
      }),
    }),
  );

  app.post(
    "/api/strava/webhook",
    {
      config: {
        access: access.secret("the subscription id"),
        openapi: { errors: ["TOO_MANY_ATTEMPTS"] },
      },
      schema: {
        tags: ["activities"],
        summary:
          "A Strava push event (activity created, updated or deleted, athlete deauthorized), answered at once: only events of our subscription (STRAVA_SUBSCRIPTION_ID) are taken, as hints that a background job checks with Strava before changing anything; 403 for any other, 429 beyond the per-address limit",
        body: stravaEventSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...errors, 429: apiErrorBodySchema },
      },
    },
    async (request) => {
      await service().receiveEvent(request.body, { ip: request.ip });
      return { ok: true as const };
    },
  );

  // ---------------------------------------------------------------------------------------------
  // Files

  app.post(
    "/api/upload/activities",
    {
      config: {
        access: access.member,
        openapi: {
          errors: [
            "FIELD_REQUIRED",
            "TOO_MANY_FILES",
            "TOO_MANY_UPLOADS",
            "ACTIVITY_FILE_INVALID",
            "ACTIVITY_FILE_EMPTY",
            "ACTIVITY_FILE_TOO_LARGE",
            "ACTIVITY_DATE_REQUIRED",
            "ACTIVITY_DATE_INVALID",
            "SERVER_BUSY",
          ],
          multipart: z.object({
            file: uploadedFile("GPX, TCX or FIT files (field `file`, repeated): 10 at most, 15 MB each"),
            date: z
              .string()
              .optional()
              .describe("YYYY-MM-DD: the day of the files that have no time (required when one has none)"),
          }),
        },
      },
      schema: {
        tags: ["activities"],
        summary:
          "Upload activity files (GPX, TCX, FIT; field `file`, up to 10): each file gets its activity or its own translated error; when none is readable, 400 with the first file's error; a file without times needs the field `date` (400 ACTIVITY_DATE_REQUIRED, nothing stored)",
        consumes: ["multipart/form-data"],
        response: {
          200: uploadResponseSchema,
          ...errors,
          413: apiErrorBodySchema,
          429: apiErrorBodySchema,
          503: apiErrorBodySchema,
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      // Everything that can refuse the upload is decided before a byte of the files is read.
      refuseDeclaredOversize(
        request,
        TRACK_MAX_BYTES * ACTIVITY_FILES_PER_UPLOAD,
        () => new ApiError("ACTIVITY_FILE_TOO_LARGE"),
      );
      if (activityWorkers.saturated()) throw new ApiError("SERVER_BUSY");
      await service().admitUpload(user);
      if (!request.isMultipart()) throw new ApiError("FIELD_REQUIRED", { field: "file" });
      const read: { fileName: string; read: ReadActivityFile | null; error: unknown }[] = [];
      let date: string | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === "field") {
            // The day of files without times, when the member gives it (the form asks for it).
            if (part.fieldname === "date" && typeof part.value === "string" && part.value.trim()) {
              const day = activityDaySchema.safeParse(part.value.trim());
              if (!day.success) throw new ApiError("ACTIVITY_DATE_INVALID");
              date = day.data;
            }
            continue;
          }
          if (part.fieldname !== "file") {
            await part.toBuffer();
            continue;
          }
          const fileName = (part.filename || "activity").slice(0, 200);
          let bytes: Buffer;
          try {
            bytes = await part.toBuffer();
          } catch (error) {
            if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
              read.push({ fileName, read: null, error: new ApiError("ACTIVITY_FILE_TOO_LARGE") });
              continue;
            }
            throw error;
          }
          try {
            read.push({ fileName, read: await activityWorkers.read(bytes, fileName), error: null });
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            read.push({ fileName, read: null, error });
          }
        }
      } catch (error) {
        if ((error as { code?: string }).code === "FST_FILES_LIMIT") throw new ApiError("TOO_MANY_FILES");
        throw error;
      }
      if (read.length === 0) throw new ApiError("FIELD_REQUIRED", { field: "file" });
      return service().storeFiles(user, read, requestLocale(request), date);
    },
  );

  // ---------------------------------------------------------------------------------------------
  // The member's activities

  app.get(
    "/api/user/activities",
    {
      config: { access: access.member },
      schema: {
        tags: ["activities"],
        summary: "The member's activities, newest first (filters: sport, period), with totals per week, month or year",
        querystring: activitiesQuerySchema,
        response: { 200: activitiesResponseSchema, ...errors },
      },
    },
    async (request) => service().list((await requireUser(request)).user, request.query),
  );

  app.get(
    "/api/user/activity/:id",
    {
      config: { access: access.member, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["activities"],
        summary: "One of the member's activities: track, profile, splits, heart rate, linked course or proposed races",
        params: z.object({ id: idParam }),
        response: { 200: activityDetailSchema, ...errors },
      },
    },
    async (request) => service().detail((await requireUser(request)).user, request.params.id),
  );

  app.delete(
    "/api/user/activity/:id",
    {
      config: { access: access.member, openapi: { errors: ["ITEM_NOT_FOUND"] } },
      schema: {
        tags: ["activities"],
        summary: "Delete one of the member's activities",
        params: z.object({ id: idParam }),
        response: { 200: okSchema, ...errors },
      },
    },
    async (request) => {
      await service().remove((await requireUser(request)).user, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/api/user/activity/:id/:action",
    {
      config: {
        access: access.member,
        openapi: { errors: ["ITEM_NOT_FOUND", "RESULT_ALREADY_RECORDED", "ACTIVITY_NOT_LINKED"] },
      },
      schema: {
        tags: ["activities"],
        summary:
          "link: this activity was course `courseId` (the member's word); unlink; result: make the member's result on the linked course from the activity's time; date: the day (`date`) of an activity whose day is unknown",
        params: z.object({ id: idParam, action: z.enum(ACTIVITY_ACTIONS) }),
        body: activityActionBodySchema,
        response: {
          200: z.object({ activity: activityDetailSchema, resultId: z.number().int().optional() }),
          ...errors,
          409: apiErrorBodySchema,
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { id, action } = request.params;
      switch (action) {
        case "link": {
          if (request.body.courseId === undefined) throw new ApiError("FIELD_REQUIRED", { field: "courseId" });
          return { activity: await service().link(user, id, request.body.courseId) };
        }
        case "unlink":
          return { activity: await service().link(user, id, null) };
        case "result": {
          const { resultId } = await service().makeResult(user, id);
          return { activity: await service().detail(user, id), resultId };
        }
        case "date": {
          if (request.body.date === undefined) throw new ApiError("ACTIVITY_DATE_REQUIRED");
          return { activity: await service().setDate(user, id, request.body.date) };
        }
      }
    },
  );

  app.get(
    "/api/admin/activities",
    {
      config: { access: access.admin },
      schema: {
        tags: ["activities"],
        summary:
          "Imports at a glance: counts per member and provider, failed syncs, Strava's rate-limit state (no activity content)",
        response: { 200: adminActivitiesSchema, ...errors },
      },
    },
    async () => service().adminOverview(),
  );
};
