import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { RANKING_ORDERS, RANKING_PERIODS, SPORTS } from "../../shared/constants.ts";
import { numeric, text } from "../../shared/input.ts";

const code = (c: ErrorCode) => ({ message: c });

/** Members listed on one page of a ranking. */
export const RANKING_PAGE_SIZE = 50;
/** Items on one page of the timeline. */
export const TIMELINE_PAGE_SIZE = 20;
/** Members on one page of the directory. */
export const DIRECTORY_PAGE_SIZE = 24;
/** New events shown to a member within this distance of their town (metres). */
export const NEARBY_EVENTS_RADIUS_M = 50_000;
/** An event listed this many days ago or less is "new" in the timeline. */
export const NEW_EVENTS_DAYS = 30;

/** Timeline filters: everything, or one kind of activity. */
export const TIMELINE_TYPES = ["all", "results", "planning", "ratings", "comments", "badges", "events"] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];
/** The kind of one timeline item. */
export const TIMELINE_KINDS = ["result", "planning", "rating", "comment", "badge", "event"] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** The directory's orders. */
export const DIRECTORY_SORTS = ["newest", "active", "name"] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];

const page = numeric.pipe(z.number().int(code("INVALID_FIELD")).min(1).max(10_000)).optional();

export const rankingParamsSchema = z.object({
  type: z.enum(RANKING_PERIODS, code("INVALID_FIELD")),
  order: z.enum(RANKING_ORDERS, code("INVALID_FIELD")),
});
export const rankingQuerySchema = z.object({ page });

/** A member as the community pages show them: public profiles only. */
export const memberCardSchema = z.object({
  slug: z.string(),
  displayName: z.string(),
  /** Two letters for the avatar when there is no photo. */
  initials: z.string(),
  photoUrl: z.string().nullable(),
  city: z.string().nullable(),
});
export type MemberCard = z.infer<typeof memberCardSchema>;

export const rankingEntrySchema = memberCardSchema.extend({
  /** Shared by members with the same value (1, 2, 2, 4). */
  rank: z.number().int(),
  /** Finished results in the period. */
  races: z.number().int(),
  /** Sum of the finished courses' distances, metres. */
  distance: z.number().int(),
  /** Sum of the finished courses' positive elevation, metres. */
  elevation: z.number().int(),
});
export type RankingEntry = z.infer<typeof rankingEntrySchema>;

export const rankingSchema = z.object({
  period: z.enum(RANKING_PERIODS),
  order: z.enum(RANKING_ORDERS),
  /** First and last edition day counted (Europe/Paris); `from` null for all time. */
  from: z.string().nullable(),
  to: z.string(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Ranked members in the period. */
  total: z.number().int(),
  entries: z.array(rankingEntrySchema),
  /** The signed-in caller's own line when their profile is public and they are ranked; else null. */
  me: rankingEntrySchema.nullable(),
});
export type Ranking = z.infer<typeof rankingSchema>;

export const timelineParamsSchema = z.object({ type: z.enum(TIMELINE_TYPES, code("INVALID_FIELD")) });
export const timelineQuerySchema = z.object({
  /** The `next` of the previous page. */
  cursor: text()
    .trim()
    .max(80)
    .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z~[a-z]+~\d{1,10}$/, code("INVALID_FIELD"))
    .optional(),
});

const eventRefSchema = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  startDate: z.string(),
  city: z.string().nullable(),
});

export const timelineItemSchema = z.object({
  kind: z.enum(TIMELINE_KINDS),
  /** Unique within the kind. */
  id: z.number().int(),
  at: z.string(),
  /** Who did it (null for a new event). */
  member: memberCardSchema.nullable(),
  event: eventRefSchema,
  /** result: course name, status, official time (ms) and overall rank. */
  course: z.string().nullable(),
  timeMs: z.number().int().nullable(),
  rank: z.number().int().nullable(),
  /** rating: overall 1–5. */
  score: z.number().int().nullable(),
  /** comment: the start of the text. */
  excerpt: z.string().nullable(),
  /** badge: its code ("first-ultra", "races-10"…) and level. */
  badge: z.string().nullable(),
  /** event: distance from the member's town, metres. */
  distance: z.number().int().nullable(),
});
export type TimelineItem = z.infer<typeof timelineItemSchema>;

export const timelineSchema = z.object({
  type: z.enum(TIMELINE_TYPES),
  items: z.array(timelineItemSchema),
  /** The cursor of the next page, null at the end. */
  next: z.string().nullable(),
  /** The town new events are measured from (signed-in members with a known town), else null. */
  near: z.string().nullable(),
});
export type Timeline = z.infer<typeof timelineSchema>;

export const directoryParamsSchema = z.object({
  type: z.enum(DIRECTORY_SORTS, code("INVALID_FIELD")).optional(),
});
export const directoryQuerySchema = z.object({
  q: text().trim().max(80).optional(),
  city: text().trim().max(80).optional(),
  sport: z.enum(SPORTS.map((s) => s.key) as [string, ...string[]], code("INVALID_FIELD")).optional(),
  page,
});
export type DirectoryQuery = z.output<typeof directoryQuerySchema>;

export const directoryMemberSchema = memberCardSchema.extend({
  sports: z.array(z.string()),
  memberSince: z.string(),
  /** Finished results, all time. */
  races: z.number().int(),
  /** Their latest result's date, or null. */
  lastRaceAt: z.string().nullable(),
});
export type DirectoryMember = z.infer<typeof directoryMemberSchema>;

export const directorySchema = z.object({
  sort: z.enum(DIRECTORY_SORTS),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  members: z.array(directoryMemberSchema),
});
export type Directory = z.infer<typeof directorySchema>;

export const finisherSchema = memberCardSchema.extend({
  course: z.string(),
  timeMs: z.number().int().nullable(),
  rank: z.number().int().nullable(),
});
export const finishersSchema = z.object({
  eventId: z.number().int(),
  /** Finished lines of the edition's results. */
  finishers: z.number().int(),
  /** Members with a public profile who claimed or recorded a finish, best rank first. */
  members: z.array(finisherSchema),
  /** Members whose profile is private: counted, never named. */
  privateMembers: z.number().int(),
});
export type Finishers = z.infer<typeof finishersSchema>;

/** Two letters for an avatar: "Camille Martin" → "CM", "trailer74" → "TR". */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const letters =
    words.length === 1 ? [...words[0]].slice(0, 2).join("") : [...words[0]][0] + [...words[words.length - 1]][0];
  return letters.toLocaleUpperCase("fr");
}
