/**
 * MapLibre's glyph ranges ({fontstack}/{range}.pbf: 256 code points of signed-distance-field
 * bitmaps) made from Noto Sans (npm @fontsource/noto-sans, SIL Open Font License), decision 016.
 * No maintained npm package ships such ranges, so they are made here: opentype.js reads the
 * font's outlines and metrics, sharp (librsvg) draws each glyph at 24 px, and @mapbox/tiny-sdf —
 * what MapLibre itself uses for local glyphs — turns the drawing into the distance field, with
 * the sizes of the usual server glyphs (24 px, 3 px border, radius 8, cutoff 0.25).
 * A range is made when first asked (a few hundred milliseconds), then kept in memory and in
 * DATA_DIR/cache so that later starts read it back.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import TinySDF from "@mapbox/tiny-sdf";
import type OpenType from "opentype.js";
import { PbfWriter } from "pbf";
import sharp from "sharp";
import { BASEMAP_FONTS, type BasemapFont } from "../basemap-style.ts";

const SIZE = 24;
const BUFFER = 3;
const RADIUS = 8;
const CUTOFF = 0.25;

/** The font files of each font stack: the Latin subsets cover French names (œ, ÿ, ’ included). */
const FONT_FILES: Record<BasemapFont, string[]> = {
  [BASEMAP_FONTS.regular]: ["noto-sans-latin-400-normal.woff", "noto-sans-latin-ext-400-normal.woff"],
  [BASEMAP_FONTS.bold]: ["noto-sans-latin-600-normal.woff", "noto-sans-latin-ext-600-normal.woff"],
};

export const isFontStack = (name: string): name is BasemapFont => Object.hasOwn(FONT_FILES, name);

type Outline = {
  advance: number;
  /** Ink box in pixels, y down from the baseline. */
  box: { x1: number; y1: number; x2: number; y2: number };
  path: (x: number, y: number) => string;
};
type Font = { ascender: number; glyph: (codePoint: number) => Outline | null };

/** Its CommonJS build, the same under Node and Vitest (whose resolver would pick the ES one). */
const opentype = createRequire(import.meta.url)("opentype.js") as typeof OpenType;

function readFont(file: string): Font {
  const bytes = fs.readFileSync(file);
  const font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const scale = SIZE / font.unitsPerEm;
  return {
    ascender: font.ascender * scale,
    glyph(codePoint) {
      const glyph = font.charToGlyph(String.fromCodePoint(codePoint));
      if (!glyph || glyph.index === 0) return null;
      const box = glyph.getPath(0, 0, SIZE).getBoundingBox();
      return {
        advance: (glyph.advanceWidth ?? 0) * scale,
        box,
        path: (x, y) => glyph.getPath(x, y, SIZE).toPathData({ decimalPlaces: 2, flipY: false }),
      };
    },
  };
}

/**
 * TinySDF measures and draws through a canvas; this one answers with the glyph prepared by
 * `prepare` (its metrics, and its pixels drawn beforehand by sharp).
 */
class PreparedSdf extends TinySDF {
  prepared: { outline: Outline; alpha: Uint8Array | null } | null = null;

  constructor() {
    super({ fontSize: SIZE, buffer: BUFFER, radius: RADIUS, cutoff: CUTOFF });
  }

  _createCanvas(): HTMLCanvasElement {
    const context = {
      measureText: () => {
        const { box, advance } = this.prepared!.outline;
        return {
          width: advance,
          actualBoundingBoxAscent: -box.y1,
          actualBoundingBoxDescent: box.y2,
          actualBoundingBoxLeft: -box.x1,
          actualBoundingBoxRight: box.x2,
        };
      },
      clearRect() {},
      fillText() {},
      getImageData: (_x: number, _y: number, width: number, height: number) => {
        const data = new Uint8ClampedArray(width * height * 4);
        const alpha = this.prepared?.alpha;
        if (alpha) for (let i = 0; i < width * height; i++) data[i * 4 + 3] = alpha[i];
        return { data, width, height };
      },
    };
    return { getContext: () => context } as unknown as HTMLCanvasElement;
  }

  /** The ink box as TinySDF computes it (whole pixels, clipped to its canvas). */
  inkBox(outline: Outline) {
    const maxDim = Math.ceil(SIZE) + BUFFER * 4 - BUFFER;
    const left = Math.floor(outline.box.x1);
    const top = Math.ceil(-outline.box.y1);
    const width = Math.max(0, Math.min(maxDim, Math.ceil(outline.box.x2) - left));
    const height = Math.max(0, Math.min(maxDim, top + Math.ceil(outline.box.y2)));
    return { left, top, width, height };
  }
}

