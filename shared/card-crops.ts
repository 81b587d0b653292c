/**
 * The card crops: besides the stored sizes (EVENT_IMAGE_SIZES, resized inside their box), each
 * uploaded event image is cut once into these fixed 16:10 frames, cropped around its most
 * interesting region, for the event cards (grid, rows, list) and the small screens' header.
 * Browser-safe: the cards build their `srcset` from it. Media cuts the uploads into them, the
 * illustrations draw their landscapes at these sizes.
 */
export const EVENT_CARD_CROPS = {
  /** Cards of about 250 to 400 CSS px at two or three device pixels per CSS pixel; phone headers. */
  card: { width: 960, height: 600, quality: 72, suffix: "-960x600" },
  /** The same at one device pixel per CSS pixel, and the list view's thumbnails. */
  cardSmall: { width: 480, height: 300, quality: 72, suffix: "-480x300" },
} as const;
export type EventCardCrop = keyof typeof EVENT_CARD_CROPS;
export const EVENT_CARD_CROP_NAMES = Object.keys(EVENT_CARD_CROPS) as EventCardCrop[];

/** Our own upload names ("ab12….webp"): only these have the crops. */
export const UPLOADED_IMAGE = /^([a-f0-9]{16,32})\.webp$/;

/** The name of a crop beside an image's name ("ab12….webp" → "ab12…-480x300.webp"). */
export function cardCropName(file: string, crop: EventCardCrop): string {
  return file.replace(/\.webp$/, `${EVENT_CARD_CROPS[crop].suffix}.webp`);
}
