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
import { type Bounds, boundsOf, normaliseBreaks, simplifySegmentsToCount, simplifyToCount } from "../maps/geometry.ts";

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

/** A number with a decimal point or, as French software writes it, a decimal comma. */
const ELEVATION = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/;

/**
 * An <ele> value in metres: "1234.5" and "1234,5" alike; empty means none, and so does a value no
 * terrain has (-32768 and similar "no data" markers). Anything else is no number at all:
 * GPX_ELEVATION_INVALID, the file is refused rather than read with elevations missing.
 */
function elevation(value: string): number | null {
  if (value === "") return null;
  if (!ELEVATION.test(value)) throw new ApiError("GPX_ELEVATION_INVALID");
  const ele = Number(value.replace(",", "."));
  return Number.isFinite(ele) && ele >= MIN_ELEVATION && ele <= MAX_ELEVATION ? ele : null;
}

/**
 * The points and name of a GPX 1.0 or 1.1 document. Throws GPX_INVALID when the text is not
 * well-formed XML with a <gpx> root or a point lacks a valid lat/lon, GPX_EMPTY when fewer than
 * two points remain, GPX_TOO_LARGE beyond TRACK_MAX_POINTS, GPX_ELEVATION_INVALID for an <ele> of a
 * point that is not a number.
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
        if (capture.kind === "ele" && point) point[2] = elevation(value);
        else if (capture.kind === "metadata" && value && metadataName === null) metadataName = value;
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

// ---------------------------------------------------------------------------------------------
// The whole processing

export type ProcessedTrack = {
  name: string | null;
  /** The simplified line (at most TRACK_DISPLAY_POINTS, ends kept), elevations smoothed. */
  points: TrackPoint[];
  /**
   * Indexes in `points` where a new segment starts (the file's <trkseg>s): the line is never drawn,
   * measured or exported across them. Empty for a track of one segment.
   */
  breaks: number[];
  /** Metres, rounded. */
  distance: number;
  /** Metres, rounded; null when no point of the file has an elevation (unknown, not 0). */
  elevationGain: number | null;
  elevationLoss: number | null;
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
  const elevation = analyseElevation(points, cumulative, breaks);
  const indexed = points.map(([lng, lat], i) => [lng, lat, i] as const);
  // Each segment simplified on its own, its ends kept: the gaps stay gaps.
  const simplified = simplifySegmentsToCount(indexed, breaks, TRACK_DISPLAY_POINTS, 2);
  // A point's smoothed elevation is read from its own segment's samples, never the neighbour's
  // (the end of one segment and the start of the next share a distance).
  const cuts = normaliseBreaks(breaks, points.length);
  const samplesOf = new Map(
    (elevation?.ranges ?? []).map(({ segment, from, to }) => [
      segment,
      {
        xs: elevation!.distances.subarray(from, to),
        ys: elevation!.elevations.subarray(from, to),
        hint: { i: 0 },
      },
    ]),
  );
  let segment = 0;
  const line: TrackPoint[] = simplified.points.map(([lng, lat, i]) => {
    while (segment < cuts.length && i >= cuts[segment]) segment++;
    const own = samplesOf.get(segment);
    return [round6(lng), round6(lat), own ? round1(interpolate(own.xs, own.ys, cumulative[i], own.hint)) : null];
  });
  const [lng, lat] = points[0];
  return {
    name,
    points: line,
    breaks: simplified.breaks,
    distance: Math.round(distance),
    elevationGain: elevation ? Math.round(elevation.gain) : null,
    elevationLoss: elevation ? Math.round(elevation.loss) : null,
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
  breaks?: readonly number[] | null;
  elevationGain: number | null;
  elevationLoss: number | null;
  profile: readonly (readonly [number, number])[];
};

/**
 * The same track run the other way: points (and segments) in reverse order, the profile mirrored, and gain and loss
 * exchanged — what recomputing them on the reversed full-resolution line gives to within a metre or
 * two (each step of `analyseElevation` works both ways); recomputing from the stored simplified line
 * would not.
 */
export function reverseTrack(track: ReversibleTrack) {
  const points = track.points.map((p) => [...p] as TrackPoint).reverse();
  // A segment starting at b ends at b - 1: run backwards, the next one starts at n - b.
  const n = points.length;
  const breaks = normaliseBreaks(track.breaks, n)
    .map((b) => n - b)
    .reverse();
  const total = track.profile.length ? track.profile[track.profile.length - 1][0] : 0;
  const profile = track.profile.map(([d, e]) => [total - d, e] as [number, number]).reverse();
  const [lng, lat] = points[0] ?? [null, null];
  return {
    points,
    breaks,
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
  /** Metres; null when the file has no elevation (unknown). */
  elevationGain: z.number().int().nullable(),
  elevationLoss: z.number().int().nullable(),
  minElevation: z.number().int().nullable(),
  maxElevation: z.number().int().nullable(),
  start: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  /** [west, south, east, north]. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
  /** Simplified line, [lng, lat, elevation | null]. */
  points: z.array(position),
  /** Indexes in `points` where a new segment starts (none: one segment). */
  breaks: z.array(z.number().int()),
  /** [distance m, elevation m]. */
  profile: z.array(z.tuple([z.number(), z.number()])),
});
export type TrackResult = z.infer<typeof trackResultSchema>;

export const trackUploadResponseSchema = z.object({
  track: trackResultSchema,
  /** What the course form may offer to fill in: metres and metres of positive elevation. */
  suggestions: z.object({ distance: z.number().int(), elevationGain: z.number().int().nullable() }),
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
