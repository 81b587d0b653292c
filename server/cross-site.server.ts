import type { FastifyReply, FastifyRequest } from "fastify";
import { isSameOriginRequest } from "../features/identity/auth.server.ts";
import { sendError } from "../platform/http/errors.server.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE, LOCALES } from "../shared/constants.ts";
import { pagePath } from "../shared/i18n/pages.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The path as a router or a proxy may read it: percent-decoded, dot segments resolved, backslashes
 * and repeated slashes as one "/", lower case.
 */
export function normalisedPath(url: string): string {
  const raw = url.split("?", 1)[0] ?? "/";
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: judged as it stands.
  }
  let path = decoded;
  try {
    path = new URL(decoded.replaceAll("\\", "/"), "http://x").pathname;
  } catch {
    // Kept as decoded.
  }
  return path.replace(/\/{2,}/g, "/").toLowerCase();
}

function isApiPath(path: string | undefined): boolean {
  return path !== undefined && (path === "/api" || path.startsWith("/api/"));
}

/**
 * Writes other services make to us: they send no access header and no browser's Origin, and each
 * route checks what proves the sender instead (access.secret): Strava's push events (their
 * subscription), Stripe's webhook (its signature), and the one-click unsubscribe that mail
 * providers post for an alert mail's reader (RFC 8058; the signed token in its address).
 */
export const EXTERNAL_CALLBACKS = new Set([
  "POST /api/strava/webhook",
  "POST /ext/payment/webhook",
  ...LOCALES.map((locale) => `POST ${pagePath("unsubscribe", locale)}`),
]);

/**
 * Every write must come from the site itself (the rule of isSameOriginRequest), except the
 * callbacks above. Under /api that is the spec's fixed access header (decision 004), judged on the
 * route the router matched (it decodes the URL: `/%61pi/register` is /api/register), and on the
 * normalised path for requests no API route matched, never on the raw URL: 400
 * MISSING_ACCESS_HEADER. Elsewhere (/ext/…, the pages' forms) the header or the browser's word
 * that the request is same-origin (Sec-Fetch-Site, else Origin): 403 CROSS_SITE_REQUEST.
 */
export async function crossSiteGuard(request: FastifyRequest, reply: FastifyReply) {
  if (READS.has(request.method)) return;
  if (EXTERNAL_CALLBACKS.has(`${request.method} ${request.routeOptions.url}`)) return;
  if (isApiPath(request.routeOptions.url) || isApiPath(normalisedPath(request.url))) {
    if (request.headers[ACCESS_HEADER] !== ACCESS_HEADER_VALUE)
      return sendError(request, reply, "MISSING_ACCESS_HEADER");
    return;
  }
  // No route (a 404 that changes nothing) needs no rule.
  if (request.routeOptions.url === undefined) return;
  if (!isSameOriginRequest(request)) return sendError(request, reply, "CROSS_SITE_REQUEST");
}
