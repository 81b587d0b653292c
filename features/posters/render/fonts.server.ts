import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { POSTER_FONTS } from "../poster.contract.ts";
import { FONT_FILES, type OtFont, type PosterFontSet, parseFont } from "./fonts.ts";

let cached: PosterFontSet | null = null;

function read(pkg: string, file: string): OtFont {
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "files");
  const bytes = fs.readFileSync(path.join(dir, file));
  return parseFont(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Every poster font, read once from node_modules and kept. */
export function serverFonts(): PosterFontSet {
  if (!cached) {
    cached = Object.fromEntries(
      POSTER_FONTS.map((id) => {
        const f = FONT_FILES[id];
        return [id, { regular: read(f.pkg, f.regular), bold: read(f.pkg, f.bold) }];
      }),
    ) as PosterFontSet;
  }
  return cached;
}
