/**
 * Members' claims on results lines ("c'est moi"): the claim's answer, the organisers' and admins'
 * review of claims whose name is not the member's, and the member's own claims. Isomorphic.
 */
import { z } from "zod";
import { TIME_BASES } from "./results.contract.ts";

/** A claim that waits for the organiser, was approved (the line became the member's) or refused. */
export const RESULT_CLAIM_STATUSES = ["pending", "approved", "refused"] as const;
export type ResultClaimStatus = (typeof RESULT_CLAIM_STATUSES)[number];

/** POST /api/results/{id}/claim: the line is the member's now, or waits for the organiser. */
export const claimAnswerSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  status: z.enum(["confirmed", "pending"]),
});
export type ClaimAnswer = z.infer<typeof claimAnswerSchema>;

/** DELETE /api/results/{id}/claim: the line given back, or the waiting claim withdrawn. */
export const unclaimAnswerSchema = z.object({ ok: z.literal(true), withdrawn: z.boolean() });

export const CLAIM_DECISIONS = ["approve", "refuse"] as const;
export type ClaimDecision = (typeof CLAIM_DECISIONS)[number];
export const claimDecisionBodySchema = z.strictObject({ decision: z.enum(CLAIM_DECISIONS) });

const courseSchema = z.object({ id: z.number().int(), name: z.string(), distance: z.number().int().nullable() });
const eventSchema = z.object({ id: z.number().int(), name: z.string(), slug: z.string(), date: z.string() });
const lineSchema = z.object({
  /** Null when the line is gone (its course's results deleted). */
  id: z.number().int().nullable(),
  name: z.string(),
  bib: z.string().nullable(),
  rank: z.number().int().nullable(),
  /** The time the course's ranking follows, and which it is. */
  timeMs: z.number().int().nullable(),
  timeBasis: z.enum(TIME_BASES),
  club: z.string().nullable(),
  category: z.string().nullable(),
});

/** A claim an organiser or admin decides on: who asks, for which line. */
export const claimForReviewSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  /** The name on the member's profile (what the line's name is compared with), and their public profile. */
  member: z.object({ name: z.string(), slug: z.string().nullable() }),
  line: lineSchema,
  /** Another member's line already: approving is refused (RESULT_ALREADY_CLAIMED). */
  lineTaken: z.boolean(),
  course: courseSchema,
  event: eventSchema,
});
export type ClaimForReview = z.infer<typeof claimForReviewSchema>;
export const claimsForReviewSchema = z.object({ claims: z.array(claimForReviewSchema) });

/** POST /api/results/event/{id}/claims/{claimId}: the claim's new status. */
export const claimDecisionAnswerSchema = z.object({ id: z.number().int(), status: z.enum(RESULT_CLAIM_STATUSES) });

/** One of the member's claims that are not (yet) results: waiting, or refused. */
export const memberClaimSchema = z.object({
  id: z.number().int(),
  status: z.enum(RESULT_CLAIM_STATUSES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  line: lineSchema,
  course: courseSchema,
  event: eventSchema,
});
export type MemberClaim = z.infer<typeof memberClaimSchema>;