type Glyph = {
  id: number;
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
};

async function drawRange(fonts: Font[], start: number, sdf: PreparedSdf): Promise<Glyph[]> {
  const glyphs: Glyph[] = [];
  const ascender = Math.round(fonts[0].ascender);
  for (let id = start; id < start + 256; id++) {
    const outline = fonts.map((f) => f.glyph(id)).find(Boolean);
    if (!outline) continue;
    const ink = sdf.inkBox(outline);
    let alpha: Uint8Array | null = null;
    if (ink.width > 0 && ink.height > 0) {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${ink.width}" height="${ink.height}"><path d="${outline.path(-ink.left, ink.top)}"/></svg>`;
      alpha = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer();
    }
    sdf.prepared = { outline, alpha };
    const drawn = sdf.draw(String.fromCodePoint(id));
    glyphs.push({
      id,
      bitmap: drawn.glyphWidth > 0 ? Uint8Array.from(drawn.data) : new Uint8Array(0),
      width: drawn.glyphWidth,
      height: drawn.glyphHeight,
      left: drawn.glyphLeft,
      // Server glyphs measure "top" from the font's ascender, as fontnik does.
      top: drawn.glyphTop - ascender,
      advance: Math.round(drawn.glyphAdvance),
    });
  }
  return glyphs;
}

function writeGlyph(g: Glyph, out: PbfWriter) {
  out.writeVarintField(1, g.id);
  if (g.bitmap.length) out.writeBytesField(2, g.bitmap);
  out.writeVarintField(3, g.width);
  out.writeVarintField(4, g.height);
  out.writeSVarintField(5, g.left);
  out.writeSVarintField(6, g.top);
  out.writeVarintField(7, g.advance);
}

/** The glyphs protobuf (MapLibre's glyphs.proto): one font stack with its range's glyphs. */
export function encodeGlyphs(name: string, start: number, glyphs: readonly Glyph[]): Buffer {
  const pbf = new PbfWriter();
  pbf.writeMessage(
    1,
    (list: readonly Glyph[], out) => {
      out.writeStringField(1, name);
      out.writeStringField(2, `${start}-${start + 255}`);
      for (const glyph of list) out.writeMessage(3, writeGlyph, glyph);
    },
    glyphs,
  );
  return Buffer.from(pbf.finish());
}

/** Bumped when the glyphs' drawing changes: part of the cache folder and of the versioned URLs. */
const MAKER = 2;

/** The font package's version and the maker's: part of the glyph URLs and of the cache folder. */
export function glyphsVersion(): string {
  const require = createRequire(import.meta.url);
  const file = require.resolve("@fontsource/noto-sans/package.json");
  return `noto-sans-${(JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version}-${MAKER}`;
}

export function createGlyphs(options: { cacheDir: string | null }) {
  const require = createRequire(import.meta.url);
  const filesDir = path.join(path.dirname(require.resolve("@fontsource/noto-sans/package.json")), "files");
  const fonts = new Map<BasemapFont, Font[]>();
  const ranges = new Map<string, Promise<Buffer>>();
  const sdf = new PreparedSdf();
  /** One range is drawn at a time: the SDF canvas is shared and the CPU is better spent serially. */
  let queue: Promise<unknown> = Promise.resolve();
  const cacheDir = options.cacheDir && path.join(options.cacheDir, glyphsVersion());

  function fontsOf(stack: BasemapFont): Font[] {
    let list = fonts.get(stack);
    if (!list) {
      list = FONT_FILES[stack].map((file) => readFont(path.join(filesDir, file)));
      fonts.set(stack, list);
    }
    return list;
  }

  async function make(stack: BasemapFont, start: number): Promise<Buffer> {
    const file = cacheDir && path.join(cacheDir, stack, `${start}-${start + 255}.pbf`);
    if (file) {
      const cached = await fs.promises.readFile(file).catch(() => null);
      if (cached) return cached;
    }
    const run = queue.then(async () => encodeGlyphs(stack, start, await drawRange(fontsOf(stack), start, sdf)));
    queue = run.catch(() => undefined);
    const body = await run;
    if (file) {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(temporary, body);
      await fs.promises.rename(temporary, file);
    }
    return body;
  }

  /** The range starting at `start` (a multiple of 256 below 65536) of a font stack. */
  function range(stack: BasemapFont, start: number): Promise<Buffer> {
    const key = `${stack}/${start}`;
    let promise = ranges.get(key);
    if (!promise) {
      promise = make(stack, start);
      promise.catch(() => ranges.delete(key));
      ranges.set(key, promise);
    }
    return promise;
  }

  return { range };
}
