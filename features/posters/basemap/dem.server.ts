/**
 * Elevation tiles (Terrarium or Mapbox terrain-RGB PNGs, decision 037) → an elevation grid over the
 * layer's box → shaded relief (a PNG drawn by sharp) and contour lines (d3-contour).
 */
import { contours } from "d3-contour";
import sharp from "sharp";
import { contourStep } from "../render/contours.ts";
import { type BBox, Q } from "./layer.ts";

export type DemEncoding = "terrarium" | "mapbox";

/** The encoding named by POSTER_DEM_ENCODING, else guessed from the URL (terrarium unless it says mapbox/terrain-rgb). */
export function demEncodingOf(url: string, explicit?: string): DemEncoding {
  if (explicit === "terrarium" || explicit === "mapbox") return explicit;
  return /mapbox|terrain-rgb/i.test(url) ? "mapbox" : "terrarium";
}

/** Metres from one pixel's red, green and blue. */
export function elevationOf(r: number, g: number, b: number, encoding: DemEncoding): number {
  return encoding === "terrarium" ? r * 256 + g + b / 256 - 32768 : -10000 + (r * 65536 + g * 256 + b) * 0.1;
}

export type DemTile = { size: number; heights: Float32Array };

export async function decodeDemTile(png: Buffer, encoding: DemEncoding): Promise<DemTile> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== info.height) throw new Error(`DEM tile is not square (${info.width}×${info.height})`);
  const heights = new Float32Array(info.width * info.height);
  for (let i = 0; i < heights.length; i++)
    heights[i] = elevationOf(data[i * 3], data[i * 3 + 1], data[i * 3 + 2], encoding);
  return { size: info.width, heights };
}

export type ElevationGrid = {
  cols: number;
  rows: number;
  /** Row by row from the north-west corner; each value at its cell's centre. */
  values: Float32Array;
  /** Ground size of a cell, metres. */
  cellM: number;
  min: number;
  max: number;
};

