import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";

/** Where a 403 from the API sends the browser (the spec: replace the location with /login). */
export function loginPathFor(pathname: string): string {
  return pathname === "/en" || pathname.startsWith("/en/") ? "/en/login" : "/login";
}

/**
 * Calls the site's own API: every request carries the fixed access header; a 403 replaces the
 * current location with the login page. Errors come back as the API's JSON error body.
 */
export async function apiFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set(ACCESS_HEADER, ACCESS_HEADER_VALUE);
  if (init.body && typeof init.body === "string" && !headers.has("content-type")) {
    headers.set("content-type", "application/json");
  }
  const response = await fetch(input, { ...init, headers, credentials: "same-origin" });
  if (response.status === 403 && typeof window !== "undefined") {
    window.location.replace(loginPathFor(window.location.pathname));
  }
  return response;
}
