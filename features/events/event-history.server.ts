/**
 * An event's history (what its editors read: changes, moderation, organiser validations), written
 * by the features that act on the event (decision 047: they call this, not the table).
 */
import type { Executor } from "../../platform/db/client.server.ts";
import { eventHistory } from "./events.tables.ts";

export type EventHistoryLine = Omit<typeof eventHistory.$inferInsert, "id">;

/** Adds a line to an event's history, in the caller's transaction. */
export async function recordEventHistory(tx: Executor, line: EventHistoryLine): Promise<void> {
  await tx.insert(eventHistory).values(line);
}
