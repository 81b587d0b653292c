/**
 * Thumbnails on request (POST /api/thumbnail): of a public image (active event, public profile),
 * or of any image its editor (or the member themself) asks for, cut once and kept.
 */
import type { Db } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { eventImageUrl, imageUrl } from "../../shared/image-url.ts";
import { type Actor, eventAccess } from "../events/event-access.server.ts";
import { eventGalleryFiles, eventPictures } from "../events/event-reads.server.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import {
  cutThumbnail,
  eventKey,
  SINGLE_NAME,
  THUMBNAIL_PROFILES,
  type ThumbnailProfile,
  thumbName,
} from "./event-image-variants.server.ts";
import type { FileStorage } from "./storage.server.ts";

const RELOAD_LIMIT: Limit = { max: 120, windowSeconds: 60 * 60 };

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

export function eventThumbnailsService(deps: {
  db: Db;
  clock: () => Date;
  storage: FileStorage;
  /** Needed only for the "user" thumbnail profile. */
  userPhoto?: UserPhotoLookup;
}) {
  const { db, clock, storage } = deps;
  const limiter = rateLimiter(db, clock);
  const cut = (sourceKey: string, thumbKey: string, profile: ThumbnailProfile, reload: boolean) =>
    cutThumbnail(storage, clock, sourceKey, thumbKey, profile, reload);

  return {
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

      const event = await eventPictures(db, input.id);
      if (!event) throw new ApiError("ITEM_NOT_FOUND");
      const access = caller ? await eventAccess(db, caller, input.id) : null;
      const editor = access !== null && access !== "member";
      const isPublic = event.status === "active";
      if (!isPublic && !editor) throw new ApiError("ITEM_NOT_FOUND");
      await requireReloadRight(editor);
      const gallery = await eventGalleryFiles(db, input.id);
      const file = pickEventFile(event, gallery, which);
      if (!file || !SINGLE_NAME.test(file)) throw new ApiError("FILE_NOT_FOUND");
      const name = `thumbs/${thumbName(file, input.profile)}`;
      const result = await cut(eventKey(input.id, file), eventKey(input.id, name), input.profile, input.reload);
      return { ...result, url: eventImageUrl(name, { dir: input.id }), isPublic };
    },
  };
}
