/**
 * Members' achievements, recomputed from their results (decision 028): badges (user_badges, the
 * definitions in badge-rules.ts), best times (users.best_10k/best_half/best_marathon) and the
 * profile's stats (computed when asked, never stored). `refreshMemberAchievements` is idempotent:
 * call it after any change to a member's results (claim, unclaim, manual record, delete, import).
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import type { SportKey } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import type { UserStats } from "../accounts/accounts.contract.ts";
import {
  badgeDefinition,
  bestTimeKeyOf,
  bestTimes,
  earnedBadges,
  FINISHER_PREFIX,
  type FinishedRace,
} from "./badge-rules.ts";
import type { MemberBadge } from "./badges.contract.ts";

/** A member's finished results, oldest first, as the badge rules read them. */
export async function finishedRaces(db: Executor, userId: number): Promise<FinishedRace[]> {
  const found = await rows<{
    result_id: number;
    course_id: number;
    sport: string;
    distance: number | null;
    elevation_gain: number | null;
    time_ms: number | null;
  }>(
    db,
    sql`SELECT r.id AS result_id, r.course_id, coalesce(s.parent_key, s.key) AS sport, c.distance,
          c.elevation_gain, coalesce(r.net_time_ms, r.time_ms) AS time_ms
        FROM results r
        JOIN courses c ON c.id = r.course_id
        JOIN events e ON e.id = r.event_id
        JOIN sports s ON s.id = e.sport_id
        WHERE r.user_id = ${userId} AND r.status = 'finished'
        ORDER BY e.start_date, r.id`,
  );
  return found.map((r) => ({
    resultId: r.result_id,
    courseId: r.course_id,
    sport: r.sport as SportKey,
    distance: r.distance,
    elevationGain: r.elevation_gain,
    timeMs: r.time_ms,
  }));
}

/**
 * Recomputes badges and best times of these members. Badges they still earn keep their
 * awarded_at; lost ones (a result unclaimed or deleted) go; new ones are awarded now. Best times
 * only improve: a better time typed in the profile is kept (decision 028).
 */
export async function refreshMemberAchievements(db: Executor, userIds: readonly number[]): Promise<void> {
  for (const userId of [...new Set(userIds)].sort((a, b) => a - b)) {
    const races = await finishedRaces(db, userId);
    const earned = earnedBadges(races);
    const codes = [...earned.keys()];
    await db.execute(
      codes.length
        ? sql`DELETE FROM user_badges WHERE user_id = ${userId}
              AND NOT (code IN (${sql.join(
                codes.map((c) => sql`${c}`),
                sql`, `,
              )}))`
        : sql`DELETE FROM user_badges WHERE user_id = ${userId}`,
    );
    if (codes.length) {
      await db.execute(sql`
        INSERT INTO user_badges (user_id, code, result_id)
        VALUES ${sql.join(
          codes.map((code) => sql`(${userId}, ${code}, ${earned.get(code) ?? null})`),
          sql`, `,
        )}
        ON CONFLICT (user_id, code) DO UPDATE SET result_id = excluded.result_id`);
    }
    const best = bestTimes(races);
    await db.execute(sql`
      UPDATE users SET
        best_10k = CASE WHEN ${best.best10k}::int IS NULL THEN best_10k ELSE least(best_10k, ${best.best10k}::int) END,
        best_half = CASE WHEN ${best.bestHalf}::int IS NULL THEN best_half ELSE least(best_half, ${best.bestHalf}::int) END,
        best_marathon = CASE WHEN ${best.bestMarathon}::int IS NULL THEN best_marathon
          ELSE least(best_marathon, ${best.bestMarathon}::int) END
      WHERE id = ${userId}`);
  }
}

/**
 * Before a member's result leaves them (unclaimed, deleted): a best time that was this result's
 * own is cleared, so the refresh that follows recomputes it from what remains.
 */
export async function forgetBestTimeOf(db: Executor, resultId: number): Promise<void> {
  const [row] = await rows<{ user_id: number | null; distance: number | null; ms: number | null }>(
    db,
    sql`SELECT r.user_id, c.distance, coalesce(r.net_time_ms, r.time_ms) AS ms
        FROM results r JOIN courses c ON c.id = r.course_id WHERE r.id = ${resultId} AND r.status = 'finished'`,
  );
  const key = row ? bestTimeKeyOf(row.distance) : null;
  if (!row || row.user_id === null || row.ms === null || !key) return;
  const column = sql.identifier(BEST_TIME_COLUMNS[key]);
  await db.execute(
    sql`UPDATE users SET ${column} = NULL WHERE id = ${row.user_id} AND ${column} = ${Math.round(row.ms / 1000)}`,
  );
}

const BEST_TIME_COLUMNS = { best10k: "best_10k", bestHalf: "best_half", bestMarathon: "best_marathon" } as const;

