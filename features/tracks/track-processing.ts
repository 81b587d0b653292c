/**
 * From an uploaded GPX file to a course track: parsing, distance, smoothed elevation gain and loss,
 * a simplified line for maps and an elevation profile for charts. Pure and isomorphic (no DOM, no
 * Node API), so the event form could preview a file in the browser with the same numbers.
 *
 * Parsing is a small linear scanner rather than @tmcw/togeojson over @xmldom/xmldom: measured here,
 * the DOM route took 1.7 s of blocking CPU for a 20,000-point file (a marathon at one point a second)
 * and 20 s with 2 GB of heap at the 200,000-point limit, while a GPX needs only a handful of elements
 * (gpx, metadata/name, trk, trkseg, trkpt, rte, rtept, ele). The scanner still checks that the file is
 * well-formed XML (balanced tags, quoted attributes, nothing but markup around the root) and that the
 * root is <gpx>, so anything else is GPX_INVALID.
 */
import { z } from "zod";
import { ApiError } from "../../shared/api-error.ts";
import { rowId, text } from "../../shared/input.ts";
import type { TrackPoint } from "../events/events.tables.ts";
import { type Bounds, boundsOf, simplifyToCount } from "../maps/geometry.ts";

/** Largest accepted file (bytes) and number of points; beyond either, GPX_TOO_LARGE (413, a message naming both). */
export const TRACK_MAX_BYTES = 15 * 1024 * 1024;
export const TRACK_MAX_POINTS = 200_000;
/** Points kept in the stored line (maps, GPX export). */
export const TRACK_DISPLAY_POINTS = 1_500;
/** Samples of the elevation profile (the `profile` column, [distance m, elevation m]). */
export const TRACK_PROFILE_SAMPLES = 200;
export const TRACK_NAME_MAX = 200;

// ---------------------------------------------------------------------------------------------
// Reading the file

/**
 * The text of a file: a byte order mark decides (UTF-8, UTF-16), else the XML declaration's
 * encoding (GPS units still write ISO-8859-1), else UTF-8. Undecodable bytes become U+FFFD, which
 * the parser then refuses where markup is expected.
 */
export function decodeGpxBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  let head = "";
  for (let i = 0; i < Math.min(bytes.length, 200); i++) head += String.fromCharCode(bytes[i]);
  const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

export type ParsedGpxTrack = {
  /** `version` attribute of the root ("1.0", "1.1"), when present. */
  version: string | null;
  /** Metadata name (GPX 1.1 <metadata><name>, GPX 1.0 <gpx><name>), else the first track's or route's. */
  name: string | null;
  /** Track points of every track and segment in order, or the route points when there is no track. */
  points: TrackPoint[];
  source: "track" | "route";
  /** Segments (or routes) joined into `points`. */
  segments: number;
  /**
   * Indexes in `points` where a new segment (or route) starts: the gap before each is not
   * distance (a pause, a lift, a file stitched from several recordings).
   */
  breaks: number[];
};

const invalid = () => new ApiError("GPX_INVALID");

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (_, entity: string) => {
    if (entity[0] !== "#") {
      const known = ENTITIES[entity];
      if (known === undefined) throw invalid();
      return known;
    }
    const code = entity[1] === "x" ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    if (!Number.isFinite(code) || code > 0x10ffff) throw invalid();
    return String.fromCodePoint(code);
  });
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1);
const NAME = /[A-Za-z_][\w.:-]*/y;
const SPACE = /\s*/y;
const ONLY_SPACE = /^\s*$/;
const MIN_ELEVATION = -500;
const MAX_ELEVATION = 9_000;

function coordinate(value: string | undefined, limit: number): number {
  if (value === undefined || !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) throw invalid();
  const n = Number(value);
  if (Math.abs(n) > limit) throw invalid();
  return n;
}

/**
 * The points and name of a GPX 1.0 or 1.1 document. Throws GPX_INVALID when the text is not
 * well-formed XML with a <gpx> root or a point lacks a valid lat/lon, GPX_EMPTY when fewer than
 * two points remain, GPX_TOO_LARGE beyond TRACK_MAX_POINTS.
 */
