/**
 * Step 4 of the event form, "visuals": the cover (flyer), the header photo and a gallery of up to
 * 20 photos, plus thumbnails cut from them on request.
 *
 * Storage layout (see shared/image-url.ts): an event's files live under `event/<eventId>/`, and
 * the database keeps names relative to that folder, the way the event page resolves them with
 * `eventImageUrl(file, { dir: eventId })`. Each upload becomes `<stem>.webp` (the "large" image,
 * at most 1600 px wide) and `<stem>-640.webp` (the grid and form preview size); thumbnails are
 * cut on demand into `event/<eventId>/thumbs/<stem>-<profile>.webp` and kept. A file is used by
 * one slot at a time (cover, header or one gallery row): switching moves names, never copies.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { EventHistoryType } from "../../shared/constants.ts";
import { eventImageUrl, imageUrl } from "../../shared/image-url.ts";
import { type Limit, rateLimiter } from "../accounts/rate-limit.server.ts";
import { type Actor, eventAccess, requireEventEditor } from "../events/event-access.server.ts";
import { courses, eventHistory, eventImages, events } from "../events/events.tables.ts";
import { isGeneratedImage } from "../illustrations/event-images.ts";
import { cardCropName, EVENT_CARD_CROP_NAMES, EVENT_CARD_CROPS, type EventCardCrop } from "./card-crops.ts";
import { imageWork } from "./image-work.server.ts";
import type { FileStorage } from "./storage.server.ts";

export const EVENT_IMAGE_KINDS = ["cover", "header", "gallery"] as const;
export type EventImageKind = (typeof EVENT_IMAGE_KINDS)[number];

/** Upload size bound (the spec shows none): phone photos fit, posters scanned at 300 dpi too. */
export const EVENT_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Accepted formats, as sharp reads them from the content (AVIF is HEIF with AV1 inside). */
export const EVENT_PHOTO_FORMATS = ["jpeg", "png", "webp", "avif"] as const;
export const GALLERY_MAX_IMAGES = 20;
/** Decoding bound against decompression bombs: 100 megapixels covers any camera. */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * The stored sizes, resized inside the box without upscaling. "large" serves the full-width
 * header hero, the flyer link and the gallery's full view; "medium" the photo grid (cells of
 * about 250 to 370 CSS px, doubled for dense screens) and the form's previews.
 */
export const EVENT_IMAGE_SIZES = {
  large: { width: 1600, height: 2400, quality: 80, suffix: "" },
  medium: { width: 640, height: 960, quality: 75, suffix: "-640" },
} as const;
export type EventImageSize = keyof typeof EVENT_IMAGE_SIZES;

/**
 * Named thumbnail sizes for POST /api/thumbnail, cut to fill the box exactly (cropped around the
 * most interesting region). `owner` says what the request's `id` names.
 */
export const THUMBNAIL_PROFILES = {
  /** Event card (search results, lists): from the cover by default. */
  event: { owner: "event", width: 400, height: 250, defaultImage: "cover" },
  /** Event page hero: from the header photo by default. */
  header: { owner: "event", width: 1200, height: 400, defaultImage: "header" },
  /** Photo grid tile (4:3): a gallery image, named by its id. */
  gallery: { owner: "event", width: 480, height: 360, defaultImage: null },
  /** Member avatar: the profile photo. */
  user: { owner: "user", width: 160, height: 160, defaultImage: "photo" },
} as const satisfies Record<
  string,
  { owner: "event" | "user"; width: number; height: number; defaultImage: string | null }
>;
export type ThumbnailProfile = keyof typeof THUMBNAIL_PROFILES;
export const THUMBNAIL_PROFILE_NAMES = Object.keys(THUMBNAIL_PROFILES) as [ThumbnailProfile, ...ThumbnailProfile[]];

/** Event photo uploads a member may make in an hour. */
export const EVENT_UPLOAD_LIMIT: Limit = { max: 60, windowSeconds: 60 * 60 };
const RELOAD_LIMIT: Limit = { max: 120, windowSeconds: 60 * 60 };

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

export type Thumbnail = {
  data: Buffer;
  /** Public address of the same file under /media. */
  url: string;
  /** True when this call cut it; false when it came from the cache. */
  generated: boolean;
  modifiedAt: Date;
  /** The image is public (active event, public profile): shared caches may keep it. */
  isPublic: boolean;
};

export type ThumbnailInput = {
  profile: ThumbnailProfile;
  id: number;
  /** "cover", "header", a gallery image id, a stored file name; "photo" for members. */
  thumbnails?: string;
  reload: boolean;
};

