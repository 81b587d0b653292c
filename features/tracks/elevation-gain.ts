/**
 * Distance along a track (haversine, never across a segment break) and its elevation: spikes
 * dropped, noise smoothed, gain and loss counted with hysteresis (decision 021), and the profile
 * sampled for charts.
 */
import { normaliseBreaks } from "../maps/geometry.ts";
import { TRACK_PROFILE_SAMPLES } from "./track-limits.ts";
import type { TrackPoint } from "./track-point.ts";

const EARTH_RADIUS = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine, mean Earth radius). */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Distance from the start at each point, metres; no distance is counted across a segment break. */
export function cumulativeDistances(points: readonly TrackPoint[], breaks: readonly number[] = []): Float64Array {
  const out = new Float64Array(points.length);
  const gaps = new Set(breaks);
  for (let i = 1; i < points.length; i++) {
    if (gaps.has(i)) {
      out[i] = out[i - 1];
      continue;
    }
    const [plng, plat] = points[i - 1];
    const [lng, lat] = points[i];
    out[i] = out[i - 1] + haversine(plat, plng, lat, lng);
  }
  return out;
}

/** Spacing of the grid of the elevation profile and of the display line's elevations, metres. */
export const ELEVATION_STEP = 10;
/** A rise or fall counts only once it reaches this many metres (hysteresis, see `analyseElevation`). */
export const ELEVATION_THRESHOLD = 4;
const ELEVATION_THRESHOLD_MAX = 15;
/**
 * Spikes: between two points, a change of elevation larger than SPIKE_MARGIN metres plus
 * SPIKE_GRADE times their distance apart is no terrain a runner covers (a 50 % grade is beyond
 * the steepest vertical-kilometre races). A point, or a run of points, reached by such a step and
 * left by such a step back to the level it came from is a bad fix, whatever the spacing of the
 * points: one metre or a hundred.
 */
export const SPIKE_GRADE = 0.5;
export const SPIKE_MARGIN = 10;
/** A bad stretch longer than this (metres along the track) is a change of level, not a spike. */
const SPIKE_MAX_LENGTH = 500;
/** Noise is judged on points whose two neighbours lie at most this far apart (metres). */
const NOISE_SPAN = 80;
/** Share of little peaks and dips among those points above which their wobble is noise. */
const ZIGZAG_SHARE = 0.3;
/** Noise the smoothing leaves at most (standard deviation, metres), as long as its radius allows. */
const RESIDUAL_NOISE = 0.5;
const SMOOTHING_MAX_RADIUS = 100;
const NOISE_FACTOR = 5;

export type ElevationAnalysis = {
  /** Smoothed elevation along the track, segment after segment: `elevations[k]` at `distances[k]`. */
  distances: Float64Array;
  elevations: Float64Array;
  gain: number;
  loss: number;
  min: number;
  max: number;
  /** The hysteresis threshold used, metres. */
  threshold: number;
  /** Half-width of the moving average, metres (0: the recorded elevations were clean enough). */
  radius: number;
  /** Points dropped as spikes. */
  spikes: number;
  /**
   * Where each segment's samples are in `distances`/`elevations`: `segment` counts the segments of
   * the track (0 for the first), [from, to) the samples; a segment without elevation has none.
   * At a break two samples share a distance (the end of one segment, the start of the next).
   */
  ranges: { segment: number; from: number; to: number }[];
};

/** Recorded elevations of one segment: distance along the track (ascending) and elevation. */
type Series = { xs: number[]; ys: number[] };

/** Linear interpolation of y(x) at `at`, x sorted ascending; `hint` is where to start looking. */
export function interpolate(xs: ArrayLike<number>, ys: ArrayLike<number>, at: number, hint: { i: number }): number {
  const last = xs.length - 1;
  if (at <= xs[0]) return ys[0];
  if (at >= xs[last]) return ys[last];
  let i = hint.i;
  while (i < last - 1 && xs[i + 1] < at) i++;
  hint.i = i;
  const span = xs[i + 1] - xs[i];
  return span > 0 ? ys[i] + ((ys[i + 1] - ys[i]) * (at - xs[i])) / span : ys[i + 1];
}

