import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";
import { RESULT_SOURCES, RESULT_STATUSES } from "../../shared/constants.ts";
import { numeric, rowId, text } from "../../shared/input.ts";

const code = (c: ErrorCode) => ({ message: c });

/** Which ranking a course's results are read in. */
export const RESULT_VIEWS = ["general", "men", "women", "category"] as const;
export type ResultView = (typeof RESULT_VIEWS)[number];
export const RESULTS_PAGE_SIZE = 50;

/**
 * The time a course's official ranking follows, as imported: the gun ("official") time, or the
 * chip ("net") time when the file's ranks follow it. A table shows that time, names it in its
 * header, reads the pace from it, and gives the other time second.
 */
export const TIME_BASES = ["official", "net"] as const;
export type TimeBasis = (typeof TIME_BASES)[number];

/** The time a line shows under a basis, and the other one when the line has both and they differ. */
export function timesOf(
  line: { timeMs: number | null; netTimeMs: number | null },
  basis: TimeBasis,
): { shown: number | null; other: number | null } {
  const [first, second] = basis === "net" ? [line.netTimeMs, line.timeMs] : [line.timeMs, line.netTimeMs];
  const shown = first ?? second;
  return { shown, other: first !== null && second !== null && second !== first ? second : null };
}
export const RESULTS_MAX_PAGE_SIZE = 200;

const pageNumber = numeric.pipe(z.number().int(code("INVALID_FIELD")).min(1).max(100_000));

/** GET /api/results/{courseId}: the view, an optional name/bib search, one page. */
export const resultsQuerySchema = z
  .object({
    type: z.enum(RESULT_VIEWS).default("general"),
    /** The category shown with type=category (one of `categories` of the answer). */
    category: text().trim().max(24).optional(),
    /** A name (accents and case ignored, any part of it) or a bib number. */
    q: text().trim().max(80).optional(),
    page: pageNumber.default(1),
    pageSize: numeric.pipe(z.number().int().min(1).max(RESULTS_MAX_PAGE_SIZE)).default(RESULTS_PAGE_SIZE),
  })
  .refine((v) => v.type !== "category" || Boolean(v.category), { message: "FIELD_REQUIRED", path: ["category"] });
export type ResultsQuery = z.output<typeof resultsQuerySchema>;

export const resultRowSchema = z.object({
  id: z.number().int(),
  /** Overall rank, sex rank, category rank (null when the file had none or the runner did not finish). */
  rank: z.number().int().nullable(),
  sexRank: z.number().int().nullable(),
  categoryRank: z.number().int().nullable(),
  bib: z.string().nullable(),
  name: z.string(),
  club: z.string().nullable(),
  sex: z.enum(["M", "F"]).nullable(),
  country: z.string().nullable(),
  category: z.string().nullable(),
  /** Milliseconds: the official (gun) time and the chip time, as the file gave them. */
  timeMs: z.number().int().nullable(),
  netTimeMs: z.number().int().nullable(),
  /** Seconds per km: the time of the table's basis over the course's distance. */
  paceSPerKm: z.number().int().nullable(),
  status: z.enum(RESULT_STATUSES),
  source: z.enum(RESULT_SOURCES),
  /** Claimed by a member (whoever they are; a private profile is never named). */
  claimed: z.boolean(),
  /** The member's profile slug, when the line is claimed by a member whose profile is public. */
  memberSlug: z.string().nullable(),
  /** Signed-in callers only: the line's name is theirs (accents, order, initials aside). */
  couldBeYou: z.boolean().optional(),
});
export type ResultRow = z.infer<typeof resultRowSchema>;

export const resultTotalsSchema = z.object({
  entries: z.number().int(),
  finished: z.number().int(),
  dnf: z.number().int(),
  dns: z.number().int(),
  dsq: z.number().int(),
  men: z.number().int(),
  women: z.number().int(),
});
export type ResultTotals = z.infer<typeof resultTotalsSchema>;

