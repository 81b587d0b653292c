/**
 * The page's language in the browser. The catalogues of both languages (resources.ts) are about
 * 100 KB of JSON; a page needs only its own language. So the server makes one script file per
 * language, named by its content's hash (page-bundle.server.ts, served for a year), every page links
 * it just before its first script in <body> (app/entry.server.tsx) so that it runs before the
 * module scripts, and the browser build reads it back from resources.client.ts, which
 * vite.config.ts puts in place of resources.ts for the browser only. The server, tests and scripts
 * keep importing resources.ts with every language.
 */
import type { Locale } from "../constants.ts";

/** One language's catalogue: namespace → its messages. */
export type PageBundle = { locale: Locale; resources: Record<string, object> };

/** The global the inline script assigns. */
export const PAGE_BUNDLE_GLOBAL = "__dossardI18n";

/** `</script>`, `<!--` and the JavaScript line terminators must not appear raw inside a script. */
const UNSAFE_IN_SCRIPT = /[<\u2028\u2029]/g;
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** The inline script's text: `window.__dossardI18n={…}`. */
export function pageBundleScript(bundle: PageBundle): string {
  return `window.${PAGE_BUNDLE_GLOBAL}=${JSON.stringify(bundle).replace(UNSAFE_IN_SCRIPT, escapeChar)}`;
}

/** The catalogue the server wrote into this document; throws when the page has none. */
export function readPageBundle(scope: object = globalThis): PageBundle {
  const bundle = (scope as Record<string, unknown>)[PAGE_BUNDLE_GLOBAL] as Partial<PageBundle> | undefined;
  if (!bundle || typeof bundle.locale !== "string" || !bundle.resources || typeof bundle.resources !== "object") {
    throw new Error(`No translations in this page (window.${PAGE_BUNDLE_GLOBAL}, written by app/entry.server.tsx)`);
  }
  return bundle as PageBundle;
}
