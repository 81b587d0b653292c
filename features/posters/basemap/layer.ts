/**
 * The poster's basemap layer (decision 037): map data fetched on the server from the configured
 * sources (basemap.server.ts) and handed to the one renderer, so the renderer stays pure: design +
 * track + optional basemap layer → scene. The creator's preview gets the same layer as JSON from
 * GET /api/poster/basemap, the export job builds it itself.
 *
 * Coordinates are integers 0…Q across the layer's box (x to the east, y to the south), the box in
 * Web Mercator units (render/geo.ts `mercator`): the renderer maps them onto the page with the
 * track's own projection, so a layer fetched for a slightly different frame still lines up.
 * Isomorphic, no I/O.
 */
import { z } from "zod";
import { MAP_STYLE_IDS, type MapStyle } from "../poster.contract.ts";
import type { Frame } from "../render/geo.ts";

/** Grid of the layer's coordinates: 0…Q across the box (≈ 0.025 mm on a 50 cm map). */
export const Q = 20_000;

/** What a vector shape is, whatever the tile schema (OpenMapTiles or Protomaps) called it. */
export const SHAPE_KINDS = [
  "water",
  "waterway",
  "green",
  "farmland",
  "urban",
  "building",
  "road-major",
  "road-medium",
  "road-minor",
  "path",
  "rail",
] as const;
export type ShapeKind = (typeof SHAPE_KINDS)[number];

const flat = z.array(z.number().int());

/** France's administrative borders (decision 038), from the finest to the outline. */
export const BORDER_LEVELS = ["commune", "department", "region", "coast", "frontier"] as const;
export type BorderLevel = (typeof BORDER_LEVELS)[number];