export function parseGpxTrack(text: string): ParsedGpxTrack {
  if (text.length > TRACK_MAX_BYTES) throw new ApiError("GPX_TOO_LARGE");
  const stack: string[] = [];
  let rootSeen = false;
  let version: string | null = null;
  let metadataName: string | null = null;
  let lineName: string | null = null;
  const trackSegments: TrackPoint[][] = [];
  const routes: TrackPoint[][] = [];
  let current: TrackPoint[] | null = null;
  let point: TrackPoint | null = null;
  let count = 0;
  // Text being collected for an <ele> or <name> element of interest.
  let capture: { kind: "ele" | "metadata" | "line"; depth: number; text: string } | null = null;

  const length = text.length;
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (pos < length) {
    const lt = text.indexOf("<", pos);
    const end = lt === -1 ? length : lt;
    if (end > pos) {
      const chunk = text.slice(pos, end);
      if (stack.length === 0) {
        if (!ONLY_SPACE.test(chunk)) throw invalid();
      } else if (capture) capture.text += chunk;
    }
    if (lt === -1) break;
    pos = lt;
    if (text.startsWith("<!--", pos)) {
      const close = text.indexOf("-->", pos + 4);
      if (close === -1) throw invalid();
      pos = close + 3;
      continue;
    }
    if (text.startsWith("<![CDATA[", pos)) {
      const close = text.indexOf("]]>", pos + 9);
      if (close === -1 || stack.length === 0) throw invalid();
      if (capture) capture.text += text.slice(pos + 9, close).replace(/&/g, "&amp;");
      pos = close + 3;
      continue;
    }
    if (text.startsWith("<?", pos)) {
      const close = text.indexOf("?>", pos + 2);
      if (close === -1) throw invalid();
      pos = close + 2;
      continue;
    }
    if (text.startsWith("<!DOCTYPE", pos)) {
      // No internal subset: entity declarations are not expanded here and have no use in a GPX.
      const close = text.indexOf(">", pos);
      if (close === -1 || rootSeen || text.slice(pos, close).includes("[")) throw invalid();
      pos = close + 1;
      continue;
    }
    const closing = text.charCodeAt(pos + 1) === 47; // "/"
    NAME.lastIndex = pos + (closing ? 2 : 1);
    const nameMatch = NAME.exec(text);
    if (!nameMatch) throw invalid();
    const tagName = nameMatch[0];
    pos = NAME.lastIndex;

    if (closing) {
      SPACE.lastIndex = pos;
      SPACE.exec(text);
      pos = SPACE.lastIndex;
      if (text.charCodeAt(pos) !== 62 || stack.pop() !== tagName) throw invalid();
      pos++;
      const local = localName(tagName);
      if (capture && capture.depth === stack.length) {
        const value = decodeEntities(capture.text).trim();
        if (capture.kind === "ele" && point) {
          const ele = value === "" ? Number.NaN : Number(value);
          point[2] = Number.isFinite(ele) && ele >= MIN_ELEVATION && ele <= MAX_ELEVATION ? ele : null;
        } else if (capture.kind === "metadata" && value && metadataName === null) metadataName = value;
        else if (capture.kind === "line" && value && lineName === null) lineName = value;
        capture = null;
      }
      if ((local === "trkpt" || local === "rtept") && point) {
        current?.push(point);
        point = null;
      } else if (local === "trkseg" || local === "rte") current = null;
      continue;
    }

    // Start tag: attributes, then ">" or "/>".
    let attributes: Record<string, string> | null = null;
    for (;;) {
      SPACE.lastIndex = pos;
      SPACE.exec(text);
      const spaced = SPACE.lastIndex > pos;
      pos = SPACE.lastIndex;
      const c = text.charCodeAt(pos);
      if (c === 62 || (c === 47 && text.charCodeAt(pos + 1) === 62)) break;
      NAME.lastIndex = pos;
      const attr = spaced ? NAME.exec(text) : null;
      if (!attr) throw invalid();
      pos = NAME.lastIndex;
      SPACE.lastIndex = pos;
      SPACE.exec(text);
      pos = SPACE.lastIndex;
      if (text.charCodeAt(pos) !== 61) throw invalid(); // "="
      SPACE.lastIndex = pos + 1;
      SPACE.exec(text);
      pos = SPACE.lastIndex;
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") throw invalid();
      const close = text.indexOf(quote, pos + 1);
      if (close === -1) throw invalid();
      const value = text.slice(pos + 1, close);
      if (value.includes("<")) throw invalid();
      attributes ??= {};
      attributes[localName(attr[0])] = value;
      pos = close + 1;
    }
    const selfClosing = text.charCodeAt(pos) === 47;
    pos += selfClosing ? 2 : 1;

    const local = localName(tagName);
    const parent = stack.length ? localName(stack[stack.length - 1]) : null;
    if (stack.length === 0) {
      if (rootSeen || local !== "gpx") throw invalid();
      rootSeen = true;
      version = attributes?.version ?? null;
    }
    if ((local === "trkpt" && parent === "trkseg") || (local === "rtept" && parent === "rte")) {
      if (++count > TRACK_MAX_POINTS) throw new ApiError("GPX_TOO_LARGE");
      point = [coordinate(attributes?.lon, 180), coordinate(attributes?.lat, 90), null];
      if (selfClosing) {
        current?.push(point);
        point = null;
      }
    } else if (local === "trkseg" && parent === "trk") {
      current = [];
      trackSegments.push(current);
    } else if (local === "rte" && parent === "gpx") {
      current = [];
      routes.push(current);
    } else if (!selfClosing && capture === null) {
      if (local === "ele" && point && (parent === "trkpt" || parent === "rtept")) {
        capture = { kind: "ele", depth: stack.length, text: "" };
      } else if (local === "name" && (parent === "metadata" || parent === "gpx")) {
        capture = { kind: "metadata", depth: stack.length, text: "" };
      } else if (local === "name" && (parent === "trk" || parent === "rte")) {
        capture = { kind: "line", depth: stack.length, text: "" };
      }
    }
    if (!selfClosing) stack.push(tagName);
  }
  if (!rootSeen || stack.length > 0) throw invalid();

  const trackPoints = trackSegments.flat();
  const useTrack = trackPoints.length >= 2 || routes.every((r) => r.length === 0);
  const lines = (useTrack ? trackSegments : routes).filter((s) => s.length > 0);
  const points = lines.flat();
  const breaks: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += lines[i].length, i++) if (i > 0) breaks.push(at);
  if (points.length < 2) throw new ApiError("GPX_EMPTY");
  const name = (metadataName ?? lineName)?.replace(/\s+/g, " ").slice(0, TRACK_NAME_MAX) ?? null;
  return {
    version,
    name: name || null,
    points,
    source: useTrack ? "track" : "route",
    segments: lines.length,
    breaks,
  };
}

