import { z } from "zod";
import { CALENDAR_STATUSES, SPORT_KEYS } from "../../shared/constants.ts";
import { EVENT_ACCESS_LEVELS } from "../organizers/organizer.contract.ts";
import { ownRatingSchema } from "../ratings/ratings.contract.ts";
import { searchItemSchema } from "../search/search.contract.ts";

/** Target times up to a week (multi-day ultras), in seconds. */
export const MAX_TARGET_TIME = 7 * 24 * 3600;

/** POST /api/user/favorite/{id}: `{}` toggles; `{ on }` sets (used after signing in). */
export const favoriteBodySchema = z.object({ on: z.boolean().optional() }).strict();
export const favoriteResponseSchema = z.object({
  eventId: z.number().int(),
  favorite: z.boolean(),
  /** Members who saved the event. */
  count: z.number().int(),
});
export type FavoriteResponse = z.infer<typeof favoriteResponseSchema>;

/** GET /api/user/favorites: the member's saved races, soonest first. */
export const favoritesResponseSchema = z.object({ items: z.array(searchItemSchema) });
export type FavoritesResponse = z.infer<typeof favoritesResponseSchema>;

/** POST /api/user/calendar/{courseId}: adds the course to the member's season, or changes it. */
export const calendarBodySchema = z
  .object({
    status: z.enum(CALENDAR_STATUSES).default("planned"),
    targetTime: z.number().int().min(60).max(MAX_TARGET_TIME).nullable().default(null),
  })
  .strict();
export type CalendarBody = z.infer<typeof calendarBodySchema>;

export const calendarEntrySchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  eventId: z.number().int(),
  /** As saved; a planned or registered course whose day has passed reads "done" in `shown`. */
  status: z.enum(CALENDAR_STATUSES),
  shown: z.enum(CALENDAR_STATUSES),
  /** The course's day has passed: the planning invites the member to record a result. */
  past: z.boolean(),
  targetTime: z.number().int().nullable(),
  course: z.object({
    name: z.string(),
    distance: z.number().int().nullable(),
    duration: z.number().int().nullable(),
    elevationGain: z.number().int().nullable(),
    /** ISO instant, or null when the start time is not known yet. */
    startAt: z.string().nullable(),
  }),
  event: z.object({
    slug: z.string(),
    name: z.string(),
    sport: z.enum(SPORT_KEYS),
    startDate: z.iso.date(),
    endDate: z.iso.date(),
    city: z.string().nullable(),
    departmentCode: z.string().nullable(),
    cancelled: z.boolean(),
    postponed: z.boolean(),
  }),
});
export type CalendarEntry = z.infer<typeof calendarEntrySchema>;

const totalsSchema = z.object({
  races: z.number().int(),
  /** Metres. */
  distance: z.number().int(),
  elevationGain: z.number().int(),
});
export type CalendarTotals = z.infer<typeof totalsSchema>;

export const calendarResponseSchema = z.object({
  entries: z.array(calendarEntrySchema),
  /** Per month ("2026-06") and per year ("2026"), in the order of the entries. */
  months: z.array(totalsSchema.extend({ month: z.string() })),
  years: z.array(totalsSchema.extend({ year: z.string() })),
});
export type CalendarResponse = z.infer<typeof calendarResponseSchema>;

/** The private address of the member's planning as a calendar feed; null until they ask for one. */
export const calendarFeedResponseSchema = z.object({ url: z.string().nullable() });

/** GET /api/event/participants/{id}. */
export const participantSchema = z.object({
  slug: z.string(),
  displayName: z.string(),
  photoUrl: z.string().nullable(),
});
export const participantsResponseSchema = z.object({
  eventId: z.number().int(),
  courses: z.array(
    z.object({
      courseId: z.number().int(),
      /** Members who plan or registered for it. */
      going: z.number().int(),
      /** Members who ran it. */
      done: z.number().int(),
      /** Members with a public profile among them (private profiles count, never named). */
      members: z.array(participantSchema),
    }),
  ),
  /** Distinct members going to or having run any course of the event. */
  members: z.number().int(),
  favorites: z.number().int(),
  views: z.number().int(),
});
export type ParticipantsResponse = z.infer<typeof participantsResponseSchema>;

/**
 * GET /api/user/action/{id}: what the signed-in member can do and has done on one event — the
 * parts of the (shared) event page that depend on who looks.
 */
export const eventActionsSchema = z.object({
  eventId: z.number().int(),
  /** owner, organizer or admin see the organiser tools; member sees the member's actions. */
  access: z.enum(EVENT_ACCESS_LEVELS),
  favorite: z.boolean(),
  calendar: z.array(
    z.object({
      courseId: z.number().int(),
      status: z.enum(CALENDAR_STATUSES),
      targetTime: z.number().int().nullable(),
    }),
  ),
  /** The member's rating of this edition, or null. */
  rating: ownRatingSchema.nullable(),
  /** The member's comments and wall messages on this event. */
  commentCount: z.number().int(),
});
export type EventActions = z.infer<typeof eventActionsSchema>;
