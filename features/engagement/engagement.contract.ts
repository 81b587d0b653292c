import { z } from "zod";
import { EVENT_ACCESS_LEVELS } from "../organizers/organizer.contract.ts";

/**
 * GET /api/user/action/{id}: what the signed-in member can do and has done on one event — the
 * parts of the (shared) event page that depend on who looks.
 */
export const eventActionsSchema = z.object({
  eventId: z.number().int(),
  /** owner, organizer or admin see the organiser tools; member sees the member's actions. */
  access: z.enum(EVENT_ACCESS_LEVELS),
});
export type EventActions = z.infer<typeof eventActionsSchema>;
