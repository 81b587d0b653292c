/**
 * Listing and correcting an event through the four-step form: a new listing (pending validation
 * unless an admin lists it), direct edits by its owner, organisers and admins, other members'
 * edits turned into modification requests, likely duplicates, and its courses one by one.
 */
import { eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { addIsoDays } from "../../shared/dates.ts";
import { type Actor, eventAccess, requireEventEditor } from "../events/event-access.server.ts";
import { eventChangeRequests } from "../events/event-access.tables.ts";
import { courses, events } from "../events/events.tables.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import type { EventForm } from "./editor.contract.ts";
import { editable, eventRow } from "./editor-form-read.server.ts";
import { eventFormWriter } from "./editor-form-write.server.ts";

/** A member's new listing, waiting for moderation: they hear that it arrived and where to see it. */
export type SubmissionNotice = { userId: number; eventName: string; slug: string };

export function editorFormService(
  db: Db,
  clock: () => Date,
  deps: {
    /** Acknowledges a new listing pending moderation, in the transaction that created it. */
    notifySubmission?: (tx: Executor, notice: SubmissionNotice) => Promise<void>;
  } = {},
) {
  const {
    history,
    place,
    sportId,
    uniqueSlug,
    eventValues,
    checkCourseDates,
    writeCourses,
    refreshCourseSummary,
    apply,
  } = eventFormWriter(clock);

  return {
    /** Owner, organiser or admin of the event, else FORBIDDEN (ITEM_NOT_FOUND when unknown). */
    requireEditor: (actor: Actor, id: number) => requireEventEditor(db, actor, id),

    /** GET /api/user/events: what the member listed or organises, newest first. */
    async listMine(actor: Actor) {
      return rows<{
        id: number;
        slug: string;
        name: string;
        start_date: string;
        city: string | null;
        status: string;
        check_status: string;
        cancelled: boolean;
        postponed: boolean;
        role: "owner" | "organizer";
        pending_requests: number;
      }>(
        db,
        sql`SELECT e.id, e.slug, e.name, e.start_date, e.city, e.status, e.check_status, e.cancelled, e.postponed,
                   CASE WHEN e.owner_id = ${actor.id} THEN 'owner' ELSE 'organizer' END AS role,
                   (SELECT count(*)::int FROM event_change_requests r WHERE r.event_id = e.id AND r.status = 'pending') AS pending_requests
            FROM events e
            WHERE e.owner_id = ${actor.id}
               OR e.id IN (SELECT event_id FROM event_organizers WHERE user_id = ${actor.id})
            ORDER BY e.start_date DESC, e.id DESC LIMIT 200`,
      ).then((list) =>
        list.map((e) => ({
          id: e.id,
          slug: e.slug,
          name: e.name,
          startDate: String(e.start_date).slice(0, 10),
          city: e.city,
          status: e.status,
          checkStatus: e.check_status,
          cancelled: e.cancelled,
          postponed: e.postponed,
          role: e.role,
          pendingRequests: e.pending_requests,
        })),
      );
    },

    editable: (actor: Actor, id: number) => editable(db, actor, id),

    /**
     * POST /api/event/{id}: id 0 lists a new event (pending validation unless an admin lists it);
     * an owner, organiser or admin edits directly; any other member's edit becomes a request.
     */
    async save(actor: Actor, id: number, form: EventForm) {
      checkCourseDates(form);
      if (id === 0) {
        const create = () =>
          db.transaction(async (tx) => {
            const where = await place(tx, form);
            const now = clock();
            const admin = actor.role === "admin";
            const [created] = await tx
              .insert(events)
              .values({
                ...eventValues(form),
                ...where,
                sportId: await sportId(tx, form.sport),
                slug: await uniqueSlug(tx, form),
                ownerId: actor.id,
                isOwner: true,
                status: admin ? "active" : "pending",
                checkStatus: admin || form.dateConfirmed ? "checked" : "to_check",
                createdAt: now,
                updatedAt: now,
              })
              .returning({ id: events.id, slug: events.slug });
            if (!created) throw new ApiError("GENERIC");
            await writeCourses(tx, created.id, form, timeZoneOfDepartment(where.departmentCode), actor);
            await history(tx, created.id, "creation", actor.id, { courses: form.courses.length });
            if (!admin)
              await deps.notifySubmission?.(tx, { userId: actor.id, eventName: form.name, slug: created.slug });
            return { event: await editable(tx, actor, created.id), requestId: null as number | null, created: true };
          });
        // Two listings of the same name at the same instant: the second takes the next slug.
        return create().catch((error: unknown) => {
          if (isUniqueViolation(error, "events_slug_idx")) return create();
          throw error;
        });
      }
      const access = await eventAccess(db, actor, id);
      if (!access) throw new ApiError("ITEM_NOT_FOUND");
      if (access === "member") {
        const event = await eventRow(db, id);
        if (event.status !== "active") throw new ApiError("ITEM_NOT_FOUND");
        // A member never saw the contact details: the proposal keeps the live ones.
        const proposal = { ...form, contactEmail: event.contactEmail, contactPhone: event.contactPhone };
        return db.transaction(async (tx) => {
          const [request] = await tx
            .insert(eventChangeRequests)
            .values({
              eventId: id,
              userId: actor.id,
              data: proposal as unknown as Record<string, unknown>,
              createdAt: clock(),
            })
            .returning({ id: eventChangeRequests.id });
          await history(tx, id, "modification_request", actor.id, { requestId: request?.id });
          return { event: await editable(tx, actor, id), requestId: request?.id ?? null, created: false };
        });
      }
      return db.transaction(async (tx) => {
        await apply(tx, actor, access, id, form);
        return { event: await editable(tx, actor, id), requestId: null as number | null, created: false };
      });
    },

    /** Likely duplicates of a new listing: a similar name, ± 3 days, within 20 km when placed. */
    async duplicates(
      actor: Actor,
      input: {
        name: string;
        startDate: string;
        lat?: number | null;
        lng?: number | null;
        excludeId?: number;
      },
    ) {
      const near =
        input.lat != null && input.lng != null
          ? sql`AND (e.lat IS NULL OR earth_distance(ll_to_earth(e.lat, e.lng), ll_to_earth(${input.lat}, ${input.lng})) <= 20000)`
          : sql``;
      return rows<{ id: number; slug: string; name: string; start_date: string; city: string | null; score: number }>(
        db,
        sql`SELECT e.id, e.slug, e.name, e.start_date, e.city,
                   similarity(immutable_unaccent(lower(e.name)), immutable_unaccent(lower(${input.name}))) AS score
            FROM events e
            WHERE e.start_date BETWEEN ${addIsoDays(input.startDate, -3)}::date AND ${addIsoDays(input.startDate, 3)}::date
              AND (e.status = 'active' OR e.owner_id = ${actor.id}) AND e.id <> ${input.excludeId ?? 0}
              AND similarity(immutable_unaccent(lower(e.name)), immutable_unaccent(lower(${input.name}))) >= 0.35
              ${near}
            ORDER BY score DESC LIMIT 5`,
      ).then((list) =>
        list.map((e) => ({
          id: e.id,
          slug: e.slug,
          name: e.name,
          startDate: String(e.start_date).slice(0, 10),
          city: e.city,
        })),
      );
    },

    /** DELETE /api/course/{id}: never the last one (spec: "cannot delete all courses"). */
    async deleteCourse(actor: Actor, courseId: number) {
      const [course] = await db.select({ eventId: courses.eventId }).from(courses).where(eq(courses.id, courseId));
      if (!course) throw new ApiError("ITEM_NOT_FOUND");
      await requireEventEditor(db, actor, course.eventId);
      return db.transaction(async (tx) => {
        const [{ n } = { n: 0 }] = await rows<{ n: number }>(
          tx,
          sql`SELECT count(*)::int AS n FROM courses WHERE event_id = ${course.eventId}`,
        );
        if (n <= 1) throw new ApiError("CANNOT_DELETE_ALL_COURSES");
        await tx.delete(courses).where(eq(courses.id, courseId));
        await refreshCourseSummary(tx, course.eventId);
        await history(tx, course.eventId, "modification", actor.id, { courseRemoved: courseId });
      });
    },

    /** GET /api/user/course/{id}: one course of an event the member edits. */
    async course(actor: Actor, courseId: number) {
      const [course] = await db.select({ eventId: courses.eventId }).from(courses).where(eq(courses.id, courseId));
      if (!course) throw new ApiError("ITEM_NOT_FOUND");
      await requireEventEditor(db, actor, course.eventId);
      const form = await editable(db, actor, course.eventId);
      const found = form.courses.find((c) => c.id === courseId);
      if (!found) throw new ApiError("ITEM_NOT_FOUND");
      return { ...found, eventId: course.eventId };
    },
  };
}
