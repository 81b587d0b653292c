import { z } from "zod";
import { EVENT_SCOPES, EVENT_STATES, SPORT_KEYS } from "../../shared/constants.ts";

export const eventCardSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  sport: z.enum(SPORT_KEYS),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  city: z.string().nullable(),
  departmentCode: z.string().nullable(),
  departmentName: z.string().nullable(),
  scope: z.enum(EVENT_SCOPES),
  state: z.enum(EVENT_STATES),
  /** Course distances in metres, shortest first; timed races appear in `durations`. */
  distances: z.array(z.number().int()),
  durations: z.array(z.number().int()),
  maxElevation: z.number().int().nullable(),
  coverImage: z.string().nullable(),
});
export type EventCard = z.infer<typeof eventCardSchema>;

export const upcomingQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
