/**
 * Course tracks uploaded by members: store a processed GPX on a course or, for a course the form has
 * not saved yet, as an unattached track owned by its uploader; attach, reverse, rename and delete.
 *
 * Who may touch a track: while unattached, its uploader (or an admin); once on a course, an editor
 * of the course's event (owner, organiser, admin, see event-access.server.ts). Every write runs in
 * one transaction with the rows it changes locked, and a change of a course's track leaves an event
 * history row ("modification", `{ track: "added" | "removed" | "reversed", courseId, trackId }`).
 */
import { and, desc, eq, inArray, isNull, lt, notInArray } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type Actor, requireEventEditor } from "../events/event-access.server.ts";
import { courses, eventHistory, events, tracks } from "../events/events.tables.ts";
import { requireVerifiedEmail } from "../identity/auth.server.ts";
import { type Limit, rateLimiter } from "../identity/rate-limit.server.ts";
import { boundsOf } from "../maps/geometry.ts";
import { type ProcessedTrack, reverseTrack, TRACK_NAME_MAX, type TrackResult } from "./track-processing.ts";

/** Unattached uploads kept per member; older ones go when a new one arrives. */
export const UNATTACHED_TRACKS_KEPT = 20;
/**
 * An upload never attached to a course is deleted once this old (the nightly job, see
 * server/app.server.ts): the event form that uploaded it was left without saving.
 */
export const UNATTACHED_TRACK_GRACE_MS = 24 * 3_600_000;
/** GPX uploads a member may make in an hour (a 200,000-point file is about half a second of a core). */
export const TRACK_UPLOAD_LIMIT: Limit = { max: 30, windowSeconds: 60 * 60 };

type TrackRow = typeof tracks.$inferSelect;
type TrackChange = "added" | "removed" | "reversed";

export function toTrackResult(row: TrackRow): TrackResult {
  return {
    id: row.id,
    courseId: row.courseId,
    name: row.name,
    distance: row.distance,
    elevationGain: row.elevationGain,
    elevationLoss: row.elevationLoss,
    minElevation: row.minElevation,
    maxElevation: row.maxElevation,
    start: row.startLat !== null && row.startLng !== null ? { lat: row.startLat, lng: row.startLng } : null,
    bounds: boundsOf(row.points),
    points: row.points,
    breaks: row.breaks,
    profile: row.profile,
  };
}

/** A track, locked for the transaction, or ITEM_NOT_FOUND. */
async function lockTrack(tx: Executor, trackId: number, field = "trackId"): Promise<TrackRow> {
  const [track] = await tx.select().from(tracks).where(eq(tracks.id, trackId)).for("update");
  if (!track) throw new ApiError("ITEM_NOT_FOUND", { field });
  return track;
}

/** A course, locked so that two writers cannot both give it a track, or ITEM_NOT_FOUND. */
async function lockCourse(tx: Executor, courseId: number, field = "courseId") {
  const [course] = await tx
    .select({ id: courses.id, eventId: courses.eventId, name: courses.name })
    .from(courses)
    .where(eq(courses.id, courseId))
    .for("update");
  if (!course) throw new ApiError("ITEM_NOT_FOUND", { field });
  return course;
}

/**
 * The event of the course the track is on (after checking the actor edits it), or null for an
 * unattached track (after checking the actor uploaded it or is an admin).
 */
async function requireTrackEditor(tx: Executor, actor: Actor, track: TrackRow): Promise<number | null> {
  if (track.courseId === null) {
    if (track.uploadedBy !== actor.id && actor.role !== "admin") throw new ApiError("FORBIDDEN");
    return null;
  }
  const course = await lockCourse(tx, track.courseId, "trackId");
  await requireEventEditor(tx, actor, course.eventId);
  return course.eventId;
}

async function recordChange(
  tx: Executor,
  actor: Actor,
  at: Date,
  change: { eventId: number; courseId: number; trackId: number; track: TrackChange },
) {
  await tx.insert(eventHistory).values({
    eventId: change.eventId,
    type: "modification",
    data: { track: change.track, courseId: change.courseId, trackId: change.trackId },
    userId: actor.id,
    createdAt: at,
  });
  // The event page shows the track: its sitemap date moves with it.
  await tx.update(events).set({ updatedAt: at }).where(eq(events.id, change.eventId));
}

