/**
 * Who may do what to an event: its owner (the member who listed it), a verified organiser, an
 * admin; any other member only proposes changes. Every event write goes through `eventAccess`.
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { eventOrganizers } from "../editor/editor.tables.ts";
import { courses, events } from "./events.tables.ts";

export type Actor = {
  id: number;
  role: "member" | "organiser" | "admin";
  emailStatus: "unverified" | "pending_change" | "verified";
};
export type EventAccess = "owner" | "organizer" | "admin" | "member";

/** The caller's access to an event, or null when the event does not exist. */
export async function eventAccess(db: Executor, actor: Actor, eventId: number): Promise<EventAccess | null> {
  const [event] = await db.select({ ownerId: events.ownerId }).from(events).where(eq(events.id, eventId)).limit(1);
  if (!event) return null;
  if (actor.role === "admin") return "admin";
  if (event.ownerId === actor.id) return "owner";
  const [organizer] = await db
    .select({ userId: eventOrganizers.userId })
    .from(eventOrganizers)
    .where(and(eq(eventOrganizers.eventId, eventId), eq(eventOrganizers.userId, actor.id)))
    .limit(1);
  return organizer ? "organizer" : "member";
}

/** Owner, organiser or admin, else FORBIDDEN; an unknown event is ITEM_NOT_FOUND. */
export async function requireEventEditor(db: Executor, actor: Actor, eventId: number): Promise<EventAccess> {
  const access = await eventAccess(db, actor, eventId);
  if (!access) throw new ApiError("ITEM_NOT_FOUND");
  if (access === "member") throw new ApiError("FORBIDDEN");
  return access;
}

/** The event a course belongs to, or ITEM_NOT_FOUND. */
export async function courseEventId(db: Executor, courseId: number): Promise<number> {
  const [course] = await db.select({ eventId: courses.eventId }).from(courses).where(eq(courses.id, courseId)).limit(1);
  if (!course) throw new ApiError("ITEM_NOT_FOUND");
  return course.eventId;
}
