/**
 * Activity files a member uploads: GPX (with <time> and Garmin's TrackPointExtension heart rate),
 * TCX (Garmin Training Center) and FIT (Garmin, Coros, Suunto…). XML is read with fast-xml-parser,
 * FIT with fit-file-parser; both maintained libraries. The samples then go through
 * buildActivityTrack, the same processing as course tracks. Runs in the upload worker threads
 * (activity-workers.server.ts): `readActivityFile` is the task.
 *
 * A file that cannot be read is refused with ACTIVITY_FILE_INVALID, one without two located points
 * with ACTIVITY_FILE_EMPTY, one too large with ACTIVITY_FILE_TOO_LARGE.
 */

import { XMLParser, XMLValidator } from "fast-xml-parser";
import FitParser from "fit-file-parser";
import { ApiError } from "../../shared/api-error.ts";
import { decodeGpxBytes, TRACK_MAX_BYTES, TRACK_MAX_POINTS } from "../tracks/track-processing.ts";
import { type ActivitySample, type ActivityTrack, buildActivityTrack } from "./activity-track.ts";

export const ACTIVITY_FILE_KINDS = ["gpx", "tcx", "fit"] as const;
export type ActivityFileKind = (typeof ACTIVITY_FILE_KINDS)[number];

export type ActivityFileInput = { bytes: Uint8Array; fileName: string | null };

export type ReadActivityFile = ActivityTrack & {
  kind: ActivityFileKind;
  name: string | null;
  /** A sport of ACTIVITY_SPORTS when the file says one, else null. */
  sport: string | null;
};

const invalid = () => new ApiError("ACTIVITY_FILE_INVALID");

/** FIT files start with a header whose bytes 8-11 are ".FIT"; XML ones with a root element. */
export function sniffKind(bytes: Uint8Array, fileName: string | null): ActivityFileKind {
  if (bytes.length >= 12 && String.fromCharCode(bytes[8], bytes[9], bytes[10], bytes[11]) === ".FIT") return "fit";
  let head = "";
  for (let i = 0; i < Math.min(bytes.length, 2048); i++) head += String.fromCharCode(bytes[i]);
  if (/<TrainingCenterDatabase[\s>]/.test(head)) return "tcx";
  if (/<gpx[\s>]/.test(head)) return "gpx";
  const extension = fileName?.toLowerCase().match(/\.(gpx|tcx|fit)$/)?.[1];
  if (extension === "fit") return "fit";
  throw invalid();
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => ["trk", "trkseg", "trkpt", "Activity", "Lap", "Track", "Trackpoint"].includes(name),
  processEntities: true,
});

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const num = (value: unknown): number | null => {
  if (value === undefined || value === null || value === "") return null;
  const n = Number(String(value).trim().replace(",", "."));
  return Number.isFinite(n) ? n : null;
};
const time = (value: unknown): number | null => {
  if (typeof value !== "string") return null;
  const t = Date.parse(value.trim());
  return Number.isFinite(t) ? t : null;
};
const elevation = (value: unknown) => {
  const n = num(value);
  return n !== null && n >= -500 && n <= 9_000 ? n : null;
};
const heart = (value: unknown) => {
  const n = num(value);
  return n !== null && n > 20 && n < 260 ? n : null;
};

function located(lat: number | null, lng: number | null): lat is number {
  return lat !== null && lng !== null && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && !(lat === 0 && lng === 0);
}

type Parsed = { samples: ActivitySample[]; breaks: number[]; name: string | null; sport: string | null };

function parseXml(text: string): Record<string, unknown> {
  if (XMLValidator.validate(text) !== true) throw invalid();
  try {
    return xml.parse(text) as Record<string, unknown>;
  } catch {
    throw invalid();
  }
}

const SPORTS: Record<string, string> = {
  running: "run",
  run: "run",
  trail_running: "trail",
  trail: "trail",
  cycling: "ride",
  biking: "ride",
  ride: "ride",
  walking: "walk",
  hiking: "hike",
  swimming: "swim",
};

function readGpx(text: string): Parsed {
  const doc = parseXml(text).gpx as Record<string, unknown> | undefined;
  if (!doc || typeof doc !== "object") throw invalid();
  const samples: ActivitySample[] = [];
  const breaks: number[] = [];
  let name: string | null = null;
  let sport: string | null = null;
  for (const trk of list(doc.trk as Record<string, unknown>[])) {
    name ??= typeof trk.name === "string" ? trk.name.trim() || null : null;
    sport ??= typeof trk.type === "string" ? (SPORTS[trk.type.toLowerCase()] ?? null) : null;
    for (const seg of list(trk.trkseg as Record<string, unknown>[])) {
      const start = samples.length;
      for (const pt of list((seg as Record<string, unknown>)?.trkpt as Record<string, unknown>[])) {
        const lat = num(pt["@lat"]);
        const lng = num(pt["@lon"]);
        if (!located(lat, lng)) throw invalid();
        const ext = (pt.extensions as Record<string, unknown> | undefined)?.TrackPointExtension as
          | Record<string, unknown>
          | undefined;
        samples.push({ lat, lng: lng as number, ele: elevation(pt.ele), time: time(pt.time), hr: heart(ext?.hr) });
        if (samples.length > TRACK_MAX_POINTS) throw new ApiError("ACTIVITY_FILE_TOO_LARGE");
      }
      if (start > 0 && samples.length > start) breaks.push(start);
    }
  }
  const metadata = doc.metadata as Record<string, unknown> | undefined;
  if (typeof metadata?.name === "string" && metadata.name.trim()) name = metadata.name.trim();
  return { samples, breaks, name, sport };
}

