/**
 * Reading a GPX file: its text (byte order mark, XML declaration's encoding), then its track points,
 * segments and name.
 *
 * Parsing is a small linear scanner rather than @tmcw/togeojson over @xmldom/xmldom: measured here,
 * the DOM route took 1.7 s of blocking CPU for a 20,000-point file (a marathon at one point a second)
 * and 20 s with 2 GB of heap at the 200,000-point limit, while a GPX needs only a handful of elements
 * (gpx, metadata/name, trk, trkseg, trkpt, rte, rtept, ele). The scanner still checks that the file is
 * well-formed XML (balanced tags, quoted attributes, nothing but markup around the root) and that the
 * root is <gpx>, so anything else is GPX_INVALID.
 */
import { ApiError } from "../../shared/api-error.ts";
import { TRACK_MAX_BYTES, TRACK_MAX_POINTS, TRACK_NAME_MAX } from "./track-limits.ts";
import type { TrackPoint } from "./track-point.ts";

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
