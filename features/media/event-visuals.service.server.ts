/**
 * Step 4 of the event form, "visuals": uploading the cover (flyer), the header photo and the
 * gallery's photos, moving an image between slots or reordering the gallery, removing one with
 * its files, and a copied edition's own copies of the cover and header.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { cardCropName, EVENT_CARD_CROP_NAMES } from "../../shared/card-crops.ts";
import type { EventHistoryType } from "../../shared/constants.ts";
import { eventImageUrl } from "../../shared/image-url.ts";
import { type Actor, requireEventEditor } from "../events/event-access.server.ts";
import { courses, eventHistory, eventImages, events } from "../events/events.tables.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import { isGeneratedImage } from "../illustrations/event-images.ts";
import {
  cardCrops,
  detectImageFormat,
  eventImageVariant,
  eventKey,
  keysOf,
  OWN_FILE,
  renditions,
  SINGLE_NAME,
} from "./event-image-variants.server.ts";
import { imageWork } from "./image-work.server.ts";
import type { FileStorage } from "./storage.server.ts";

export const EVENT_IMAGE_KINDS = ["cover", "header", "gallery"] as const;
export type EventImageKind = (typeof EVENT_IMAGE_KINDS)[number];

/** Upload size bound (the spec shows none): phone photos fit, posters scanned at 300 dpi too. */
export const EVENT_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const GALLERY_MAX_IMAGES = 20;

/** Event photo uploads a member may make in an hour. */
export const EVENT_UPLOAD_LIMIT: Limit = { max: 60, windowSeconds: 60 * 60 };

export type GalleryImage = {
  id: number;
  /** The large image. */
  url: string;
  /** The 640 px version (the large one for files this service did not write). */
  previewUrl: string;
  width: number | null;
  height: number | null;
  caption: string | null;
  position: number;
};

/** What the visuals step shows; every address is a public site path. */
export type EventVisuals = {
  eventId: number;
  coverImage: string | null;
  headerImage: string | null;
  gallery: GalleryImage[];
};

export type ImageRef = { kind: EventImageKind; id?: number };
export type SwitchImageInput =
  | { eventId: number; from: ImageRef; to: EventImageKind }
  | { eventId: number; order: number[] };

const slotColumn = { cover: "coverImage", header: "headerImage" } as const;
type Slot = keyof typeof slotColumn;
const isSlot = (kind: EventImageKind): kind is Slot => kind !== "gallery";

function galleryFull(): ApiError {
  // No catalogue code says "too many photos"; the field and the status tell the form.
  return new ApiError("BAD_REQUEST", { field: "gallery", status: 409, details: { max: GALLERY_MAX_IMAGES } });
}

