/**
 * What other features ask of the catalogue (decision 047): whether an edition is listed, its name,
 * slug, first day and pictures, a course with its edition, a course's track. Each answer is one
 * query (a list: one query for the whole list). The events' tables are read here, by their
 * documented readers (search, seo) and written by the editor; other features call these.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { courses, eventImages, events, tracks } from "./events.tables.ts";

/**
 * A listed (active) edition's id and first day, or null. `forUpdate` locks the event's row until
 * the caller's transaction ends (ratings serialise an edition's ratings on it).
 */
export async function activeEventStart(
  db: Executor,
  eventId: number,
  options: { forUpdate?: boolean } = {},
): Promise<{ id: number; startDate: string } | null> {
  const query = db
    .select({ id: events.id, startDate: events.startDate })
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.status, "active")))
    .limit(1);
  const [event] = options.forUpdate ? await query.for("update") : await query;
  return event ?? null;
}

/** The active editions of an event's series (the event alone when it has none), in no order. */
export async function seriesEditions(
  db: Executor,
  eventId: number,
): Promise<Array<{ id: number; slug: string; startDate: string }>> {
  return db
    .select({ id: events.id, slug: events.slug, startDate: events.startDate })
    .from(events)
    .where(
      and(
        eq(events.status, "active"),
        sql`(${events.id} = ${eventId} OR ${events.groupId} = (SELECT group_id FROM events WHERE id = ${eventId}))`,
      ),
    );
}

/** The name and slug of each of these events that exists, whatever its status, by id. */
export async function eventLabels(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { id: number; name: string; slug: string }>> {
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: events.id, name: events.name, slug: events.slug })
    .from(events)
    .where(inArray(events.id, [...new Set(ids)]));
  return new Map(found.map((event) => [event.id, event]));
}

/** What the organisers' side needs of an edition (its contact address stays on the server), or null. */
export async function eventContact(db: Executor, eventId: number) {
  const [event] = await db
    .select({
      id: events.id,
      slug: events.slug,
      name: events.name,
      startDate: events.startDate,
      contactEmail: events.contactEmail,
      website: events.website,
      countryCode: events.countryCode,
      status: events.status,
    })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  return event ?? null;
}

/** An event's status and its cover and header pictures (stored names), or null. */
export async function eventPictures(db: Executor, eventId: number) {
  const [event] = await db
    .select({ status: events.status, coverImage: events.coverImage, headerImage: events.headerImage })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  return event ?? null;
}

/** The stored names of an event's gallery pictures, in no order. */
export async function eventGalleryFiles(db: Executor, eventId: number): Promise<Array<{ id: number; path: string }>> {
  return db
    .select({ id: eventImages.id, path: eventImages.path })
    .from(eventImages)
    .where(eq(eventImages.eventId, eventId));
}

/**
 * A course with what its edition says of it, or null; with `activeOnly`, null too when the edition
 * is not listed.
 */
export async function courseWithEvent(db: Executor, courseId: number, options: { activeOnly?: boolean } = {}) {
  const [course] = await db
    .select({
      id: courses.id,
      name: courses.name,
      distance: courses.distance,
      elevationGain: courses.elevationGain,
      startAt: courses.startAt,
      eventId: events.id,
      eventName: events.name,
      eventSlug: events.slug,
      startDate: events.startDate,
      city: events.city,
    })
    .from(courses)
    .innerJoin(events, eq(events.id, courses.eventId))
    .where(and(eq(courses.id, courseId), options.activeOnly ? eq(events.status, "active") : undefined));
  return course ?? null;
}

/** A course's edition and distance, or null. */
export async function courseEventAndDistance(
  db: Executor,
  courseId: number,
): Promise<{ eventId: number; distance: number | null } | null> {
  const [course] = await db
    .select({ eventId: courses.eventId, distance: courses.distance })
    .from(courses)
    .where(eq(courses.id, courseId))
    .limit(1);
  return course ?? null;
}

/** An edition's courses in the page's order. */
export async function eventCourses(
  db: Executor,
  eventId: number,
): Promise<Array<{ id: number; name: string; distance: number | null }>> {
  return db
    .select({ id: courses.id, name: courses.name, distance: courses.distance })
    .from(courses)
    .where(eq(courses.eventId, eventId))
    .orderBy(asc(courses.position), asc(courses.id));
}

/** The line and figures of a course's track (its newest, should there be several), or null. */
export async function courseTrack(db: Executor, courseId: number) {
  const [track] = await db
    .select({
      points: tracks.points,
      breaks: tracks.breaks,
      distance: tracks.distance,
      elevationGain: tracks.elevationGain,
    })
    .from(tracks)
    .where(eq(tracks.courseId, courseId))
    .orderBy(desc(tracks.id))
    .limit(1);
  return track ?? null;
}

/** A track, on a course or not yet, with its line, or null. */
export async function trackById(db: Executor, trackId: number) {
  const [track] = await db.select().from(tracks).where(eq(tracks.id, trackId));
  return track ?? null;
}
