/** Track geometry for the poster: Web Mercator projection, fitting into a frame, distances. */
export type TrackPoint = [lng: number, lat: number, ele: number | null];

const R = 6_371_008.8;
const rad = Math.PI / 180;

/** Web Mercator in radians-scaled units (y grows northwards). */
export function mercator(lng: number, lat: number): [number, number] {
  const clamped = Math.max(-85.05112878, Math.min(85.05112878, lat));
  return [lng * rad, Math.log(Math.tan(Math.PI / 4 + (clamped * rad) / 2))];
}

export function haversine(a: TrackPoint, b: TrackPoint): number {
  const dLat = (b[1] - a[1]) * rad;
  const dLng = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Cumulative distance in metres at each point. */
export function cumulative(points: readonly TrackPoint[]): Float64Array {
  const out = new Float64Array(points.length);
  for (let i = 1; i < points.length; i++) out[i] = out[i - 1] + haversine(points[i - 1], points[i]);
  return out;
}

export type Frame = { x: number; y: number; w: number; h: number };

/**
 * Projects the track and fits it, centred, into `frame` less `padding` on each side, keeping its
 * proportions. Returns page coordinates (x right, y down) and the scale (page units per mercator unit).
 */
export function fitTrack(points: readonly TrackPoint[], frame: Frame, padding: number) {
  const projected = points.map((p) => mercator(p[0], p[1]));
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [x, y] of projected) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const spanX = Math.max(maxX - minX, 1e-9);
  const spanY = Math.max(maxY - minY, 1e-9);
  const innerW = Math.max(frame.w - 2 * padding, 1);
  const innerH = Math.max(frame.h - 2 * padding, 1);
  const scale = Math.min(innerW / spanX, innerH / spanY);
  const offX = frame.x + (frame.w - spanX * scale) / 2;
  const offY = frame.y + (frame.h - spanY * scale) / 2;
  const toPage = (mx: number, my: number): [number, number] => [offX + (mx - minX) * scale, offY + (maxY - my) * scale];
  const fromPage = (px: number, py: number): [number, number] => [
    minX + (px - offX) / scale,
    maxY - (py - offY) / scale,
  ];
  return { xy: projected.map(([x, y]) => toPage(x, y)), scale, toPage, fromPage };
}