// ---------------------------------------------------------------------------------------------
// Distance and elevation

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

/** Spacing of the regular grid the elevation is resampled on, metres. */
export const ELEVATION_STEP = 10;
/** Half-width of the moving average, metres (at least SMOOTHING_MIN_POINTS recorded points). */
export const SMOOTHING_RADIUS = 40;
const SMOOTHING_MIN_POINTS = 4;
/** A rise or fall counts only once it reaches this many metres (after smoothing). */
export const ELEVATION_THRESHOLD = 4;

export type ElevationAnalysis = {
  /** Smoothed elevation on a regular grid: `elevations[k]` at `distances[k]`. */
  distances: Float64Array;
  elevations: Float64Array;
  gain: number;
  loss: number;
  min: number;
  max: number;
  /** The hysteresis threshold used, metres. */
  threshold: number;
};

const NOISE_FACTOR = 5;
const ELEVATION_THRESHOLD_MAX = 15;

/**
 * Point-to-point noise of recorded elevations (standard deviation, metres): how far each point
 * lies from the straight line between its neighbours, taken robustly (median absolute deviation)
 * so that real changes of slope barely count. Smooth sources (a route planner's terrain model, a
 * barometer) give about 0, raw GPS altitudes several metres.
 */
function pointNoise(xs: readonly number[], ys: readonly number[]): number {
  const residuals: number[] = [];
  const stride = Math.max(1, Math.floor(xs.length / 20_000));
  for (let i = 1; i + 1 < xs.length; i += stride) {
    const span = xs[i + 1] - xs[i - 1];
    const w = span > 0 ? (xs[i] - xs[i - 1]) / span : 0.5;
    residuals.push(Math.abs(ys[i] - (ys[i - 1] + (ys[i + 1] - ys[i - 1]) * w)));
  }
  if (residuals.length < 3) return 0;
  residuals.sort((a, b) => a - b);
  // MAD → σ for a normal distribution, then the 1.5 variance factor of a point against the
  // line through two equally noisy neighbours.
  return residuals[residuals.length >> 1] / 0.6745 / Math.sqrt(1.5);
}

