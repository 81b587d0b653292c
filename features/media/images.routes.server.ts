import fastifyMultipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { fileResponse, uploadedFile } from "../../platform/http/route-docs.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { numeric, rowId, text } from "../../shared/input.ts";
import type { Actor } from "../events/event-access.server.ts";
import { access, bodyField, formField } from "../identity/access.server.ts";
import { requireUser } from "../identity/auth.server.ts";
import { imageWork } from "./image-work.server.ts";
import {
  EVENT_IMAGE_KINDS,
  EVENT_PHOTO_MAX_BYTES,
  type EventVisuals,
  GALLERY_MAX_IMAGES,
  THUMBNAIL_PROFILE_NAMES,
  THUMBNAIL_PROFILES,
} from "./images.service.server.ts";
import { refuseDeclaredOversize } from "./uploads.server.ts";

const NO_STORE = "private, no-store";
const eventId = rowId.describe("The event's id");
const imageKind = z.enum(EVENT_IMAGE_KINDS).describe("cover (the flyer), header (the page's wide photo) or gallery");
const galleryId = rowId;

const galleryImageSchema = z.object({
  id: z.number().int(),
  url: z.string().describe("The large image (at most 1600 px wide, WebP)"),
  previewUrl: z.string().describe("The 640 px wide version"),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  caption: z.string().nullable(),
  position: z.number().int(),
});

/** The answer of the three visuals calls: every address a public site path under /media. */
export const eventVisualsSchema = z.object({
  eventId: z.number().int(),
  coverImage: z.string().nullable(),
  headerImage: z.string().nullable(),
  gallery: z.array(galleryImageSchema).describe("In display order"),
});

/** The multipart fields beside `file`. */
export const eventPhotoFieldsSchema = z.object({
  eventId: numeric.pipe(rowId),
  kind: imageKind,
});

const imageRefSchema = z
  .strictObject({
    kind: imageKind,
    id: galleryId.optional().describe("The gallery image's id (gallery only)"),
  })
  .refine((ref) => ref.kind !== "gallery" || ref.id !== undefined, { message: "FIELD_REQUIRED", path: ["id"] });

export const switchImageBodySchema = z.union([
  z
    .strictObject({
      eventId,
      from: imageRefSchema.describe("The image to move"),
      to: imageKind.describe("Where it goes"),
    })
    .describe(
      "Move an image: a gallery image becomes the cover or header (the image it replaces takes its place in the " +
        "gallery); cover and header swap; a cover or header goes back to the end of the gallery.",
    ),
  z
    .strictObject({
      eventId,
      order: z.array(galleryId).max(GALLERY_MAX_IMAGES).describe("Every gallery image id, in the new order"),
    })
    .describe("Reorder the gallery"),
]);

export const deleteImageBodySchema = z
  .strictObject({
    eventId,
    kind: imageKind,
    id: galleryId.optional().describe("The gallery image's id (gallery only)"),
  })
  .refine((body) => body.kind !== "gallery" || body.id !== undefined, { message: "FIELD_REQUIRED", path: ["id"] });

const profilesDoc = Object.entries(THUMBNAIL_PROFILES)
  .map(
    ([name, p]) => `${name} ${p.width}×${p.height} (${p.owner}${p.defaultImage ? `, default ${p.defaultImage}` : ""})`,
  )
  .join("; ");

export const thumbnailBodySchema = z.object({
  profile: z.enum(THUMBNAIL_PROFILE_NAMES).describe(`The named size: ${profilesDoc}`),
  id: numeric.pipe(rowId).describe("The owner: an event id, or a member id (user)"),
  thumbnails: z
    .union([text().trim().max(200), rowId])
    .transform(String)
    .optional()
    .describe('Which image: "cover", "header", a gallery image id, or a stored file name; the profile\'s default'),
  reload: z
    .union([z.boolean(), z.literal(0), z.literal(1)])
    .transform(Boolean)
    .default(false)
    .describe("Cut it again even when one is kept (the event's editors, or the member, only)"),
});

/**
 * Step 4 of the event form: POST /api/upload/event-photo, POST /api/event/switch-image,
 * DELETE /api/upload/file; and POST /api/thumbnail, which answers with the image itself.
 */
