/**
 * GPX 1.1 (https://www.topografix.com/GPX/1/1/) writing and reading for course tracks.
 *
 * `toGpx` writes one track (`trk`) with one segment (`trkseg`) per segment of the line and an
 * elevation per point when known; `parseGpx` reads back the track points (and route points) of any
 * GPX file and where its segments start, enough to recompute a course's distance and elevation. Both are plain string work, so they run in Node and in the browser.
 */
import { splitAtBreaks } from "../maps/geometry.ts";
import type { TrackPoint } from "./events.tables.ts";

export const GPX_MIME_TYPE = "application/gpx+xml";
export const GPX_NAMESPACE = "http://www.topografix.com/GPX/1/1";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const SCHEMA_LOCATION = `${GPX_NAMESPACE} http://www.topografix.com/GPX/1/1/gpx.xsd`;

export type GpxInput = {
  /** Name of the file's metadata and of the track. */
  name: string;
  /** Metadata time (when the file was made or the track last changed). */
  time?: Date | string | null;
  description?: string | null;
  /** Page the track belongs to (the event page). */
  link?: { href: string; text?: string } | null;
  creator?: string;
  points: readonly TrackPoint[];
  /** Indexes in `points` where a new segment starts: each segment is its own <trkseg>. */
  breaks?: readonly number[] | null;
};

/** Characters XML 1.0 forbids, even escaped (C0 controls but tab, newline and carriage return). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters to drop
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Text or attribute value escaped for XML. */
export function escapeXml(value: string): string {
  return value
    .replace(INVALID_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

function unescapeXml(value: string): string {
  return value
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Fixed decimals without trailing zeros: 45.1000001 → "45.1", 3 → "3". */
function num(value: number, decimals: number): string {
  return String(Number(value.toFixed(decimals)));
}

function isoTime(time: Date | string): string | null {
  const date = typeof time === "string" ? new Date(time) : time;
  return Number.isFinite(date.getTime()) ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : null;
}

/** A GPX 1.1 document of one track, a <trkseg> per segment. Coordinates keep 7 decimals (about 1 cm), elevations 1. */
export function toGpx(input: GpxInput): string {
  const name = escapeXml(input.name);
  const time = input.time ? isoTime(input.time) : null;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<gpx version="1.1" creator="${escapeXml(input.creator ?? "Dossard")}" xmlns="${GPX_NAMESPACE}" xmlns:xsi="${XSI}" xsi:schemaLocation="${SCHEMA_LOCATION}">`,
    "  <metadata>",
    `    <name>${name}</name>`,
  ];
  if (input.description) lines.push(`    <desc>${escapeXml(input.description)}</desc>`);
  if (input.link) {
    lines.push(`    <link href="${escapeXml(input.link.href)}">`);
    if (input.link.text) lines.push(`      <text>${escapeXml(input.link.text)}</text>`);
    lines.push("    </link>");
  }
  if (time) lines.push(`    <time>${time}</time>`);
  lines.push("  </metadata>", "  <trk>", `    <name>${name}</name>`);
  // A reader measures along a segment, never across the gap between two.
  for (const segment of splitAtBreaks(input.points, input.breaks)) {
    lines.push("    <trkseg>");
    for (const [lng, lat, ele] of segment) {
      const attrs = `lat="${num(lat, 7)}" lon="${num(lng, 7)}"`;
      lines.push(
        ele === null || !Number.isFinite(ele)
          ? `      <trkpt ${attrs}/>`
          : `      <trkpt ${attrs}><ele>${num(ele, 1)}</ele></trkpt>`,
      );
    }
    lines.push("    </trkseg>");
  }
  lines.push("  </trk>", "</gpx>", "");
  return lines.join("\n");
}

export type ParsedGpx = {
  version: string | null;
  creator: string | null;
  /** The metadata name, else the first track's. */
  name: string | null;
  time: string | null;
  points: TrackPoint[];
  /** Indexes in `points` where a new <trkseg> (or route) starts. */
  breaks: number[];
};

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return match ? unescapeXml(match[1] ?? match[2]) : null;
}

function element(xml: string, name: string): string | null {
  const match = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? unescapeXml(match[1].trim()) : null;
}

/**
 * Track points (`trkpt`) of a GPX file in order, or its route points (`rtept`) when it has no
 * track. Throws when the text is not a GPX document.
 */
export function parseGpx(xml: string): ParsedGpx {
  const root = /<gpx(\s[^>]*)?>/.exec(xml);
  if (!root) throw new Error("Not a GPX document: no <gpx> element");
  const metadata = element(xml, "metadata") ?? "";
  const firstTrack = element(xml, "trk") ?? "";
  const points: TrackPoint[] = [];
  const breaks: number[] = [];
  const read = (tagName: string, parentName: string) => {
    const pattern = new RegExp(
      `<${parentName}(?:\\s[^>]*)?>|<${tagName}(\\s[^>]*?)(/>|>([\\s\\S]*?)</${tagName}>)`,
      "g",
    );
    for (const match of xml.matchAll(pattern)) {
      if (match[1] === undefined) {
        // A new segment (or route): the next point starts it.
        if (points.length > 0 && breaks.at(-1) !== points.length) breaks.push(points.length);
        continue;
      }
      const lat = Number(attribute(match[1], "lat"));
      const lng = Number(attribute(match[1], "lon"));
      if (!Number.isFinite(lat) || !Number.isFinite(lng)) throw new Error(`A <${tagName}> has no valid lat/lon`);
      const eleText = match[3] ? element(match[3], "ele") : null;
      const ele = eleText === null || eleText === "" ? null : Number(eleText);
      points.push([lng, lat, ele !== null && Number.isFinite(ele) ? ele : null]);
    }
  };
  read("trkpt", "trkseg");
  if (points.length === 0) read("rtept", "rte");
  return {
    version: attribute(root[0], "version"),
    creator: attribute(root[0], "creator"),
    name: element(metadata, "name") ?? element(firstTrack.replace(/<trkseg[\s\S]*$/, ""), "name"),
    time: element(metadata, "time"),
    points,
    breaks: breaks.filter((b) => b < points.length),
  };
}

/** A file name from words: lower case ASCII, hyphens, no accents ("Trail des Écrins – 42 km" → "trail-des-ecrins-42-km"). */
export function fileSlug(...parts: (string | null | undefined)[]): string {
  const slug = parts
    .filter(Boolean)
    .join(" ")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "track";
}
