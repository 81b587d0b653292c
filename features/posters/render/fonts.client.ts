/**
 * The creator page's fonts: the same @fontsource files as the server's, bundled by Vite as assets
 * of this site (never fetched from elsewhere), read by opentype.js on first use.
 */

import notoRegular from "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff?url";
import notoBold from "@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff?url";
import oswaldRegular from "@fontsource/oswald/files/oswald-latin-400-normal.woff?url";
import oswaldBold from "@fontsource/oswald/files/oswald-latin-700-normal.woff?url";
import playfairRegular from "@fontsource/playfair-display/files/playfair-display-latin-400-normal.woff?url";
import playfairBold from "@fontsource/playfair-display/files/playfair-display-latin-700-normal.woff?url";
import type { PosterFont } from "../poster.contract.ts";
import { type OtFont, type PosterFontSet, parseFont } from "./fonts.ts";

const URLS: Record<PosterFont, { regular: string; bold: string }> = {
  "noto-sans": { regular: notoRegular, bold: notoBold },
  oswald: { regular: oswaldRegular, bold: oswaldBold },
  "playfair-display": { regular: playfairRegular, bold: playfairBold },
};

let loading: Promise<PosterFontSet> | null = null;

async function load(url: string): Promise<OtFont> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`font ${url}: ${response.status}`);
  return parseFont(await response.arrayBuffer());
}

/** Every poster font, fetched once per page. */
export function browserFonts(): Promise<PosterFontSet> {
  loading ??= Promise.all(
    (Object.keys(URLS) as PosterFont[]).map(async (id) => {
      const [regular, bold] = await Promise.all([load(URLS[id].regular), load(URLS[id].bold)]);
      return [id, { regular, bold }] as const;
    }),
  ).then((entries) => Object.fromEntries(entries) as PosterFontSet);
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
