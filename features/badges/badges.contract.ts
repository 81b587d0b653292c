import { z } from "zod";

/** One badge a member holds, as pages show it (names in both languages: the page picks). */
export const memberBadgeSchema = z.object({
  code: z.string(),
  family: z.enum(["finisher", "sport", "distance", "total", "races", "marathon", "elevation"]),
  figure: z.string(),
  nameFr: z.string(),
  nameEn: z.string(),
  /** For a course's finisher badge: the edition's name, its date and its page's slug. */
  event: z.object({ name: z.string(), slug: z.string(), date: z.string(), course: z.string() }).nullable(),
  awardedAt: z.string(),
});
export type MemberBadge = z.infer<typeof memberBadgeSchema>;
