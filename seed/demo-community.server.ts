/**
 * A demo community for the demo catalogue (decision 034): without it a fresh `npm start` shows
 * empty rankings, an empty timeline, no finishers and no results, however real the races look.
 *
 * Deterministic (seeded PRNG): members with French names, a home city and sports, most of them
 * public; full results lists for recent past editions, as a timing company would publish them
 * (ranks overall, by sex and category, clubs, bibs, a few DNF), where some lines are the demo
 * members' claims; hand-recorded results on other past races; upcoming races in their planning.
 * Badges and best times are then computed by the real rules (features/badges). Addresses are at
 * example.com (reserved: no mail reaches anybody) and the accounts have no password: nobody signs
 * in as them. Made once, on a catalogue that has none; later starts change nothing.
 */
import { sql } from "drizzle-orm";
import { refreshMemberAchievements } from "../features/badges/badges.service.server.ts";
import { calendarEntries } from "../features/engagement/engagement.tables.ts";
import { users } from "../features/identity/identity.tables.ts";
import { results } from "../features/results/results.tables.ts";
import type { Db } from "../platform/db/client.server.ts";
import { rows } from "../platform/db/rows.server.ts";
import { Rng } from "../platform/prng.ts";
import { EMAIL_DOMAIN, EMAIL_PREFIX, memberRows } from "./demo-community/members.ts";
import { planRows } from "./demo-community/planning.ts";
import type { Course, Member } from "./demo-community/race-model.ts";
import { resultLines } from "./demo-community/results-lists.ts";

export { category, finishTime, startDelay } from "./demo-community/race-model.ts";

export type DemoCommunityReport = { members: number; results: number; claimed: number; planned: number; ms: number };

/** Whether the demo community was made already (or a member took one of its addresses). */
async function alreadyMade(db: Db): Promise<boolean> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${EMAIL_DOMAIN}`}`,
  );
  return (row?.n ?? 0) > 0;
}

/**
 * Makes the demo community when the catalogue has past editions and no demo community yet.
 * `now` is the catalogue's "today". Returns null when nothing was made.
 */
export async function ensureDemoCommunity(
  db: Db,
  options: { members: number; seed: number; now: Date },
): Promise<DemoCommunityReport | null> {
  const started = performance.now();
  if (options.members <= 0 || (await alreadyMade(db))) return null;
  const today = options.now.toISOString().slice(0, 10);
  const past = await rows<Course>(
    db,
    sql`SELECT c.id, c.event_id, c.distance, c.elevation_gain, s.key AS sport, e.start_date::text AS start_date
        FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE e.status = 'active' AND NOT e.cancelled AND c.type = 'race' AND c.distance >= 1000
          AND e.start_date < ${today}::date AND e.start_date >= ${today}::date - 540
        ORDER BY e.start_date DESC, c.id`,
  );
  if (past.length === 0) return null;
  const upcoming = await rows<Course>(
    db,
    sql`SELECT c.id, c.event_id, c.distance, c.elevation_gain, s.key AS sport, e.start_date::text AS start_date
        FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE e.status = 'active' AND NOT e.cancelled AND c.type = 'race' AND c.distance >= 1000
          AND e.start_date >= ${today}::date AND e.start_date < ${today}::date + 240
        ORDER BY e.start_date, c.id LIMIT 4000`,
  );
  const rng = new Rng(options.seed ^ 0x5eed);
  const dayMs = 86_400_000;
  // A moment within `days` after a race, never after "now": a race of last weekend was recorded
  // some time since, not all of them in the last hour.
  const at = (isoDay: string, days: number) => {
    const race = Date.parse(`${isoDay}T17:00:00Z`);
    const room = Math.max(0, Math.min(days * dayMs, options.now.getTime() - 60_000 - race));
    return new Date(race + rng.range(0.05, 1) * room);
  };

  const report = await db.transaction(async (tx) => {
    // Members.
    const { people, userRows } = memberRows(options.members, options.now, rng);
    const inserted = await tx.insert(users).values(userRows).returning({ id: users.id });
    const members: Member[] = people.map((p, i) => ({ ...p, id: inserted[i]?.id ?? 0 }));

    // Full results lists, then hand-recorded results.
    const { lines, claimed } = resultLines(past, members, options.members, rng, at);
    for (let i = 0; i < lines.length; i += 1000) await tx.insert(results).values(lines.slice(i, i + 1000));

    // Upcoming races in their planning.
    const plans = planRows(upcoming, members, options.now, rng);
    for (let i = 0; i < plans.length; i += 1000) await tx.insert(calendarEntries).values(plans.slice(i, i + 1000));

    // Badges and best times by the real rules, awarded when the result that earned them was recorded.
    await refreshMemberAchievements(
      tx,
      members.map((m) => m.id),
    );
    await tx.execute(sql`
      UPDATE user_badges b SET awarded_at = coalesce(r.claimed_at, r.created_at)
      FROM results r WHERE b.result_id = r.id AND b.user_id IN (
        SELECT id FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${EMAIL_DOMAIN}`})`);
    return {
      members: members.length,
      results: lines.length,
      claimed,
      planned: plans.length,
      ms: Math.round(performance.now() - started),
    };
  });
  // Fresh rows have no planner statistics (PGlite runs no autovacuum): the rankings would scan.
  await db.execute(sql`VACUUM (ANALYZE) users, results, calendar_entries, user_badges`);
  return { ...report, ms: Math.round(performance.now() - started) };
}
