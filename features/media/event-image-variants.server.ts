/**
 * What is derived from an event photo: its stored sizes (WebP, upright, no metadata), its card
 * crops, its thumbnails cut on demand, and the names and storage keys of all of them. The sharp
 * work itself; callers run it through the gate of image-work.server.ts.
 */
import sharp from "sharp";
import { ApiError } from "../../shared/api-error.ts";
import { cardCropName, EVENT_CARD_CROP_NAMES, EVENT_CARD_CROPS, type EventCardCrop } from "../../shared/card-crops.ts";
import { imageWork } from "./image-work.server.ts";
import type { FileStorage } from "./storage.server.ts";

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

export const OWN_FILE = /^([a-f0-9]{16,32})\.webp$/;

/** The stored name of one size of an uploaded image ("ab12….webp" → "ab12…-640.webp"). */
export function eventImageVariant(file: string, size: EventImageSize): string {
  const own = OWN_FILE.exec(file);
  return own ? `${own[1]}${EVENT_IMAGE_SIZES[size].suffix}.webp` : file;
}

export const SINGLE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
export const eventKey = (eventId: number, file: string) => `event/${eventId}/${file}`;
const stemOf = (file: string) => file.replace(/\.[A-Za-z0-9]+$/, "");
export const thumbName = (file: string, profile: ThumbnailProfile) => `${stemOf(file)}-${profile}.webp`;

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
export async function renditions(data: Buffer): Promise<Record<EventImageSize, Rendition>> {
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

/** The card crops (shared/card-crops.ts) of an upload, cut around its most interesting region. */
export async function cardCrops(data: Buffer): Promise<[EventCardCrop, Buffer][]> {
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

/** Every stored file of an event image: its sizes and its thumbnails. */
export function keysOf(eventId: number, file: string): string[] {
  if (!SINGLE_NAME.test(file)) return [];
  const keys = [eventKey(eventId, file)];
  if (OWN_FILE.test(file)) keys.push(eventKey(eventId, eventImageVariant(file, "medium")));
  if (OWN_FILE.test(file))
    for (const crop of EVENT_CARD_CROP_NAMES) keys.push(eventKey(eventId, cardCropName(file, crop)));
  for (const [profile, spec] of Object.entries(THUMBNAIL_PROFILES)) {
    if (spec.owner === "event") keys.push(eventKey(eventId, `thumbs/${thumbName(file, profile as ThumbnailProfile)}`));
  }
  return keys;
}

/** A thumbnail read back from storage, or cut from its source (and kept) when none is or `reload` forces it. */
export async function cutThumbnail(
  storage: FileStorage,
  clock: () => Date,
  sourceKey: string,
  thumbKey: string,
  profile: ThumbnailProfile,
  reload: boolean,
) {
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