/** A member's stored profile photo (file under user/) and whether the profile is public. */
export type UserPhotoLookup = (userId: number) => Promise<{ file: string | null; isPublic: boolean } | null>;

const OWN_FILE = /^([a-f0-9]{16,32})\.webp$/;

/** The stored name of one size of an uploaded image ("ab12….webp" → "ab12…-640.webp"). */
export function eventImageVariant(file: string, size: EventImageSize): string {
  const own = OWN_FILE.exec(file);
  return own ? `${own[1]}${EVENT_IMAGE_SIZES[size].suffix}.webp` : file;
}

const SINGLE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
const eventKey = (eventId: number, file: string) => `event/${eventId}/${file}`;
const stemOf = (file: string) => file.replace(/\.[A-Za-z0-9]+$/, "");
const thumbName = (file: string, profile: ThumbnailProfile) => `${stemOf(file)}-${profile}.webp`;
const slotColumn = { cover: "coverImage", header: "headerImage" } as const;
type Slot = keyof typeof slotColumn;
const isSlot = (kind: EventImageKind): kind is Slot => kind !== "gallery";

function galleryFull(): ApiError {
  // No catalogue code says "too many photos"; the field and the status tell the form.
  return new ApiError("BAD_REQUEST", { field: "gallery", status: 409, details: { max: GALLERY_MAX_IMAGES } });
}

/** The content's format when it is one we accept, else null (the name and declared type do not count). */
export async function detectImageFormat(data: Buffer): Promise<(typeof EVENT_PHOTO_FORMATS)[number] | null> {
  const meta = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS })
    .metadata()
    .catch(() => null);
  if (!meta?.width || !meta.height) return null;
  if (meta.format === "heif") return meta.compression === "av1" ? "avif" : null;
  return meta.format === "jpeg" || meta.format === "png" || meta.format === "webp" ? meta.format : null;
}

type Rendition = { data: Buffer; width: number; height: number };

/** Turned upright from the EXIF orientation, resized into each stored size, re-encoded as WebP with no metadata. */
async function renditions(data: Buffer): Promise<Record<EventImageSize, Rendition>> {
  const base = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  const render = async (size: EventImageSize): Promise<Rendition> => {
    const { width, height, quality } = EVENT_IMAGE_SIZES[size];
    const { data: out, info } = await base
      .clone()
      .resize({ width, height, fit: "inside", withoutEnlargement: true })
      .webp({ quality })
      .toBuffer({ resolveWithObject: true });
    return { data: out, width: info.width, height: info.height };
  };
  try {
    // One after the other: one libuv thread at a time (image-work.server.ts).
    const large = await render("large");
    const medium = await render("medium");
    return { large, medium };
  } catch (cause) {
    throw new ApiError("FILE_TYPE_INVALID", { cause });
  }
}

/** The card crops (card-crops.ts) of an upload, cut around its most interesting region. */
async function cardCrops(data: Buffer): Promise<[EventCardCrop, Buffer][]> {
  const base = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  try {
    // One after the other: one libuv thread at a time (image-work.server.ts).
    const crops: [EventCardCrop, Buffer][] = [];
    for (const crop of EVENT_CARD_CROP_NAMES) {
      const { width, height, quality } = EVENT_CARD_CROPS[crop];
      const out = await base
        .clone()
        .resize({ width, height, fit: "cover", position: "attention" })
        .webp({ quality })
        .toBuffer();
      crops.push([crop, out]);
    }
    return crops;
  } catch (cause) {
    throw new ApiError("FILE_TYPE_INVALID", { cause });
  }
}

