/**
 * What other features ask of the results (decision 047): a member's time and rank on a course or
 * on a result line of theirs (the posters' figures). One query each; the results' tables are read
 * and written in this feature (community reads them in SQL, decision 029).
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { results } from "./results.tables.ts";

export type MemberTime = { timeMs: number | null; rank: number | null };

/** The member's time and rank on a course (their line of it), or null. */
export async function memberTimeOnCourse(db: Executor, userId: number, courseId: number): Promise<MemberTime | null> {
  const [result] = await db
    .select({ timeMs: results.timeMs, rank: results.rank })
    .from(results)
    .where(and(eq(results.courseId, courseId), eq(results.userId, userId)))
    .limit(1);
  return result ?? null;
}

/** The time and rank of a result line when it is the member's, or null. */
export async function memberTimeOfResult(db: Executor, userId: number, resultId: number): Promise<MemberTime | null> {
  const [result] = await db
    .select({ timeMs: results.timeMs, rank: results.rank })
    .from(results)
    .where(and(eq(results.id, resultId), eq(results.userId, userId)));
  return result ?? null;
}
