/**
 * What the catalogue keeps of a deleted member (accounts' member data port, decision 048): the
 * events they listed, the history lines they wrote and the tracks they sent stay, without them;
 * their organiser rights (with the address the code went to) and their proposed changes go.
 */
import { eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { eventChangeRequests, eventOrganizers } from "./event-access.tables.ts";
import { eventHistory, events, tracks } from "./events.tables.ts";

export async function removeMemberFromCatalogue(tx: Executor, userId: number): Promise<void> {
  await tx.update(events).set({ ownerId: null }).where(eq(events.ownerId, userId));
  await tx.update(eventHistory).set({ userId: null }).where(eq(eventHistory.userId, userId));
  await tx.update(tracks).set({ uploadedBy: null }).where(eq(tracks.uploadedBy, userId));
  await tx.delete(eventOrganizers).where(eq(eventOrganizers.userId, userId));
  await tx.delete(eventChangeRequests).where(eq(eventChangeRequests.userId, userId));
  await tx.update(eventChangeRequests).set({ decidedBy: null }).where(eq(eventChangeRequests.decidedBy, userId));
}
