/**
 * Members' claims on results lines ("c'est moi"). A line whose name is the member's (results/names.ts:
 * accents, case, order, initials aside) becomes theirs at once; any other waits in result_claims for
 * the edition's organiser or an admin, and counts nowhere (rankings, badges, stats read
 * results.user_id) until approved. One line or waiting claim per member per course; a refused line
 * cannot be claimed again by the same member. The member is told of the decision by mail and sees
 * their claims on their results page.
 */
import { type SQL, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { isUniqueViolation, rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { forgetBestTimeOf, refreshMemberAchievements } from "../badges/badges.service.server.ts";
import { type Actor, requireEventEditor } from "../events/event-access.server.ts";
import type { UserRow } from "../identity/sessions.server.ts";
import type { ClaimAnswer, ClaimDecision, ClaimForReview, MemberClaim, ResultClaimStatus } from "./claims.contract.ts";
import { matchName } from "./names.ts";
import { type TimeBasis, timesOf } from "./results.contract.ts";
import { basisOf } from "./time-basis.server.ts";

/** What the member is told once their claim is decided (a mail, features/mail). */
export type ClaimNotice = {
  userId: number;
  decision: "approved" | "refused";
  eventName: string;
  eventSlug: string;
  courseName: string;
};

/** Claims listed for review at most (the oldest first). */
const REVIEW_LIMIT = 200;

type ClaimRow = {
  id: number;
  status: ResultClaimStatus;
  created_at: Date | string;
  decided_at: Date | string | null;
  result_id: number | null;
  line_name: string;
  bib: string | null;
  rank: number | null;
  time_ms: number | null;
  net_time_ms: number | null;
  time_basis: TimeBasis;
  club: string | null;
  category: string | null;
  line_user: number | null;
  user_id: number;
  first_name: string;
  last_name: string;
  pseudo: string;
  member_slug: string | null;
  course_id: number;
  course_name: string;
  distance: number | null;
  event_id: number;
  event_name: string;
  event_slug: string;
  start_date: string;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Claims with their line (kept name and bib when the line is gone), course, edition and member. */
async function claimRows(executor: Executor, where: SQL, limit = REVIEW_LIMIT): Promise<ClaimRow[]> {
  return rows<ClaimRow>(
    executor,
    sql`SELECT c.id, c.status, c.created_at, c.decided_at, c.result_id, coalesce(r.name, c.line_name) AS line_name,
          coalesce(r.bib, c.bib) AS bib, r.rank, r.time_ms, r.net_time_ms, ${basisOf(sql`c.course_id`)} AS time_basis,
          r.club, r.category, r.user_id AS line_user,
          c.user_id, u.first_name, u.last_name, u.pseudo,
          CASE WHEN u.public_profile AND u.disabled_at IS NULL THEN u.slug END AS member_slug,
          co.id AS course_id, co.name AS course_name, co.distance,
          e.id AS event_id, e.name AS event_name, e.slug AS event_slug, e.start_date::text AS start_date
        FROM result_claims c
        LEFT JOIN results r ON r.id = c.result_id
        JOIN courses co ON co.id = c.course_id
        JOIN events e ON e.id = c.event_id
        JOIN users u ON u.id = c.user_id
        WHERE ${where}
        ORDER BY c.created_at, c.id
        LIMIT ${limit}`,
  );
}

const lineOf = (row: ClaimRow) => ({
  id: row.result_id,
  name: row.line_name,
  bib: row.bib,
  rank: row.rank,
  timeMs: timesOf({ timeMs: row.time_ms, netTimeMs: row.net_time_ms }, row.time_basis).shown,
  timeBasis: row.time_basis,
  club: row.club,
  category: row.category,
});
const courseOf = (row: ClaimRow) => ({ id: row.course_id, name: row.course_name, distance: row.distance });
const eventOf = (row: ClaimRow) => ({
  id: row.event_id,
  name: row.event_name,
  slug: row.event_slug,
  date: row.start_date,
});

const forReview = (row: ClaimRow): ClaimForReview => ({
  id: row.id,
  createdAt: iso(row.created_at) ?? "",
  member: {
    name: [row.first_name, row.last_name].filter(Boolean).join(" ") || row.pseudo,
    slug: row.member_slug,
  },
  line: lineOf(row),
  lineTaken: row.line_user !== null && row.line_user !== row.user_id,
  course: courseOf(row),
  event: eventOf(row),
});

/**
 * After a course's lines were replaced (a re-import), each claim goes to the new line with the same
 * bib, or, without a bib, the same name (accents and case aside); a claim whose line is gone goes.
 */
export async function relinkClaims(tx: Executor, courseId: number): Promise<void> {
  await tx.execute(sql`
    UPDATE result_claims c SET result_id = (
      SELECT r.id FROM results r
      WHERE r.course_id = c.course_id AND r.source = 'import'
        AND CASE WHEN c.bib IS NOT NULL THEN r.bib = c.bib
                 ELSE immutable_unaccent(lower(r.name)) = immutable_unaccent(lower(c.line_name)) END
      ORDER BY r.position LIMIT 1)
    WHERE c.course_id = ${courseId} AND c.result_id IS NULL`);
  await dropOrphanClaims(tx, courseId);
}

/** Claims whose line was deleted (and not re-imported) go too. */
export async function dropOrphanClaims(tx: Executor, courseId: number): Promise<void> {
  await tx.execute(sql`DELETE FROM result_claims WHERE course_id = ${courseId} AND result_id IS NULL`);
}

export function resultClaimsService(
  db: Db,
  clock: () => Date,
  deps: { notify?: (tx: Executor, notice: ClaimNotice) => Promise<void> } = {},
) {
  return {
    /**
     * "C'est moi": the line becomes the member's when its name is theirs, else a claim waits for
     * the organiser. Claiming the same line again answers the same.
     */
    async claim(user: Pick<UserRow, "id" | "firstName" | "lastName">, resultId: number): Promise<ClaimAnswer> {
      try {
        return await db.transaction(async (tx) => {
          const [line] = await rows<{
            id: number;
            course_id: number;
            event_id: number;
            user_id: number | null;
            name: string;
            bib: string | null;
          }>(
            tx,
            sql`SELECT r.id, r.course_id, r.event_id, r.user_id, r.name, r.bib
                FROM results r JOIN events e ON e.id = r.event_id
                WHERE r.id = ${resultId} AND e.status = 'active' FOR UPDATE OF r`,
          );
          if (!line) throw new ApiError("ITEM_NOT_FOUND");
          const answer = (status: ClaimAnswer["status"]): ClaimAnswer => ({
            id: line.id,
            courseId: line.course_id,
            status,
          });
          if (line.user_id === user.id) return answer("confirmed");
          if (line.user_id !== null) throw new ApiError("RESULT_ALREADY_CLAIMED");
          const [state] = await rows<{ recorded: boolean; pending: number | null; refused: boolean }>(
            tx,
            sql`SELECT
                  EXISTS (SELECT 1 FROM results WHERE course_id = ${line.course_id} AND user_id = ${user.id}) AS recorded,
                  (SELECT result_id FROM result_claims
                   WHERE course_id = ${line.course_id} AND user_id = ${user.id} AND status = 'pending') AS pending,
                  EXISTS (SELECT 1 FROM result_claims
                   WHERE result_id = ${line.id} AND user_id = ${user.id} AND status = 'refused') AS refused`,
          );
          if (state?.recorded) throw new ApiError("RESULT_ALREADY_RECORDED");
          if (state?.pending === line.id) return answer("pending");
          if (state?.pending !== null && state?.pending !== undefined) throw new ApiError("RESULT_CLAIM_PENDING");
          if (state?.refused) throw new ApiError("RESULT_CLAIM_REFUSED");
          if (matchName(line.name, user) !== "none") {
            await tx.execute(
              sql`UPDATE results SET user_id = ${user.id}, claimed_at = ${clock()} WHERE id = ${line.id}`,
            );
            await refreshMemberAchievements(tx, [user.id]);
            return answer("confirmed");
          }
          await tx.execute(
            sql`INSERT INTO result_claims (result_id, course_id, event_id, user_id, bib, line_name, created_at)
                VALUES (${line.id}, ${line.course_id}, ${line.event_id}, ${user.id}, ${line.bib}, ${line.name}, ${clock()})`,
          );
          return answer("pending");
        });
      } catch (error) {
        // Two claims at once on two lines of one course: the unique indexes keep one.
        if (isUniqueViolation(error, "results_user_course_idx")) throw new ApiError("RESULT_ALREADY_RECORDED");
        if (isUniqueViolation(error, "result_claims_pending_idx")) throw new ApiError("RESULT_CLAIM_PENDING");
        throw error;
      }
    },

    /**
     * Gives back a line the member has (an imported one: a hand-recorded result is deleted
     * instead), or withdraws their claim waiting on it.
     */
    async unclaim(user: Pick<UserRow, "id">, resultId: number): Promise<{ ok: true; withdrawn: boolean }> {
      return db.transaction(async (tx) => {
        const withdrawn = await rows<{ id: number }>(
          tx,
          sql`DELETE FROM result_claims WHERE result_id = ${resultId} AND user_id = ${user.id} AND status = 'pending'
              RETURNING id`,
        );
        if (withdrawn.length > 0) return { ok: true as const, withdrawn: true };
        const [line] = await rows<{ id: number; user_id: number | null; source: string }>(
          tx,
          sql`SELECT id, user_id, source FROM results WHERE id = ${resultId} FOR UPDATE`,
        );
        if (!line || line.user_id !== user.id || line.source !== "import") throw new ApiError("ITEM_NOT_FOUND");
        await forgetBestTimeOf(tx, line.id);
        await tx.execute(sql`UPDATE results SET user_id = NULL, claimed_at = NULL WHERE id = ${line.id}`);
        // An approved claim on it is history once the line is given back.
        await tx.execute(sql`DELETE FROM result_claims WHERE result_id = ${line.id} AND user_id = ${user.id}`);
        await refreshMemberAchievements(tx, [user.id]);
        return { ok: true as const, withdrawn: false };
      });
    },

    /** The claims waiting on an edition's results, for its owner, organisers and admins. */
    async forEvent(actor: Actor, eventId: number): Promise<ClaimForReview[]> {
      await requireEventEditor(db, actor, eventId);
      return (await claimRows(db, sql`c.event_id = ${eventId} AND c.status = 'pending'`)).map(forReview);
    },

    /** Claims waiting for a decision (the admin menu's count). */
    async pendingCount(): Promise<number> {
      const [row] = await rows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM result_claims WHERE status = 'pending'`,
      );
      return Number(row?.n ?? 0);
    },

    /** Every claim waiting, oldest first (the admin area's queue). */
    async pending(): Promise<ClaimForReview[]> {
      return (await claimRows(db, sql`c.status = 'pending'`)).map(forReview);
    },

    /**
     * The organiser's (or an admin's) decision on a waiting claim of their edition: approved, the
     * line becomes the member's (unless another member has it, or the member has a line there
     * already: 409); refused, it stays refused. The member is told either way.
     */
    async decide(
      actor: Actor,
      eventId: number,
      claimId: number,
      decision: ClaimDecision,
    ): Promise<{ id: number; status: ResultClaimStatus }> {
      await requireEventEditor(db, actor, eventId);
      try {
        return await db.transaction(async (tx) => {
          const [claim] = await rows<{
            id: number;
            status: ResultClaimStatus;
            result_id: number | null;
            course_id: number;
            user_id: number;
          }>(
            tx,
            sql`SELECT id, status, result_id, course_id, user_id FROM result_claims
                WHERE id = ${claimId} AND event_id = ${eventId} FOR UPDATE`,
          );
          if (!claim) throw new ApiError("ITEM_NOT_FOUND");
          if (claim.status !== "pending") throw new ApiError("RESULT_CLAIM_DECIDED");
          const status = decision === "approve" ? "approved" : "refused";
          if (decision === "approve") {
            const [line] = await rows<{ id: number; user_id: number | null }>(
              tx,
              sql`SELECT id, user_id FROM results WHERE id = ${claim.result_id} FOR UPDATE`,
            );
            if (!line) throw new ApiError("ITEM_NOT_FOUND");
            if (line.user_id !== null && line.user_id !== claim.user_id) throw new ApiError("RESULT_ALREADY_CLAIMED");
            await tx.execute(
              sql`UPDATE results SET user_id = ${claim.user_id}, claimed_at = ${clock()} WHERE id = ${line.id}`,
            );
            await refreshMemberAchievements(tx, [claim.user_id]);
          }
          await tx.execute(
            sql`UPDATE result_claims SET status = ${status}, decided_at = ${clock()}, decided_by = ${actor.id}
                WHERE id = ${claim.id}`,
          );
          const [about] = await rows<{ event_name: string; event_slug: string; course_name: string }>(
            tx,
            sql`SELECT e.name AS event_name, e.slug AS event_slug, c.name AS course_name
                FROM courses c JOIN events e ON e.id = c.event_id WHERE c.id = ${claim.course_id}`,
          );
          if (about && deps.notify) {
            await deps.notify(tx, {
              userId: claim.user_id,
              decision: status,
              eventName: about.event_name,
              eventSlug: about.event_slug,
              courseName: about.course_name,
            });
          }
          return { id: claim.id, status };
        });
      } catch (error) {
        // The member took another line of the course meanwhile.
        if (isUniqueViolation(error, "results_user_course_idx")) throw new ApiError("RESULT_ALREADY_RECORDED");
        throw error;
      }
    },

    /** The member's claims that are not results: waiting for the organiser, or refused. */
    async ofMember(userId: number): Promise<MemberClaim[]> {
      const found = await claimRows(db, sql`c.user_id = ${userId} AND c.status <> 'approved'`, 100);
      return found.reverse().map((row) => ({
        id: row.id,
        status: row.status,
        createdAt: iso(row.created_at) ?? "",
        decidedAt: iso(row.decided_at),
        line: lineOf(row),
        course: courseOf(row),
        event: eventOf(row),
      }));
    },
  };
}
export type ResultClaimsService = ReturnType<typeof resultClaimsService>;
