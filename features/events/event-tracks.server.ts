/**
 * The tracks of public events' courses: summaries, GeoJSON features, elevation profiles, the
 * simplified lines and profiles the event page draws, and GPX files.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { boundsOf, simplifySegmentsToCount, splitAtBreaks } from "../maps/geometry.ts";
import type { ElevationProfile, EventPageTrack, TrackFeature, TrackSummary } from "./event-detail.contract.ts";
import { courses, events, type TrackPoint, tracks } from "./events.tables.ts";
import { fileSlug, toGpx } from "./gpx.ts";
import type { TrackProfileOf } from "./track-profile-port.ts";

export function gpxPath(trackId: number): string {
  return `/track/export/${trackId}/gpx`;
}

export const trackSummaryColumns = {
  id: tracks.id,
  name: tracks.name,
  courseId: tracks.courseId,
  distance: tracks.distance,
  elevationGain: tracks.elevationGain,
  elevationLoss: tracks.elevationLoss,
  minElevation: tracks.minElevation,
  maxElevation: tracks.maxElevation,
  startLat: tracks.startLat,
  startLng: tracks.startLng,
};
export type TrackSummaryRow = {
  [K in keyof typeof trackSummaryColumns]: (typeof trackSummaryColumns)[K]["_"]["data"] | null;
};

export function toTrackSummary(row: TrackSummaryRow): TrackSummary {
  return {
    id: row.id!,
    name: row.name!,
    courseId: row.courseId,
    distance: row.distance!,
    elevationGain: row.elevationGain!,
    elevationLoss: row.elevationLoss!,
    minElevation: row.minElevation,
    maxElevation: row.maxElevation,
    start: row.startLat !== null && row.startLng !== null ? { lat: row.startLat, lng: row.startLng } : null,
    gpx: gpxPath(row.id!),
  };
}

/** Positions of a track for GeoJSON: [lng, lat, ele], or [lng, lat] where the elevation is unknown. */
function geoJsonPositions(points: readonly TrackPoint[]): number[][] {
  return points.map(([lng, lat, ele]) => (ele === null ? [lng, lat] : [lng, lat, ele]));
}

/** A track's line as GeoJSON: one LineString, or a MultiLineString when it has several segments. */
function geoJsonLine(points: readonly TrackPoint[], breaks: readonly number[]): TrackFeature["geometry"] {
  const segments = splitAtBreaks(points, breaks).filter((segment) => segment.length >= 2);
  if (segments.length <= 1) return { type: "LineString", coordinates: geoJsonPositions(segments[0] ?? points) };
  return { type: "MultiLineString", coordinates: segments.map(geoJsonPositions) };
}

/** An event's public id, slug and name when it is active, else null. */
async function publicEvent(db: Db, id: number): Promise<{ id: number; slug: string; name: string } | null> {
  const [row] = await db
    .select({ id: events.id, slug: events.slug, name: events.name })
    .from(events)
    .where(and(eq(events.id, id), eq(events.status, "active")))
    .limit(1);
  return row ?? null;
}

export function eventTrackService(db: Db, segmentedProfile: TrackProfileOf) {
  /** A track with its points, when its event is public. */
  async function findTrack(id: number) {
    const [row] = await db
      .select({
        ...trackSummaryColumns,
        points: tracks.points,
        breaks: tracks.breaks,
        createdAt: tracks.createdAt,
        eventId: events.id,
        eventSlug: events.slug,
        eventName: events.name,
        courseName: courses.name,
      })
      .from(tracks)
      .innerJoin(courses, eq(courses.id, tracks.courseId))
      .innerJoin(events, eq(events.id, courses.eventId))
      .where(and(eq(tracks.id, id), eq(events.status, "active")))
      .limit(1);
    return row ?? null;
  }

  function toFeature(row: NonNullable<Awaited<ReturnType<typeof findTrack>>>): TrackFeature {
    return {
      type: "Feature",
      id: row.id,
      bbox: boundsOf(row.points) ?? [0, 0, 0, 0],
      geometry: geoJsonLine(row.points, row.breaks),
      properties: { ...toTrackSummary(row), eventId: row.eventId, eventSlug: row.eventSlug },
    };
  }

  return {
    /** The lines and profiles the event page draws for these tracks (simplified, rounded). */
    async pageTracks(trackIds: number[]): Promise<EventPageTrack[]> {
      const rows = trackIds.length
        ? await db
            .select({ id: tracks.id, courseId: tracks.courseId, points: tracks.points, breaks: tracks.breaks })
            .from(tracks)
            .where(inArray(tracks.id, trackIds))
        : [];
      return rows.map((t) => {
        const line = simplifySegmentsToCount(t.points, t.breaks, 300);
        const profile = segmentedProfile(t.points, t.breaks, 160);
        return {
          courseId: t.courseId!,
          trackId: t.id,
          line: line.points.map(([lng, lat]) => [Math.round(lng * 1e5) / 1e5, Math.round(lat * 1e5) / 1e5]),
          breaks: line.breaks,
          profile: profile.profile.map(([d, e]) => [d, Math.round(e)]),
          profileBreaks: profile.breaks,
        };
      });
    },

    /** A track as a GeoJSON LineString feature with its statistics. */
    async track(id: number): Promise<TrackFeature | null> {
      const row = await findTrack(id);
      return row ? toFeature(row) : null;
    },

    /** The tracks of a public event's courses, as summaries. Null when the event is not public. */
    async trackSummaries(eventId: number): Promise<TrackSummary[] | null> {
      if (!(await publicEvent(db, eventId))) return null;
      const rows = await db
        .select(trackSummaryColumns)
        .from(tracks)
        .innerJoin(courses, eq(courses.id, tracks.courseId))
        .where(eq(courses.eventId, eventId))
        .orderBy(asc(courses.position), asc(tracks.id));
      return rows.map(toTrackSummary);
    },

    /** The tracks of a public event's courses, as GeoJSON features. Null when the event is not public. */
    async trackFeatures(eventId: number): Promise<TrackFeature[] | null> {
      const event = await publicEvent(db, eventId);
      if (!event) return null;
      const rows = await db
        .select({ ...trackSummaryColumns, points: tracks.points, breaks: tracks.breaks })
        .from(tracks)
        .innerJoin(courses, eq(courses.id, tracks.courseId))
        .where(eq(courses.eventId, eventId))
        .orderBy(asc(courses.position), asc(tracks.id));
      return rows.map((row) => toFeature({ ...row, eventId: event.id, eventSlug: event.slug } as never));
    },

    /** A track's elevation profile resampled to `points` evenly spaced samples. */
    async elevation(id: number, points: number): Promise<ElevationProfile | null> {
      const row = await findTrack(id);
      if (!row) return null;
      const profile = segmentedProfile(row.points, row.breaks, points);
      return {
        id: row.id,
        distance: row.distance,
        elevationGain: row.elevationGain,
        elevationLoss: row.elevationLoss,
        minElevation: row.minElevation,
        maxElevation: row.maxElevation,
        points: profile.profile,
        breaks: profile.breaks,
      };
    },

    /** A track as a GPX 1.1 file, with a file name made of the event's slug and the course's name. */
    async gpx(id: number): Promise<{ filename: string; xml: string } | null> {
      const row = await findTrack(id);
      if (!row) return null;
      const xml = toGpx({
        name: row.name,
        time: row.createdAt,
        link: { href: publicUrl(pagePath("event", "fr", { slug: row.eventSlug })), text: row.eventName },
        points: row.points,
        breaks: row.breaks,
      });
      return { filename: `${fileSlug(row.eventSlug, row.courseName)}.gpx`, xml };
    },
  };
}