/** Linear interpolation of y(x) at `at`, x sorted ascending; `hint` is where to start looking. */
function interpolate(xs: ArrayLike<number>, ys: ArrayLike<number>, at: number, hint: { i: number }): number {
  const last = xs.length - 1;
  if (at <= xs[0]) return ys[0];
  if (at >= xs[last]) return ys[last];
  let i = hint.i;
  while (i < last - 1 && xs[i + 1] < at) i++;
  hint.i = i;
  const span = xs[i + 1] - xs[i];
  return span > 0 ? ys[i] + ((ys[i + 1] - ys[i]) * (at - xs[i])) / span : ys[i + 1];
}

/**
 * Positive and negative elevation the way a runner means them, not the sum of every wobble of a GPS
 * altitude (noisy by ±5 m or more from one point to the next, which would turn a flat 10 km into
 * several hundred metres of "climb"). Three steps:
 *
 * 1. Resample on a regular 10 m grid along the distance, interpolating linearly. Time no longer
 *    matters: a runner standing still at a refreshment point adds a hundred noisy points at one
 *    place, which become a single sample.
 * 2. Median of 5 samples, to drop isolated spikes (one bad fix), then a centred moving average over
 *    ±40 m. When the recorded elevations are noisy (see `pointNoise`) and sparse, the window is
 *    widened to hold at least four recorded points. Real slopes are hundreds of metres long and
 *    survive; smooth sources (a route planner's terrain model, a barometer) are barely touched.
 * 3. Hysteresis: the direction (up or down) only changes once the smoothed elevation has moved
 *    `threshold` metres away from the last extreme, and then the whole swing from turning point to
 *    turning point is counted, so a real climb counts in full. The threshold is 4 m, raised to five
 *    times the noise still left after averaging (at most 15 m) for noisy recordings.
 *
 * Bumps smaller than the threshold or shorter than about 100 m are ignored: the price of not
 * counting noise, and what GPS watches and route planners do as well.
 */