const steep = (s: Series, a: number, b: number) =>
  Math.abs(s.ys[b] - s.ys[a]) > SPIKE_MARGIN + SPIKE_GRADE * Math.abs(s.xs[b] - s.xs[a]);

/**
 * One pass of spike rejection, start to end. From the last good point, a steep step starts a
 * suspect run; the run is a spike when, within SPIKE_MAX_LENGTH, a steep step brings the track back
 * within reach of that good point (or the track ends first). A run that never comes back is a real
 * change of level and is kept.
 */
function dropSpikes(s: Series): Series {
  const n = s.xs.length;
  const keep = new Uint8Array(n).fill(1);
  let base = 0;
  let i = 1;
  while (i < n) {
    if (!steep(s, base, i)) {
      base = i++;
      continue;
    }
    const side = Math.sign(s.ys[i] - s.ys[base]);
    let back = -1;
    let j = i + 1;
    for (; j < n && s.xs[j] - s.xs[i] <= SPIKE_MAX_LENGTH; j++) {
      if (!steep(s, base, j)) {
        if (steep(s, j - 1, j)) back = j;
        break;
      }
      if (Math.sign(s.ys[j] - s.ys[base]) !== side) break;
    }
    if (j === n) back = n; // the track ends on the bad stretch
    if (back === -1) {
      base = i++;
      continue;
    }
    for (let k = i; k < back; k++) keep[k] = 0;
    base = back;
    i = back + 1;
  }
  const out: Series = { xs: [], ys: [] };
  for (let k = 0; k < n; k++) {
    if (keep[k]) {
      out.xs.push(s.xs[k]);
      out.ys.push(s.ys[k]);
    }
  }
  return out;
}

/** Spikes dropped both ways (a bad first fix is a bad last fix of the track run backwards). */
function withoutSpikes(s: Series): Series {
  const forward = dropSpikes(s);
  const backward = dropSpikes({ xs: forward.xs.map((x) => -x).reverse(), ys: [...forward.ys].reverse() });
  return { xs: backward.xs.map((x) => -x).reverse(), ys: backward.ys.reverse() };
}

/** Points recorded at one place (a runner standing still) become one point at their mean elevation. */
function mergeStill(s: Series): Series {
  const out: Series = { xs: [], ys: [] };
  for (let i = 0; i < s.xs.length; ) {
    let j = i;
    let sum = 0;
    while (j < s.xs.length && s.xs[j] === s.xs[i]) sum += s.ys[j++];
    out.xs.push(s.xs[i]);
    out.ys.push(sum / (j - i));
    i = j;
  }
  return out;
}

/**
 * Point-to-point noise of recorded elevations (standard deviation, metres): how far each point
 * lies from the straight line between its neighbours, taken robustly (median absolute deviation)
 * so that real changes of slope barely count. Judged only where points are dense (neighbours at
 * most NOISE_SPAN apart), and only when the elevations zigzag — noise makes most points a
 * little peak or dip (two in three for pure noise), terrain few, even rough terrain on a steep
 * climb. Smooth sources (a route planner's terrain model, a barometer) give 0, raw GPS altitudes
 * metres.
 */
function pointNoise(series: readonly Series[]): number {
  const residuals: number[] = [];
  let zigzags = 0;
  for (const { xs, ys } of series) {
    const stride = Math.max(1, Math.floor(xs.length / 20_000));
    for (let i = 1; i + 1 < xs.length; i += stride) {
      const span = xs[i + 1] - xs[i - 1];
      if (span > NOISE_SPAN) continue;
      const w = (xs[i] - xs[i - 1]) / span;
      residuals.push(Math.abs(ys[i] - (ys[i - 1] + (ys[i + 1] - ys[i - 1]) * w)));
      if ((ys[i] - ys[i - 1]) * (ys[i + 1] - ys[i]) < 0) zigzags++;
    }
  }
  if (residuals.length < 10 || zigzags < ZIGZAG_SHARE * residuals.length) return 0;
  residuals.sort((a, b) => a - b);
  // MAD → σ for a normal distribution, then the 1.5 variance factor of a point against the
  // line through two equally noisy neighbours.
  return residuals[residuals.length >> 1] / 0.6745 / Math.sqrt(1.5);
}

