import type { Db } from "../../db/client.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type Actor, eventAccess } from "../events/event-access.server.ts";
import type { EventActions } from "./engagement.contract.ts";

/** A member's relations with events: what they may do on an event page. */
export function engagementService(db: Db) {
  return {
    /** GET /api/user/action/{id}; an unknown event is ITEM_NOT_FOUND. */
    async eventActions(member: Actor, eventId: number): Promise<EventActions> {
      const access = await eventAccess(db, member, eventId);
      if (!access) throw new ApiError("ITEM_NOT_FOUND");
      return { eventId, access };
    },
  };
}
