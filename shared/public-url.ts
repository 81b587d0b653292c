/**
 * Public URL conversion (spec section 9): relative and http addresses become https and get the
 * public site origin when they lack a host.
 *
 * Local hosts are the exception: localhost, 127.0.0.1 and [::1] keep http, because the
 * development server (`npm start` on http://localhost:3000) serves no TLS and an https link to it
 * would not open. Every other host is upgraded, as the spec says.
 */

/** The development server's address; the server sets the real one from PUBLIC_URL at start-up. */
export const DEFAULT_PUBLIC_ORIGIN = "http://localhost:3000";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

let configuredOrigin = DEFAULT_PUBLIC_ORIGIN;

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname.toLowerCase());
}

/** Origin (`scheme://host[:port]`) of a URL, upgraded to https unless local; throws on a bad URL. */
export function normalizeOrigin(origin: string): string {
  const url = new URL(origin.startsWith("//") ? `https:${origin}` : origin);
  if (url.protocol === "http:" && !isLocalHost(url.hostname)) url.protocol = "https:";
  return url.origin;
}

/**
 * Sets the origin used when none is passed. The server calls it with PUBLIC_URL; the browser
 * with the value the root loader hands over, so both render the same links.
 */
export function configurePublicOrigin(origin: string): void {
  configuredOrigin = normalizeOrigin(origin);
}

export function getPublicOrigin(): string {
  return configuredOrigin;
}

/**
 * An absolute https address for a path or URL:
 * - "/x" or "x" → `<origin>/x`;
 * - "//host/x" → "https://host/x";
 * - "http://host/x" → "https://host/x" (local hosts stay http, see above);
 * - https and other schemes (mailto:, data:, …) unchanged.
 */
export function publicUrl(pathOrUrl: string, origin: string = configuredOrigin): string {
  const value = pathOrUrl.trim();
  if (value.startsWith("//")) return publicUrl(`https:${value}`, origin);
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === "http") {
    const url = new URL(value);
    if (!isLocalHost(url.hostname)) url.protocol = "https:";
    return url.href;
  }
  if (scheme) return value;
  const base = normalizeOrigin(origin);
  return `${base}${value.startsWith("/") ? value : `/${value}`}`;
}
