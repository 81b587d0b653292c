/**
 * Device detection from a user agent (spec section 9). Every function takes the user agent
 * explicitly, so the server can pass the request header; in the browser it defaults to
 * navigator.userAgent, on the server to "" (nothing detected).
 */

/** Marker the product's own mobile app adds to its user agent. */
export const APP_UA_MARKER = "DossardApp";

const MOBILE = /iphone|ipad|ipod|android|blackberry|windows phone/i;
const CRAWLER = /bot|google|bing/i;

/** Server rendering: no window object. */
export function isServer(): boolean {
  return typeof window === "undefined";
}

export function currentUserAgent(): string {
  return typeof navigator === "undefined" ? "" : (navigator.userAgent ?? "");
}

/** iPhone, iPad, iPod, Android, BlackBerry or Windows Phone, in any case. */
export function isMobile(userAgent: string | null | undefined = currentUserAgent()): boolean {
  return MOBILE.test(userAgent ?? "");
}

/** The product's own mobile app (its user agent carries APP_UA_MARKER, case as written). */
export function isOwnApp(userAgent: string | null | undefined = currentUserAgent()): boolean {
  return (userAgent ?? "").includes(APP_UA_MARKER);
}

/** A search-engine or other crawler: "bot", "google" or "bing" anywhere, in any case. */
export function isCrawler(userAgent: string | null | undefined = currentUserAgent()): boolean {
  return CRAWLER.test(userAgent ?? "");
}

export interface DeviceInfo {
  mobile: boolean;
  app: boolean;
  crawler: boolean;
  server: boolean;
}

export function detectDevice(userAgent: string | null | undefined = currentUserAgent()): DeviceInfo {
  return { mobile: isMobile(userAgent), app: isOwnApp(userAgent), crawler: isCrawler(userAgent), server: isServer() };
}
