/**
 * What the renderer reads of a track, computed once per track (points with a position, their
 * elevations, distances without the gaps between segments) and the line projected into the last
 * map frame it was drawn in: the creator redraws on every keystroke. Isomorphic, pure.
 */
import type { elevationContours } from "./contours.ts";
import { cumulative, type Frame, fitTrack, type TrackPoint } from "./geo.ts";

export type Geometry = {
  key: string;
  xy: [number, number][];
  fit: ReturnType<typeof fitTrack>;
  contours?: ReturnType<typeof elevationContours>;
  /** Indexes of the points drawn (thinned to the line's width). */
  kept?: number[];
  /** The thinned line as path data, and the "colour" style's pieces (path data, ramp position). */
  line?: string;
  colourPieces?: { d: string; t: number }[];
};
/** What the renderer reads of a track, whatever the design: computed once per track. */
export type TrackData = {
  /** The breaks it was computed with. */
  key: string;
  points: TrackPoint[];
  elevations: (number | null)[];
  hasElevation: boolean;
  /** Lowest and highest known elevation. */
  lo: number;
  hi: number;
  /** Distance from the start at each point, without the gaps between segments. */
  dist: Float64Array;
  /** The segment of each point (0 for the first). */
  segment: Int32Array;
};
const trackCache = new WeakMap<readonly TrackPoint[], TrackData>();

export function trackData(source: readonly TrackPoint[], breaks: readonly number[] | null | undefined): TrackData {
  const key = breaks?.length ? breaks.join(",") : "";
  let found = trackCache.get(source);
  if (found?.key !== key) {
    const cuts = new Set(breaks ?? []);
    const segmentOfSource = new Int32Array(source.length);
    for (let i = 1; i < source.length; i++) segmentOfSource[i] = segmentOfSource[i - 1] + (cuts.has(i) ? 1 : 0);
    const kept = source.flatMap((p, i) => (Number.isFinite(p[0]) && Number.isFinite(p[1]) ? [i] : []));
    const points = kept.map((i) => source[i]);
    const segment = Int32Array.from(kept, (i) => segmentOfSource[i]);
    const elevations = points.map((p) => (p[2] == null || !Number.isFinite(p[2]) ? null : p[2]));
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let known = 0;
    for (const e of elevations) {
      if (e == null) continue;
      known++;
      if (e < lo) lo = e;
      if (e > hi) hi = e;
    }
    const dist = cumulative(points);
    // No distance across a gap: every later point moves back by the gap's length.
    let gaps = 0;
    for (let i = 1; i < points.length; i++) {
      if (segment[i] !== segment[i - 1]) gaps += dist[i] - dist[i - 1];
      dist[i] -= gaps;
    }
    found = { key, points, elevations, hasElevation: known >= 2, lo, hi, dist, segment };
    trackCache.set(source, found);
  }
  return found;
}
/**
 * The projected line and its contours for the last frame a track was drawn in: the creator redraws
 * on every keystroke, and most changes (texts, colours, toggles) leave the map's frame as it was.
 */
const geometryCache = new WeakMap<readonly TrackPoint[], Geometry>();

export function geometryOf(
  source: readonly TrackPoint[],
  points: readonly TrackPoint[],
  map: Frame,
  padding: number,
  breaks: string,
): Geometry {
  const key = `${[map.x, map.y, map.w, map.h, padding].map((v) => v.toFixed(4)).join(",")}|${breaks}`;
  const cached = geometryCache.get(source);
  if (cached?.key === key) return cached;
  const fit = fitTrack(points, map, padding);
  const geometry: Geometry = { key, xy: fit.xy, fit };
  geometryCache.set(source, geometry);
  return geometry;
}
