import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Ranking, Timeline } from "../features/community/community.contract.ts";
import { TEST_REFERENCE_DATE } from "../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";
import { type DemoCommunityReport, ensureDemoCommunity } from "./demo-community.server.ts";

/**
 * The demo community on the test catalogue (reference date 2026-06-01): what a visitor of a fresh
 * `npm start` sees in the rankings, the timeline and the results must hold together like real data.
 */
let t: TestApp;
let report: DemoCommunityReport | null;
const now = TEST_REFERENCE_DATE;

beforeAll(async () => {
  t = await createTestApp();
  report = await ensureDemoCommunity(t.database.db, { members: 60, seed: 7, now });
});
afterAll(() => t?.close());

async function query<T>(text: ReturnType<typeof sql>): Promise<T[]> {
  return (await t.database.db.execute(text)).rows as T[];
}

/** Map.groupBy (Node 21+). */
function groupBy<T, K>(list: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of list) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

async function get<T>(url: string): Promise<T> {
  const response = await t.app.inject({ method: "GET", url, headers: accessHeaders });
  expect(response.statusCode, url).toBe(200);
  return response.json() as T;
}

describe("the demo community", () => {
  it("makes members with results, claims and plans, once", async () => {
    expect(report).toMatchObject({ members: 60 });
    expect(report?.results).toBeGreaterThan(1000);
    expect(report?.claimed).toBeGreaterThan(0);
    expect(report?.planned).toBeGreaterThan(0);
    expect(await ensureDemoCommunity(t.database.db, { members: 60, seed: 7, now })).toBeNull();
    const [members] = await query<{ n: number; public: number }>(
      sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE public_profile)::int AS public
          FROM users WHERE email LIKE 'coureur.%@example.com'`,
    );
    expect(members?.n).toBe(60);
    expect(members?.public).toBeGreaterThan(40);
  });

  it("writes results lists whose ranks follow the times, overall, by sex and by category", async () => {
    const lines = await query<{
      course_id: number;
      status: string;
      rank: number | null;
      sex: string;
      sex_rank: number | null;
      category: string;
      category_rank: number | null;
      time_ms: number | null;
      position: number;
    }>(
      sql`SELECT course_id, status, rank, sex, sex_rank, category, category_rank, time_ms, position
          FROM results WHERE source = 'import' ORDER BY course_id, position`,
    );
    const byCourse = groupBy(lines, (l) => l.course_id);
    expect(byCourse.size).toBeGreaterThan(10);
    for (const [courseId, list] of byCourse) {
      const finishers = list.filter((l) => l.status === "finished");
      // Ranks 1..n in finishing order, DNF lines after the finishers, without a rank or time.
      expect(
        finishers.map((l) => l.rank),
        `course ${courseId}`,
      ).toEqual(finishers.map((_, i) => i + 1));
      const times = finishers.map((l) => l.time_ms ?? 0);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const dnf = list.filter((l) => l.status !== "finished");
      for (const line of dnf) {
        expect(line.rank).toBeNull();
        expect(line.time_ms).toBeNull();
        expect(line.position).toBeGreaterThan(finishers.length);
      }
      for (const sex of ["M", "F"]) {
        const ranks = finishers.filter((l) => l.sex === sex).map((l) => l.sex_rank);
        expect(ranks).toEqual(ranks.map((_, i) => i + 1));
      }
      for (const [, group] of groupBy(finishers, (l) => `${l.category}${l.sex}`)) {
        expect(group.map((l) => l.category_rank)).toEqual(group.map((_, i) => i + 1));
      }
    }
  });

  it("gives chip times seconds under the gun at the front (they start on the line), more further back", async () => {
    const lines = await query<{ course_id: number; time_ms: number; net_time_ms: number }>(
      sql`SELECT course_id, time_ms, net_time_ms FROM results
          WHERE source = 'import' AND status = 'finished' ORDER BY course_id, rank`,
    );
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
    for (const [courseId, list] of groupBy(lines, (l) => l.course_id)) {
      const gaps = list.map((l) => (l.time_ms - l.net_time_ms) / 1000);
      expect(Math.min(...gaps), `course ${courseId}`).toBeGreaterThanOrEqual(0);
      expect(Math.max(...gaps.slice(0, 3)), `course ${courseId}`).toBeLessThanOrEqual(5);
      const quarter = Math.ceil(gaps.length / 4);
      expect(mean(gaps.slice(-quarter)), `course ${courseId}`).toBeGreaterThan(mean(gaps.slice(0, quarter)) + 3);
    }
  });

  it("keeps one result per member and course, and nothing dated after now", async () => {
    const [dates] = await query<{ results: number; plans: number; badges: number }>(
      sql`SELECT
            (SELECT count(*)::int FROM results WHERE coalesce(claimed_at, created_at) > ${now}) AS results,
            (SELECT count(*)::int FROM calendar_entries WHERE created_at > ${now}) AS plans,
            (SELECT count(*)::int FROM user_badges WHERE awarded_at > ${now}) AS badges`,
    );
    expect(dates).toEqual({ results: 0, plans: 0, badges: 0 });
    const past = await query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM results r JOIN events e ON e.id = r.event_id
          WHERE e.start_date >= ${now.toISOString().slice(0, 10)}::date`,
    );
    expect(past[0]?.n).toBe(0);
  });

  it("fills the rankings and the timeline, whose badges are named ones (no per-course finisher badge)", async () => {
    const ranking = await get<Ranking>("/api/rankings/1y/races");
    expect(ranking.total).toBeGreaterThan(20);
    const timeline = await get<Timeline>("/api/timeline/all");
    expect(timeline.items.length).toBeGreaterThan(10);
    for (const item of timeline.items) expect(item.at <= now.toISOString()).toBe(true);
    const badges = await get<Timeline>("/api/timeline/badges");
    expect(badges.items.length).toBeGreaterThan(0);
    for (const item of badges.items) expect(item.badge).not.toMatch(/^finisher-course-/);
  });
});
