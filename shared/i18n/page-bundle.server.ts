import { createHash } from "node:crypto";
import type { Locale } from "../constants.ts";
import { pageBundleScript } from "./page-bundle.ts";
import { resources } from "./resources.ts";

export type PageBundleAsset = { path: string; body: Buffer };

const assets = new Map<Locale, PageBundleAsset>();

/**
 * The browser's catalogue of one language (see page-bundle.ts) as a script file named by its
 * content's hash: every page links it (app/entry.server.tsx) instead of carrying ~50 KB of JSON,
 * and the browser keeps it for a year. Built once per language.
 */
export function pageBundleAsset(locale: Locale): PageBundleAsset {
  let asset = assets.get(locale);
  if (!asset) {
    const body = Buffer.from(`${pageBundleScript({ locale, resources: resources[locale] })};\n`);
    const hash = createHash("sha256").update(body).digest("base64url").slice(0, 10);
    asset = { path: `/assets/i18n-${locale}-${hash}.js`, body };
    assets.set(locale, asset);
  }
  return asset;
}

/**
 * The `<script>` element that loads it, placed before the body's first script: a classic script
 * runs before the module scripts that follow it (a deferred one did not, in Chromium, against
 * React Router's inline module script).
 */
export function pageBundleTag(locale: Locale): Buffer {
  let tag = tags.get(locale);
  if (!tag) {
    tag = Buffer.from(`<script src="${pageBundleAsset(locale).path}"></script>`);
    tags.set(locale, tag);
  }
  return tag;
}

const tags = new Map<Locale, Buffer>();
