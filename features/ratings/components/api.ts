import { apiFetch } from "../../../shared/api-client.ts";

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