/** Stats of spec section 3: distances in km (one decimal), elevation in metres. */
export async function memberStats(db: Executor, userId: number, now: Date): Promise<UserStats> {
  const [row] = await rows<{
    badges: number;
    total_m: number;
    races: number;
    max_m: number;
    elevation: number;
    results: number;
    upcoming: number;
  }>(
    db,
    sql`SELECT
          (SELECT count(*)::int FROM user_badges WHERE user_id = ${userId}) AS badges,
          coalesce(sum(c.distance) FILTER (WHERE r.status = 'finished'), 0)::float8 AS total_m,
          (count(*) FILTER (WHERE r.status = 'finished'))::int AS races,
          coalesce(max(c.distance) FILTER (WHERE r.status = 'finished'), 0)::float8 AS max_m,
          coalesce(sum(c.elevation_gain) FILTER (WHERE r.status = 'finished'), 0)::float8 AS elevation,
          count(r.id)::int AS results,
          (SELECT count(*)::int FROM calendar_entries ce JOIN events e ON e.id = ce.event_id
            WHERE ce.user_id = ${userId} AND ce.status IN ('planned', 'registered')
              AND e.start_date >= ${parisToday(now)}::date) AS upcoming
        FROM results r JOIN courses c ON c.id = r.course_id
        WHERE r.user_id = ${userId}`,
  );
  const km = (m: number) => Math.round(Number(m) / 100) / 10;
  return {
    badges: Number(row?.badges ?? 0),
    totalDistance: km(row?.total_m ?? 0),
    races: Number(row?.races ?? 0),
    maxDistance: km(row?.max_m ?? 0),
    totalElevation: Number(row?.elevation ?? 0),
    results: Number(row?.results ?? 0),
    upcomingRaces: Number(row?.upcoming ?? 0),
  };
}

/** A member's badges, in the grid's order (families, then difficulty; finisher badges newest first). */
export async function memberBadges(db: Executor, userId: number): Promise<MemberBadge[]> {
  const found = await rows<{
    code: string;
    awarded_at: Date | string;
    event_name: string | null;
    slug: string | null;
    start_date: string | null;
    course: string | null;
  }>(
    db,
    sql`SELECT b.code, b.awarded_at, e.name AS event_name, e.slug, e.start_date::text AS start_date, c.name AS course
        FROM user_badges b
        LEFT JOIN results r ON r.id = b.result_id
        LEFT JOIN courses c ON c.id = r.course_id
        LEFT JOIN events e ON e.id = r.event_id
        WHERE b.user_id = ${userId}`,
  );
  const badges: (MemberBadge & { order: number })[] = [];
  for (const row of found) {
    const awardedAt = new Date(row.awarded_at).toISOString();
    const event =
      row.event_name && row.slug && row.start_date && row.course
        ? { name: row.event_name, slug: row.slug, date: row.start_date, course: row.course }
        : null;
    if (row.code.startsWith(FINISHER_PREFIX)) {
      if (!event) continue;
      badges.push({
        code: row.code,
        family: "finisher",
        figure: "",
        nameFr: `Finisher : ${event.course}`,
        nameEn: `Finisher: ${event.course}`,
        event,
        awardedAt,
        order: FINISHER_ORDER,
      });
      continue;
    }
    const definition = badgeDefinition(row.code);
    if (!definition) continue;
    badges.push({
      code: row.code,
      family: definition.family,
      figure: definition.figure,
      nameFr: definition.fr,
      nameEn: definition.en,
      event,
      awardedAt,
      order: definition.order,
    });
  }
  // Finisher badges come last, newest edition first.
  badges.sort(
    (a, b) =>
      a.order - b.order || (b.event?.date ?? "").localeCompare(a.event?.date ?? "") || a.code.localeCompare(b.code),
  );
  return badges.map(({ order: _order, ...badge }) => badge);
}

const FINISHER_ORDER = 10_000;

/** The badges of a public, enabled profile by slug (the public profile page); [] otherwise. */
export async function publicBadges(db: Executor, slug: string): Promise<MemberBadge[]> {
  const [user] = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM users WHERE slug = ${slug} AND public_profile AND disabled_at IS NULL`,
  );
  return user ? memberBadges(db, user.id) : [];
}

/** What pages call (server/services.server.ts). */
export function badgesService(db: Executor, clock: () => Date) {
  return {
    ofMember: (userId: number) => memberBadges(db, userId),
    ofProfile: (slug: string) => publicBadges(db, slug),
    stats: (userId: number) => memberStats(db, userId, clock()),
    refresh: (userIds: readonly number[]) => refreshMemberAchievements(db, userIds),
  };
}

/** The member is deleted (accounts' member data port, decision 048): their badges go with them. */
export async function removeMemberBadges(tx: Executor, userId: number): Promise<void> {
  await tx.execute(sql`DELETE FROM user_badges WHERE user_id = ${userId}`);
}