export function analyseElevation(points: readonly TrackPoint[], cumulative: Float64Array): ElevationAnalysis | null {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const ele = points[i][2];
    if (ele !== null) {
      xs.push(cumulative[i]);
      ys.push(ele);
    }
  }
  if (xs.length === 0) return null;
  const total = cumulative[cumulative.length - 1];
  // Very long tracks get a coarser grid so the work stays bounded.
  const step = Math.max(ELEVATION_STEP, total / 100_000);
  const n = Math.max(2, Math.ceil(total / step) + 1);
  const distances = new Float64Array(n);
  const raw = new Float64Array(n);
  const hint = { i: 0 };
  for (let k = 0; k < n; k++) {
    distances[k] = Math.min(total, k * step);
    raw[k] = interpolate(xs, ys, distances[k], hint);
  }

  // 2a. Median of 5.
  const median = new Float64Array(n);
  const window: number[] = [];
  for (let k = 0; k < n; k++) {
    window.length = 0;
    for (let j = Math.max(0, k - 2); j <= Math.min(n - 1, k + 2); j++) window.push(raw[j]);
    window.sort((a, b) => a - b);
    median[k] = window[window.length >> 1];
  }
  // 2b. Moving average; on noisy sparse points, widened to cover SMOOTHING_MIN_POINTS recorded points.
  const noise = pointNoise(xs, ys);
  const spacing = xs.length > 1 ? (xs[xs.length - 1] - xs[0]) / (xs.length - 1) : 0;
  const radius = Math.max(SMOOTHING_RADIUS, noise >= 1 ? (spacing * SMOOTHING_MIN_POINTS) / 2 : 0);
  const half = Math.max(1, Math.round(radius / step));
  const prefix = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k] + median[k];
  const elevations = new Float64Array(n);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, k - half);
    const b = Math.min(n - 1, k + half);
    const e = (prefix[b + 1] - prefix[a]) / (b - a + 1);
    elevations[k] = e;
    if (e < min) min = e;
    if (e > max) max = e;
  }

  // 3. Hysteresis between turning points, above the noise left after smoothing.
  // Independent values averaged: recorded points in the window, or grid samples when points are denser.
  const averaged = Math.max(1, (2 * radius) / Math.max(spacing, step));
  const residualNoise = noise / Math.sqrt(averaged);
  const threshold = Math.min(ELEVATION_THRESHOLD_MAX, Math.max(ELEVATION_THRESHOLD, NOISE_FACTOR * residualNoise));
  let gain = 0;
  let loss = 0;
  let direction = 0;
  let low = elevations[0];
  let high = elevations[0];
  let pivot = elevations[0];
  let extreme = elevations[0];
  for (let k = 1; k < n; k++) {
    const e = elevations[k];
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
  return { distances, elevations, gain, loss, min, max, threshold };
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

// ---------------------------------------------------------------------------------------------
// The whole processing

export type ProcessedTrack = {
  name: string | null;
  /** The simplified line (at most TRACK_DISPLAY_POINTS, ends kept), elevations smoothed. */
  points: TrackPoint[];
  /** Metres, rounded. */
  distance: number;
  elevationGain: number;
  elevationLoss: number;
  minElevation: number | null;
  maxElevation: number | null;
  profile: [number, number][];
  /** [west, south, east, north] of the full line. */
  bounds: Bounds;
  start: { lat: number; lng: number };
  /** Points in the file, before simplification. */
  pointCount: number;
};

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Simplification for display: Douglas–Peucker in local metres with a tolerance raised from 2 m until
 * at most `maxPoints` remain; the first and last points are always kept.
 */
export function simplifyTrack<T extends readonly [number, number, ...unknown[]]>(
  points: readonly T[],
  maxPoints = TRACK_DISPLAY_POINTS,
): T[] {
  return simplifyToCount(points, Math.max(2, maxPoints), 2);
}

/** Statistics, profile and display line of a track's points (at least two). */
export function processTrack(
  points: readonly TrackPoint[],
  name: string | null = null,
  breaks: readonly number[] = [],
): ProcessedTrack {
  if (points.length < 2) throw new ApiError("GPX_EMPTY");
  if (points.length > TRACK_MAX_POINTS) throw new ApiError("GPX_TOO_LARGE");
  const cumulative = cumulativeDistances(points, breaks);
  const distance = cumulative[cumulative.length - 1];
  if (!(distance >= 1)) throw new ApiError("GPX_EMPTY");
  const elevation = analyseElevation(points, cumulative);
  const indexed = points.map(([lng, lat], i) => [lng, lat, i] as const);
  const hint = { i: 0 };
  const line: TrackPoint[] = simplifyTrack(indexed).map(([lng, lat, i]) => [
    round6(lng),
    round6(lat),
    elevation ? round1(interpolate(elevation.distances, elevation.elevations, cumulative[i], hint)) : null,
  ]);
  const [lng, lat] = points[0];
  return {
    name,
    points: line,
    distance: Math.round(distance),
    elevationGain: elevation ? Math.round(elevation.gain) : 0,
    elevationLoss: elevation ? Math.round(elevation.loss) : 0,
    minElevation: elevation ? Math.round(elevation.min) : null,
    maxElevation: elevation ? Math.round(elevation.max) : null,
    profile: elevation ? sampleProfile(elevation) : [],
    bounds: boundsOf(points)!,
    start: { lat: round6(lat), lng: round6(lng) },
    pointCount: points.length,
  };
}

/** A GPX file (text or bytes) all the way to a processed track. */
export function processGpx(input: string | Uint8Array): ProcessedTrack {
  if (input.length > TRACK_MAX_BYTES) throw new ApiError("GPX_TOO_LARGE");
  const parsed = parseGpxTrack(typeof input === "string" ? input : decodeGpxBytes(input));
  return processTrack(parsed.points, parsed.name, parsed.breaks);
}

export type ReversibleTrack = {
  points: readonly TrackPoint[];
  elevationGain: number;
  elevationLoss: number;
  profile: readonly (readonly [number, number])[];
};

/**
 * The same track run the other way: points in reverse order, the profile mirrored, and gain and loss
 * exchanged — exactly what recomputing them on the reversed full-resolution line would give, since
 * each step of `analyseElevation` is symmetric; recomputing from the stored simplified line would not.
 */
export function reverseTrack(track: ReversibleTrack) {
  const points = track.points.map((p) => [...p] as TrackPoint).reverse();
  const total = track.profile.length ? track.profile[track.profile.length - 1][0] : 0;
  const profile = track.profile.map(([d, e]) => [total - d, e] as [number, number]).reverse();
  const [lng, lat] = points[0] ?? [null, null];
  return {
    points,
    elevationGain: track.elevationLoss,
    elevationLoss: track.elevationGain,
    profile,
    start: lat === null || lng === null ? null : { lat, lng },
  };
}

// ---------------------------------------------------------------------------------------------
// API shapes of POST /api/upload/track/{id}, POST /api/set-track/{type}, DELETE /api/track/{id}

const position = z.tuple([z.number(), z.number(), z.number().nullable()]);

export const trackResultSchema = z.object({
  id: z.number().int(),
  /** The course the track is attached to; null for an upload waiting for its course. */
  courseId: z.number().int().nullable(),
  name: z.string(),
  /** Metres. */
  distance: z.number().int(),
  elevationGain: z.number().int(),
  elevationLoss: z.number().int(),
  minElevation: z.number().int().nullable(),
  maxElevation: z.number().int().nullable(),
  start: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  /** [west, south, east, north]. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  /** Simplified line, [lng, lat, elevation | null]. */
  points: z.array(position),
  /** [distance m, elevation m]. */
  profile: z.array(z.tuple([z.number(), z.number()])),
});
export type TrackResult = z.infer<typeof trackResultSchema>;

export const trackUploadResponseSchema = z.object({
  track: trackResultSchema,
  /** What the course form may offer to fill in: metres and metres of positive elevation. */
  suggestions: z.object({ distance: z.number().int(), elevationGain: z.number().int() }),
});
export type TrackUploadResponse = z.infer<typeof trackUploadResponseSchema>;

/**
 * course: attach a track to a course (replacing its track); reverse: run it the other way;
 * rename: change its name.
 */
export const SET_TRACK_TYPES = ["course", "reverse", "rename"] as const;
export type SetTrackType = (typeof SET_TRACK_TYPES)[number];

export const setTrackBodySchema = z.object({
  trackId: rowId,
  /** Required by `course`. */
  courseId: rowId.optional(),
  /** Required by `rename`. */
  name: text().trim().min(1).max(TRACK_NAME_MAX).optional(),
});
export type SetTrackBody = z.infer<typeof setTrackBodySchema>;
export const setTrackResponseSchema = z.object({ track: trackResultSchema });
