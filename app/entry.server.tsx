import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { contentSecurityPolicy, inlineScripts } from "../shared/csp.ts";
import { localeFromPath } from "../shared/i18n/index.ts";
import { pageBundleTag } from "../shared/i18n/page-bundle.server.ts";

export const streamTimeout = 5_000;

/** `'sha256-…'` sources for each inline script of the page (shared/csp.ts, decision 013). */
function scriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const script of inlineScripts(html)) {
    hashes.add(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * Renders the whole document before sending it, as one buffer: pages are small, crawlers need the
 * full HTML, the status code (404, 500) must be known before the first byte, the page is
 * compressed once rather than chunk by chunk, and its inline scripts are hashed into the
 * Content-Security-Policy so that the same bytes can be served from the page cache.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // The browser gets only this page's language, from a script file it keeps (page-bundle.server.ts).
  const translations = pageBundleTag(localeFromPath(new URL(request.url).pathname));
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      onAllReady() {
        const chunks: Buffer[] = [];
        const sink = new Writable({
          write(chunk, _encoding, callback) {
            chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
            callback();
          },
          final(callback) {
            clearTimeout(timeout);
            const html = Buffer.concat(chunks);
            // Before the body's first script: the parser stops there until the catalogue has run,
            // so the page above it is already there to paint and the module scripts come after.
            const bodyStart = html.indexOf("<body");
            const firstScript = bodyStart < 0 ? -1 : html.indexOf("<script", bodyStart);
            const at = firstScript < 0 ? html.lastIndexOf("</body>") : firstScript;
            const body =
              at < 0
                ? Buffer.concat([html, translations])
                : Buffer.concat([html.subarray(0, at), translations, html.subarray(at)]);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(scriptHashes(body.toString("utf8"))));
            resolve(new Response(body, { headers: responseHeaders, status }));
            callback();
          },
        });
        pipe(sink);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        console.error(error);
      },
    });
  });
}
