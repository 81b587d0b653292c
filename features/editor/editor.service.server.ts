/**
 * Listing and correcting events: the four-step form saved as one transaction, modification
 * requests from members who neither own nor organise the event, status changes (cancel, postpone,
 * confirm, validate…), the moderation queue, history, duplicates and next year's editions.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { EVENT_OPTIONS, type EventHistoryType } from "../../shared/constants.ts";
import { addIsoDays, daysBetween } from "../../shared/dates.ts";
import { zonedTime } from "../../shared/zoned-time.ts";
import { sanitizeDescription } from "../events/description.server.ts";
import { type Actor, eventAccess, requireEventEditor } from "../events/event-access.server.ts";
import { coursePrices, courses, eventGroups, eventHistory, events, tracks } from "../events/events.tables.ts";
import { slugify } from "../geo/slugify.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import {
  type CourseForm,
  type EditableEvent,
  type EventForm,
  type EventStatusType,
  eventCommunicationSchema,
  eventInfoSchema,
  type eventStatusBodySchema,
} from "./editor.contract.ts";
import { eventChangeRequests, eventOrganizers } from "./editor.tables.ts";

type StatusBody = typeof eventStatusBodySchema._zod.output;

export type ModerationNotice = {
  userId: number;
  eventName: string;
  slug: string;
  decision: "validated" | "deactivated" | "accepted" | "rejected";
  message: string | null;
};
/** A member's new listing, waiting for moderation: they hear that it arrived and where to see it. */
export type SubmissionNotice = { userId: number; eventName: string; slug: string };
type EventRow = typeof events.$inferSelect;

/** Fields compared for history and request diffs (courses are compared as a whole). */
const EVENT_FIELDS = [
  ...Object.keys(eventInfoSchema.shape).filter((field) => field !== "certified"),
  ...Object.keys(eventCommunicationSchema.shape),
  "courses",
] as (keyof EventForm)[];

/** Advisory lock key of the nightly edition copy (any constant unique to this use). */
const EDITION_COPY_LOCK = 7_402_114;

export type FieldChange = { field: string; before: unknown; after: unknown };

export function diffForms(before: Partial<EventForm>, after: Partial<EventForm>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of EVENT_FIELDS) {
    const a = normalise(field === "courses" ? stripIds(before.courses) : before[field]);
    const b = normalise(field === "courses" ? stripIds(after.courses) : after[field]);
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ field, before: a, after: b });
  }
  return changes;
}

function stripIds(list: readonly CourseForm[] | undefined) {
  return (list ?? []).map(({ id: _id, trackId: _track, ...course }) => course);
}

function normalise(value: unknown): unknown {
  if (value === undefined || value === "") return null;
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === "object") {
    // An absent field and an empty one are the same to a reader of the diff.
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, normalise(v)])
        .filter(([, v]) => v !== null),
    );
  }
  return value;
}

/** The same weekday one year later: 52 weeks on, or 53 when that falls over a week early. */
export function nextYearSameWeekday(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  const next = new Date(date.getTime() + 364 * 86_400_000);
  const target = new Date(Date.UTC(date.getUTCFullYear() + 1, date.getUTCMonth(), date.getUTCDate()));
  if (target.getTime() - next.getTime() >= 4 * 86_400_000) next.setUTCDate(next.getUTCDate() + 7);
  return next.toISOString().slice(0, 10);
}

