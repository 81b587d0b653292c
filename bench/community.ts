/**
 * The `rankings` part of `npm run bench`: the community rankings over 100,000 members' results.
 * A PGlite database in memory with the demo catalogue, then ~5,000 members (nine in ten with a
 * public profile, a few disabled) who each finished about twenty past courses (100,000 result rows,
 * inserted by SQL in one statement per table), VACUUM ANALYZE, then each period × order of
 * GET /api/rankings through the service (the query a request runs), timed one after the other:
 * median and p95 per combination, and the query plan of the heaviest one.
 */
import { sql } from "drizzle-orm";
import { communityService } from "../features/community/community.service.server.ts";
import type { Database } from "../platform/db/client.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { DEFAULT_DEMO_SEED } from "../seed/demo/generator.ts";
import { ensureSeeded } from "../seed/index.server.ts";
import { RANKING_ORDERS, RANKING_PERIODS, type RankingOrder, type RankingPeriod } from "../shared/constants.ts";
import { median, percentile } from "./load.ts";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

export const RANKING_MEMBERS = 5_000;
export const RANKING_RESULTS = 100_000;
const DEMO_EVENTS = 3_000;

/**
 * Adds `members` members and `results` finished (a few DNF) results spread over the past courses
 * of the catalogue, one per member per course; a tenth of the members private, one in fifty
 * disabled. Deterministic (no random()): the same rows on every run. Also used to give a
 * development database something to show (see the community pages).
 */
export async function seedCommunityActivity(
  database: Database,
  options: { members: number; results: number; today: string; emailPrefix?: string },
): Promise<{ members: number; results: number; courses: number }> {
  const db = database.db;
  const prefix = options.emailPrefix ?? "bench.member";
  const cities = ["Annecy", "Lyon", "Grenoble", "Chamonix-Mont-Blanc", "Paris", "Marseille", "Nantes", "Bordeaux"];
  const firsts = [
    "Camille",
    "Léa",
    "Hugo",
    "Manon",
    "Lucas",
    "Chloé",
    "Nathan",
    "Inès",
    "Théo",
    "Jade",
    "Louis",
    "Emma",
  ];
  const lasts = ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau"];
  await db.execute(sql`
    INSERT INTO users (email, email_status, first_name, last_name, slug, city, sports, public_profile, disabled_at, created_at)
    SELECT ${prefix} || '.' || g || '@example.fr', 'verified',
           (${`{${firsts.join(",")}}`}::text[])[1 + g % ${firsts.length}], (${`{${lasts.join(",")}}`}::text[])[1 + (g / 7) % ${lasts.length}],
           ${prefix.replace(/\W+/g, "-")} || '-' || g, (${`{${cities.join(",")}}`}::text[])[1 + g % ${cities.length}],
           CASE WHEN g % 3 = 0 THEN ARRAY['trail'] ELSE ARRAY['running'] END,
           g % 10 <> 0, CASE WHEN g % 50 = 7 THEN now() END,
           now() - make_interval(days => g % 700)
    FROM generate_series(1, ${options.members}) g
    ON CONFLICT DO NOTHING`);
  const perMember = Math.ceil(options.results / options.members);
  await db.execute(sql`
    WITH past AS (
      SELECT c.id, c.event_id, (row_number() OVER (ORDER BY c.id) - 1)::int AS i, count(*) OVER ()::int AS n
      FROM courses c JOIN events e ON e.id = c.event_id
      WHERE e.status = 'active' AND e.start_date <= ${options.today}::date
    ), members AS (
      SELECT id, (row_number() OVER (ORDER BY id))::int AS m FROM users WHERE email LIKE ${`${prefix}.%`}
    )
    INSERT INTO results (course_id, event_id, source, status, position, rank, name, time_ms, user_id, claimed_at, created_at)
    SELECT p.id, p.event_id, 'manual', CASE WHEN (m.m + k) % 23 = 0 THEN 'dnf' ELSE 'finished' END::result_status,
           k, 1 + (m.m * 13 + k) % 400, 'Membre ' || m.m, 1800000 + ((m.m * 7919 + k * 104729) % 14400000),
           m.id, now() - make_interval(mins => (m.m * 37 + k * 11) % 500000), now()
    FROM members m CROSS JOIN generate_series(1, ${perMember}) k
    JOIN past p ON p.i = (m.m * 97 + k * 389) % p.n
    WHERE (m.m - 1) * ${perMember} + k <= ${options.results}
    ON CONFLICT DO NOTHING`);
  const [counts] = (
    await db.execute(sql`SELECT
      (SELECT count(*)::int FROM users WHERE email LIKE ${`${prefix}.%`}) AS members,
      (SELECT count(*)::int FROM results WHERE user_id IS NOT NULL) AS results,
      (SELECT count(*)::int FROM courses c JOIN events e ON e.id = c.event_id
        WHERE e.status = 'active' AND e.start_date <= ${options.today}::date) AS courses`)
  ).rows as Array<{ members: number; results: number; courses: number }>;
  return counts;
}

type Timing = { median: number; p95: number };
type Combo = {
  period: RankingPeriod;
  order: RankingOrder;
  ranked: number;
  cold: Timing;
  coldIndexed: Timing;
  served: Timing;
};

export type RankingsFigures = {
  members: number;
  results: number;
  courses: number;
  seedMs: number;
  samples: { cold: number; served: number };
  combos: Combo[];
  plan: string;
  planIndexed: string;
};

