/** Small geometry helpers for maps and track lines, on [lng, lat] positions (GeoJSON order). */

export type LngLat = [lng: number, lat: number];
/** A point of a stored track: longitude, latitude (degrees) and elevation (metres, null when the file has none). */
export type TrackPoint = [lng: number, lat: number, ele: number | null];
/** [west, south, east, north]. */
export type Bounds = [number, number, number, number];
/** A position: [lng, lat] followed by anything (an elevation, maybe null). */
export type PositionLike = readonly [number, number, ...unknown[]];

/** Bounds of positions, or null when there are none. */
export function boundsOf(positions: Iterable<PositionLike>): Bounds | null {
  let west = Number.POSITIVE_INFINITY;
  let south = Number.POSITIVE_INFINITY;
  let east = Number.NEGATIVE_INFINITY;
  let north = Number.NEGATIVE_INFINITY;
  for (const [lng, lat] of positions) {
    if (!Number.isFinite(lng) || !Number.isFinite(lat)) continue;
    west = Math.min(west, lng);
    east = Math.max(east, lng);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return Number.isFinite(west) ? [west, south, east, north] : null;
}

const METRES_PER_DEGREE = 111_320;

/**
 * Douglas–Peucker simplification in local metres: keeps the first and last points and every point
 * further than `tolerance` metres from the simplified line. Extra coordinates (elevation) are kept.
 */
export function simplifyLine<T extends PositionLike>(points: readonly T[], tolerance: number): T[] {
  if (points.length <= 2) return [...points];
  const lat0 = points[0][1];
  const kx = METRES_PER_DEGREE * Math.cos((lat0 * Math.PI) / 180);
  const ky = METRES_PER_DEGREE;
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  const sq = tolerance * tolerance;
  while (stack.length) {
    const [first, last] = stack.pop()!;
    const ax = points[first][0] * kx;
    const ay = points[first][1] * ky;
    const dx = points[last][0] * kx - ax;
    const dy = points[last][1] * ky - ay;
    const len = dx * dx + dy * dy;
    let worst = -1;
    let worstDistance = sq;
    for (let i = first + 1; i < last; i++) {
      const px = points[i][0] * kx - ax;
      const py = points[i][1] * ky - ay;
      const t = len > 0 ? Math.max(0, Math.min(1, (px * dx + py * dy) / len)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d = ex * ex + ey * ey;
      if (d > worstDistance) {
        worst = i;
        worstDistance = d;
      }
    }
    if (worst !== -1) {
      keep[worst] = 1;
      stack.push([first, worst], [worst, last]);
    }
  }
  return points.filter((_, i) => keep[i] === 1);
}

/**
 * Simplifies a line until it has at most `maxPoints` points, raising the tolerance from `start`
 * metres. Lines already short enough come back unchanged.
 */
export function simplifyToCount<T extends PositionLike>(points: readonly T[], maxPoints: number, start = 5): T[] {
  if (points.length <= maxPoints) return [...points];
  let tolerance = start;
  let out = simplifyLine(points, tolerance);
  while (out.length > maxPoints && tolerance < 100_000) {
    tolerance *= 1.6;
    out = simplifyLine(points, tolerance);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Segments. A track may be several pieces (GPX <trkseg>s: a pause, a lift, a file stitched from
// several recordings): stored as one list of points and `breaks`, the indexes where each piece but
// the first starts. Nothing is ever drawn, measured or written across a break.

/** Breaks as they must be: whole numbers strictly inside (0, length), ascending, without repeats. */
export function normaliseBreaks(breaks: readonly number[] | null | undefined, length: number): number[] {
  if (!breaks?.length) return [];
  return [...new Set(breaks)].filter((b) => Number.isInteger(b) && b > 0 && b < length).sort((a, b) => a - b);
}

/** The pieces of a line cut at its breaks (one piece when there are none). */
export function splitAtBreaks<T>(points: readonly T[], breaks: readonly number[] | null | undefined): T[][] {
  const cuts = normaliseBreaks(breaks, points.length);
  const out: T[][] = [];
  let from = 0;
  for (const at of [...cuts, points.length]) {
    out.push(points.slice(from, at));
    from = at;
  }
  return out;
}

/** Pieces joined into one list and the breaks between them; empty pieces are left out. */
export function joinSegments<T>(segments: readonly (readonly T[])[]): { points: T[]; breaks: number[] } {
  const points: T[] = [];
  const breaks: number[] = [];
  for (const segment of segments) {
    if (segment.length === 0) continue;
    if (points.length > 0) breaks.push(points.length);
    points.push(...segment);
  }
  return { points, breaks };
}

/**
 * simplifyToCount over every piece of a line with one tolerance, raised from `start` metres until at
 * most `maxPoints` remain in all: each piece keeps its first and last points, and pieces of a single
 * point (nothing to draw) are dropped.
 */
export function simplifySegmentsToCount<T extends PositionLike>(
  points: readonly T[],
  breaks: readonly number[] | null | undefined,
  maxPoints: number,
  start = 5,
): { points: T[]; breaks: number[] } {
  const pieces = splitAtBreaks(points, breaks).filter((piece) => piece.length >= 2);
  if (pieces.length <= 1) return { points: simplifyToCount(pieces[0] ?? [...points], maxPoints, start), breaks: [] };
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (total <= maxPoints) return joinSegments(pieces);
  let tolerance = start;
  let out = pieces.map((piece) => simplifyLine(piece, tolerance));
  const count = () => out.reduce((sum, piece) => sum + piece.length, 0);
  while (count() > maxPoints && tolerance < 100_000) {
    tolerance *= 1.6;
    out = pieces.map((piece) => simplifyLine(piece, tolerance));
  }
  return joinSegments(out);
}

/** Metropolitan France, the view of a map with nothing on it. */
export const FRANCE_BOUNDS: Bounds = [-5.2, 41.3, 9.6, 51.1];

/** A projection onto an SVG box (y down) and back. */
export type BoxView = {
  project(position: PositionLike): { x: number; y: number };
  /** The longitude and latitude at a point of the box (or beyond it). */
  lngLatAt(x: number, y: number): LngLat;
};

/**
 * Fits positions (or `fallback` when there are none) into a `width` × `height` box with a margin,
 * equirectangular with the latitude's scale, which is close to what a web map shows at a race's
 * scale; linear in longitude and in latitude. A single point is the middle of a view `span`
 * degrees of latitude high. Null when there is nothing to show.
 */
export function boxView(
  positions: readonly PositionLike[],
  width: number,
  height: number,
  margin = 12,
  options: { fallback?: Bounds; span?: number } = {},
): BoxView | null {
  let bounds = boundsOf(positions) ?? options.fallback ?? null;
  if (!bounds) return null;
  const kx = Math.cos((((bounds[1] + bounds[3]) / 2) * Math.PI) / 180);
  if (bounds[0] === bounds[2] && bounds[1] === bounds[3] && options.span) {
    const half = options.span / 2;
    bounds = [bounds[0] - half / kx, bounds[1] - half, bounds[2] + half / kx, bounds[3] + half];
  }
  const [west, south, east, north] = bounds;
  const spanX = Math.max((east - west) * kx, 1e-9);
  const spanY = Math.max(north - south, 1e-9);
  const scale = Math.min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY);
  const offsetX = (width - spanX * scale) / 2;
  const offsetY = (height - spanY * scale) / 2;
  return {
    project: ([lng, lat]) => ({
      x: Math.round((offsetX + (lng - west) * kx * scale) * 10) / 10,
      y: Math.round((offsetY + (north - lat) * scale) * 10) / 10,
    }),
    lngLatAt: (x, y) => [west + (x - offsetX) / (kx * scale), north - (y - offsetY) / scale],
  };
}

/**
 * Projects positions into a `width` × `height` box (see boxView), keeping the aspect ratio and a
 * margin. Returns SVG coordinates (y down).
 */
export function projectToBox(
  positions: readonly PositionLike[],
  width: number,
  height: number,
  margin = 12,
): { x: number; y: number }[] {
  const view = boxView(positions, width, height, margin);
  return view ? positions.map(view.project) : [];
}
