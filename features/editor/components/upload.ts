/**
 * Multipart uploads with progress. fetch() cannot report upload progress, so this goes through
 * XMLHttpRequest, with what apiFetch adds to every call: the access header, the page's language
 * for error messages, and the trip to the login page on a 403.
 */
import { loginPathFor } from "../../../shared/api-client.ts";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../../shared/constants.ts";

export type UploadResult<T> = { ok: true; body: T } | { ok: false; status: number; message: string | null };

export function uploadWithProgress<T>(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader(ACCESS_HEADER, ACCESS_HEADER_VALUE);
    const english = loginPathFor(window.location.pathname) === "/en/login";
    xhr.setRequestHeader("x-locale", english ? "en" : "fr");
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 403) window.location.replace(loginPathFor(window.location.pathname));
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve({ ok: true, body: body as T });
        return;
      }
      const parsed = apiErrorBodySchema.safeParse(body);
      resolve({ ok: false, status: xhr.status, message: parsed.success ? parsed.data.error.message : null });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, message: null });
    xhr.onabort = () => resolve({ ok: false, status: 0, message: null });
    signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(form);
  });
}

/** The message of a failed API call's body, or null. */
export async function errorMessageOf(response: Response): Promise<string | null> {
  const body = await response.json().catch(() => null);
  const parsed = apiErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.error.message : null;
}
