/**
 * France's open data on the poster (decision 038): administrative borders as hairlines under the
 * track and the names of the towns the course passes through or near, in the design's own colours
 * (mixed from its background and text, so every palette works, dark or light). Labels are placed
 * here, by the one renderer, because where they fit depends on the page: largest towns first,
 * never over one another, the track's markers, the credits or outside the map frame.
 * Isomorphic, pure.
 */
import type { BasemapLayer, BorderLevel } from "../basemap/layer.ts";
import { clipLine, clipRing, layerTransform } from "../basemap/layer.ts";
import type { OtFont } from "./fonts.ts";
import type { Frame } from "./geo.ts";
import { measure, textPath } from "./text.ts";

export type Rect = { x: number; y: number; w: number; h: number };
type Colors = { background: string; text: string; accent: string };
type PathPrim = { t: "path"; d: string; fill?: string; stroke?: string; width?: number; round?: boolean };
type DotPrim = { t: "circle"; cx: number; cy: number; r: number; fill: string };

/** The colour `t` of the way from `a` to `b` (#rrggbb), channel by channel. */
export function mix(a: string, b: string, t: number): string {
  const pa = [1, 3, 5].map((i) => Number.parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => Number.parseInt(b.slice(i, i + 2), 16));
  return `#${pa
    .map((v, i) => Math.round(v + (pb[i] - v) * t))
    .map((v) => v.toString(16).padStart(2, "0"))
    .join("")}`;
}

/** Each level's share of the text colour over the background, and its width (× the paper's short side). */
const BORDER_LOOK: Record<BorderLevel, { ink: number; width: number }> = {
  commune: { ink: 0.2, width: 0.00022 },
  department: { ink: 0.36, width: 0.00045 },
  region: { ink: 0.42, width: 0.0006 },
  frontier: { ink: 0.5, width: 0.0007 },
  coast: { ink: 0.55, width: 0.0007 },
};
const ORDER: BorderLevel[] = ["commune", "department", "region", "frontier", "coast"];

const f2 = (n: number) => n.toFixed(2);

/** The borders on the page, clipped to the map frame: one path per level, the finest drawn first. */
export function borderPrims(
  layer: BasemapLayer,
  colors: Colors,
  short: number,
  toPage: (mx: number, my: number) => [number, number],
  map: Frame,
): PathPrim[] {
  if (!layer.borders?.length) return [];
  const t = layerTransform(layer, toPage);
  const rect = { x0: map.x, y0: map.y, x1: map.x + map.w, y1: map.y + map.h };
  const out: PathPrim[] = [];
  for (const level of ORDER) {
    let d = "";
    for (const group of layer.borders) {
      if (group.level !== level) continue;
      for (const line of group.lines) {
        const page = new Array<number>(line.length);
        for (let i = 0; i < line.length; i += 2) {
          page[i] = t.ax + line[i] * t.bx;
          page[i + 1] = t.ay + line[i + 1] * t.by;
        }
        for (const piece of clipLine(page, rect)) {
          for (let i = 0; i < piece.length; i += 2) d += `${i ? "L" : "M"}${f2(piece[i])} ${f2(piece[i + 1])}`;
        }
      }
    }
    if (!d) continue;
    const look = BORDER_LOOK[level];
    out.push({
      t: "path",
      d,
      stroke: mix(colors.background, colors.text, look.ink),
      width: short * look.width,
      round: true,
    });
  }
  return out;
}

/**
 * The sea of a coast's box: the map frame tinted with the accent, France's land over it in the
 * background colour (nothing when the layer has no coast).
 */
export function landPrims(
  layer: BasemapLayer,
  colors: Colors,
  toPage: (mx: number, my: number) => [number, number],
  map: Frame,
): (PathPrim | { t: "rect"; x: number; y: number; w: number; h: number; fill: string })[] {
  if (!layer.land?.length) return [];
  const t = layerTransform(layer, toPage);
  const rect = { x0: map.x, y0: map.y, x1: map.x + map.w, y1: map.y + map.h };
  let d = "";
  for (const ring of layer.land) {
    const page = new Array<number>(ring.length);
    for (let i = 0; i < ring.length; i += 2) {
      page[i] = t.ax + ring[i] * t.bx;
      page[i + 1] = t.ay + ring[i + 1] * t.by;
    }
    const clipped = clipRing(page, rect);
    for (let i = 0; i < clipped.length; i += 2) d += `${i ? "L" : "M"}${f2(clipped[i])} ${f2(clipped[i + 1])}`;
    if (clipped.length) d += "Z";
  }
  return [
    { t: "rect", ...map, fill: mix(colors.background, colors.accent, 0.22) },
    ...(d ? [{ t: "path" as const, d, fill: colors.background }] : []),
  ];
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Rect, f: Frame) => a.x >= f.x && a.y >= f.y && a.x + a.w <= f.x + f.w && a.y + a.h <= f.y + f.h;

/** The most names printed: a poster, not a road atlas. */
export const MAX_LABELS = 12;

export type PlacedLabel = Rect & { name: string; size: number };

