import fastifyMultipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { uploadedFile } from "../../platform/http/route-docs.server.ts";
import { ApiError, apiErrorBodySchema } from "../../shared/api-error.ts";
import { numericId } from "../events/event-detail.contract.ts";
import { access, bodyField, param } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import { refuseDeclaredOversize } from "../media/uploads.server.ts";
import { gpxWorkers } from "./gpx-workers.server.ts";
import {
  SET_TRACK_TYPES,
  setTrackBodySchema,
  setTrackResponseSchema,
  TRACK_MAX_BYTES,
  trackUploadResponseSchema,
} from "./track-processing.ts";
import { TRACK_UPLOAD_LIMIT } from "./tracks.service.server.ts";

const NO_STORE = "private, no-store";
/** A course id, or 0 for a track waiting for its course. */
const uploadTarget = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);
const errors = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
};

/** The uploaded `file` part as bytes and its name without extension; the content is judged later. */
async function readUpload(request: FastifyRequest): Promise<{ data: Buffer; stem: string | null }> {
  if (!request.isMultipart()) throw new ApiError("FIELD_REQUIRED", { field: "file" });
  const file = await request.file();
  if (file?.fieldname !== "file") throw new ApiError("FIELD_REQUIRED", { field: "file" });
  try {
    const data = await file.toBuffer();
    const stem = file.filename?.replace(/\.[^.]{1,5}$/, "").trim();
    return { data, stem: stem || null };
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new ApiError("GPX_TOO_LARGE");
    throw error;
  }
}

/**
 * POST /api/upload/track/{id}, POST /api/set-track/{type}, DELETE /api/track/{id}: the course
 * tracks of the event form. Members only, with a verified email.
 */
export const trackUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.tracks;

  await app.register(fastifyMultipart, { limits: { fileSize: TRACK_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  // The workers outlive no server: shutting down stops them (a later app starts new ones).
  app.addHook("onClose", async () => gpxWorkers.stop());

  app.addHook("onSend", async (_request, reply) => {
    if (!reply.getHeader("cache-control")) reply.header("Cache-Control", NO_STORE);
  });

  app.post(
    "/api/upload/track/:id",
    {
      config: {
        access: access.editorOf("verified", param("id", "course")),
        openapi: {
          errors: [
            "GPX_INVALID",
            "GPX_EMPTY",
            "GPX_TOO_LARGE",
            "FILE_NOT_FOUND",
            "FIELD_REQUIRED",
            "TOO_MANY_UPLOADS",
            "SERVER_BUSY",
          ],
          multipart: z.object({ file: uploadedFile("The GPX file: 15 MB and 200,000 points at most") }),
        },
      },
      schema: {
        tags: ["tracks"],
        summary:
          "Upload a GPX (multipart field `file`, 15 MB and 200,000 points at most, judged by content) for course `id`, replacing its track, or with id 0 for a course not saved yet",
        description:
          `At most ${TRACK_UPLOAD_LIMIT.max} uploads an hour per member. Errors: GPX_INVALID and GPX_EMPTY (400), ` +
          "GPX_TOO_LARGE (413, over 15 MB or 200,000 points), TOO_MANY_UPLOADS (429), SERVER_BUSY (503, the " +
          "workers that read GPX files have a full queue: try again).",
        consumes: ["multipart/form-data"],
        params: z.object({ id: uploadTarget.describe("The course's id, or 0 for a track waiting for its course") }),
        response: {
          200: trackUploadResponseSchema,
          ...errors,
          413: apiErrorBodySchema,
          429: apiErrorBodySchema,
          503: apiErrorBodySchema,
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const target = request.params.id;
      // Everything that can refuse the upload is decided before a byte of the file is read.
      await service.admitUpload(user, target);
      refuseDeclaredOversize(request, TRACK_MAX_BYTES, () => new ApiError("GPX_TOO_LARGE"));
      if (gpxWorkers.saturated()) throw new ApiError("SERVER_BUSY");
      const { data, stem } = await readUpload(request);
      // Parsed and analysed in a worker thread: the event loop stays free meanwhile.
      const track = await gpxWorkers.process(data);
      return service.upload(user, target, track, stem);
    },
  );

  app.post(
    "/api/set-track/:type",
    {
      config: {
        access: access.editorOf("verified", bodyField("trackId", "track"), bodyField("courseId", "course")),
        openapi: { errors: ["ITEM_NOT_FOUND"] },
      },
      schema: {
        tags: ["tracks"],
        summary:
          "course: put track `trackId` on course `courseId` (replacing its track); reverse: run track `trackId` the other way; rename: give track `trackId` the name `name`",
        params: z.object({ type: z.enum(SET_TRACK_TYPES) }),
        body: setTrackBodySchema,
        response: { 200: setTrackResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { trackId, courseId, name } = request.body;
      switch (request.params.type) {
        case "course":
          if (courseId === undefined) throw new ApiError("FIELD_REQUIRED", { field: "courseId" });
          return { track: await service.attach(user, trackId, courseId) };
        case "reverse":
          return { track: await service.reverse(user, trackId) };
        case "rename":
          if (name === undefined) throw new ApiError("FIELD_REQUIRED", { field: "name" });
          return { track: await service.rename(user, trackId, name) };
      }
    },
  );

  app.delete(
    "/api/track/:id",
    {
      config: { access: access.editorOf("verified", param("id", "track")) },
      schema: {
        tags: ["tracks"],
        summary: "Delete a track (its uploader while unattached, else an editor of its event)",
        params: z.object({ id: numericId.describe("The track's id") }),
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await service.remove(user, request.params.id);
      return { ok: true as const };
    },
  );
};