function readTcx(text: string): Parsed {
  const root = parseXml(text).TrainingCenterDatabase as Record<string, unknown> | undefined;
  const activities = list(
    (root?.Activities as Record<string, unknown> | undefined)?.Activity as Record<string, unknown>[],
  );
  if (!root || activities.length === 0) throw invalid();
  const samples: ActivitySample[] = [];
  const breaks: number[] = [];
  const activity = activities[0];
  const sportAttribute = String(activity["@Sport"] ?? "").toLowerCase();
  for (const lap of list(activity.Lap as Record<string, unknown>[])) {
    for (const track of list(lap.Track as Record<string, unknown>[])) {
      const start = samples.length;
      for (const point of list(track.Trackpoint as Record<string, unknown>[])) {
        const position = point.Position as Record<string, unknown> | undefined;
        // Points without a position (a pause, an indoor stretch) carry no place: skipped.
        if (!position) continue;
        const lat = num(position.LatitudeDegrees);
        const lng = num(position.LongitudeDegrees);
        if (!located(lat, lng)) throw invalid();
        const hr = (point.HeartRateBpm as Record<string, unknown> | undefined)?.Value;
        samples.push({
          lat,
          lng: lng as number,
          ele: elevation(point.AltitudeMeters),
          time: time(point.Time),
          hr: heart(hr),
        });
        if (samples.length > TRACK_MAX_POINTS) throw new ApiError("ACTIVITY_FILE_TOO_LARGE");
      }
      if (start > 0 && samples.length > start) breaks.push(start);
    }
  }
  const notes = typeof activity.Notes === "string" ? activity.Notes.trim() : "";
  return { samples, breaks, name: notes || null, sport: SPORTS[sportAttribute] ?? null };
}

type FitRecord = {
  timestamp?: Date | string;
  position_lat?: number;
  position_long?: number;
  altitude?: number;
  enhanced_altitude?: number;
  heart_rate?: number;
};

async function readFit(bytes: Uint8Array): Promise<Parsed> {
  const parser = new FitParser({
    force: false,
    mode: "list",
    lengthUnit: "m",
    speedUnit: "m/s",
    elapsedRecordField: false,
  });
  let data: { records?: FitRecord[]; sessions?: { sport?: string; sub_sport?: string }[] };
  try {
    data = (await parser.parseAsync(Buffer.from(bytes))) as typeof data;
  } catch {
    throw invalid();
  }
  const samples: ActivitySample[] = [];
  for (const record of data.records ?? []) {
    const lat = record.position_lat ?? null;
    const lng = record.position_long ?? null;
    if (!located(lat, lng)) continue;
    const at = record.timestamp ? new Date(record.timestamp).getTime() : null;
    samples.push({
      lat,
      lng: lng as number,
      ele: elevation(record.enhanced_altitude ?? record.altitude),
      time: at !== null && Number.isFinite(at) ? at : null,
      hr: heart(record.heart_rate),
    });
    if (samples.length > TRACK_MAX_POINTS) throw new ApiError("ACTIVITY_FILE_TOO_LARGE");
  }
  const session = data.sessions?.[0];
  const sport =
    session?.sport === "running" && session.sub_sport === "trail" ? "trail" : (SPORTS[session?.sport ?? ""] ?? null);
  return { samples, breaks: [], name: null, sport };
}

/** The track code's GPX_* errors in the words of activity files. */
function activityError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === "GPX_EMPTY") return new ApiError("ACTIVITY_FILE_EMPTY");
  if (error.code === "GPX_TOO_LARGE") return new ApiError("ACTIVITY_FILE_TOO_LARGE");
  if (error.code === "GPX_INVALID" || error.code === "GPX_ELEVATION_INVALID")
    return new ApiError("ACTIVITY_FILE_INVALID");
  return error;
}

/** Reads one uploaded file: its kind by content, then its processed track. */
export async function readActivityFile(input: ActivityFileInput): Promise<ReadActivityFile> {
  const bytes = input.bytes;
  if (bytes.length > TRACK_MAX_BYTES) throw new ApiError("ACTIVITY_FILE_TOO_LARGE");
  if (bytes.length === 0) throw invalid();
  const kind = sniffKind(bytes, input.fileName);
  const parsed =
    kind === "fit"
      ? await readFit(bytes)
      : kind === "tcx"
        ? readTcx(decodeGpxBytes(bytes))
        : readGpx(decodeGpxBytes(bytes));
  if (parsed.samples.length < 2) throw new ApiError("ACTIVITY_FILE_EMPTY");
  // Every sample carries a time or none does: a partly timed file is read without times.
  const timed = parsed.samples.every((s) => s.time !== null);
  const samples = timed ? parsed.samples : parsed.samples.map((s) => ({ ...s, time: null }));
  let built: ActivityTrack;
  try {
    built = buildActivityTrack(samples, parsed.name, parsed.breaks);
  } catch (error) {
    throw activityError(error);
  }
  return { ...built, kind, name: parsed.name, sport: parsed.sport };
}
