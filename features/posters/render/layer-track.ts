/**
 * The track layers: the line (thinned to what print can show, on a halo of the background; in
 * the "colour" style, cut into pieces along the hypsometric ramp), the kilometre marks and the
 * start and finish markers. Isomorphic, pure.
 */
import type { PosterDesign } from "../poster.contract.ts";
import type { OtFont } from "./fonts.ts";
import { HYPSO, type Prim, polyline, ramp } from "./scene.ts";
import { fitText, textPath } from "./text.ts";
import type { Geometry, TrackData } from "./track-data.ts";

/**
 * Every point at least `minGap` page units from the last one kept; the first and last points of
 * each segment (`segment`: the segment of each point) are always kept.
 */
function thin(xy: readonly [number, number][], minGap: number, segment: ArrayLike<number>): number[] {
  const kept = [0];
  let [lx, ly] = xy[0];
  const last = xy.length - 1;
  for (let i = 1; i < last; i++) {
    const dx = xy[i][0] - lx;
    const dy = xy[i][1] - ly;
    const end = segment[i] !== segment[i - 1] || segment[i] !== segment[i + 1];
    if (end || dx * dx + dy * dy >= minGap * minGap) {
      kept.push(i);
      [lx, ly] = xy[i];
    }
  }
  if (xy.length > 1) kept.push(last);
  return kept;
}

/** Positions in `kept` (indexes of points) where a new segment starts. */
function keptStarts(kept: readonly number[], segment: ArrayLike<number>): Set<number> {
  const starts = new Set<number>();
  for (let k = 1; k < kept.length; k++) if (segment[kept[k]] !== segment[kept[k - 1]]) starts.add(k);
  return starts;
}

/** The line cut where its elevation moves to another of 48 steps of the colour ramp. */
function colourPieces(
  kept: [number, number][],
  idx: number[],
  elevations: (number | null)[],
  hasElevation: boolean,
  starts: ReadonlySet<number>,
): { d: string; t: number }[] {
  const keptEle = idx.map((i) => elevations[i]);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const e of keptEle) {
    if (e == null) continue;
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  const value = (k: number) => {
    const e = keptEle[k];
    return hasElevation && e != null && hi > lo ? (e - lo) / (hi - lo) : k / Math.max(kept.length - 1, 1);
  };
  const BUCKETS = 48;
  const pieces: { d: string; t: number }[] = [];
  let start = 0;
  let bucket = Math.round(value(0) * BUCKETS);
  for (let k = 1; k < kept.length; k++) {
    if (starts.has(k)) {
      // A gap: the piece ends with its segment, the next starts with the next segment.
      if (k - 1 > start) pieces.push({ d: polyline(kept, start, k - 1), t: bucket / BUCKETS });
      start = k;
      bucket = Math.round(value(k) * BUCKETS);
      continue;
    }
    const b = Math.round(value(k) * BUCKETS);
    if (b !== bucket || k === kept.length - 1) {
      pieces.push({ d: polyline(kept, start, k), t: bucket / BUCKETS });
      start = k;
      bucket = b;
    }
  }
  return pieces;
}

/**
 * The line with its halo; `kept` are the page positions of the points drawn (town names keep
 * clear of them).
 */
export function trackLinePrims(
  geometry: Geometry,
  track: Pick<TrackData, "elevations" | "hasElevation" | "segment">,
  drawnStyle: PosterDesign["mapStyle"],
  colors: PosterDesign["colors"],
  strokeW: number,
): { prims: Prim[]; kept: [number, number][] } {
  const prims: Prim[] = [];
  const { xy } = geometry;
  const { elevations, hasElevation, segment } = track;
  // Points closer than half the line's width apart cannot be seen at print size.
  geometry.kept ??= thin(xy, strokeW * 0.5, segment);
  const idx = geometry.kept;
  const kept = idx.map((i) => xy[i]);
  const starts = keptStarts(idx, segment);
  // A halo in the background colour keeps the line readable over contours.
  // The same strings from one redraw to the next: the preview's React diff sees them unchanged.
  geometry.line ??= polyline(kept, 0, kept.length - 1, starts);
  prims.push({ t: "path", d: geometry.line, stroke: colors.background, width: strokeW * 2.6, round: true });
  if (drawnStyle === "colour") {
    geometry.colourPieces ??= colourPieces(kept, idx, elevations, hasElevation, starts);
    for (const piece of geometry.colourPieces)
      prims.push({ t: "path", d: piece.d, stroke: ramp(HYPSO, piece.t), width: strokeW * 1.3, round: true });
  } else {
    prims.push({ t: "path", d: geometry.line, stroke: colors.track, width: strokeW, round: true });
  }
  return { prims, kept };
}

/** A numbered mark at every kilometre (or every 2, 5, 10… km: 30 marks at most). */
export function kmMarkerPrims(
  xy: readonly [number, number][],
  dist: Float64Array,
  totalM: number,
  bold: OtFont,
  colors: PosterDesign["colors"],
  short: number,
  strokeW: number,
): Prim[] {
  const prims: Prim[] = [];
  const steps = [1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];
  const step = steps.find((s) => totalM / s <= 30) ?? 100_000;
  const r = short * 0.011;
  let next = step;
  for (let i = 1; i < xy.length && next < totalM - step * 0.3; i++) {
    if (dist[i] < next) continue;
    const [x, y] = xy[i];
    prims.push({
      t: "circle",
      cx: x,
      cy: y,
      r,
      fill: colors.background,
      stroke: colors.track,
      width: strokeW * 0.5,
    });
    const label = String(next / 1000);
    const fit = fitText(bold, label, {
      maxWidth: r * 1.5,
      maxHeight: r * 1.1,
      maxSize: r * 1.05,
      minSize: r * 0.4,
    });
    if (fit.lines[0]) {
      const size = fit.size;
      prims.push({
        t: "path",
        d: textPath(bold, fit.lines[0], x - fit.widths[0] / 2, y + size * 0.36, size),
        fill: colors.text,
      });
    }
    next += step;
  }
  return prims;
}

/** The finish (a ringed dot) under the start (a dot in the track's colour). */
export function startFinishPrims(
  xy: readonly [number, number][],
  drawnStyle: PosterDesign["mapStyle"],
  colors: PosterDesign["colors"],
  short: number,
  strokeW: number,
): Prim[] {
  const prims: Prim[] = [];
  const r = short * 0.009;
  const [sx, sy] = xy[0];
  const [ex, ey] = xy[xy.length - 1];
  prims.push({
    t: "circle",
    cx: ex,
    cy: ey,
    r,
    fill: colors.background,
    stroke: colors.text,
    width: strokeW * 0.8,
  });
  prims.push({ t: "circle", cx: ex, cy: ey, r: r * 0.45, fill: colors.text });
  prims.push({
    t: "circle",
    cx: sx,
    cy: sy,
    r: r * 0.8,
    fill: drawnStyle === "colour" ? HYPSO[0] : colors.track,
    stroke: colors.background,
    width: strokeW * 0.6,
  });
  return prims;
}
