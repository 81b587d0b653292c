/**
 * From an uploaded GPX file to a course track: parsing (gpx-parse.ts), distance and smoothed
 * elevation gain and loss (elevation-gain.ts), then here a simplified line for maps and an elevation
 * profile for charts. Pure and isomorphic (no DOM, no Node API), so the event form could preview a
 * file in the browser with the same numbers.
 */
import { z } from "zod";
import { ApiError } from "../../shared/api-error.ts";
import { rowId, text } from "../../shared/input.ts";
import { type Bounds, boundsOf, normaliseBreaks, simplifySegmentsToCount, simplifyToCount } from "../maps/geometry.ts";
import { analyseElevation, cumulativeDistances, interpolate, sampleProfile } from "./elevation-gain.ts";
import { decodeGpxBytes, parseGpxTrack } from "./gpx-parse.ts";
import { TRACK_DISPLAY_POINTS, TRACK_MAX_BYTES, TRACK_MAX_POINTS, TRACK_NAME_MAX } from "./track-limits.ts";
import type { TrackPoint } from "./track-point.ts";

export * from "./elevation-gain.ts";
export * from "./gpx-parse.ts";
export * from "./track-limits.ts";
export type { TrackPoint } from "./track-point.ts";

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