export const courseResultsSchema = z.object({
  courseId: z.number().int(),
  eventId: z.number().int(),
  /** Metres, for the pace of hand-recorded results. */
  distance: z.number().int().nullable(),
  /** What the table is the results of: the course's name, distance (metres) and day (YYYY-MM-DD). */
  course: z.object({ name: z.string(), distance: z.number().int().nullable(), date: z.string() }),
  /** The time the ranking follows: shown in the time column, named in its header, read for the pace. */
  timeBasis: z.enum(TIME_BASES),
  /** Only results recorded by members by hand (no organiser's file yet). */
  manualOnly: z.boolean(),
  type: z.enum(RESULT_VIEWS),
  category: z.string().nullable(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Lines matching the view and search (pages = ceil(matching / pageSize)). */
  matching: z.number().int(),
  totals: resultTotalsSchema,
  categories: z.array(z.string()),
  rows: z.array(resultRowSchema),
  /** Signed-in callers only: their own line on this course (claimed or recorded), or null. */
  mine: z.number().int().nullable().optional(),
  /** Signed-in callers only: the line their claim waiting for the organiser is about, or null. */
  pending: z.number().int().nullable().optional(),
  /**
   * Signed-in callers without a line or a claim on the course: unclaimed lines anywhere in the
   * course whose name is theirs (five at most), to offer "c'est moi" on.
   */
  suggestions: z.array(resultRowSchema).optional(),
});
export type CourseResults = z.infer<typeof courseResultsSchema>;

/** Per course of an edition: counts shown before the rows are loaded (event page). */
export const eventResultsSummarySchema = z.object({
  eventId: z.number().int(),
  finishers: z.number().int(),
  courses: z.array(
    z.object({ courseId: z.number().int(), name: z.string(), entries: z.number().int(), finished: z.number().int() }),
  ),
});
export type EventResultsSummary = z.infer<typeof eventResultsSummarySchema>;

/**
 * Hours:minutes:seconds in milliseconds, up to 596 h: the stored column is an int4 (2^31 − 1 ms);
 * above it PostgreSQL refuses the row (a 500 instead of the field's error).
 */
const durationMs = numeric.pipe(
  z.number().int(code("INVALID_FIELD")).min(1000, code("INVALID_FIELD")).max(2_147_483_647, code("INVALID_FIELD")),
);

/** POST /api/results/manual: a member's own result on a past course that has no imported results. */
export const manualResultBodySchema = z
  .object({
    courseId: numeric.pipe(rowId),
    status: z.enum(RESULT_STATUSES).default("finished"),
    timeMs: z.union([durationMs, z.null()]).optional(),
    rank: z.union([numeric.pipe(z.number().int().min(1).max(1_000_000)), z.null()]).optional(),
  })
  .refine((v) => v.status !== "finished" || (v.timeMs !== undefined && v.timeMs !== null), {
    message: "FIELD_REQUIRED",
    path: ["timeMs"],
  });
export type ManualResultBody = z.input<typeof manualResultBodySchema>;
export type ManualResultInput = z.output<typeof manualResultBodySchema>;

/** PUT /api/results/manual/{id}: the same fields but the course. */
export const manualResultEditSchema = z
  .object({
    status: z.enum(RESULT_STATUSES).default("finished"),
    timeMs: z.union([durationMs, z.null()]).optional(),
    rank: z.union([numeric.pipe(z.number().int().min(1).max(1_000_000)), z.null()]).optional(),
  })
  .refine((v) => v.status !== "finished" || (v.timeMs !== undefined && v.timeMs !== null), {
    message: "FIELD_REQUIRED",
    path: ["timeMs"],
  });
export type ManualResultEdit = z.output<typeof manualResultEditSchema>;

/** One of the member's results (account area). */
export const memberResultSchema = z.object({
  id: z.number().int(),
  source: z.enum(RESULT_SOURCES),
  status: z.enum(RESULT_STATUSES),
  /** The time the course's ranking follows (`timeBasis`), the one the rank goes with. */
  timeMs: z.number().int().nullable(),
  timeBasis: z.enum(TIME_BASES),
  paceSPerKm: z.number().int().nullable(),
  rank: z.number().int().nullable(),
  /** Finishers of the course (imported results), to read the rank against. */
  finishers: z.number().int().nullable(),
  /** Rank as a share of the finishers, 1–100 ("top 12 %"), null without a rank or finishers. */
  percentile: z.number().int().nullable(),
  course: z.object({ id: z.number().int(), name: z.string(), distance: z.number().int().nullable() }),
  event: z.object({ id: z.number().int(), name: z.string(), slug: z.string(), date: z.string() }),
});
export type MemberResult = z.infer<typeof memberResultSchema>;
export const memberResultsSchema = z.object({ results: z.array(memberResultSchema) });

/** A past course a member may record a result for, with whether it already has imported results. */
export const recordableCourseSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  distance: z.number().int().nullable(),
  hasResults: z.boolean(),
  event: z.object({ id: z.number().int(), name: z.string(), slug: z.string(), date: z.string() }),
});
export type RecordableCourse = z.infer<typeof recordableCourseSchema>;

/** Rank as a whole "top N %" (at least 1). */
export function rankPercentile(rank: number | null, finishers: number | null): number | null {
  if (rank === null || !finishers || rank > finishers) return null;
  return Math.max(1, Math.ceil((rank / finishers) * 100));
}

/** Seconds per km from a time and a distance (metres), or null. */
export function paceOf(timeMs: number | null, distance: number | null): number | null {
  if (timeMs === null || !distance) return null;
  return Math.round(timeMs / distance);
}