/** Median distance between consecutive points, metres. */
function medianSpacing(series: readonly Series[]): number {
  const gaps: number[] = [];
  for (const { xs } of series) for (let i = 1; i < xs.length; i++) gaps.push(xs[i] - xs[i - 1]);
  if (gaps.length === 0) return 0;
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1];
}

/**
 * Centred moving average over ±`radius` metres of the elevation drawn as straight lines between
 * the points (an integral, so that how densely points were recorded does not weigh), at each point.
 * Near the ends of the segment the window shrinks to stay centred: a slope is kept exactly, and
 * the first and last elevations are the recorded ones.
 */
function movingAverage(s: Series, radius: number): number[] {
  const { xs, ys } = s;
  const n = xs.length;
  if (radius <= 0 || n < 3) return [...ys];
  const prefix = new Float64Array(n);
  for (let i = 1; i < n; i++) prefix[i] = prefix[i - 1] + ((xs[i] - xs[i - 1]) * (ys[i] + ys[i - 1])) / 2;
  /** ∫ from xs[0] to x, x within [xs[0], xs[n-1]]. */
  const integral = (x: number) => {
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] <= x) lo = mid;
      else hi = mid;
    }
    const span = xs[hi] - xs[lo];
    const t = span > 0 ? Math.min(1, Math.max(0, (x - xs[lo]) / span)) : 0;
    const at = ys[lo] + (ys[hi] - ys[lo]) * t;
    return prefix[lo] + ((x - xs[lo]) * (ys[lo] + at)) / 2;
  };
  const out: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.min(radius, xs[i] - xs[0], xs[n - 1] - xs[i]);
    out[i] = r > 1e-6 ? (integral(xs[i] + r) - integral(xs[i] - r)) / (2 * r) : ys[i];
  }
  return out;
}

/**
 * Gain and loss by hysteresis: the direction (up or down) only changes once the elevation has
 * moved `threshold` metres away from the last extreme, and then the whole swing from turning point
 * to turning point is counted, so a real climb counts in full.
 */
function hysteresis(ys: readonly number[], threshold: number): { gain: number; loss: number } {
  let gain = 0;
  let loss = 0;
  let direction = 0;
  let low = ys[0];
  let high = ys[0];
  let pivot = ys[0];
  let extreme = ys[0];
  for (let k = 1; k < ys.length; k++) {
    const e = ys[k];
    if (direction === 0) {
      low = Math.min(low, e);
      high = Math.max(high, e);
      if (e - low >= threshold) {
        direction = 1;
        pivot = low;
        extreme = e;
      } else if (high - e >= threshold) {
        direction = -1;
        pivot = high;
        extreme = e;
      }
    } else if (direction === 1) {
      if (e > extreme) extreme = e;
      else if (extreme - e >= threshold) {
        gain += extreme - pivot;
        pivot = extreme;
        extreme = e;
        direction = -1;
      }
    } else if (e < extreme) extreme = e;
    else if (e - extreme >= threshold) {
      loss += pivot - extreme;
      pivot = extreme;
      extreme = e;
      direction = 1;
    }
  }
  if (direction === 1) gain += extreme - pivot;
  else if (direction === -1) loss += pivot - extreme;
  return { gain, loss };
}

/**
 * Positive and negative elevation the way a runner means them, not the sum of every wobble of a GPS
 * altitude (noisy by metres from one point to the next, which would turn a flat 10 km into hundreds
 * of metres of "climb"), and without shaving the real climbs. Each segment (<trkseg>, route) on its
 * own — no climb is counted across the gap between two segments:
 *
 * 1. Spikes out (`dropSpikes`): a point or a short run of points that jumps away by more than a
 *    50 % grade allows and comes back is dropped, judged on elevation against distance, so the
 *    spacing of the points does not matter. Points recorded at one place are merged.
 * 2. Only when the recorded elevations are noisy (see `pointNoise`): a centred moving average over
 *    the distance, just wide enough to bring the noise under 0.5 m (at most ±100 m). Clean
 *    sources (a route planner's terrain model, a barometer) are not smoothed at all; a straight
 *    slope is never changed by the average, whatever its width.
 * 3. Hysteresis (`hysteresis`) with a 4 m threshold, raised to five times the noise left after
 *    smoothing (at most 15 m).
 *
 * Bumps smaller than the threshold are ignored: the price of not counting noise, and what GPS
 * watches and route planners do as well. Returns null when no point has an elevation.
 */
