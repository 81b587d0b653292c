/** An event's four-step form as stored: read back for the editor, for diffs and for copies. */
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { EVENT_OPTIONS } from "../../shared/constants.ts";
import { sanitizeDescription } from "../events/description.server.ts";
import { type Actor, eventAccess } from "../events/event-access.server.ts";
import { coursePrices, courses, events, tracks } from "../events/events.tables.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import type { EditableEvent, EventForm } from "./editor.contract.ts";

export type EventRow = typeof events.$inferSelect;

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

/** The form as stored, for the editor and for diffs. */
export async function loadForm(tx: Executor, event: EventRow): Promise<EventForm> {
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

export async function eventRow(tx: Executor, id: number): Promise<EventRow> {
  const [event] = await tx.select().from(events).where(eq(events.id, id)).limit(1);
  if (!event) throw new ApiError("ITEM_NOT_FOUND");
  return event;
}

export async function editable(tx: Executor, actor: Actor, id: number): Promise<EditableEvent> {
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
