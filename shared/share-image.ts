/**
 * The picture a page gives social networks (og:image, twitter:image): a JPEG or PNG whose size the
 * page announces (og:image:width, og:image:height, og:image:type), never the site's WebP files,
 * which some networks do not show and whose size they would have to fetch first.
 *
 * A picture of ours under /media — an event's photo (`/media/event/<id>/<file>`), a landscape drawn
 * by code (`/media/art/<file>`), a member's photo (`/media/user/<file>`) — has a share version at
 * `/media/share/<the same path>.jpg`: SHARE_IMAGE's size, cut by the server on first request
 * (features/media/share-images.server.ts). Anything else (another site's address, a drawn SVG
 * fallback) gives way to the default share image, a PNG of the same size. Isomorphic.
 */
import { DEFAULT_SHARE_IMAGE, MEDIA_ROOT } from "./image-url.ts";

/** Facebook's and LinkedIn's recommended size (1.91:1); Twitter's large card crops it the least. */
export const SHARE_IMAGE = { width: 1200, height: 630 } as const;

export type ShareImage = {
  /** A site path (with any `?t=` of its source kept) or the default image's path. */
  url: string;
  width: number;
  height: number;
  type: "image/jpeg" | "image/png";
};

/** The default share image (public/images/share-default.png). */
export const DEFAULT_SHARE: ShareImage = { url: DEFAULT_SHARE_IMAGE, ...SHARE_IMAGE, type: "image/png" };

export const SHARE_ROOT = `${MEDIA_ROOT}/share`;

/** Folders under /media whose pictures have a share version, and the path after the folder. */
const SOURCES =
  /^\/media\/(event\/\d{1,10}\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}|art\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}|user\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199})$/;

/** The share image of a picture given as a site path or URL (see the file's comment). */
export function shareImage(source: string | null | undefined, origin?: string): ShareImage {
  if (!source) return DEFAULT_SHARE;
  let url: URL;
  try {
    url = new URL(source, origin ?? "http://localhost");
  } catch {
    return DEFAULT_SHARE;
  }
  // Our own pictures only: a site path, or an absolute address on the site's origin.
  const ours = source.startsWith("/") ? !source.startsWith("//") : origin !== undefined && url.origin === origin;
  const match = ours ? SOURCES.exec(url.pathname) : null;
  if (!match) return DEFAULT_SHARE;
  return { url: `${SHARE_ROOT}/${match[1]}.jpg${url.search}`, ...SHARE_IMAGE, type: "image/jpeg" };
}

/** The picture a share image was cut from: its storage key under /media, or null when it is none. */
export function shareImageSource(path: string): { kind: "event" | "art" | "user"; key: string } | null {
  if (!path.startsWith(`${SHARE_ROOT}/`) || !path.endsWith(".jpg")) return null;
  const source = `${MEDIA_ROOT}/${path.slice(SHARE_ROOT.length + 1, -".jpg".length)}`;
  const match = SOURCES.exec(source);
  if (!match) return null;
  const key = match[1] as string;
  return { kind: key.slice(0, key.indexOf("/")) as "event" | "art" | "user", key };
}
