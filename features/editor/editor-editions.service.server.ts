/**
 * Next year's editions: the same courses and prices on the same weekday a year later, copied on
 * request or by the nightly job for the events that just finished.
 */
import { eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { addIsoDays, daysBetween } from "../../shared/dates.ts";
import type { Actor } from "../events/event-access.server.ts";
import { eventOrganizers } from "../events/event-access.tables.ts";
import { eventGroups, events } from "../events/events.tables.ts";
import { slugify } from "../geo/slugify.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import type { EventForm } from "./editor.contract.ts";
import { eventRow, loadForm } from "./editor-form-read.server.ts";
import { eventFormWriter } from "./editor-form-write.server.ts";

/** Advisory lock key of the nightly edition copy (any constant unique to this use). */
const EDITION_COPY_LOCK = 7_402_114;

/** The same weekday one year later: 52 weeks on, or 53 when that falls over a week early. */
export function nextYearSameWeekday(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  const next = new Date(date.getTime() + 364 * 86_400_000);
  const target = new Date(Date.UTC(date.getUTCFullYear() + 1, date.getUTCMonth(), date.getUTCDate()));
  if (target.getTime() - next.getTime() >= 4 * 86_400_000) next.setUTCDate(next.getUTCDate() + 7);
  return next.toISOString().slice(0, 10);
}

export function editorEditionsService(
  db: Db,
  clock: () => Date,
  deps: {
    copyVisuals?: (fromEventId: number, toEventId: number) => Promise<void>;
  } = {},
) {
  const { history, uniqueSlug, eventValues, writeCourses } = eventFormWriter(clock);

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
