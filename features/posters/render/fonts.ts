/**
 * The poster's embedded fonts (npm @fontsource/*, SIL Open Font License): each font's Latin
 * subset (French included) in a regular and a bold weight, read by opentype.js. Text is drawn as
 * the glyphs' outlines, so SVG, PNG and PDF look the same on any machine, installed fonts or not.
 * The server reads the files from node_modules (fonts.server.ts); the creator page fetches the
 * same files from the build's assets (fonts.client.ts): nothing is downloaded from elsewhere.
 */
import * as opentypeModule from "opentype.js";
import type { PosterFont } from "../poster.contract.ts";

/** The part of opentype.js the renderer uses (the package ships no types). */
export type OtPath = { toPathData(decimalPlaces?: number): string; commands: unknown[] };
export type OtGlyph = { index: number; advanceWidth?: number; getPath(x: number, y: number, size: number): OtPath };
export type OtFont = {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  charToGlyph(char: string): OtGlyph;
  getKerningValue(left: OtGlyph, right: OtGlyph): number;
};

export type FontFace = { font: OtFont; weight: "regular" | "bold" };
export type PosterFontSet = Record<PosterFont, { regular: OtFont; bold: OtFont }>;

/** Font files per poster font and weight (inside the package's files/ folder). */
export const FONT_FILES: Record<PosterFont, { pkg: string; regular: string; bold: string }> = {
  "noto-sans": {
    pkg: "@fontsource/noto-sans",
    regular: "noto-sans-latin-400-normal.woff",
    bold: "noto-sans-latin-700-normal.woff",
  },
  oswald: { pkg: "@fontsource/oswald", regular: "oswald-latin-400-normal.woff", bold: "oswald-latin-700-normal.woff" },
  "playfair-display": {
    pkg: "@fontsource/playfair-display",
    regular: "playfair-display-latin-400-normal.woff",
    bold: "playfair-display-latin-700-normal.woff",
  },
};

type Parse = (bytes: ArrayBuffer) => unknown;
/** opentype.js is an ES module to bundlers (named `parse`) and a UMD file to Node (`default.parse`). */
const loaded = opentypeModule as unknown as { parse?: Parse; default?: { parse: Parse } };
const parse: Parse = loaded.parse ?? (loaded.default as { parse: Parse }).parse;

export function parseFont(bytes: ArrayBuffer): OtFont {
  return parse(bytes) as OtFont;
}