export const eventImageRoutes: FastifyPluginAsyncZod = async (app) => {
  const images = app.services.images;
  const actorOf = async (request: FastifyRequest): Promise<Actor> => {
    const { user } = await requireUser(request);
    return { id: user.id, role: user.role, emailStatus: user.emailStatus };
  };

  // Another plugin may already have given requests multipart parsing; the limits go with each call.
  if (!app.hasRequestDecorator("isMultipart")) await app.register(fastifyMultipart);

  app.addHook("onSend", async (_request, reply) => {
    if (!reply.getHeader("cache-control")) reply.header("Cache-Control", NO_STORE);
  });

  app.post(
    "/api/upload/event-photo",
    {
      config: {
        access: access.editorOf("verified", formField("eventId", "event")),
        openapi: {
          errors: [
            "EVENT_NOT_SAVED",
            ["BAD_REQUEST", 409],
            "TOO_MANY_UPLOADS",
            "FILE_NOT_FOUND",
            "FILE_TOO_HEAVY",
            "FILE_TYPE_INVALID",
            "SERVER_BUSY",
          ],
          multipart: eventPhotoFieldsSchema.extend({
            file: uploadedFile("The photo (after the other fields): JPEG, PNG, WebP or AVIF"),
          }),
        },
      },
      schema: {
        tags: ["event editor"],
        summary: "Add a cover, header or gallery photo to a saved, complete event",
        description:
          "multipart/form-data with the fields `eventId`, `kind` (cover | header | gallery) and `file` (JPEG, PNG, " +
          `WebP or AVIF, judged by content; ${EVENT_PHOTO_MAX_BYTES / 1024 / 1024} MB at most). Stored as WebP, ` +
          "upright and without metadata, at most 1600 px wide plus a 640 px version. A cover or header replaces " +
          `the previous one; the gallery holds ${GALLERY_MAX_IMAGES} photos. The event's owner, organisers and ` +
          "admins only, with a verified email. The fields come before the file: the upload is checked before " +
          "the file is read. Errors: FILE_TOO_HEAVY (413), FILE_TYPE_INVALID (415), EVENT_NOT_SAVED (409), " +
          "BAD_REQUEST field gallery (409, gallery full), TOO_MANY_UPLOADS (429), SERVER_BUSY (503).",
        consumes: ["multipart/form-data"],
        response: { 200: eventVisualsSchema },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (!request.isMultipart()) throw new ApiError("FILE_NOT_FOUND", { field: "file" });
      refuseDeclaredOversize(request, EVENT_PHOTO_MAX_BYTES, () => new ApiError("FILE_TOO_HEAVY", { field: "file" }));
      const fields: Record<string, string> = {};
      let stored: EventVisuals | null = null;
      try {
        const parts = request.parts({
          limits: { fileSize: EVENT_PHOTO_MAX_BYTES, files: 1, fields: 5, fieldSize: 200, parts: 6 },
        });
        for await (const part of parts) {
          if (part.type !== "file") {
            fields[part.fieldname] = String(part.value);
          } else if (part.fieldname !== "file") {
            part.file.resume();
          } else {
            // The fields come first (the form appends them before the file): the upload is admitted
            // (rights, a saved event, room in the gallery, the hourly quota) before the file is read.
            const { eventId, kind } = eventPhotoFieldsSchema.parse(fields);
            if (imageWork.saturated()) throw new ApiError("SERVER_BUSY");
            const store = await images.admitUpload(actor, { eventId, kind });
            const data = await part.toBuffer();
            if (data.length === 0) throw new ApiError("FILE_NOT_FOUND", { field: "file" });
            stored = await store(data);
          }
        }
      } catch (error) {
        if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
          throw new ApiError("FILE_TOO_HEAVY", { field: "file" });
        }
        throw error;
      }
      if (!stored) {
        eventPhotoFieldsSchema.parse(fields);
        throw new ApiError("FILE_NOT_FOUND", { field: "file" });
      }
      return stored;
    },
  );

  app.post(
    "/api/event/switch-image",
    {
      config: {
        access: access.editorOf("verified", bodyField("eventId", "event")),
        openapi: { errors: ["FILE_NOT_FOUND", ["BAD_REQUEST", 409]] },
      },
      schema: {
        tags: ["event editor"],
        summary: "Move an event image to another slot, or reorder the gallery",
        description:
          "Either `{ eventId, from: { kind, id? }, to }` (id required when from.kind is gallery) or " +
          "`{ eventId, order: [galleryId, …] }` listing every gallery image once. Answers the event's visuals.",
        body: switchImageBodySchema,
        response: { 200: eventVisualsSchema },
      },
    },
    async (request) => images.switchImage(await actorOf(request), request.body),
  );

  app.delete(
    "/api/upload/file",
    {
      config: {
        access: access.editorOf("verified", bodyField("eventId", "event")),
        openapi: { errors: ["FILE_NOT_FOUND"] },
      },
      schema: {
        tags: ["event editor"],
        summary: "Remove an event's cover, header or one gallery image, with its files",
        body: deleteImageBodySchema,
        response: { 200: eventVisualsSchema },
      },
    },
    async (request) => images.remove(await actorOf(request), request.body),
  );

  app.post(
    "/api/thumbnail",
    {
      config: {
        access: access.anyone,
        openapi: {
          errors: [
            "FIELD_REQUIRED",
            "LOGIN_REQUIRED",
            "FORBIDDEN",
            "TOO_MANY_ATTEMPTS",
            "ITEM_NOT_FOUND",
            "FILE_NOT_FOUND",
            "FILE_TYPE_INVALID",
          ],
        },
      },
      schema: {
        tags: ["images"],
        summary: "A thumbnail file (image/webp), cut once and then served from the cache",
        description:
          "Answers the WebP file itself. `X-Thumbnail-Cache` says hit or miss; `Content-Location` gives the kept " +
          "file's public address under /media. Public images (active events, public profiles) are open to " +
          "anyone; `reload` needs editor rights on the event, or being that member.",
        body: thumbnailBodySchema,
        response: { 200: fileResponse("image/webp", "The thumbnail as a WebP image") },
      },
    },
    async (request, reply) => {
      const auth = await request.auth();
      const caller: Actor | null = auth
        ? { id: auth.user.id, role: auth.user.role, emailStatus: auth.user.emailStatus }
        : null;
      const thumbnail = await images.thumbnail(caller, request.body);
      return reply
        .type("image/webp")
        .header("Cache-Control", thumbnail.isPublic ? "public, max-age=86400" : "private, max-age=0, must-revalidate")
        .header("Last-Modified", thumbnail.modifiedAt.toUTCString())
        .header("Content-Location", thumbnail.url)
        .header("X-Thumbnail-Cache", thumbnail.generated ? "miss" : "hit")
        .send(thumbnail.data);
    },
  );
};
