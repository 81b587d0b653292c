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
import { cumulativeDistances, decodeGpxBytes, TRACK_MAX_BYTES, TRACK_MAX_POINTS } from "../tracks/track-processing.ts";
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
  // TCX's third sport (Running, Biking, Other), FIT's and GPX's own word for the rest: not a run.
  other: "other",
};

/**
 * The sport a file names: one of ours, "other" for any sport it names that is none of ours (a
 * swim-bike-run, a ski tour: never matched to a running race), null when it names none (or FIT's
 * "generic", which says nothing) and the upload takes it for a run.
 */
function sportNamed(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const key = value.trim().toLowerCase();
  if (!key || key === "generic") return null;
  return SPORTS[key] ?? "other";
}

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
  const sportAttribute = String(activity["@Sport"] ?? "");
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
  return { samples, breaks, name: notes || null, sport: sportNamed(sportAttribute) };
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
  const sport = session?.sport === "running" && session.sub_sport === "trail" ? "trail" : sportNamed(session?.sport);
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
  // A file timed only in part keeps what it has (issue 26 item 5): see withPartialTimes.
  const { samples, startedAt } = withPartialTimes(parsed.samples);
  let built: ActivityTrack;
  try {
    built = buildActivityTrack(samples, parsed.name, parsed.breaks);
  } catch (error) {
    throw activityError(error);
  }
  return { ...built, startedAt: built.startedAt ?? startedAt, kind, name: parsed.name, sport: parsed.sport };
}

/**
 * The samples of a file that has times on some points only (a watch before its clock is set, an
 * editor that dropped a few): with two times or more, each point without one gets the time its
 * place along the track gives between the timed points around it (the first or last known time
 * before the first or after the last), so that times, pace and splits are read; with one, only the
 * start is known. A file with no time at all stays untimed: its date is the member's to say.
 */
export function withPartialTimes(samples: readonly ActivitySample[]): {
  samples: ActivitySample[];
  startedAt: number | null;
} {
  const known = samples.flatMap((s, i) => (s.time !== null ? [i] : []));
  if (known.length === samples.length) return { samples: [...samples], startedAt: samples[0]?.time ?? null };
  if (known.length === 0) return { samples: [...samples], startedAt: null };
  const first = samples[known[0]].time as number;
  if (known.length === 1) return { samples: samples.map((s) => ({ ...s, time: null })), startedAt: first };
  const along = cumulativeDistances(samples.map((s) => [s.lng, s.lat, s.ele]));
  const out = samples.map((s) => ({ ...s }));
  let k = 0;
  for (let i = 0; i < out.length; i++) {
    if (out[i].time !== null) continue;
    // known[k]: the last timed point before i, when there is one.
    while (k + 1 < known.length && known[k + 1] < i) k++;
    const before = known[k] < i ? known[k] : null;
    const after = before === null ? known[0] : (known[k + 1] ?? null);
    if (before === null) out[i].time = samples[after as number].time;
    else if (after === null) out[i].time = samples[before].time;
    else {
      const t0 = samples[before].time as number;
      const t1 = samples[after].time as number;
      const span = along[after] - along[before];
      const share = span > 0 ? (along[i] - along[before]) / span : (i - before) / (after - before);
      out[i].time = Math.round(t0 + (t1 - t0) * share);
    }
  }
  return { samples: out, startedAt: first };
}