/**
 * Gives a course a track, inside the caller's transaction (the event editor's save uses it too).
 * The track may be an unattached upload of the actor's or a track of a course they edit. Within one
 * event the track moves to the course; from another event's course it is copied, so that event
 * keeps its own. The course's previous track is deleted. Returns the track now on the course.
 */
export async function attachTrackToCourse(
  tx: Executor,
  actor: Actor,
  trackId: number,
  courseId: number,
  at: Date = new Date(),
): Promise<TrackRow> {
  requireVerifiedEmail(actor);
  const track = await lockTrack(tx, trackId);
  const fromEvent = await requireTrackEditor(tx, actor, track);
  const course = await lockCourse(tx, courseId);
  await requireEventEditor(tx, actor, course.eventId);
  if (track.courseId === courseId) return track;

  await tx.delete(tracks).where(eq(tracks.courseId, courseId));
  let row: TrackRow;
  if (fromEvent === null || fromEvent === course.eventId) {
    [row] = await tx.update(tracks).set({ courseId }).where(eq(tracks.id, trackId)).returning();
    if (fromEvent !== null && track.courseId !== null) {
      await recordChange(tx, actor, at, { eventId: fromEvent, courseId: track.courseId, trackId, track: "removed" });
    }
  } else {
    const { id: _id, ...copy } = track;
    [row] = await tx
      .insert(tracks)
      .values({ ...copy, courseId, uploadedBy: actor.id, createdAt: at })
      .returning();
  }
  await recordChange(tx, actor, at, { eventId: course.eventId, courseId, trackId: row.id, track: "added" });
  return row;
}