export function eventImagesService(deps: {
  db: Db;
  clock: () => Date;
  storage: FileStorage;
  /** Needed only for the "user" thumbnail profile. */
  userPhoto?: UserPhotoLookup;
}) {
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

  /** Every stored file of an event image: its sizes and its thumbnails. */
  function keysOf(eventId: number, file: string): string[] {
    if (!SINGLE_NAME.test(file)) return [];
    const keys = [eventKey(eventId, file)];
    if (OWN_FILE.test(file)) keys.push(eventKey(eventId, eventImageVariant(file, "medium")));
    if (OWN_FILE.test(file))
      for (const crop of EVENT_CARD_CROP_NAMES) keys.push(eventKey(eventId, cardCropName(file, crop)));
    for (const [profile, spec] of Object.entries(THUMBNAIL_PROFILES)) {
      if (spec.owner === "event")
        keys.push(eventKey(eventId, `thumbs/${thumbName(file, profile as ThumbnailProfile)}`));
    }
    return keys;
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

  /** The stored file a thumbnail request names, among the event's own images. */
  function pickEventFile(
    event: { coverImage: string | null; headerImage: string | null },
    gallery: { id: number; path: string }[],
    which: string,
  ): string | null {
    if (which === "cover") return event.coverImage;
    if (which === "header") return event.headerImage;
    if (/^\d{1,10}$/.test(which)) return gallery.find((g) => g.id === Number(which))?.path ?? null;
    const owned = [event.coverImage, event.headerImage, ...gallery.map((g) => g.path)];
    return owned.includes(which) ? which : null;
  }

  async function cut(sourceKey: string, thumbKey: string, profile: ThumbnailProfile, reload: boolean) {
    if (!reload) {
      const [cached, info] = await Promise.all([storage.read(thumbKey), storage.stat(thumbKey)]);
      if (cached && info) return { data: cached, generated: false, modifiedAt: info.modifiedAt };
    }
    const source = await storage.read(sourceKey);
    if (!source) throw new ApiError("FILE_NOT_FOUND");
    const { width, height } = THUMBNAIL_PROFILES[profile];
    const data = await imageWork.run(() =>
      sharp(source, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width, height, fit: "cover", position: "attention" })
        .webp({ quality: 78 })
        .toBuffer()
        .catch((cause: unknown) => {
          throw new ApiError("FILE_NOT_FOUND", { cause });
        }),
    );
    await storage.put(thumbKey, data, "image/webp");
    return { data, generated: true, modifiedAt: (await storage.stat(thumbKey))?.modifiedAt ?? clock() };
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
     * A thumbnail of a public image (active event, public profile), or of any image its editor
     * (or the member themself) asks for: cut from the stored original when none is kept yet or
     * when `reload` forces it (editors and the member only), otherwise read back from storage.
     */
    async thumbnail(caller: Actor | null, input: ThumbnailInput): Promise<Thumbnail> {
      const spec = THUMBNAIL_PROFILES[input.profile];
      const which = input.thumbnails?.trim() || spec.defaultImage;
      if (!which) throw new ApiError("FIELD_REQUIRED", { field: "thumbnails" });
      const requireReloadRight = async (allowed: boolean) => {
        if (!input.reload) return;
        if (!caller) throw new ApiError("LOGIN_REQUIRED");
        if (!allowed) throw new ApiError("FORBIDDEN");
        await limiter.hit(`thumbnail:reload:${caller.id}`, RELOAD_LIMIT);
      };

      if (spec.owner === "user") {
        const self = caller !== null && (caller.id === input.id || caller.role === "admin");
        const photo = await deps.userPhoto?.(input.id);
        if (!photo || (!photo.isPublic && !self)) throw new ApiError("ITEM_NOT_FOUND");
        await requireReloadRight(self);
        if (!photo.file || !SINGLE_NAME.test(photo.file)) throw new ApiError("FILE_NOT_FOUND");
        const name = `thumbs/${thumbName(photo.file, input.profile)}`;
        const result = await cut(`user/${photo.file}`, `user/${name}`, input.profile, input.reload);
        return { ...result, url: imageUrl({ kind: "user", file: name }), isPublic: photo.isPublic };
      }

      const [event] = await db
        .select({ status: events.status, coverImage: events.coverImage, headerImage: events.headerImage })
        .from(events)
        .where(eq(events.id, input.id))
        .limit(1);
      if (!event) throw new ApiError("ITEM_NOT_FOUND");
      const access = caller ? await eventAccess(db, caller, input.id) : null;
      const editor = access !== null && access !== "member";
      const isPublic = event.status === "active";
      if (!isPublic && !editor) throw new ApiError("ITEM_NOT_FOUND");
      await requireReloadRight(editor);
      const gallery = await db
        .select({ id: eventImages.id, path: eventImages.path })
        .from(eventImages)
        .where(eq(eventImages.eventId, input.id));
      const file = pickEventFile(event, gallery, which);
      if (!file || !SINGLE_NAME.test(file)) throw new ApiError("FILE_NOT_FOUND");
      const name = `thumbs/${thumbName(file, input.profile)}`;
      const result = await cut(eventKey(input.id, file), eventKey(input.id, name), input.profile, input.reload);
      return { ...result, url: eventImageUrl(name, { dir: input.id }), isPublic };
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
export type EventImagesService = ReturnType<typeof eventImagesService>;
