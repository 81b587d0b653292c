import { splitAtBreaks } from "../maps/geometry.ts";
import type { TrackPoint } from "./track-point.ts";
import { haversine } from "./track-processing.ts";

export type TrackStats = {
  distance: number;
  elevationGain: number;
  elevationLoss: number;
  minElevation: number | null;
  maxElevation: number | null;
};

/**
 * Distance and elevation of a track the way a GPX reader computes them: great-circle distance between
 * consecutive points, positive elevation = sum of the rises between consecutive points (no smoothing).
 */
export function trackStats(points: readonly TrackPoint[]): TrackStats {
  let distance = 0;
  let gain = 0;
  let loss = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < points.length; i++) {
    const [lng, lat, ele] = points[i];
    if (ele !== null) {
      min = Math.min(min, ele);
      max = Math.max(max, ele);
    }
    if (i === 0) continue;
    const [plng, plat, pele] = points[i - 1];
    distance += haversine(plat, plng, lat, lng);
    if (ele !== null && pele !== null) {
      const d = ele - pele;
      if (d > 0) gain += d;
      else loss -= d;
    }
  }
  return {
    distance,
    elevationGain: gain,
    elevationLoss: loss,
    minElevation: Number.isFinite(min) ? min : null,
    maxElevation: Number.isFinite(max) ? max : null,
  };
}

/** [distance m, elevation m] at `samples` evenly spaced distances, for charts. */
export function elevationProfile(points: readonly TrackPoint[], samples = 200): [number, number][] {
  if (points.length === 0) return [];
  const cumulative = [0];
  for (let i = 1; i < points.length; i++) {
    const [plng, plat] = points[i - 1];
    const [lng, lat] = points[i];
    cumulative.push(cumulative[i - 1] + haversine(plat, plng, lat, lng));
  }
  const total = cumulative[cumulative.length - 1];
  const out: [number, number][] = [];
  let j = 0;
  for (let k = 0; k < samples; k++) {
    const d = (total * k) / (samples - 1);
    while (j < points.length - 2 && cumulative[j + 1] < d) j++;
    const span = cumulative[j + 1] - cumulative[j] || 1;
    const t = Math.min(1, Math.max(0, (d - cumulative[j]) / span));
    const e0 = points[j][2] ?? 0;
    const e1 = points[Math.min(j + 1, points.length - 1)][2] ?? e0;
    out.push([Math.round(d), Math.round((e0 + (e1 - e0) * t) * 10) / 10]);
  }
  return out;
}

/**
 * A chart's profile of a line made of segments (`breaks`: the indexes where each but the first
 * starts): [distance m, elevation m] samples on a distance axis that leaves out the gaps between
 * segments, each segment sampled from its first point to its last (`samples` in all, shared by
 * length, at least two each), and `breaks`: the indexes of the samples where a new segment starts,
 * so that a chart draws no line across a gap. Points without elevation are passed over; a segment
 * with none has no samples.
 */
export function segmentedProfile(
  points: readonly TrackPoint[],
  breaks: readonly number[] = [],
  samples = 200,
): { profile: [number, number][]; breaks: number[] } {
  const pieces = splitAtBreaks(points, breaks);
  const series = pieces.map((piece) => {
    const xs: number[] = [];
    const ys: number[] = [];
    let d = 0;
    for (let i = 0; i < piece.length; i++) {
      if (i > 0) d += haversine(piece[i - 1][1], piece[i - 1][0], piece[i][1], piece[i][0]);
      const ele = piece[i][2];
      if (ele !== null && Number.isFinite(ele)) {
        xs.push(d);
        ys.push(ele);
      }
    }
    return { xs, ys, length: d };
  });
  const total = series.reduce((sum, s) => sum + s.length, 0);
  const profile: [number, number][] = [];
  const starts: number[] = [];
  let offset = 0;
  for (const { xs, ys, length } of series) {
    if (xs.length >= 2) {
      if (profile.length > 0) starts.push(profile.length);
      const first = xs[0];
      const last = xs[xs.length - 1];
      const count = Math.max(2, Math.round(total > 0 ? (samples * length) / total : samples));
      let j = 0;
      for (let k = 0; k < count; k++) {
        const d = first + ((last - first) * k) / (count - 1);
        while (j < xs.length - 2 && xs[j + 1] < d) j++;
        const span = xs[j + 1] - xs[j] || 1;
        const t = Math.min(1, Math.max(0, (d - xs[j]) / span));
        profile.push([Math.round(offset + d), Math.round((ys[j] + (ys[j + 1] - ys[j]) * t) * 10) / 10]);
      }
    }
    offset += length;
  }
  return { profile, breaks: starts };
}