/** Samples the tiles of zoom `z` (bilinear) at the centres of a cols × rows grid over the box. */
export function sampleGrid(
  tiles: Map<string, DemTile | null>,
  z: number,
  bbox: BBox,
  cols: number,
  rows: number,
): ElevationGrid {
  const world = 2 ** z;
  const first = [...tiles.values()].find((t) => t);
  const size = first?.size ?? 256;
  const values = new Float32Array(cols * rows);
  const spanX = bbox[2] - bbox[0];
  const spanY = bbox[3] - bbox[1];
  // The tiles in a dense array over their range (a Map lookup by a made-up key for each of the
  // 4 samples of millions of cells was most of the time).
  let tx0 = Number.POSITIVE_INFINITY;
  let ty0 = Number.POSITIVE_INFINITY;
  let tx1 = Number.NEGATIVE_INFINITY;
  let ty1 = Number.NEGATIVE_INFINITY;
  for (const key of tiles.keys()) {
    const [tx, ty] = key.split("/").map(Number);
    tx0 = Math.min(tx0, tx);
    ty0 = Math.min(ty0, ty);
    tx1 = Math.max(tx1, tx);
    ty1 = Math.max(ty1, ty);
  }
  const tcols = Number.isFinite(tx0) ? tx1 - tx0 + 1 : 0;
  const trows = Number.isFinite(ty0) ? ty1 - ty0 + 1 : 0;
  const dense: (Float32Array | null)[] = new Array(tcols * trows).fill(null);
  for (const [key, tile] of tiles) {
    const [tx, ty] = key.split("/").map(Number);
    dense[(ty - ty0) * tcols + (tx - tx0)] = tile?.heights ?? null;
  }
  /** The height at pixel (px, py) of the tile in row r, column c of the dense array; 0 where none. */
  const at = (r: number, c: number, py: number, px: number): number => {
    if (r < 0 || c < 0 || r >= trows || c >= tcols) return 0;
    const heights = dense[r * tcols + c];
    return heights ? heights[py * size + px] : 0;
  };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const maxG = world * size - 1;
  // Each column's two samples (tile column, pixel) and weight are the same on every row.
  const c0 = new Int32Array(cols);
  const p0 = new Int32Array(cols);
  const c1 = new Int32Array(cols);
  const p1 = new Int32Array(cols);
  const cfx = new Float64Array(cols);
  for (let i = 0; i < cols; i++) {
    const mx = bbox[0] + ((i + 0.5) / cols) * spanX;
    const gx = ((mx + Math.PI) / (2 * Math.PI)) * world * size - 0.5;
    const x0 = Math.max(0, Math.min(maxG, Math.floor(gx)));
    const x1 = Math.min(maxG, x0 + 1);
    c0[i] = Math.floor(x0 / size) - tx0;
    p0[i] = x0 % size;
    c1[i] = Math.floor(x1 / size) - tx0;
    p1[i] = x1 % size;
    cfx[i] = Math.max(0, Math.min(1, gx - x0));
  }
  for (let j = 0; j < rows; j++) {
    const my = bbox[3] - ((j + 0.5) / rows) * spanY;
    const gy = ((Math.PI - my) / (2 * Math.PI)) * world * size - 0.5;
    const y0 = Math.max(0, Math.min(maxG, Math.floor(gy)));
    const y1 = Math.min(maxG, y0 + 1);
    const fy = Math.max(0, Math.min(1, gy - y0));
    const r0 = Math.floor(y0 / size) - ty0;
    const q0 = y0 % size;
    const r1 = Math.floor(y1 / size) - ty0;
    const q1 = y1 % size;
    for (let i = 0; i < cols; i++) {
      const fx = cfx[i];
      const top = at(r0, c0[i], q0, p0[i]) * (1 - fx) + at(r0, c1[i], q0, p1[i]) * fx;
      const bottom = at(r1, c0[i], q1, p0[i]) * (1 - fx) + at(r1, c1[i], q1, p1[i]) * fx;
      const v = top * (1 - fy) + bottom * fy;
      values[j * cols + i] = v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  // Mercator is conformal: a cell is as tall as it is wide on the ground, R·cos(φ)·Δx.
  const latMid = Math.atan(Math.sinh((bbox[1] + bbox[3]) / 2));
  const cellM = (6_371_008.8 * Math.cos(latMid) * spanX) / cols;
  return { cols, rows, values, cellM, min, max };
}

/**
 * Lambertian shading, light from the north-west 45° above the horizon: 0 facing away, 1 facing the
 * light; flat ground is cos 45° ≈ 0.71. `exaggeration` multiplies the slopes.
 */
export function hillshade(grid: ElevationGrid, exaggeration: number): Float32Array {
  const { cols, rows, values, cellM } = grid;
  const out = new Float32Array(cols * rows);
  const lx = -0.5;
  const ly = 0.5;
  const lz = Math.SQRT1_2;
  for (let j = 0; j < rows; j++) {
    const jn = Math.max(0, j - 1);
    const js = Math.min(rows - 1, j + 1);
    for (let i = 0; i < cols; i++) {
      const iw = Math.max(0, i - 1);
      const ie = Math.min(cols - 1, i + 1);
      const dzdx = ((values[j * cols + ie] - values[j * cols + iw]) / ((ie - iw || 1) * cellM)) * exaggeration;
      // Rows go southwards: the northward slope is minus the slope down the rows.
      const dzdy = (-(values[js * cols + i] - values[jn * cols + i]) / ((js - jn || 1) * cellM)) * exaggeration;
      const len = Math.sqrt(dzdx * dzdx + dzdy * dzdy + 1);
      out[j * cols + i] = Math.max(0, (-dzdx * lx - dzdy * ly + lz) / len);
    }
  }
  return out;
}

const HYPSO: [number, number, number][] = [
  [172, 208, 165],
  [148, 191, 139],
  [189, 204, 150],
  [228, 223, 175],
  [220, 196, 150],
  [196, 168, 128],
  [235, 232, 226],
];

/** Channel `k` of the hypsometric tint at `t` (0 lowest … 1 highest); no array made per pixel. */
function hypso(t: number, k: number): number {
  const x = Math.max(0, Math.min(1, t)) * (HYPSO.length - 1);
  const i = Math.min(Math.floor(x), HYPSO.length - 2);
  const f = x - i;
  return HYPSO[i][k] + (HYPSO[i + 1][k] - HYPSO[i][k]) * f;
}

export type ReliefLook = "simple" | "detailed" | "dark" | "relief" | "terrain";

/**
 * The shaded relief as a PNG data URL. "simple", "detailed" and "terrain" are a transparent overlay
 * (black shadows, white light) that lies on the poster's own background; "dark" and "relief"
 * (hypsometric tints) are opaque.
 */
export async function reliefImage(grid: ElevationGrid, look: ReliefLook): Promise<string> {
  // Slopes look gentler on coarse cells: exaggerate more as cells grow (≈1× at 10 m, 4× at 160 m).
  const scale = Math.min(6, Math.max(1, Math.sqrt(grid.cellM / 10)));
  const base = look === "detailed" ? 2 : look === "terrain" ? 1.2 : 1.5;
  const shade = hillshade(grid, base * scale);
  const { cols, rows } = grid;
  const px = Buffer.alloc(cols * rows * 4);
  const flat = Math.SQRT1_2;
  const span = Math.max(grid.max - grid.min, 1);
  const strength = look === "detailed" ? 0.8 : look === "terrain" ? 0.45 : 0.6;
  for (let i = 0; i < cols * rows; i++) {
    const s = shade[i];
    const o = i * 4;
    if (look === "dark") {
      const v = 18 + 190 * s ** 1.4;
      px[o] = v * 0.9;
      px[o + 1] = v * 0.95;
      px[o + 2] = v * 1.08 > 255 ? 255 : v * 1.08;
      px[o + 3] = 255;
    } else if (look === "relief") {
      const t = (grid.values[i] - grid.min) / span;
      const k = 0.45 + 0.75 * s;
      px[o] = Math.min(255, hypso(t, 0) * k);
      px[o + 1] = Math.min(255, hypso(t, 1) * k);
      px[o + 2] = Math.min(255, hypso(t, 2) * k);
      px[o + 3] = 255;
    } else {
      const delta = s - flat;
      const light = delta > 0;
      const v = light ? 255 : 0;
      px[o] = v;
      px[o + 1] = v;
      px[o + 2] = v;
      px[o + 3] = Math.round(255 * Math.min(1, Math.abs(delta) * (light ? 1.2 : 1.6)) * strength);
    }
  }
  // The opaque looks without an alpha channel: pdfkit embeds such a PNG's data as it is, where it
  // would split an alpha channel out in JavaScript (most of the PDF's time with a relief).
  const image = sharp(px, { raw: { width: cols, height: rows, channels: 4 } });
  if (look === "relief" || look === "dark") image.removeAlpha();
  const png = await image
    .png({ compressionLevel: 9, palette: look !== "relief", colours: 256, dither: 0.6 })
    .toBuffer();
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** Contour rings over the layer's grid (0…Q), about `count` levels between the lowest and highest points. */
export function demContours(grid: ElevationGrid, count: number) {
  const span = grid.max - grid.min;
  if (!(span >= 2)) return null;
  const step = contourStep(span, count);
  const thresholds: number[] = [];
  for (let t = Math.ceil(grid.min / step) * step; t <= grid.max; t += step) thresholds.push(t);
  const sx = Q / grid.cols;
  const sy = Q / grid.rows;
  const levels = contours()
    .size([grid.cols, grid.rows])
    .smooth(true)
    .thresholds(thresholds)(Array.from(grid.values))
    .map((geometry) => {
      const rings: number[][] = [];
      for (const polygon of geometry.coordinates)
        for (const ring of polygon) {
          const flatRing: number[] = [];
          let lx = Number.NaN;
          let ly = Number.NaN;
          for (const [x, y] of ring) {
            const qx = Math.round(x * sx);
            const qy = Math.round(y * sy);
            if (qx === lx && qy === ly) continue;
            flatRing.push(qx, qy);
            lx = qx;
            ly = qy;
          }
          if (flatRing.length >= 6) rings.push(flatRing);
        }
      return { value: geometry.value, rings };
    })
    .filter((l) => l.rings.length);
  return { step, min: grid.min, max: grid.max, levels };
}
