/**
 * Image addresses for the kinds and storage folders of spec section 3, with their fallbacks.
 *
 * Layout: `/media/<folder>/<file>`, where the folder is the kind's name; event images may add a
 * directory (`/media/event/<dir>/<file>`) and custom images a cache bucket
 * (`/media/custom/<bucket>/<file>`). A timestamp becomes `?t=<unix seconds>` so a replaced image
 * gets a new address and caches (browser, CDN) fetch it again.
 */
import type { ImageKind } from "./constants.ts";
import { publicUrl } from "./public-url.ts";

/** Root under which the storage folders are served. */
export const MEDIA_ROOT = "/media";

export const IMAGE_FOLDERS = {
  event: "event",
  challenge: "challenge",
  article: "article",
  user: "user",
  maps: "maps",
  poster: "poster",
  card: "card",
  header: "header",
  custom: "custom",
} as const satisfies Record<ImageKind, string>;

export const USER_FALLBACK_IMAGE = "/images/fallback/user.svg";
export const MAP_FALLBACK_IMAGE = "/images/fallback/map.svg";
export const HEADER_FALLBACK_IMAGE = "/images/fallback/header.svg";
export const DEFAULT_FALLBACK_IMAGE = "/images/fallback/default.svg";
/** Share image of pages that have none of their own (meta image fallback). */
export const DEFAULT_SHARE_IMAGE = "/images/share-default.png";

/** Image kinds plus the spec's other fallback subjects (location, track); any other string gets the default. */
export type FallbackKind = ImageKind | "location" | "track" | (string & {});

/**
 * The placeholder for a missing image: user → user.svg; maps or location → map.svg; article,
 * header and track (their header pictures) → header.svg; anything else → default.svg.
 */
export function fallbackImage(kind: FallbackKind): string {
  switch (kind) {
    case "user":
      return USER_FALLBACK_IMAGE;
    case "maps":
    case "location":
      return MAP_FALLBACK_IMAGE;
    case "article":
    case "header":
    case "track":
      return HEADER_FALLBACK_IMAGE;
    default:
      return DEFAULT_FALLBACK_IMAGE;
  }
}

export type ImageTimestamp = Date | number | string;

/** Unix seconds of a timestamp: a Date, an ISO string, or a number already in seconds. */
export function unixSeconds(timestamp: ImageTimestamp): number | null {
  const ms =
    timestamp instanceof Date
      ? timestamp.getTime()
      : typeof timestamp === "string"
        ? Date.parse(timestamp)
        : timestamp * 1000;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** Appends `t=<unix seconds>` to an address, after any query it already has. */
export function withTimestamp(url: string, timestamp: ImageTimestamp | null | undefined): string {
  if (timestamp === null || timestamp === undefined) return url;
  const seconds = unixSeconds(timestamp);
  if (seconds === null) return url;
  const hash = url.indexOf("#");
  const [base, fragment] = hash === -1 ? [url, ""] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes("?") ? "&" : "?"}t=${seconds}${fragment}`;
}

/** Encodes each path part and drops empty, "." and ".." parts so a name cannot leave its folder. */
function safePath(value: string | number): string {
  return String(value)
    .split("/")
    .filter((part) => part !== "" && part !== "." && part !== "..")
    .map(encodeURIComponent)
    .join("/");
}

export interface ImageUrlOptions {
  kind: ImageKind;
  /** Stored file name (may hold sub-folders), an absolute URL, or a site path; empty → fallback. */
  file: string | null | undefined;
  /** Directory segment of event images (for example the event id). */
  dir?: string | number | null;
  /** Cache bucket of custom images. */
  bucket?: string | null;
  /** Last change of the image, appended as `?t=<unix seconds>`. */
  timestamp?: ImageTimestamp | null;
  /** Which placeholder to use when there is no file; the kind's own by default. */
  fallback?: FallbackKind;
  /** Make the address absolute through the public origin (true) or a given origin (string). */
  absolute?: boolean | string;
}

/** The address of a stored image, or its kind's fallback when there is no file. */
export function imageUrl(options: ImageUrlOptions): string {
  const file = options.file?.trim();
  let url: string;
  if (!file) {
    url = fallbackImage(options.fallback ?? options.kind);
  } else if (file.startsWith("/") || /^(https?:)?\/\//i.test(file)) {
    // Already an address (a remote avatar, a site path): only the timestamp is added.
    url = withTimestamp(file, options.timestamp);
  } else {
    const parts = [MEDIA_ROOT, IMAGE_FOLDERS[options.kind]];
    if (options.kind === "event" && options.dir !== null && options.dir !== undefined && options.dir !== "") {
      parts.push(safePath(options.dir));
    }
    if (options.kind === "custom" && options.bucket) parts.push(safePath(options.bucket));
    parts.push(safePath(file));
    url = withTimestamp(parts.filter(Boolean).join("/"), options.timestamp);
  }
  if (options.absolute === undefined || options.absolute === false) return url;
  return options.absolute === true ? publicUrl(url) : publicUrl(url, options.absolute);
}

/** Event images, the one kind with a directory segment. */
export function eventImageUrl(
  file: string | null | undefined,
  options: { dir?: string | number | null; timestamp?: ImageTimestamp | null; absolute?: boolean | string } = {},
): string {
  return imageUrl({ kind: "event", file, ...options });
}