function localTime(date: Date | null, timeZone: string): { date: string | null; time: string | null } {
  if (!date) return { date: null, time: null };
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}` };
}

/** A proposal as it would be stored: sanitised text, the commune's centre when no pin was moved. */
function comparable(proposed: EventForm, live: EventForm): EventForm {
  const sameCommune = (proposed.communeCode ?? null) === (live.communeCode ?? null);
  return {
    ...proposed,
    description: sanitizeDescription(proposed.description),
    lat: proposed.lat ?? (sameCommune ? live.lat : null),
    lng: proposed.lng ?? (sameCommune ? live.lng : null),
    courses: proposed.courses.map((c) => ({ ...c, description: sanitizeDescription(c.description) })),
  };
}

/** Claim entries keep only which kind of address the code went to ("contact" or "given"). */
const CLAIM_HISTORY_TYPES = new Set<string>(["organizer_validation_sent", "organizer_validation"]);

/**
 * An event history entry as one of the event's editors sees it. No entry shows an e-mail address:
 * a member claiming the event types one, and that is their business, not the organiser's (entries
 * written before this rule are cleaned here too, and by migration 0010). A claim attempt shows that
 * a member asked for an organiser code, not who, except to admins and to that member.
 */
export function historyEntryFor(
  viewer: { id: number; admin: boolean },
  entry: { id: number; type: string; data: Record<string, unknown> | null; userId: number | null; createdAt: Date },
) {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry.data ?? {})) {
    if (/e-?mail/i.test(key)) continue;
    if (CLAIM_HISTORY_TYPES.has(entry.type) && key !== "recipient") continue;
    data[key] = value;
  }
  const anonymous = entry.type === "organizer_validation_sent" && !viewer.admin && entry.userId !== viewer.id;
  return {
    id: entry.id,
    type: entry.type,
    data,
    userId: anonymous ? null : entry.userId,
    at: entry.createdAt.toISOString(),
  };
}

/** A change of an event's programme its followers hear about (features/alerts). */
export type StatusChangeNotice = { eventId: number; change: "cancelled" | "postponed"; at: Date };

export function editorService(
  db: Db,
  clock: () => Date,
  deps: {
    copyVisuals?: (fromEventId: number, toEventId: number) => Promise<void>;
    /** Mails a member the outcome of moderation, in the transaction that decided it. */
    notifyModeration?: (tx: Executor, notice: ModerationNotice) => Promise<void>;
    /** Acknowledges a new listing pending moderation, in the transaction that created it. */
    notifySubmission?: (tx: Executor, notice: SubmissionNotice) => Promise<void>;
    /**
     * An event was cancelled or postponed: called in the change's transaction, so what it queues
     * (the followers' alert mails) exists only if the change commits; it must only enqueue.
     */
    statusChanged?: (tx: Executor, change: StatusChangeNotice) => Promise<void>;
  } = {},
) {
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

  /** The form as stored, for the editor and for diffs. */
  async function loadForm(tx: Executor, event: EventRow): Promise<EventForm> {
    const [sport] = await rows<{ key: string }>(tx, sql`SELECT key FROM sports WHERE id = ${event.sportId}`);
    const timeZone = timeZoneOfDepartment(event.departmentCode);
    const list = await tx.select().from(courses).where(eq(courses.eventId, event.id)).orderBy(asc(courses.position));
    const prices = list.length
      ? await tx
          .select()
          .from(coursePrices)
          .where(
            inArray(
              coursePrices.courseId,
              list.map((c) => c.id),
            ),
          )
          .orderBy(asc(coursePrices.id))
      : [];
    const trackRows = list.length
      ? await tx
          .select({ id: tracks.id, courseId: tracks.courseId })
          .from(tracks)
          .where(
            inArray(
              tracks.courseId,
              list.map((c) => c.id),
            ),
          )
      : [];
    const options = event.options as Record<string, boolean>;
    return {
      name: event.name,
      sport: sport?.key ?? "running",
      isCompetition: event.isCompetition,
      isConnected: event.isConnected,
      scope: event.scope,
      startDate: event.startDate,
      endDate: event.endDate,
      dateConfirmed: event.dateConfirmed,
      certified: event.dateConfirmed,
      communeCode: event.communeCode,
      address: event.address,
      zipcode: event.zipcode,
      city: event.city ?? "",
      place: event.place,
      countryCode: event.countryCode ?? "FR",
      lat: event.lat,
      lng: event.lng,
      organizerName: event.organizerName,
      // Imported descriptions may predate the sanitiser: the editor shows them as HTML.
      description: sanitizeDescription(event.description),
      options: Object.fromEntries(EVENT_OPTIONS.map((o) => [o, Boolean(options?.[o])])),
      contactEmail: event.contactEmail,
      contactPhone: event.contactPhone,
      website: event.website,
      registrationUrl: event.registrationUrl,
      registrationOpensAt: event.registrationOpensAt?.toISOString().slice(0, 10) ?? null,
      liveTrackingUrl: event.liveTrackingUrl,
      facebookUrl: event.facebookUrl,
      instagramUrl: event.instagramUrl,
      xUrl: event.xUrl,
      youtubeUrl: event.youtubeUrl,
      vimeoUrl: event.vimeoUrl,
      liveVideoUrl: event.liveVideoUrl,
      courses: list.map((c) => {
        const start = localTime(c.startAt, timeZone);
        return {
          id: c.id,
          name: c.name,
          type: c.type,
          distance: c.distance,
          duration: c.duration,
          elevationGain: c.elevationGain,
          bibQuota: c.bibQuota,
          description: sanitizeDescription(c.description),
          date: start.date ?? event.startDate,
          startTime: start.time === "00:00" ? null : start.time,
          startPlace: c.startPlace,
          finishPlace: c.finishPlace,
          refuellingPoints: c.refuellingPoints,
          mandatoryEquipment: c.mandatoryEquipment,
          minAge: c.minAge,
          itraPoints: c.itraPoints,
          utmbIndex: c.utmbIndex,
          challenge: c.challenge,
          prices: prices
            .filter((p) => p.courseId === c.id)
            .map((p) => ({ label: p.label, startsOn: p.startsOn, endsOn: p.endsOn, price: Number(p.price) })),
          trackId: trackRows.find((t) => t.courseId === c.id)?.id ?? null,
        };
      }),
    };
  }

  async function eventRow(tx: Executor, id: number): Promise<EventRow> {
    const [event] = await tx.select().from(events).where(eq(events.id, id)).limit(1);
    if (!event) throw new ApiError("ITEM_NOT_FOUND");
    return event;
  }

  async function editable(tx: Executor, actor: Actor, id: number): Promise<EditableEvent> {
    const access = await eventAccess(tx, actor, id);
    if (!access) throw new ApiError("ITEM_NOT_FOUND");
    const event = await eventRow(tx, id);
    // Pending or inactive events are visible to their editors only.
    if (access === "member" && event.status !== "active") throw new ApiError("ITEM_NOT_FOUND");
    const form = await loadForm(tx, event);
    // The organiser's contact details are theirs: a member proposing a change does not see them.
    if (access === "member") Object.assign(form, { contactEmail: null, contactPhone: null });
    return {
      ...form,
      id: event.id,
      slug: event.slug,
      status: event.status,
      checkStatus: event.checkStatus,
      cancelled: event.cancelled,
      postponed: event.postponed,
      originalDate: event.originalDate,
      coverImage: event.coverImage,
      headerImage: event.headerImage,
      access,
    };
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

  /** Next year's edition of an event, inside the caller's transaction. */
  async function copyIn(tx: Executor, actorId: number | null, id: number): Promise<{ id: number }> {
    const source = await eventRow(tx, id);
    const form = await loadForm(tx, source);
    const startDate = nextYearSameWeekday(source.startDate);
    const shift = daysBetween(source.startDate, startDate);
    let groupId = source.groupId;
    if (!groupId) {
      const base = slugify(source.name.replace(/\b(19|20)\d{2}\b/g, "")) || "serie";
      const [group] = await tx
        .insert(eventGroups)
        .values({ name: source.name, slug: `${base}-${source.id}` })
        .returning({ id: eventGroups.id });
      groupId = group?.id ?? null;
      await tx.update(events).set({ groupId }).where(eq(events.id, id));
    }
    const next: EventForm = {
      ...form,
      name: source.name.replace(/\b(19|20)\d{2}\b/, (year) => String(Number(year) + 1)),
      startDate,
      endDate: addIsoDays(source.endDate, shift),
      dateConfirmed: false,
      certified: false,
      registrationOpensAt: null,
      courses: form.courses.map(({ id: _id, trackId: _track, ...course }) => ({
        ...course,
        date: addIsoDays(course.date, shift),
        prices: course.prices.map((p) => ({
          ...p,
          startsOn: p.startsOn ? addIsoDays(p.startsOn, shift) : null,
          endsOn: p.endsOn ? addIsoDays(p.endsOn, shift) : null,
        })),
      })),
    };
    const now = clock();
    const [created] = await tx
      .insert(events)
      .values({
        ...eventValues(next),
        description: source.description,
        communeCode: source.communeCode,
        departmentCode: source.departmentCode,
        regionCode: source.regionCode,
        lat: source.lat,
        lng: source.lng,
        sportId: source.sportId,
        groupId,
        ownerId: source.ownerId,
        isOwner: source.isOwner,
        slug: await uniqueSlug(tx, next),
        status: source.status === "inactive" ? "pending" : source.status,
        checkStatus: "to_check",
        dateConfirmed: false,
        coverImage: source.coverImage,
        headerImage: source.headerImage,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: events.id });
    if (!created) throw new ApiError("GENERIC");
    const actor: Actor = { id: actorId ?? 0, role: "admin", emailStatus: "verified" };
    await writeCourses(tx, created.id, next, timeZoneOfDepartment(source.departmentCode), actor);
    await tx.insert(eventOrganizers).select(
      tx
        .select({
          eventId: sql<number>`${created.id}`.as("event_id"),
          userId: eventOrganizers.userId,
          email: eventOrganizers.email,
          grantedAt: eventOrganizers.grantedAt,
        })
        .from(eventOrganizers)
        .where(eq(eventOrganizers.eventId, id)),
    );
    await history(tx, created.id, "automatic_copy", actorId, { from: id });
    await history(tx, id, "automatic_copy", actorId, { to: created.id });
    return { id: created.id };
  }

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

    /** POST /api/event/{id}/status/{type}. */
    async setStatus(actor: Actor, id: number, type: EventStatusType, body: StatusBody) {
      const access = await requireEventEditor(db, actor, id);
      const adminOnly: EventStatusType[] = ["validate", "deactivate", "activate"];
      if (adminOnly.includes(type) && access !== "admin") throw new ApiError("FORBIDDEN");
      return db.transaction(async (tx) => {
        const event = await eventRow(tx, id);
        const now = clock();
        const set = (values: Partial<EventRow>) =>
          tx
            .update(events)
            .set({ ...values, updatedAt: now })
            .where(eq(events.id, id));
        switch (type) {
          case "cancel":
            await set({ cancelled: true });
            await history(tx, id, "cancellation", actor.id, { message: body.message ?? null });
            if (!event.cancelled) await deps.statusChanged?.(tx, { eventId: id, change: "cancelled", at: now });
            break;
          case "uncancel":
            await set({ cancelled: false });
            await history(tx, id, "modification", actor.id, { cancelled: false });
            break;
          case "postpone": {
            if (!body.startDate) throw new ApiError("FIELD_REQUIRED", { field: "startDate" });
            const length = daysBetween(event.startDate, event.endDate);
            const endDate = body.endDate ?? addIsoDays(body.startDate, length);
            if (endDate < body.startDate) throw new ApiError("DATE_RANGE_INVALID", { field: "endDate" });
            const shift = daysBetween(event.startDate, body.startDate);
            await set({
              startDate: body.startDate,
              endDate,
              originalDate: event.originalDate ?? event.startDate,
              postponed: true,
              cancelled: false,
            });
            // Courses move by the same number of days.
            await tx.execute(
              sql`UPDATE courses SET start_at = start_at + make_interval(days => ${shift}) WHERE event_id = ${id} AND start_at IS NOT NULL`,
            );
            await history(tx, id, "postponement", actor.id, { from: event.startDate, to: body.startDate });
            if (body.startDate !== event.startDate || !event.postponed) {
              await deps.statusChanged?.(tx, { eventId: id, change: "postponed", at: now });
            }
            break;
          }
          case "confirm-date":
            await set({ dateConfirmed: true, checkStatus: "checked" });
            await history(tx, id, "validation_date", actor.id);
            break;
          case "check":
            await set({ checkStatus: "checked" });
            await history(tx, id, "validation", actor.id, { check: true });
            break;
          case "validate":
          case "activate":
          case "deactivate": {
            const active = type !== "deactivate";
            await set({ status: active ? "active" : "inactive" });
            const kind = type === "validate" ? "validation" : type === "activate" ? "activation" : "deactivation";
            await history(tx, id, kind, actor.id, { message: body.message ?? null });
            // The submitter hears when their listing goes live, or comes down.
            if (event.ownerId && (active ? event.status !== "active" : event.status !== "inactive")) {
              await deps.notifyModeration?.(tx, {
                userId: event.ownerId,
                eventName: event.name,
                slug: event.slug,
                decision: active ? "validated" : "deactivated",
                message: body.message ?? null,
              });
            }
            break;
          }
        }
        return editable(tx, actor, id);
      });
    },

    /** The event's history, newest first (editors and admins), as `historyEntryFor` lets them see it. */
    async history(actor: Actor, id: number) {
      const access = await requireEventEditor(db, actor, id);
      const list = await db
        .select()
        .from(eventHistory)
        .where(eq(eventHistory.eventId, id))
        .orderBy(desc(eventHistory.id))
        .limit(500);
      return list.map((h) => historyEntryFor({ id: actor.id, admin: access === "admin" }, h));
    },

    /** The admin's queues: pending validation, to check, modification requests. */
    async moderationQueue(options: { queue: "pending" | "to_check" | "requests"; q?: string; page: number }) {
      const pageSize = 30;
      const offset = (options.page - 1) * pageSize;
      const search = options.q
        ? sql`AND immutable_unaccent(lower(e.name)) LIKE ${`%${options.q
            .toLowerCase()
            .normalize("NFD")
            .replace(/[\u0300-\u036f]/g, "")}%`}`
        : sql``;
      if (options.queue === "requests") {
        const list = await rows<{
          id: number;
          event_id: number;
          user_id: number;
          created_at: string;
          name: string;
          slug: string;
          total: number;
        }>(
          db,
          sql`SELECT r.id, r.event_id, r.user_id, r.created_at, e.name, e.slug, count(*) OVER ()::int AS total
              FROM event_change_requests r JOIN events e ON e.id = r.event_id
              WHERE r.status = 'pending' ${search}
              ORDER BY r.id LIMIT ${pageSize} OFFSET ${offset}`,
        );
        return {
          total: list[0]?.total ?? 0,
          items: list.map((r) => ({
            requestId: r.id,
            eventId: r.event_id,
            userId: r.user_id,
            name: r.name,
            slug: r.slug,
            createdAt: new Date(r.created_at).toISOString(),
          })),
        };
      }
      const where =
        options.queue === "pending"
          ? sql`e.status = 'pending'`
          : sql`e.check_status = 'to_check' AND e.status = 'active'`;
      const list = await rows<{
        id: number;
        slug: string;
        name: string;
        start_date: string;
        city: string | null;
        status: string;
        check_status: string;
        owner_id: number | null;
        created_at: string;
        total: number;
      }>(
        db,
        sql`SELECT e.id, e.slug, e.name, e.start_date, e.city, e.status, e.check_status, e.owner_id, e.created_at,
                   count(*) OVER ()::int AS total
            FROM events e WHERE ${where} ${search}
            ORDER BY ${options.queue === "pending" ? sql`e.created_at` : sql`e.start_date`} LIMIT ${pageSize} OFFSET ${offset}`,
      );
      return {
        total: list[0]?.total ?? 0,
        items: list.map((e) => ({
          eventId: e.id,
          slug: e.slug,
          name: e.name,
          startDate: String(e.start_date).slice(0, 10),
          city: e.city,
          status: e.status,
          checkStatus: e.check_status,
          ownerId: e.owner_id,
          createdAt: new Date(e.created_at).toISOString(),
        })),
      };
    },

    /** Pending modification requests of one event, for its organiser, owner or an admin. */
    async pendingRequests(actor: Actor, eventId: number) {
      await requireEventEditor(db, actor, eventId);
      const list = await rows<{ id: number; user_id: number; created_at: string; name: string; slug: string }>(
        db,
        sql`SELECT r.id, r.user_id, r.created_at, e.name, e.slug
            FROM event_change_requests r JOIN events e ON e.id = r.event_id
            WHERE r.event_id = ${eventId} AND r.status = 'pending' ORDER BY r.id`,
      );
      return list.map((r) => ({
        requestId: r.id,
        eventId,
        userId: r.user_id,
        name: r.name,
        slug: r.slug,
        createdAt: new Date(r.created_at).toISOString(),
      }));
    },

    /** A modification request beside the live event, field by field. */
    async request(actor: Actor, requestId: number) {
      const [request] = await db.select().from(eventChangeRequests).where(eq(eventChangeRequests.id, requestId));
      if (!request) throw new ApiError("ITEM_NOT_FOUND");
      await requireEventEditor(db, actor, request.eventId);
      const live = await loadForm(db, await eventRow(db, request.eventId));
      const proposed = comparable(request.data as unknown as EventForm, live);
      return {
        id: request.id,
        eventId: request.eventId,
        userId: request.userId,
        status: request.status,
        createdAt: request.createdAt.toISOString(),
        changes: diffForms(live, proposed),
      };
    },

    /** Accepting applies the proposal as the decider (organiser or admin); rejecting keeps a message. */
    async decideRequest(actor: Actor, requestId: number, decision: "accept" | "reject", message?: string | null) {
      const [request] = await db.select().from(eventChangeRequests).where(eq(eventChangeRequests.id, requestId));
      if (!request) throw new ApiError("ITEM_NOT_FOUND");
      const access = await requireEventEditor(db, actor, request.eventId);
      if (request.status !== "pending") throw new ApiError("INVALID_TOKEN");
      return db.transaction(async (tx) => {
        const claimed = await tx
          .update(eventChangeRequests)
          .set({
            status: decision === "accept" ? "accepted" : "rejected",
            message: message ?? null,
            decidedBy: actor.id,
            decidedAt: clock(),
          })
          .where(and(eq(eventChangeRequests.id, requestId), eq(eventChangeRequests.status, "pending")))
          .returning({ id: eventChangeRequests.id });
        if (claimed.length === 0) throw new ApiError("INVALID_TOKEN");
        if (decision === "accept") {
          const form = request.data as unknown as EventForm;
          checkCourseDates(form);
          await apply(tx, actor, access, request.eventId, form);
        }
        const event = await eventRow(tx, request.eventId);
        await deps.notifyModeration?.(tx, {
          userId: request.userId,
          eventName: event.name,
          slug: event.slug,
          decision: decision === "accept" ? "accepted" : "rejected",
          message: message ?? null,
        });
        return { eventId: request.eventId, status: decision === "accept" ? "accepted" : "rejected" };
      });
    },

    /**
     * "Automatic copy": next year's edition from this one — same courses and prices, dates on the
     * same weekday a year later, date not confirmed, to be checked. Both stay in one group.
     */
    async copyEdition(actorId: number | null, id: number) {
      const copy = await db.transaction((tx) => copyIn(tx, actorId, id));
      // Stored image names are relative to the event's folder: the copy gets its own files.
      await deps.copyVisuals?.(id, copy.id);
      return copy;
    },

    /**
     * The yearly copy: events that finished in the last 30 days, active, and with no later
     * edition in their group, get next year's edition. Run nightly by the job queue; a
     * transaction-level advisory lock keeps two instances from copying the same events.
     */
    async copyDueEditions(): Promise<number[]> {
      const today = clock().toISOString().slice(0, 10);
      const created = await db.transaction(async (tx) => {
        const [lock] = await rows<{ locked: boolean }>(
          tx,
          sql`SELECT pg_try_advisory_xact_lock(${EDITION_COPY_LOCK}) AS locked`,
        );
        if (!lock?.locked) return [];
        const due = await rows<{ id: number }>(
          tx,
          sql`SELECT e.id FROM events e
              WHERE e.status = 'active' AND NOT e.cancelled
                AND e.end_date < ${today}::date AND e.end_date >= ${addIsoDays(today, -30)}::date
                AND NOT EXISTS (SELECT 1 FROM events n WHERE n.group_id = e.group_id AND n.start_date > e.start_date)
              ORDER BY e.id LIMIT 500`,
        );
        const pairs: { from: number; to: number }[] = [];
        for (const { id } of due) pairs.push({ from: id, to: (await copyIn(tx, null, id)).id });
        return pairs;
      });
      for (const pair of created) await deps.copyVisuals?.(pair.from, pair.to);
      return created.map((pair) => pair.to);
    },
  };
}
export type EditorService = ReturnType<typeof editorService>;
