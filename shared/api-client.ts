import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "./constants.ts";

/** Where a 403 from the API sends the browser (the spec: replace the location with /login). */
export function loginPathFor(pathname: string): string {
  return pathname === "/en" || pathname.startsWith("/en/") ? "/en/login" : "/login";
}

type Deps = {
  fetch: typeof fetch;
  /** Current path, to pick the login page's language. */
  pathname: () => string;
  /** Replaces the current location (no history entry). */
  replace: (path: string) => void;
};

/**
 * A client for the site's own API: every request carries the fixed access header; a 403 replaces
 * the current location with the login page.
 */
export function createApiFetch(deps: Deps) {
  return async function apiFetch(input: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set(ACCESS_HEADER, ACCESS_HEADER_VALUE);
    // Error messages come back in the page's language.
    if (!headers.has("x-locale")) headers.set("x-locale", loginPathFor(deps.pathname()) === "/en/login" ? "en" : "fr");
    if (typeof init.body === "string" && !headers.has("content-type")) headers.set("content-type", "application/json");
    const response = await deps.fetch(input, { ...init, headers, credentials: "same-origin" });
    if (response.status === 403) deps.replace(loginPathFor(deps.pathname()));
    return response;
  };
}

/** The browser's instance. */
export const apiFetch = createApiFetch({
  fetch: (...args) => fetch(...args),
  pathname: () => window.location.pathname,
  replace: (path) => window.location.replace(path),
});

/** The API's translated error message, or null when the answer carries none. */
export async function apiErrorMessage(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { error?: { message?: string } };
    return body.error?.message ?? null;
  } catch {
    return null;
  }
}

/** A JSON call to the site's API: the answer's body, or the translated error message. */
export async function callApi<T>(
  url: string,
  init: RequestInit = {},
): Promise<{ ok: true; data: T } | { ok: false; status: number; message: string | null }> {
  try {
    const response = await apiFetch(url, { headers: { accept: "application/json" }, ...init });
    if (!response.ok) return { ok: false, status: response.status, message: await apiErrorMessage(response) };
    return { ok: true, data: (await response.json()) as T };
  } catch {
    return { ok: false, status: 0, message: null };
  }
}
