/**
 * The results import's API tests' common steps: a multipart body as the import screen sends it
 * (`courseId` first, then the file or the pasted text) and the parse request itself.
 */
import type { LightMyRequestResponse } from "fastify";
import { accessHeaders, type TestApp } from "../../../tests/api/harness.ts";

export type Caller = { cookie: string } | null;

export const importHeaders = (who: Caller, locale: "fr" | "en" = "fr") => ({
  ...accessHeaders,
  "x-locale": locale,
  ...(who ? { cookie: who.cookie } : {}),
});

/** A multipart body: the fields in order, then the file when there is one. */
export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer | string }) {
  const boundary = `----dossard${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      typeof file.data === "string" ? Buffer.from(file.data) : file.data,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /api/results/parse for a course: a file (name and bytes) or a pasted table. */
export function parseResults(
  t: TestApp,
  who: Caller,
  courseId: number,
  source: { file: string; data: Buffer | string } | { text: string },
  locale: "fr" | "en" = "fr",
): Promise<LightMyRequestResponse> {
  const body =
    "text" in source
      ? multipart({ courseId: String(courseId), text: source.text })
      : multipart({ courseId: String(courseId) }, { name: source.file, data: source.data });
  return t.app.inject({
    method: "POST",
    url: "/api/results/parse",
    headers: { ...importHeaders(who, locale), "content-type": body.contentType },
    payload: body.payload,
  });
}