export function tracksService(db: Db, clock: () => Date = () => new Date()) {
  const limiter = rateLimiter(db, clock);
  return {
    /** Name, distance and D+ of tracks, for the editor's course cards (caller checks access). */
    async summaries(ids: readonly number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: tracks.id, name: tracks.name, distance: tracks.distance, elevationGain: tracks.elevationGain })
        .from(tracks)
        .where(inArray(tracks.id, [...ids]));
    },

    /**
     * Admits an upload before its file is read: the actor has a verified address, may upload to
     * this target (a course id: an editor of its event; 0: a track for a course not saved yet, any
     * verified member) and has uploads left this hour. Each admitted upload counts, whatever its
     * file turns out to be: the work is in reading it.
     */
    async admitUpload(actor: Actor, target: number): Promise<void> {
      requireVerifiedEmail(actor);
      if (target !== 0) {
        const [course] = await db
          .select({ eventId: courses.eventId })
          .from(courses)
          .where(eq(courses.id, target))
          .limit(1);
        if (!course) throw new ApiError("ITEM_NOT_FOUND", { field: "id" });
        await requireEventEditor(db, actor, course.eventId);
      }
      await limiter.hit(`upload:track:${actor.id}`, TRACK_UPLOAD_LIMIT, "TOO_MANY_UPLOADS");
    },

    /**
     * Stores a processed track on course `target` (replacing its track) or, with target 0, as an
     * unattached track of the actor's. The name is the GPX's, else `fallbackName` (the file's),
     * else the course's.
     */
    async upload(actor: Actor, target: number, track: ProcessedTrack, fallbackName?: string | null) {
      requireVerifiedEmail(actor);
      const at = clock();
      const row = await db.transaction(async (tx) => {
        const course = target === 0 ? null : await lockCourse(tx, target, "id");
        if (course) {
          await requireEventEditor(tx, actor, course.eventId);
          await tx.delete(tracks).where(eq(tracks.courseId, course.id));
        }
        const name = [track.name, fallbackName, course?.name, "GPX"]
          .map((n) => n?.trim().slice(0, TRACK_NAME_MAX))
          .find(Boolean)!;
        const [inserted] = await tx
          .insert(tracks)
          .values({
            courseId: course?.id ?? null,
            uploadedBy: actor.id,
            name,
            points: track.points,
            breaks: track.breaks,
            distance: track.distance,
            elevationGain: track.elevationGain,
            elevationLoss: track.elevationLoss,
            minElevation: track.minElevation,
            maxElevation: track.maxElevation,
            profile: track.profile,
            startLat: track.start.lat,
            startLng: track.start.lng,
            createdAt: at,
          })
          .returning();
        if (course) {
          await recordChange(tx, actor, at, {
            eventId: course.eventId,
            courseId: course.id,
            trackId: inserted.id,
            track: "added",
          });
        } else {
          const unattached = and(eq(tracks.uploadedBy, actor.id), isNull(tracks.courseId));
          const kept = tx
            .select({ id: tracks.id })
            .from(tracks)
            .where(unattached)
            .orderBy(desc(tracks.id))
            .limit(UNATTACHED_TRACKS_KEPT);
          await tx.delete(tracks).where(and(unattached, notInArray(tracks.id, kept)));
        }
        return inserted;
      });
      return {
        track: toTrackResult(row),
        suggestions: { distance: track.distance, elevationGain: track.elevationGain },
      };
    },

    /**
     * Deletes the uploads never attached to a course that are older than UNATTACHED_TRACK_GRACE_MS
     * (their whole row: line, profile and figures; no file is kept on disk). Returns how many went.
     */
    async purgeUnattached(): Promise<number> {
      const before = new Date(clock().getTime() - UNATTACHED_TRACK_GRACE_MS);
      const gone = await db
        .delete(tracks)
        .where(and(isNull(tracks.courseId), lt(tracks.createdAt, before)))
        .returning({ id: tracks.id });
      return gone.length;
    },

    /** Puts a track on a course (see attachTrackToCourse). */
    async attach(actor: Actor, trackId: number, courseId: number): Promise<TrackResult> {
      const row = await db.transaction((tx) => attachTrackToCourse(tx, actor, trackId, courseId, clock()));
      return toTrackResult(row);
    },

    /** The track run the other way: points and profile reversed, gain and loss exchanged. */
    async reverse(actor: Actor, trackId: number): Promise<TrackResult> {
      requireVerifiedEmail(actor);
      const at = clock();
      const row = await db.transaction(async (tx) => {
        const track = await lockTrack(tx, trackId);
        const eventId = await requireTrackEditor(tx, actor, track);
        const reversed = reverseTrack(track);
        const [updated] = await tx
          .update(tracks)
          .set({
            points: reversed.points,
            breaks: reversed.breaks,
            profile: reversed.profile,
            elevationGain: reversed.elevationGain,
            elevationLoss: reversed.elevationLoss,
            startLat: reversed.start?.lat ?? null,
            startLng: reversed.start?.lng ?? null,
          })
          .where(eq(tracks.id, trackId))
          .returning();
        if (eventId !== null && track.courseId !== null) {
          await recordChange(tx, actor, at, { eventId, courseId: track.courseId, trackId, track: "reversed" });
        }
        return updated;
      });
      return toTrackResult(row);
    },

    /** A new name for the track (what maps, the GPX export and the course page show). */
    async rename(actor: Actor, trackId: number, name: string): Promise<TrackResult> {
      requireVerifiedEmail(actor);
      const row = await db.transaction(async (tx) => {
        const track = await lockTrack(tx, trackId);
        await requireTrackEditor(tx, actor, track);
        const [updated] = await tx
          .update(tracks)
          .set({ name: name.trim().slice(0, TRACK_NAME_MAX) })
          .where(eq(tracks.id, trackId))
          .returning();
        return updated;
      });
      return toTrackResult(row);
    },

    /** Deletes a track; its course, if any, is left without one. */
    async remove(actor: Actor, trackId: number): Promise<void> {
      requireVerifiedEmail(actor);
      const at = clock();
      await db.transaction(async (tx) => {
        const track = await lockTrack(tx, trackId, "id");
        const eventId = await requireTrackEditor(tx, actor, track);
        await tx.delete(tracks).where(eq(tracks.id, trackId));
        if (eventId !== null && track.courseId !== null) {
          await recordChange(tx, actor, at, { eventId, courseId: track.courseId, trackId, track: "removed" });
        }
      });
    },
  };
}
export type TracksService = ReturnType<typeof tracksService>;
