/**
 * The Content-Security-Policy of every response, written once: Fastify's helmet sends it as is
 * (scripts from our own origin only), and each server-rendered page adds the SHA-256 hashes of
 * its own inline scripts (decision 013). Hashes instead of per-response nonces keep a rendered
 * page's bytes valid for every visitor, so anonymous pages can be cached whole.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  // Map tiles and styles come from a configurable host; images may be remote (event photos).
  imgSrc: ["'self'", "data:", "blob:", "https:"],
  connectSrc: ["'self'", "https:"],
  workerSrc: ["'self'", "blob:"],
  // A hash in style-src would make browsers ignore 'unsafe-inline' and drop every style="…".
  styleSrc: ["'self'", "'unsafe-inline'"],
  fontSrc: ["'self'", "data:"],
  frameSrc: ["'self'", "https://www.youtube-nocookie.com", "https://player.vimeo.com"],
} as const satisfies Record<string, readonly string[]>;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The header's value, with extra script sources (`'sha256-…'`) when given. */
export function contentSecurityPolicy(extraScriptSources: readonly string[] = []): string {
  return Object.entries(CSP_DIRECTIVES)
    .map(([name, values]) => {
      const all = name === "scriptSrc" ? [...values, ...extraScriptSources] : values;
      return `${kebab(name)} ${all.join(" ")}`;
    })
    .join(";");
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The text of every inline `<script>` of an HTML document (those without a src). */
export function inlineScripts(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    if (/\ssrc\s*=/i.test(match[1])) continue;
    if (match[2].length > 0) found.push(match[2]);
  }
  return found;
}