export function eventVisualsService(deps: { db: Db; clock: () => Date; storage: FileStorage }) {
  const { db, clock, storage } = deps;
  const limiter = rateLimiter(db, clock);

  async function history(
    tx: Executor,
    eventId: number,
    type: EventHistoryType,
    userId: number,
    data: Record<string, unknown>,
  ) {
    await tx.insert(eventHistory).values({ eventId, type, userId, data, createdAt: clock() });
  }

  /** Spec 5: visuals come after the event is saved complete: at least one course, all complete. */
  async function requireSavedEvent(eventId: number) {
    const [state] = await rows<{ total: number; incomplete: number }>(
      db,
      sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE NOT ${courses.complete})::int AS incomplete
          FROM ${courses} WHERE ${courses.eventId} = ${eventId}`,
    );
    if (!state || state.total === 0 || state.incomplete > 0) throw new ApiError("EVENT_NOT_SAVED");
  }

  async function requireEditor(actor: Actor, eventId: number) {
    // The same rule as requireVerifiedEmail (accounts), on the access Actor.
    if (actor.emailStatus === "unverified") throw new ApiError("EMAIL_VERIFICATION_REQUIRED");
    await requireEventEditor(db, actor, eventId);
  }

  async function removeFiles(eventId: number, file: string) {
    await Promise.all(keysOf(eventId, file).map((key) => storage.delete(key)));
  }

  /** Deletes a file no slot of the event points to any more (a later edit may have reused it). */
  async function removeIfUnused(eventId: number, file: string | null) {
    if (!file) return;
    const [used] = await rows<{ n: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM ${events} WHERE ${events.id} = ${eventId}
                    AND (${events.coverImage} = ${file} OR ${events.headerImage} = ${file}))
               + (SELECT count(*) FROM ${eventImages} WHERE ${eventImages.eventId} = ${eventId}
                    AND ${eventImages.path} = ${file}) AS n`,
    );
    if (Number(used?.n ?? 0) === 0) await removeFiles(eventId, file);
  }

  async function lockEvent(tx: Executor, eventId: number) {
    const [event] = await tx
      .select({ coverImage: events.coverImage, headerImage: events.headerImage })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new ApiError("ITEM_NOT_FOUND");
    return event;
  }

  async function galleryCount(tx: Executor, eventId: number): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(eventImages)
      .where(eq(eventImages.eventId, eventId));
    return Number(row?.n ?? 0);
  }

  async function nextPosition(tx: Executor, eventId: number): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`coalesce(max(${eventImages.position}) + 1, 0)::int` })
      .from(eventImages)
      .where(eq(eventImages.eventId, eventId));
    return Number(row?.n ?? 0);
  }

  /** Pixel size of a stored image, for a cover or header moving into the gallery. */
  async function dimensions(eventId: number, file: string): Promise<{ width: number | null; height: number | null }> {
    const data = SINGLE_NAME.test(file) ? await storage.read(eventKey(eventId, file)) : null;
    if (!data) return { width: null, height: null };
    const meta = await sharp(data)
      .metadata()
      .catch(() => null);
    return { width: meta?.width ?? null, height: meta?.height ?? null };
  }

  async function setSlot(tx: Executor, eventId: number, slot: Slot, file: string | null) {
    await tx
      .update(events)
      .set({ [slotColumn[slot]]: file, updatedAt: clock() })
      .where(eq(events.id, eventId));
  }

  async function visuals(eventId: number): Promise<EventVisuals> {
    const [event] = await db
      .select({ coverImage: events.coverImage, headerImage: events.headerImage })
      .from(events)
      .where(eq(events.id, eventId))
      .limit(1);
    if (!event) throw new ApiError("ITEM_NOT_FOUND");
    const gallery = await db
      .select()
      .from(eventImages)
      .where(eq(eventImages.eventId, eventId))
      .orderBy(asc(eventImages.position), asc(eventImages.id));
    const url = (file: string | null) => (file ? eventImageUrl(file, { dir: eventId }) : null);
    return {
      eventId,
      coverImage: url(event.coverImage),
      headerImage: url(event.headerImage),
      gallery: gallery.map((image) => ({
        id: image.id,
        url: eventImageUrl(image.path, { dir: eventId }),
        previewUrl: eventImageUrl(eventImageVariant(image.path, "medium"), { dir: eventId }),
        width: image.width,
        height: image.height,
        caption: image.caption,
        position: image.position,
      })),
    };
  }

  /** Decodes (judged by content), resizes and stores an admitted upload, then points the slot at it. */
  async function store(actor: Actor, eventId: number, kind: EventImageKind, data: Buffer): Promise<EventVisuals> {
    const { format, large, medium, crops } = await imageWork.run(async () => {
      const format = await detectImageFormat(data);
      if (!format) throw new ApiError("FILE_TYPE_INVALID");
      return { format, ...(await renditions(data)), crops: await cardCrops(data) };
    });
    const file = `${randomBytes(10).toString("hex")}.webp`;
    await storage.put(eventKey(eventId, file), large.data, "image/webp");
    await storage.put(eventKey(eventId, eventImageVariant(file, "medium")), medium.data, "image/webp");
    for (const [crop, cropped] of crops)
      await storage.put(eventKey(eventId, cardCropName(file, crop)), cropped, "image/webp");
    let previous: string | null = null;
    try {
      previous = await db.transaction(async (tx) => {
        const event = await lockEvent(tx, eventId);
        let replaced: string | null = null;
        if (isSlot(kind)) {
          replaced = event[slotColumn[kind]];
          await setSlot(tx, eventId, kind, file);
        } else {
          if ((await galleryCount(tx, eventId)) >= GALLERY_MAX_IMAGES) throw galleryFull();
          await tx.insert(eventImages).values({
            eventId,
            path: file,
            width: large.width,
            height: large.height,
            position: await nextPosition(tx, eventId),
            createdAt: clock(),
          });
        }
        await history(tx, eventId, "image_upload", actor.id, { kind, file, format });
        return replaced;
      });
    } catch (error) {
      await removeFiles(eventId, file);
      throw error;
    }
    await removeIfUnused(eventId, previous);
    return visuals(eventId);
  }

  return {
    visuals,
    requireSavedEvent,

    /**
     * Admits the upload of a cover, header or gallery photo before its file is read: the actor edits
     * the event, which is saved and complete, the gallery has room, and the actor has uploads left
     * this hour (each admitted upload counts). Answers what stores the file once it is read.
     */
    async admitUpload(
      actor: Actor,
      input: { eventId: number; kind: EventImageKind },
    ): Promise<(data: Buffer) => Promise<EventVisuals>> {
      const { eventId, kind } = input;
      await requireEditor(actor, eventId);
      await requireSavedEvent(eventId);
      if (kind === "gallery" && (await galleryCount(db, eventId)) >= GALLERY_MAX_IMAGES) throw galleryFull();
      await limiter.hit(`upload:event:${actor.id}`, EVENT_UPLOAD_LIMIT, "TOO_MANY_UPLOADS");
      return (data) => store(actor, eventId, kind, data);
    },

    /**
     * Moves an image to another slot: a gallery photo becomes the cover or header (the one it
     * replaces takes its place in the gallery), cover and header swap, a cover or header goes
     * back to the gallery; or, with `order`, sets the gallery's order.
     */
    async switchImage(actor: Actor, input: SwitchImageInput): Promise<EventVisuals> {
      const { eventId } = input;
      await requireEditor(actor, eventId);
      if ("order" in input) {
        await db.transaction(async (tx) => {
          await lockEvent(tx, eventId);
          const current = await tx
            .select({ id: eventImages.id })
            .from(eventImages)
            .where(eq(eventImages.eventId, eventId));
          const known = new Set(current.map((c) => c.id));
          const order = input.order;
          if (
            new Set(order).size !== order.length ||
            order.length !== known.size ||
            order.some((id) => !known.has(id))
          ) {
            throw new ApiError("BAD_REQUEST", { field: "order" });
          }
          for (const [position, id] of order.entries()) {
            await tx.update(eventImages).set({ position }).where(eq(eventImages.id, id));
          }
          await history(tx, eventId, "modification", actor.id, { images: { action: "reorder", order } });
        });
        return visuals(eventId);
      }

      const { from, to } = input;
      if (from.kind === to) throw new ApiError("BAD_REQUEST", { field: "to" });
      await db.transaction(async (tx) => {
        const event = await lockEvent(tx, eventId);
        let file: string;
        let galleryRow: { id: number; position: number } | null = null;
        if (isSlot(from.kind)) {
          const current = event[slotColumn[from.kind]];
          if (!current) throw new ApiError("FILE_NOT_FOUND", { field: "from" });
          file = current;
        } else {
          const [row] = await tx
            .select({ id: eventImages.id, path: eventImages.path, position: eventImages.position })
            .from(eventImages)
            .where(and(eq(eventImages.id, from.id ?? 0), eq(eventImages.eventId, eventId)));
          if (!row) throw new ApiError("ITEM_NOT_FOUND", { field: "from" });
          file = row.path;
          galleryRow = row;
        }

        if (isSlot(to)) {
          // A drawn landscape (demo events) only holds the place: a photo replaces it, it never goes to the gallery.
          const held = event[slotColumn[to]];
          const displaced = isGeneratedImage(held) ? null : held;
          await setSlot(tx, eventId, to, file);
          if (isSlot(from.kind)) {
            await setSlot(tx, eventId, from.kind, displaced);
          } else if (galleryRow && displaced) {
            await tx
              .update(eventImages)
              .set({ path: displaced, ...(await dimensions(eventId, displaced)), caption: null })
              .where(eq(eventImages.id, galleryRow.id));
          } else if (galleryRow) {
            await tx.delete(eventImages).where(eq(eventImages.id, galleryRow.id));
          }
        } else if (isSlot(from.kind)) {
          if ((await galleryCount(tx, eventId)) >= GALLERY_MAX_IMAGES) throw galleryFull();
          await tx.insert(eventImages).values({
            eventId,
            path: file,
            ...(await dimensions(eventId, file)),
            position: await nextPosition(tx, eventId),
            createdAt: clock(),
          });
          await setSlot(tx, eventId, from.kind, null);
        }
        await history(tx, eventId, "modification", actor.id, { images: { action: "switch", from, to, file } });
      });
      return visuals(eventId);
    },

    /** Removes the cover, the header or one gallery photo, with its files. */
    async remove(actor: Actor, input: { eventId: number; kind: EventImageKind; id?: number }): Promise<EventVisuals> {
      const { eventId, kind } = input;
      await requireEditor(actor, eventId);
      const removed = await db.transaction(async (tx) => {
        const event = await lockEvent(tx, eventId);
        let file: string;
        if (isSlot(kind)) {
          const current = event[slotColumn[kind]];
          if (!current) throw new ApiError("FILE_NOT_FOUND", { field: "kind" });
          file = current;
          await setSlot(tx, eventId, kind, null);
        } else {
          const [row] = await tx
            .delete(eventImages)
            .where(and(eq(eventImages.id, input.id ?? 0), eq(eventImages.eventId, eventId)))
            .returning({ path: eventImages.path });
          if (!row) throw new ApiError("ITEM_NOT_FOUND", { field: "id" });
          file = row.path;
        }
        await history(tx, eventId, "modification", actor.id, { images: { action: "delete", kind, file } });
        return file;
      });
      await removeIfUnused(eventId, removed);
      return visuals(eventId);
    },

    /**
     * For a copied edition (a new event id): copies the cover and header files into the new
     * event's folder, since stored names are relative to the event's own folder.
     */
    async copyVisuals(fromEventId: number, toEventId: number): Promise<void> {
      const [source] = await db
        .select({ coverImage: events.coverImage, headerImage: events.headerImage })
        .from(events)
        .where(eq(events.id, fromEventId))
        .limit(1);
      if (!source) return;
      for (const file of new Set([source.coverImage, source.headerImage])) {
        if (!file || !SINGLE_NAME.test(file)) continue;
        const crops = OWN_FILE.test(file) ? EVENT_CARD_CROP_NAMES.map((crop) => cardCropName(file, crop)) : [];
        for (const name of new Set([file, eventImageVariant(file, "medium"), ...crops])) {
          const data = await storage.read(eventKey(fromEventId, name));
          if (data) await storage.put(eventKey(toEventId, name), data, "image/webp");
        }
      }
    },
  };
}
