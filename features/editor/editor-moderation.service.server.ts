/**
 * Moderation of listed events: status changes (cancel, postpone, confirm, check, validate,
 * deactivate…), the admin's queues, modification requests and their decision, and the history of
 * an event as its editors may see it.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { addIsoDays, daysBetween } from "../../shared/dates.ts";
import { sanitizeDescription } from "../events/description.server.ts";
import { type Actor, requireEventEditor } from "../events/event-access.server.ts";
import { eventChangeRequests } from "../events/event-access.tables.ts";
import { eventHistory, events } from "../events/events.tables.ts";
import type { EventForm, EventStatusType, eventStatusBodySchema } from "./editor.contract.ts";
import { diffForms } from "./editor-form-diff.ts";
import { type EventRow, editable, eventRow, loadForm } from "./editor-form-read.server.ts";
import { eventFormWriter } from "./editor-form-write.server.ts";

type StatusBody = typeof eventStatusBodySchema._zod.output;

export type ModerationNotice = {
  userId: number;
  eventName: string;
  slug: string;
  decision: "validated" | "deactivated" | "accepted" | "rejected";
  message: string | null;
};

/** A change of an event's programme its followers hear about (features/alerts). */
export type StatusChangeNotice = { eventId: number; change: "cancelled" | "postponed"; at: Date };

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

export function editorModerationService(
  db: Db,
  clock: () => Date,
  deps: {
    /** Mails a member the outcome of moderation, in the transaction that decided it. */
    notifyModeration?: (tx: Executor, notice: ModerationNotice) => Promise<void>;
    /**
     * An event was cancelled or postponed: called in the change's transaction, so what it queues
     * (the followers' alert mails) exists only if the change commits; it must only enqueue.
     */
    statusChanged?: (tx: Executor, change: StatusChangeNotice) => Promise<void>;
  } = {},
) {
  const { history, checkCourseDates, apply } = eventFormWriter(clock);

  return {
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
    /** What waits for an admin (the admin menu's count): new events to accept and change requests. */
    async waitingCount(): Promise<number> {
      const [row] = await rows<{ n: number }>(
        db,
        sql`SELECT ((SELECT count(*) FROM events WHERE status = 'pending')
                  + (SELECT count(*) FROM event_change_requests WHERE status = 'pending'))::int AS n`,
      );
      return Number(row?.n ?? 0);
    },

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
  };
}