export const basemapLayerSchema = z.object({
  style: z.enum(MAP_STYLE_IDS),
  /** minX, minY, maxX, maxY in Web Mercator units (y grows northwards). */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** A raster covering the whole box (shaded relief, aerial imagery): a PNG or JPEG data URL. */
  image: z.object({ href: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
  /** Contour lines from the elevation model: closed rings (flat x,y lists) per level. */
  contours: z
    .object({
      step: z.number(),
      min: z.number(),
      max: z.number(),
      levels: z.array(z.object({ value: z.number(), rings: z.array(flat) })),
    })
    .nullable(),
  /** Vector shapes: polygons (closed rings) or lines, already clipped to the box. */
  shapes: z.array(z.object({ kind: z.enum(SHAPE_KINDS), closed: z.boolean(), rings: z.array(flat) })),
  /**
   * France's open data (decision 038, basemap/opendata.server.ts): borders as lines, finest last
   * drawn first (communes, departments, regions, the coast and land frontier).
   */
  borders: z.array(z.object({ level: z.enum(BORDER_LEVELS), lines: z.array(flat) })).default([]),
  /** France's land (departments' polygons, closed rings): what is not land in the box is sea. */
  land: z.array(flat).default([]),
  /** Towns near the course, largest first: the renderer places the labels that fit. */
  places: z
    .array(
      z.object({
        name: z.string().max(80),
        population: z.number().int().min(0),
        x: z.number().int(),
        y: z.number().int(),
      }),
    )
    .default([]),
  /** Printed small in the map's corner (© OpenStreetMap contributors, the elevation's source). */
  credits: z.array(z.string()),
});
/** As built or received: `borders` and `places` may be left out (layers of decision 037). */
export type BasemapLayer = z.input<typeof basemapLayerSchema>;

export type BBox = [number, number, number, number];

/** Every tile (x, y) of zoom z that a Web Mercator box touches. */
export function tileCover(bbox: BBox, z: number): { x: number; y: number }[] {
  const n = 2 ** z;
  const tx = (mx: number) => ((mx + Math.PI) / (2 * Math.PI)) * n;
  const ty = (my: number) => ((Math.PI - my) / (2 * Math.PI)) * n;
  const x0 = Math.max(0, Math.floor(tx(bbox[0])));
  const x1 = Math.min(n - 1, Math.ceil(tx(bbox[2])) - 1);
  const y0 = Math.max(0, Math.floor(ty(bbox[3])));
  const y1 = Math.min(n - 1, Math.ceil(ty(bbox[1])) - 1);
  const out: { x: number; y: number }[] = [];
  for (let y = y0; y <= Math.max(y0, y1); y++) for (let x = x0; x <= Math.max(x0, x1); x++) out.push({ x, y });
  return out;
}

/**
 * The zoom whose tiles (of `tileSize` pixels) give about `pixels` across the box, no more than
 * `maxZoom`, and lowered until at most `maxTiles` tiles cover the box.
 */
export function zoomFor(bbox: BBox, pixels: number, tileSize: number, maxZoom: number, maxTiles: number): number {
  const span = Math.max(bbox[2] - bbox[0], 1e-12);
  let z = Math.ceil(Math.log2((pixels * 2 * Math.PI) / (span * tileSize)));
  z = Math.max(0, Math.min(maxZoom, z));
  while (z > 0 && tileCover(bbox, z).length > maxTiles) z--;
  return z;
}

// --- Clipping (Sutherland–Hodgman for rings, Liang–Barsky for lines), on flat x,y lists. ---

type Rect = { x0: number; y0: number; x1: number; y1: number };

export function clipRing(ring: readonly number[], r: Rect): number[] {
  let pts = ring;
  const edges: [(x: number, y: number) => boolean, (ax: number, ay: number, bx: number, by: number) => number[]][] = [
    [(x) => x >= r.x0, (ax, ay, bx, by) => [r.x0, ay + ((by - ay) * (r.x0 - ax)) / (bx - ax)]],
    [(x) => x <= r.x1, (ax, ay, bx, by) => [r.x1, ay + ((by - ay) * (r.x1 - ax)) / (bx - ax)]],
    [(_, y) => y >= r.y0, (ax, ay, bx, by) => [ax + ((bx - ax) * (r.y0 - ay)) / (by - ay), r.y0]],
    [(_, y) => y <= r.y1, (ax, ay, bx, by) => [ax + ((bx - ax) * (r.y1 - ay)) / (by - ay), r.y1]],
  ];
  for (const [inside, cut] of edges) {
    const out: number[] = [];
    const n = pts.length / 2;
    if (!n) break;
    for (let i = 0; i < n; i++) {
      const ax = pts[((i + n - 1) % n) * 2];
      const ay = pts[((i + n - 1) % n) * 2 + 1];
      const bx = pts[i * 2];
      const by = pts[i * 2 + 1];
      const ain = inside(ax, ay);
      const bin = inside(bx, by);
      if (bin) {
        if (!ain) out.push(...cut(ax, ay, bx, by));
        out.push(bx, by);
      } else if (ain) out.push(...cut(ax, ay, bx, by));
    }
    pts = out;
  }
  return pts.length >= 6 ? (pts as number[]) : [];
}

/** The pieces of a line inside the rectangle. */
export function clipLine(line: readonly number[], r: Rect): number[][] {
  const pieces: number[][] = [];
  let current: number[] = [];
  for (let i = 0; i + 3 < line.length; i += 2) {
    let t0 = 0;
    let t1 = 1;
    const ax = line[i];
    const ay = line[i + 1];
    const dx = line[i + 2] - ax;
    const dy = line[i + 3] - ay;
    const checks: [number, number][] = [
      [-dx, ax - r.x0],
      [dx, r.x1 - ax],
      [-dy, ay - r.y0],
      [dy, r.y1 - ay],
    ];
    let visible = true;
    for (const [p, q] of checks) {
      if (p === 0) {
        if (q < 0) visible = false;
      } else {
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t);
        else t1 = Math.min(t1, t);
      }
    }
    if (!visible || t0 > t1) {
      if (current.length >= 4) pieces.push(current);
      current = [];
      continue;
    }
    const sx = ax + t0 * dx;
    const sy = ay + t0 * dy;
    const ex = ax + t1 * dx;
    const ey = ay + t1 * dy;
    if (!current.length || t0 > 0) {
      if (current.length >= 4) pieces.push(current);
      current = [sx, sy];
    }
    current.push(ex, ey);
    if (t1 < 1) {
      pieces.push(current);
      current = [];
    }
  }
  if (current.length >= 4) pieces.push(current);
  return pieces;
}

// --- Drawing: the layer's shapes as scene primitives in page millimetres. ---

export type BasemapColors = { background: string; track: string; text: string; accent: string };

export type BasemapPrim =
  | { t: "path"; d: string; fill?: string; stroke?: string; width?: number; opacity?: number; round?: boolean }
  | { t: "rect"; x: number; y: number; w: number; h: number; fill: string; opacity?: number }
  | { t: "image"; x: number; y: number; w: number; h: number; href: string; clip: Frame; opacity?: number };

/** A contour level in page coordinates: `d` the closed rings, `line` without the frame's edges. */
export type PageContour = { value: number; d: string; line: string };

const f2 = (n: number) => n.toFixed(2);

function toPath(xy: readonly number[], close: boolean): string {
  let d = "";
  for (let i = 0; i + 1 < xy.length; i += 2) d += `${i ? "L" : "M"}${f2(xy[i])} ${f2(xy[i + 1])}`;
  return close && d ? `${d}Z` : d;
}

/** Page position of the layer's grid: x = ax + u·bx, y = ay + v·by. */
export function layerTransform(
  layer: Pick<BasemapLayer, "bbox">,
  toPage: (mx: number, my: number) => [number, number],
) {
  const [x0, y0] = toPage(layer.bbox[0], layer.bbox[3]);
  const [x1, y1] = toPage(layer.bbox[2], layer.bbox[1]);
  return { ax: x0, ay: y0, bx: (x1 - x0) / Q, by: (y1 - y0) / Q, x0, y0, x1, y1 };
}

function project(flatXy: readonly number[], t: ReturnType<typeof layerTransform>): number[] {
  const out = new Array<number>(flatXy.length);
  for (let i = 0; i < flatXy.length; i += 2) {
    out[i] = t.ax + flatXy[i] * t.bx;
    out[i + 1] = t.ay + flatXy[i + 1] * t.by;
  }
  return out;
}

/** The layer's contours on the page, clipped to the map frame (same shape as the track's contours). */
export function pageContours(
  layer: BasemapLayer,
  toPage: (mx: number, my: number) => [number, number],
  map: Frame,
): { bands: PageContour[]; step: number; min: number; max: number } | null {
  if (!layer.contours) return null;
  const t = layerTransform(layer, toPage);
  const rect = { x0: map.x, y0: map.y, x1: map.x + map.w, y1: map.y + map.h };
  const eps = 1e-6;
  const bands = layer.contours.levels.map((level) => {
    let d = "";
    let line = "";
    for (const ring of level.rings) {
      const page = project(ring, t);
      d += toPath(clipRing(page, rect), true);
      // A ring closes along the layer's box where the level leaves it: those stretches are no contour.
      let run: number[] = [];
      const flush = () => {
        for (const piece of clipLine(run, rect)) line += toPath(piece, false);
        run = [];
      };
      const closedRing = [...ring, ring[0], ring[1]];
      for (let i = 0; i < closedRing.length; i += 2) {
        const onEdge = (k: number) =>
          closedRing[k] <= eps || closedRing[k + 1] <= eps || closedRing[k] >= Q - eps || closedRing[k + 1] >= Q - eps;
        if (i > 0 && onEdge(i) && onEdge(i - 2)) {
          flush();
        }
        run.push(t.ax + closedRing[i] * t.bx, t.ay + closedRing[i + 1] * t.by);
      }
      flush();
    }
    return { value: level.value, d, line };
  });
  return {
    bands: bands.filter((b) => b.d || b.line),
    step: layer.contours.step,
    min: layer.contours.min,
    max: layer.contours.max,
  };
}

type ShapeStyle = { fill?: string; stroke?: string; width?: number; opacity?: number };

/** Per-style palettes, from the design's own colours where they suit (roads, city) or fixed (terrain). */
function shapeStyles(style: MapStyle, c: BasemapColors, short: number): Partial<Record<ShapeKind, ShapeStyle>> {
  const w = (k: number) => short * k;
  if (style === "terrain")
    return {
      farmland: { fill: "#e9e4c9", opacity: 0.55 },
      green: { fill: "#9cbf8a", opacity: 0.5 },
      urban: { fill: "#d9d2c5", opacity: 0.5 },
      water: { fill: "#8fb8d8", opacity: 0.9 },
      waterway: { stroke: "#8fb8d8", width: w(0.0009) },
      "road-major": { stroke: "#8a7f72", width: w(0.0016) },
      "road-medium": { stroke: "#8a7f72", width: w(0.0009) },
      "road-minor": { stroke: "#8a7f72", width: w(0.0005), opacity: 0.7 },
      path: { stroke: "#8a7f72", width: w(0.0003), opacity: 0.6 },
      rail: { stroke: "#6b6259", width: w(0.0006), opacity: 0.7 },
    };
  if (style === "city")
    return {
      green: { fill: c.accent, opacity: 0.18 },
      water: { fill: c.accent, opacity: 0.4 },
      waterway: { stroke: c.accent, width: w(0.001), opacity: 0.5 },
      building: { fill: c.text, opacity: 0.16 },
      "road-major": { stroke: c.text, width: w(0.0022), opacity: 0.55 },
      "road-medium": { stroke: c.text, width: w(0.0014), opacity: 0.5 },
      "road-minor": { stroke: c.text, width: w(0.0008), opacity: 0.45 },
      path: { stroke: c.text, width: w(0.0004), opacity: 0.35 },
      rail: { stroke: c.text, width: w(0.0006), opacity: 0.4 },
    };
  // roads: the streets alone, in the text colour; water in the accent.
  return {
    water: { fill: c.accent, opacity: 0.3 },
    waterway: { stroke: c.accent, width: w(0.0009), opacity: 0.45 },
    "road-major": { stroke: c.text, width: w(0.002), opacity: 0.75 },
    "road-medium": { stroke: c.text, width: w(0.0012), opacity: 0.65 },
    "road-minor": { stroke: c.text, width: w(0.0007), opacity: 0.55 },
    path: { stroke: c.text, width: w(0.00035), opacity: 0.4 },
    rail: { stroke: c.text, width: w(0.0005), opacity: 0.45 },
  };
}

/** Drawing order: land, water, buildings, then roads from the smallest up. */
const ORDER: ShapeKind[] = [
  "farmland",
  "green",
  "urban",
  "water",
  "waterway",
  "building",
  "path",
  "rail",
  "road-minor",
  "road-medium",
  "road-major",
];

/**
 * The layer's raster and vector shapes on the page (under the contours and the track), clipped to
 * the map frame; one path per kind keeps the scene small.
 */
export function basemapPrims(
  layer: BasemapLayer,
  style: MapStyle,
  colors: BasemapColors,
  short: number,
  toPage: (mx: number, my: number) => [number, number],
  map: Frame,
): BasemapPrim[] {
  const t = layerTransform(layer, toPage);
  const out: BasemapPrim[] = [];
  if (layer.image)
    out.push({
      t: "image",
      x: t.x0,
      y: t.y0,
      w: t.x1 - t.x0,
      h: t.y1 - t.y0,
      href: layer.image.href,
      clip: map,
    });
  if (!layer.shapes.length) return out;
  const styles = shapeStyles(style, colors, short);
  const rect = { x0: map.x, y0: map.y, x1: map.x + map.w, y1: map.y + map.h };
  const byKind = new Map<ShapeKind, string>();
  for (const shape of layer.shapes) {
    if (!styles[shape.kind]) continue;
    let d = byKind.get(shape.kind) ?? "";
    for (const ring of shape.rings) {
      const page = project(ring, t);
      if (shape.closed) d += toPath(clipRing(page, rect), true);
      else for (const piece of clipLine(page, rect)) d += toPath(piece, false);
    }
    byKind.set(shape.kind, d);
  }
  for (const kind of ORDER) {
    const d = byKind.get(kind);
    const s = styles[kind];
    if (!d || !s) continue;
    if (s.fill) out.push({ t: "path", d, fill: s.fill, opacity: s.opacity });
    else out.push({ t: "path", d, stroke: s.stroke, width: s.width, opacity: s.opacity, round: true });
  }
  return out;
}

// --- Boxes: the renderer's view (Web Mercator) ↔ the API's west, south, east, north in degrees. ---

const DEG = 180 / Math.PI;

export function bboxToDegrees(b: BBox): BBox {
  const lat = (y: number) => Math.atan(Math.sinh(y)) * DEG;
  return [b[0] * DEG, lat(b[1]), b[2] * DEG, lat(b[3])];
}

export function degreesToBbox(d: BBox): BBox {
  const y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + lat / DEG / 2));
  return [d[0] / DEG, y(d[1]), d[2] / DEG, y(d[3])];
}

/**
 * The box a basemap is fetched for: the view grown by `grow` of its size on each side (so a small
 * change of the layout keeps the layer), rounded outwards to a 1/1000 of its size (so the same
 * poster asks the same question and the answer can be cached).
 */
export function basemapBox(view: BBox, grow = 0.1): BBox {
  const w = view[2] - view[0];
  const h = view[3] - view[1];
  const unit = Math.max(w, h) / 1000;
  const down = (v: number) => Math.floor(v / unit) * unit;
  const up = (v: number) => Math.ceil(v / unit) * unit;
  return [down(view[0] - w * grow), down(view[1] - h * grow), up(view[2] + w * grow), up(view[3] + h * grow)];
}

/** Whether `layer` covers `view` at about the detail needed (not 1.6× coarser or finer). */
export function layerCovers(layer: Pick<BasemapLayer, "bbox">, view: BBox): boolean {
  const [a, b, c, d] = layer.bbox;
  const inside = a <= view[0] && b <= view[1] && c >= view[2] && d >= view[3];
  const ratio = (c - a) / Math.max(view[2] - view[0], 1e-12);
  return inside && ratio < 1.6;
}