/** A covering partial index on the members' finished results, measured against the plain table. */
const CANDIDATE_INDEX = sql`CREATE INDEX IF NOT EXISTS bench_results_member_finished_idx
  ON results (user_id, event_id, course_id) WHERE user_id IS NOT NULL AND status = 'finished'`;

const timing = (times: number[]): Timing => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: median(sorted), p95: percentile(sorted, 95) };
};

export async function rankingsPart(options: { quick: boolean }): Promise<RankingsFigures> {
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  log(`rankings: seeding ${DEMO_EVENTS} demo events, ${RANKING_MEMBERS} members, ${RANKING_RESULTS} results`);
  const database = await openDatabase({ dataDir: "memory://" });
  try {
    await database.migrate();
    await ensureSeeded(database.db, { demoEvents: DEMO_EVENTS, seed: DEFAULT_DEMO_SEED, log: () => {} });
    const seedStarted = performance.now();
    const counts = await seedCommunityActivity(database, {
      members: RANKING_MEMBERS,
      results: RANKING_RESULTS,
      today,
    });
    await database.db.execute(sql`VACUUM ANALYZE`);
    const seedMs = performance.now() - seedStarted;
    log(`rankings: ${counts.results} results of ${counts.members} members on ${counts.courses} past courses`);
    const service = communityService(database.db, () => now);
    const samples = { cold: options.quick ? 4 : 10, served: options.quick ? 10 : 30 };
    const viewer = (i: number) => 1 + ((i * 131) % RANKING_MEMBERS);
    /** Each query read from the database: the ranked list forgotten before each one. */
    const coldPass = async (period: RankingPeriod, order: RankingOrder) => {
      const times: number[] = [];
      let ranked = 0;
      for (let i = 0; i < samples.cold + 1; i++) {
        service.forgetRankings();
        const started = performance.now();
        const answer = await service.ranking(period, order, { viewerId: viewer(i) });
        if (i > 0) times.push(performance.now() - started);
        ranked = answer.total;
      }
      return { ranked, timing: timing(times) };
    };
    const pending: Array<Omit<Combo, "coldIndexed"> & { coldIndexed?: Timing }> = [];
    for (const period of RANKING_PERIODS) {
      for (const order of RANKING_ORDERS) {
        const cold = await coldPass(period, order);
        const served: number[] = [];
        for (let i = 0; i < samples.served; i++) {
          const started = performance.now();
          await service.ranking(period, order, { viewerId: viewer(i), page: 1 + (i % 3) });
          served.push(performance.now() - started);
        }
        pending.push({ period, order, ranked: cold.ranked, cold: cold.timing, served: timing(served) });
        log(
          `rankings ${period}/${order}: read p95 ${cold.timing.p95.toFixed(1)} ms, served p95 ${timing(served).p95.toFixed(2)} ms`,
        );
      }
    }
    const explain = async () => {
      const answer = await database.db.execute(sql`EXPLAIN ANALYZE
        SELECT r.user_id, count(*), sum(c.distance) FROM results r
        JOIN events e ON e.id = r.event_id JOIN courses c ON c.id = r.course_id
        WHERE r.user_id IS NOT NULL AND r.status = 'finished' AND e.start_date <= ${today}::date
        GROUP BY r.user_id`);
      return (answer.rows as Array<Record<string, string>>).map((row) => Object.values(row)[0]).join("\n");
    };
    const plan = await explain();
    await database.db.execute(CANDIDATE_INDEX);
    await database.db.execute(sql`VACUUM ANALYZE results`);
    const planIndexed = await explain();
    for (const combo of pending) {
      const cold = await coldPass(combo.period, combo.order);
      combo.coldIndexed = cold.timing;
      log(
        `rankings ${combo.period}/${combo.order} with the candidate index: read p95 ${cold.timing.p95.toFixed(1)} ms`,
      );
    }
    return { ...counts, seedMs, samples, combos: pending as Combo[], plan, planIndexed };
  } finally {
    await database.close();
  }
}

const fmt = (n: number) => `${n.toLocaleString("en-GB", { maximumFractionDigits: n < 10 ? 2 : 1 })} ms`;

export function rankingsTable(figures: RankingsFigures): string {
  const lines = [
    "| Period | Order | Ranked members | Read from the database: median / p95 | With the candidate index: median / p95 | Served (kept list): p95 |",
    "| --- | --- | ---: | ---: | ---: | ---: |",
    ...figures.combos.map(
      (c) =>
        `| ${c.period} | ${c.order} | ${c.ranked.toLocaleString("en-GB")} | ${fmt(c.cold.median)} / **${fmt(c.cold.p95)}** | ` +
        `${fmt(c.coldIndexed.median)} / **${fmt(c.coldIndexed.p95)}** | ${fmt(c.served.p95)} |`,
    ),
  ];
  return (
    `${lines.join("\n")}\n\n${figures.results.toLocaleString("en-GB")} results of ` +
    `${figures.members.toLocaleString("en-GB")} members on ${figures.courses.toLocaleString("en-GB")} past courses ` +
    `(inserted in ${fmt(figures.seedMs)}), PGlite in memory, one query at a time: ${figures.samples.cold} reads per line ` +
    `(the kept list forgotten before each), ${figures.samples.served} answers served from the kept list (pages 1–3, ` +
    `a different member's own line each). Candidate index: results (user_id, event_id, course_id) WHERE user_id IS ` +
    `NOT NULL AND status = 'finished'. Plan of the all-time aggregate:\n\n\`\`\`\n${figures.plan}\n\`\`\`\n` +
    `With the candidate index:\n\n\`\`\`\n${figures.planIndexed}\n\`\`\``
  );
}
