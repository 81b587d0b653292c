/**
 * Writing an event's four-step form: its place, slug and columns, its courses with their prices and
 * tracks, the course summaries search reads, and the history entry of each change.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { EVENT_OPTIONS, type EventHistoryType } from "../../shared/constants.ts";
import { zonedTime } from "../../shared/zoned-time.ts";
import { sanitizeDescription } from "../events/description.server.ts";
import type { Actor } from "../events/event-access.server.ts";
import { coursePrices, courses, eventHistory, events, tracks } from "../events/events.tables.ts";
import { slugify } from "../geo/slugify.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import type { EditableEvent, EventForm } from "./editor.contract.ts";
import { diffForms } from "./editor-form-diff.ts";
import { eventRow, loadForm } from "./editor-form-read.server.ts";

/** The writes shared by the form, moderation and editions services, dated by `clock`. */
export function eventFormWriter(clock: () => Date) {
  async function history(
    tx: Executor,
    eventId: number,
    type: EventHistoryType,
    userId: number | null,
    data: Record<string, unknown> = {},
  ) {
    await tx.insert(eventHistory).values({ eventId, type, userId, data, createdAt: clock() });
  }

  async function checkCountry(tx: Executor, code: string) {
    const [row] = await rows<{ code: string }>(tx, sql`SELECT code FROM countries WHERE code = ${code}`);
    if (!row) throw new ApiError("BAD_REQUEST", { field: "countryCode" });
  }

  async function sportId(tx: Executor, key: string): Promise<number> {
    const [row] = await rows<{ id: number }>(tx, sql`SELECT id FROM sports WHERE key = ${key}`);
    if (!row) throw new ApiError("BAD_REQUEST", { field: "sport" });
    return row.id;
  }

  /** Department, region and coordinates of the commune picked (or of the coordinates given). */
  async function place(tx: Executor, form: EventForm) {
    await checkCountry(tx, form.countryCode);
    const code = form.communeCode?.toUpperCase();
    if (code) {
      const [commune] = await rows<{ department_code: string; region_code: string; lat: number; lng: number }>(
        tx,
        sql`SELECT c.department_code, d.region_code, c.lat, c.lng FROM communes c
            JOIN departments d ON d.code = c.department_code WHERE c.code = ${code}`,
      );
      if (!commune) throw new ApiError("BAD_REQUEST", { field: "communeCode" });
      return {
        communeCode: code,
        departmentCode: commune.department_code,
        regionCode: commune.region_code,
        // A pin moved by hand wins over the commune's centre.
        lat: form.lat ?? commune.lat,
        lng: form.lng ?? commune.lng,
      };
    }
    return { communeCode: null, departmentCode: null, regionCode: null, lat: form.lat ?? null, lng: form.lng ?? null };
  }

  /**
   * A slug from the name and year, free among the other events' slugs and former slugs (an old
   * address keeps leading to its event, issue 26 item 6); the event's own former slugs are free
   * for it (the trigger of migration 0022 keeps the one it leaves).
   */
  async function uniqueSlug(tx: Executor, form: EventForm, exceptId = 0): Promise<string> {
    const base = slugify(`${form.name} ${form.startDate.slice(0, 4)}`).slice(0, 90) || "course";
    const like = `${base}-%`;
    const taken = await rows<{ slug: string }>(
      tx,
      sql`SELECT slug FROM events WHERE (slug = ${base} OR slug LIKE ${like}) AND id <> ${exceptId}
          UNION SELECT slug FROM event_former_slugs WHERE (slug = ${base} OR slug LIKE ${like}) AND event_id <> ${exceptId}`,
    );
    const used = new Set(taken.map((r) => r.slug));
    if (!used.has(base)) return base;
    for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  function eventValues(form: EventForm) {
    return {
      name: form.name,
      isCompetition: form.isCompetition,
      isConnected: form.isConnected,
      scope: form.scope,
      startDate: form.startDate,
      endDate: form.endDate,
      dateConfirmed: form.dateConfirmed,
      address: form.address ?? null,
      zipcode: form.zipcode ?? null,
      city: form.city,
      place: form.place ?? null,
      countryCode: form.countryCode,
      organizerName: form.organizerName ?? null,
      description: sanitizeDescription(form.description),
      options: Object.fromEntries(EVENT_OPTIONS.map((o) => [o, Boolean(form.options?.[o])])),
      contactEmail: form.contactEmail ?? null,
      contactPhone: form.contactPhone ?? null,
      website: form.website ?? null,
      registrationUrl: form.registrationUrl ?? null,
      registrationOpensAt: form.registrationOpensAt ? new Date(`${form.registrationOpensAt}T00:00:00Z`) : null,
      liveTrackingUrl: form.liveTrackingUrl ?? null,
      facebookUrl: form.facebookUrl ?? null,
      instagramUrl: form.instagramUrl ?? null,
      xUrl: form.xUrl ?? null,
      youtubeUrl: form.youtubeUrl ?? null,
      vimeoUrl: form.vimeoUrl ?? null,
      liveVideoUrl: form.liveVideoUrl ?? null,
    };
  }

  /** Course dates lie within the event's days. */
  function checkCourseDates(form: EventForm) {
    form.courses.forEach((course, i) => {
      if (course.date < form.startDate || course.date > form.endDate) {
        throw new ApiError("DATE_RANGE_INVALID", { field: `courses.${i}.date` });
      }
    });
  }

  /** Replaces the event's courses by the form's: kept by id, new ones added, missing ones removed. */
  async function writeCourses(tx: Executor, eventId: number, form: EventForm, timeZone: string, actor: Actor) {
    const existing = await tx.select({ id: courses.id }).from(courses).where(eq(courses.eventId, eventId));
    const existingIds = new Set(existing.map((c) => c.id));
    const keep = new Set<number>();
    for (const [position, course] of form.courses.entries()) {
      const [hour, minute] = (course.startTime ?? "00:00").split(":").map(Number);
      const values = {
        eventId,
        name: course.name,
        type: course.type,
        distance: course.distance ?? null,
        duration: course.duration ?? null,
        elevationGain: course.elevationGain ?? null,
        bibQuota: course.bibQuota ?? null,
        description: sanitizeDescription(course.description),
        startAt: zonedTime(course.date, hour ?? 0, minute ?? 0, timeZone),
        startPlace: course.startPlace ?? null,
        finishPlace: course.finishPlace ?? null,
        refuellingPoints: course.refuellingPoints ?? null,
        mandatoryEquipment: course.mandatoryEquipment ?? null,
        minAge: course.minAge ?? null,
        itraPoints: course.itraPoints ?? null,
        utmbIndex: course.utmbIndex ?? null,
        challenge: course.challenge ?? null,
        complete: true,
        position,
      };
      let courseId: number;
      if (course.id && existingIds.has(course.id)) {
        courseId = course.id;
        await tx.update(courses).set(values).where(eq(courses.id, courseId));
      } else {
        const [inserted] = await tx.insert(courses).values(values).returning({ id: courses.id });
        if (!inserted) throw new ApiError("GENERIC");
        courseId = inserted.id;
      }
      keep.add(courseId);
      await tx.delete(coursePrices).where(eq(coursePrices.courseId, courseId));
      if (course.prices.length) {
        await tx.insert(coursePrices).values(
          course.prices.map((p) => ({
            courseId,
            label: p.label,
            startsOn: p.startsOn ?? null,
            endsOn: p.endsOn ?? null,
            price: p.price.toFixed(2),
          })),
        );
      }
      if (course.trackId) await attachTrack(tx, course.trackId, courseId, eventId, actor);
      await fillFromTrack(tx, courseId);
    }
    const removed = [...existingIds].filter((id) => !keep.has(id));
    if (removed.length) await tx.delete(courses).where(inArray(courses.id, removed));
    await refreshCourseSummary(tx, eventId);
  }

  /** A track uploaded by this member (unattached) or already on this event moves to the course. */
  async function attachTrack(tx: Executor, trackId: number, courseId: number, eventId: number, actor: Actor) {
    const [track] = await rows<{ course_id: number | null; uploaded_by: number | null; event_id: number | null }>(
      tx,
      sql`SELECT t.course_id, t.uploaded_by, c.event_id FROM tracks t LEFT JOIN courses c ON c.id = t.course_id
          WHERE t.id = ${trackId}`,
    );
    if (!track) throw new ApiError("ITEM_NOT_FOUND", { field: "trackId" });
    const mine = track.course_id === null && (track.uploaded_by === actor.id || actor.role === "admin");
    if (!mine && track.event_id !== eventId) throw new ApiError("FORBIDDEN");
    if (track.course_id === courseId) return;
    await tx.delete(tracks).where(and(eq(tracks.courseId, courseId)));
    await tx.update(tracks).set({ courseId }).where(eq(tracks.id, trackId));
  }

  /**
   * The course's track fills the figures the organiser left empty (issue 26 item 3): its distance
   * when the course is measured by distance (a timed race keeps only its duration), its D+.
   */
  async function fillFromTrack(tx: Executor, courseId: number) {
    await tx.execute(sql`
      UPDATE courses c SET
        distance = coalesce(c.distance, CASE WHEN c.duration IS NULL THEN t.distance END),
        elevation_gain = coalesce(c.elevation_gain, t.elevation_gain)
      FROM tracks t
      WHERE c.id = ${courseId} AND t.course_id = c.id
        AND ((c.distance IS NULL AND c.duration IS NULL) OR (c.elevation_gain IS NULL AND t.elevation_gain IS NOT NULL))`);
  }

  /** Distance and elevation summaries kept on events for search (elevation bands have triggers). */
  async function refreshCourseSummary(tx: Executor, eventId: number) {
    await tx.execute(sql`
      UPDATE events e SET
        max_elevation = s.max_elevation, min_distance = s.min_distance, max_distance = s.max_distance
      FROM (SELECT max(elevation_gain) AS max_elevation, min(distance) AS min_distance, max(distance) AS max_distance
            FROM courses WHERE event_id = ${eventId}) s
      WHERE e.id = ${eventId}`);
  }

  /** Applies a form to an event the actor may edit directly. */
  async function apply(tx: Executor, actor: Actor, access: EditableEvent["access"], id: number, form: EventForm) {
    const event = await eventRow(tx, id);
    const before = await loadForm(tx, event);
    const where = await place(tx, form);
    const now = clock();
    // A verified organiser (or an admin) vouches for the listing: it becomes "checked".
    const checked = access === "organizer" || access === "admin";
    await tx
      .update(events)
      .set({
        ...eventValues(form),
        ...where,
        sportId: await sportId(tx, form.sport),
        ...(form.name !== event.name || form.startDate.slice(0, 4) !== event.startDate.slice(0, 4)
          ? { slug: await uniqueSlug(tx, form, id) }
          : {}),
        ...(checked ? { checkStatus: "checked" as const } : {}),
        updatedAt: now,
      })
      .where(eq(events.id, id));
    await writeCourses(tx, id, form, timeZoneOfDepartment(where.departmentCode), actor);
    const changes = diffForms(before, form);
    await history(tx, id, "modification", actor.id, { access, fields: changes.map((c) => c.field) });
    if (access === "organizer") await history(tx, id, "organizer_validation", actor.id);
    return changes;
  }

  return {
    history,
    place,
    sportId,
    uniqueSlug,
    eventValues,
    checkCourseDates,
    writeCourses,
    refreshCourseSummary,
    apply,
  };
}
