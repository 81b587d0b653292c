import { z } from "zod";
import { RATING_CRITERIA, type RatingCriterion } from "../../shared/constants.ts";
import { numeric, rowId, scoreSchema } from "../../shared/input.ts";

const optionalScore = z.union([scoreSchema, z.null()]).optional();

/** POST /api/rating: creates the member's rating of an edition, or replaces it. */
export const rateBodySchema = z.object({
  eventId: numeric.pipe(rowId),
  overall: scoreSchema,
  course: optionalScore,
  organisation: optionalScore,
  atmosphere: optionalScore,
  value: optionalScore,
  difficulty: optionalScore,
});
export type RateBody = z.input<typeof rateBodySchema>;
export type RateInput = z.output<typeof rateBodySchema>;

export const ownRatingSchema = z.object({
  overall: z.number().int(),
  ...(Object.fromEntries(RATING_CRITERIA.map((c) => [c, z.number().int().nullable()])) as Record<
    RatingCriterion,
    z.ZodNullable<z.ZodNumber>
  >),
  updatedAt: z.string(),
});
export type OwnRating = z.infer<typeof ownRatingSchema>;

/** An average and how many ratings gave it (null without any). */
const criterionSchema = z.object({ average: z.number().nullable(), count: z.number().int() });

/** GET /api/rating/{event}: the edition's ratings; `mine` only for a signed-in member. */
export const ratingSummarySchema = z.object({
  eventId: z.number().int(),
  /** Average overall score, 1–5, or null without ratings. */
  average: z.number().nullable(),
  count: z.number().int(),
  /** How many gave 1, 2, 3, 4 and 5 stars (index 0 = 1 star). */
  distribution: z.array(z.number().int()).length(5),
  criteria: z.object(
    Object.fromEntries(RATING_CRITERIA.map((c) => [c, criterionSchema])) as Record<
      RatingCriterion,
      typeof criterionSchema
    >,
  ),
  /** True once the edition has started (Europe/Paris): only then can it be rated. */
  open: z.boolean(),
  /** The caller's own rating (signed-in callers only; such answers are never cached publicly). */
  mine: ownRatingSchema.nullable().optional(),
});
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

/** The member's relation to one event, for GET /api/user/action/{id} (features/engagement). */
export type MemberEventEngagement = { rating: OwnRating | null; commentCount: number };
