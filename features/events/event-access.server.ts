/**
 * Who may do what to an event: its owner (the member who listed it), a verified organiser, an
 * admin; any other member only proposes changes. Every event write goes through `eventAccess`.
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { AccessTargetKind } from "../identity/target-editors-port.ts";
import { eventChangeRequests, eventOrganizers } from "./event-access.tables.ts";
import { courses, events, tracks } from "./events.tables.ts";

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

/** Verified organisers' addresses (those their codes went to), three at most, for events with no contact address. */
export async function organizerAddresses(db: Executor, eventId: number): Promise<string[]> {
  const found = await db
    .selectDistinct({ email: eventOrganizers.email })
    .from(eventOrganizers)
    .where(eq(eventOrganizers.eventId, eventId))
    .limit(3);
  return found.map((r) => r.email);
}

/** Makes a member an organiser of an event (the address their code went to kept); no change when they are. */
export async function grantOrganizer(
  tx: Executor,
  grant: { eventId: number; userId: number; email: string; grantedAt: Date },
): Promise<void> {
  await tx.insert(eventOrganizers).values(grant).onConflictDoNothing();
}

/** The event a course belongs to, or ITEM_NOT_FOUND. */
export async function courseEventId(db: Executor, courseId: number): Promise<number> {
  const [course] = await db.select({ eventId: courses.eventId }).from(courses).where(eq(courses.id, courseId)).limit(1);
  if (!course) throw new ApiError("ITEM_NOT_FOUND");
  return course.eventId;
}

/**
 * Whose the target is: the event it belongs to, or for a track on no course yet, its uploader.
 * Null when it does not exist (the route then answers its own 404).
 */
async function targetOwner(
  db: Executor,
  kind: AccessTargetKind,
  id: number,
): Promise<{ eventId: number } | { uploadedBy: number | null } | null> {
  switch (kind) {
    case "event":
      return { eventId: id };
    case "course": {
      const [course] = await db.select({ eventId: courses.eventId }).from(courses).where(eq(courses.id, id)).limit(1);
      return course ?? null;
    }
    case "changeRequest": {
      const [request] = await db
        .select({ eventId: eventChangeRequests.eventId })
        .from(eventChangeRequests)
        .where(eq(eventChangeRequests.id, id))
        .limit(1);
      return request ?? null;
    }
    case "track": {
      const [track] = await db
        .select({ eventId: courses.eventId, uploadedBy: tracks.uploadedBy })
        .from(tracks)
        .leftJoin(courses, eq(courses.id, tracks.courseId))
        .where(eq(tracks.id, id))
        .limit(1);
      if (!track) return null;
      return track.eventId === null ? { uploadedBy: track.uploadedBy } : { eventId: track.eventId };
    }
  }
}

/**
 * FORBIDDEN unless the actor edits the event the target belongs to (owner, organiser, admin), or,
 * for a track on no course yet, uploaded it (or is an admin). An unknown target passes: the route
 * answers ITEM_NOT_FOUND itself, as it would for anyone.
 */
export async function requireTargetEditor(db: Executor, actor: Actor, kind: AccessTargetKind, id: number) {
  const owner = await targetOwner(db, kind, id);
  if (!owner) return;
  if ("eventId" in owner) {
    const access = await eventAccess(db, actor, owner.eventId);
    if (access === "member") throw new ApiError("FORBIDDEN");
    return;
  }
  if (owner.uploadedBy !== actor.id && actor.role !== "admin") throw new ApiError("FORBIDDEN");
}