export function analyseElevation(
  points: readonly TrackPoint[],
  cumulative: Float64Array,
  breaks: readonly number[] = [],
): ElevationAnalysis | null {
  const bounds = [0, ...normaliseBreaks(breaks, points.length), points.length];
  const series: Series[] = [];
  const segmentOf: number[] = [];
  let recorded = 0;
  let kept = 0;
  for (let b = 0; b + 1 < bounds.length; b++) {
    const raw: Series = { xs: [], ys: [] };
    for (let i = bounds[b]; i < bounds[b + 1]; i++) {
      const ele = points[i][2];
      if (ele !== null) {
        raw.xs.push(cumulative[i]);
        raw.ys.push(ele);
      }
    }
    if (raw.xs.length === 0) continue;
    recorded += raw.xs.length;
    const clean = withoutSpikes(raw);
    kept += clean.xs.length;
    series.push(mergeStill(clean));
    segmentOf.push(b);
  }
  if (series.length === 0) return null;

  const noise = pointNoise(series);
  const spacing = medianSpacing(series);
  let radius = 0;
  let residualNoise = noise;
  if (noise > RESIDUAL_NOISE && spacing > 0) {
    // Points to average so that σ/√count ≤ RESIDUAL_NOISE, over a window of 2·radius metres.
    radius = Math.min(SMOOTHING_MAX_RADIUS, ((noise / RESIDUAL_NOISE) ** 2 * spacing) / 2);
    residualNoise = noise / Math.sqrt(Math.max(1, (2 * radius) / spacing));
  }
  const threshold = Math.min(ELEVATION_THRESHOLD_MAX, Math.max(ELEVATION_THRESHOLD, NOISE_FACTOR * residualNoise));

  const total = cumulative[cumulative.length - 1];
  // Very long tracks get a coarser grid so the work stays bounded.
  const step = Math.max(ELEVATION_STEP, total / 100_000);
  const distances: number[] = [];
  const elevations: number[] = [];
  let gain = 0;
  let loss = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const ranges: ElevationAnalysis["ranges"] = [];
  for (const [index, s] of series.entries()) {
    const from = distances.length;
    const smooth = movingAverage(s, radius);
    const swing = hysteresis(smooth, threshold);
    gain += swing.gain;
    loss += swing.loss;
    for (const e of smooth) {
      if (e < min) min = e;
      if (e > max) max = e;
    }
    const first = s.xs[0];
    const last = s.xs[s.xs.length - 1];
    const hint = { i: 0 };
    for (let d = first; ; d = Math.min(last, d + step)) {
      distances.push(d);
      elevations.push(interpolate(s.xs, smooth, d, hint));
      if (d >= last) break;
    }
    ranges.push({ segment: segmentOf[index], from, to: distances.length });
  }
  return {
    distances: Float64Array.from(distances),
    elevations: Float64Array.from(elevations),
    gain,
    loss,
    min,
    max,
    threshold,
    radius,
    spikes: recorded - kept,
    ranges,
  };
}

/** [distance m, elevation m] at up to `samples` evenly spaced distances of a smoothed series. */
export function sampleProfile(analysis: ElevationAnalysis, samples = TRACK_PROFILE_SAMPLES): [number, number][] {
  const { distances, elevations } = analysis;
  const n = distances.length;
  const count = Math.min(samples, n);
  const total = distances[n - 1];
  const hint = { i: 0 };
  const out: [number, number][] = [];
  for (let k = 0; k < count; k++) {
    const d = count > 1 ? (total * k) / (count - 1) : 0;
    out.push([Math.round(d), Math.round(interpolate(distances, elevations, d, hint) * 10) / 10]);
  }
  return out;
}
