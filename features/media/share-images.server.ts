/**
 * Share images (shared/share-image.ts): the JPEG a page announces as its og:image, cut from one of
 * our pictures on first request and kept in storage beside it (`share/<source key>.jpg`).
 *
 * Photos and drawn landscapes fill the 1200 × 630 frame, cropped around their most interesting
 * region; a member's photo (square) is shown whole, centred on the site's light background, so
 * that no face is cut. A share version lives as long as its source: a deleted photo takes it along.
 */
import sharp from "sharp";
import { SHARE_IMAGE, shareImageSource } from "../../shared/share-image.ts";
import type { GeneratedImagesService } from "../illustrations/generated-images.service.server.ts";
import { imageWork } from "./image-work.server.ts";
import type { FileStorage } from "./storage.server.ts";

/** The pages' light background (slate-100), behind a member's photo. */
const BACKGROUND = "#f1f5f9";
const QUALITY = 82;
/** Decoding bound, as for uploads: our sources are at most 1600 px wide. */
const MAX_INPUT_PIXELS = 100_000_000;

/** A picture as a share image: JPEG, SHARE_IMAGE's size. */
export async function toShareJpeg(input: Buffer, fit: "cover" | "contain"): Promise<Buffer> {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(SHARE_IMAGE.width, SHARE_IMAGE.height, {
      fit,
      position: fit === "cover" ? sharp.strategy.attention : "centre",
      background: BACKGROUND,
    })
    .flatten({ background: BACKGROUND })
    .jpeg({ quality: QUALITY, mozjpeg: true })
    .toBuffer();
}

export function shareImagesService(deps: { storage: FileStorage; generatedImages: GeneratedImagesService }) {
  const { storage } = deps;
  const cutting = new Map<string, Promise<Buffer | null>>();

  async function cut(kind: "event" | "art" | "user", key: string, target: string): Promise<Buffer | null> {
    const input = kind === "art" ? await deps.generatedImages.file(key.slice("art/".length)) : await storage.read(key);
    if (!input) return null;
    const data = await imageWork.run(() => toShareJpeg(input, kind === "user" ? "contain" : "cover"));
    await storage.put(target, data, "image/jpeg");
    return data;
  }

  return {
    /** The JPEG of a share image's path (`/media/share/…`), or null when its source is not there. */
    async file(path: string): Promise<Buffer | null> {
      const source = shareImageSource(path);
      if (!source) return null;
      const target = `share/${source.key}.jpg`;
      if (source.kind !== "art" && !(await storage.stat(source.key))) {
        await storage.delete(target);
        return null;
      }
      const kept = await storage.read(target);
      if (kept) return kept;
      let pending = cutting.get(target);
      if (!pending) {
        pending = cut(source.kind, source.key, target).finally(() => cutting.delete(target));
        cutting.set(target, pending);
      }
      return pending;
    },
  };
}
export type ShareImagesService = ReturnType<typeof shareImagesService>;
