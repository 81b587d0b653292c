/**
 * What an event card or header shows: its own picture (an upload, cut into the card crops) or a
 * landscape drawn by code (demo events), as `src` + `srcset`; else the sport's illustration.
 * Browser-safe.
 */

import { cardCropName, EVENT_CARD_CROPS, UPLOADED_IMAGE } from "../../shared/card-crops.ts";
import { eventImageUrl } from "../../shared/image-url.ts";
import { type LandscapeSpec, landscapeName, parseLandscapeName } from "./landscape.ts";

/** Where landscapes drawn by code are served (features/illustrations/illustrations.routes.server.ts). */
export const GENERATED_ROOT = "/media/art/";
/** Size of a landscape's main picture (the counterpart of an upload's "large" size). */
export const GENERATED_LARGE = { width: 1600, height: 900 } as const;

/** The site path of a landscape, as the demo catalogue stores it in an event's cover or header. */
export function generatedImagePath(spec: LandscapeSpec): string {
  return `${GENERATED_ROOT}${landscapeName(spec)}.webp`;
}

export function isGeneratedImage(file: string | null | undefined): file is string {
  return typeof file === "string" && file.startsWith(GENERATED_ROOT);
}

/** A file under GENERATED_ROOT: the landscape and its size, or null when the name is not one. */
export function parseGeneratedFile(
  file: string,
): { spec: LandscapeSpec; width: number; height: number; quality: number } | null {
  const match = /^(.+?)(-\d+x\d+)?\.webp$/.exec(file);
  if (!match) return null;
  const spec = parseLandscapeName(match[1]);
  if (!spec) return null;
  if (!match[2]) return { spec, ...GENERATED_LARGE, quality: 80 };
  const crop = Object.values(EVENT_CARD_CROPS).find((c) => c.suffix === match[2]);
  return crop ? { spec, width: crop.width, height: crop.height, quality: crop.quality } : null;
}

export type PictureSources = {
  src: string;
  /** Absent when the picture has only one size (a file of another origin). */
  srcSet?: string;
};

/** True when an address is one of ours that comes with the card crops: an upload or a landscape. */
function hasCrops(url: string): boolean {
  if (isGeneratedImage(url)) return true;
  const upload = /^\/media\/event\/\d+\/([^/?#]+)$/.exec(url);
  return upload !== null && UPLOADED_IMAGE.test(upload[1]);
}

/**
 * The card's picture of an event (its cover, as stored), or null when it has none. Uploads and
 * landscapes come in the card crops; any other stored name is shown as it is.
 */
export function cardPicture(file: string | null | undefined, eventId: number): PictureSources | null {
  if (!file) return null;
  const url = eventImageUrl(file, { dir: eventId });
  if (!hasCrops(url)) return { src: url };
  const { card, cardSmall } = EVENT_CARD_CROPS;
  const small = cardCropName(url, "cardSmall");
  return { src: small, srcSet: `${small} ${cardSmall.width}w, ${cardCropName(url, "card")} ${card.width}w` };
}

/** The full-width header picture (its address): the card crop on small screens, the large size above. */
export function headerPicture(url: string | null | undefined): PictureSources | null {
  if (!url) return null;
  if (!hasCrops(url)) return { src: url };
  return {
    src: url,
    srcSet: `${cardCropName(url, "card")} ${EVENT_CARD_CROPS.card.width}w, ${url} ${GENERATED_LARGE.width}w`,
  };
}