/**
 * The town names that fit: towns within reach of the track first (largest first), then the other
 * large towns of the frame; each tried right, left, above and below its dot, kept where its box is
 * inside the map frame and touches no other label, no `avoid` box and not the track's line.
 */
export function townLabels(
  layer: BasemapLayer,
  font: OtFont,
  colors: Colors,
  short: number,
  toPage: (mx: number, my: number) => [number, number],
  map: Frame,
  track: readonly [number, number][],
  avoid: Rect[],
): { prims: (PathPrim | DotPrim)[]; labels: PlacedLabel[] } {
  const places = layer.places ?? [];
  if (!places.length) return { prims: [], labels: [] };
  const t = layerTransform(layer, toPage);
  const reach = short * 0.06;
  // The track's points on a coarse grid, to tell near towns and labels over the line.
  const cell = short * 0.02;
  const grid = new Map<string, [number, number][]>();
  for (const p of track) {
    const key = `${Math.floor(p[0] / cell)}:${Math.floor(p[1] / cell)}`;
    const list = grid.get(key);
    if (list) list.push(p);
    else grid.set(key, [p]);
  }
  const nearTrack = (x: number, y: number, r: number) => {
    const c0 = Math.floor((x - r) / cell);
    const c1 = Math.floor((x + r) / cell);
    const r0 = Math.floor((y - r) / cell);
    const r1 = Math.floor((y + r) / cell);
    for (let cx = c0; cx <= c1; cx++)
      for (let cy = r0; cy <= r1; cy++)
        for (const [px, py] of grid.get(`${cx}:${cy}`) ?? []) if ((px - x) ** 2 + (py - y) ** 2 <= r * r) return true;
    return false;
  };
  const boxOnTrack = (b: Rect) => {
    const pad = short * 0.003;
    const c0 = Math.floor((b.x - pad) / cell);
    const c1 = Math.floor((b.x + b.w + pad) / cell);
    const r0 = Math.floor((b.y - pad) / cell);
    const r1 = Math.floor((b.y + b.h + pad) / cell);
    for (let cx = c0; cx <= c1; cx++)
      for (let cy = r0; cy <= r1; cy++)
        for (const [px, py] of grid.get(`${cx}:${cy}`) ?? [])
          if (px >= b.x - pad && px <= b.x + b.w + pad && py >= b.y - pad && py <= b.y + b.h + pad) return true;
    return false;
  };

  const candidates = places
    .map((p) => {
      const x = t.ax + p.x * t.bx;
      const y = t.ay + p.y * t.by;
      return { ...p, px: x, py: y, near: nearTrack(x, y, reach) };
    })
    .filter((p) => p.px >= map.x && p.py >= map.y && p.px <= map.x + map.w && p.py <= map.y + map.h)
    .sort((a, b) => Number(b.near) - Number(a.near) || b.population - a.population);

  const largest = Math.max(...candidates.map((c) => c.population), 1);
  const ink = mix(colors.background, colors.text, 0.78);
  const prims: (PathPrim | DotPrim)[] = [];
  const labels: PlacedLabel[] = [];
  const taken = [...avoid];
  const tracking = 0.08;
  for (const c of candidates) {
    if (labels.length >= MAX_LABELS) break;
    // Two sizes: the frame's main towns, and the others.
    const major = c.population >= largest * 0.25 && c.population >= 10_000;
    const size = short * (major ? 0.0125 : 0.0095);
    const name = c.name.toUpperCase();
    const w = measure(font, name, size, tracking);
    const h = size * 0.78;
    const gap = size * 0.45;
    const dot = short * 0.0016;
    const tries: Rect[] = [
      { x: c.px + gap, y: c.py - h / 2, w, h },
      { x: c.px - gap - w, y: c.py - h / 2, w, h },
      { x: c.px - w / 2, y: c.py - gap - h, w, h },
      { x: c.px - w / 2, y: c.py + gap, w, h },
    ];
    const margin = size * 0.25;
    const grown = (b: Rect): Rect => ({ x: b.x - margin, y: b.y - margin, w: b.w + 2 * margin, h: b.h + 2 * margin });
    const dotBox: Rect = { x: c.px - dot * 2, y: c.py - dot * 2, w: dot * 4, h: dot * 4 };
    // The main town by the course is named even where the line or a marker is (its halo keeps it
    // readable; its dot is left out under a marker).
    const main = c === candidates[0] && c.near;
    const dotFree = !taken.some((b) => overlaps(dotBox, b));
    if (!dotFree && !main) continue;
    const free = (b: Rect) => inside(grown(b), map) && !taken.some((o) => overlaps(grown(b), o));
    const box = tries.find((b) => free(b) && !boxOnTrack(b)) ?? (main ? tries.find(free) : undefined);
    if (!box) continue;
    taken.push(grown(box), dotBox);
    labels.push({ ...box, name: c.name, size });
    if (dotFree) prims.push({ t: "circle", cx: c.px, cy: c.py, r: dot, fill: ink });
    const d = textPath(font, name, box.x, box.y + h, size, tracking);
    // A halo of the background keeps the name readable over the borders.
    prims.push({ t: "path", d, stroke: colors.background, width: size * 0.22, round: true });
    prims.push({ t: "path", d, fill: ink });
  }
  return { prims, labels };
}
