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
 *
 * Composed of the visuals' uploads and slots (event-visuals.service.server.ts), the thumbnails on
 * request (event-thumbnails.service.server.ts), and what both derive from a photo: sizes, card
 * crops, thumbnails, their names (event-image-variants.server.ts).
 */
import type { Db } from "../../platform/db/client.server.ts";
import { eventThumbnailsService, type UserPhotoLookup } from "./event-thumbnails.service.server.ts";
import { eventVisualsService } from "./event-visuals.service.server.ts";
import type { FileStorage } from "./storage.server.ts";

export {
  detectImageFormat,
  EVENT_IMAGE_SIZES,
  EVENT_PHOTO_FORMATS,
  type EventImageSize,
  eventImageVariant,
  THUMBNAIL_PROFILE_NAMES,
  THUMBNAIL_PROFILES,
  type ThumbnailProfile,
} from "./event-image-variants.server.ts";
export type { Thumbnail, ThumbnailInput, UserPhotoLookup } from "./event-thumbnails.service.server.ts";
export {
  EVENT_IMAGE_KINDS,
  EVENT_PHOTO_MAX_BYTES,
  EVENT_UPLOAD_LIMIT,
  type EventImageKind,
  type EventVisuals,
  GALLERY_MAX_IMAGES,
  type GalleryImage,
  type ImageRef,
  type SwitchImageInput,
} from "./event-visuals.service.server.ts";

export function eventImagesService(deps: {
  db: Db;
  clock: () => Date;
  storage: FileStorage;
  /** Needed only for the "user" thumbnail profile. */
  userPhoto?: UserPhotoLookup;
}) {
  return { ...eventVisualsService(deps), ...eventThumbnailsService(deps) };
}
export type EventImagesService = ReturnType<typeof eventImagesService>;
