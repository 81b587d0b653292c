/**
 * The demo community's results: full results lists for a share of the recent past courses, as a
 * timing company publishes them (ranks overall, by sex and category, clubs, bibs, a few DNF), where
 * some lines are the demo members' claims; then hand-recorded results on other past races.
 */
import type { results } from "../../features/results/results.tables.ts";
import type { Rng } from "../../platform/prng.ts";
import { CLUBS, LAST_NAMES, MEN, WOMEN } from "./people.ts";
import { type Course, category, finishTime, fits, level, type Member, pick, startDelay } from "./race-model.ts";

/**
 * `at(day, days)`: a moment within `days` after a race, never after "now". Returns the lines and
 * how many of them are members' claims.
 */
export function resultLines(
  past: readonly Course[],
  members: readonly Member[],
  memberCount: number,
  rng: Rng,
  at: (isoDay: string, days: number) => Date,
): { lines: (typeof results.$inferInsert)[]; claimed: number } {
  const lines: (typeof results.$inferInsert)[] = [];
  const taken = new Set<string>();
  let claimed = 0;

  // Full results lists for a share of the recent past courses.
  const listed = past.filter((_, i) => i % 3 === 0).slice(0, Math.max(30, Math.round(memberCount * 0.4)));
  for (const course of listed) {
    const season = Number(course.start_date.slice(0, 4));
    const size = Math.round(rng.range(40, course.distance >= 40_000 ? 300 : 180));
    const field: {
      sex: "M" | "F";
      first: string;
      last: string;
      club: string | null;
      birth: number;
      time: number;
      member?: Member;
    }[] = [];
    for (let i = 0; i < size; i++) {
      const sex = rng.chance(course.sport.includes("trail") ? 0.3 : 0.4) ? "F" : "M";
      field.push({
        sex,
        first: pick(sex === "F" ? WOMEN : MEN, rng),
        last: pick(LAST_NAMES, rng),
        club: rng.chance(0.4) ? pick(CLUBS, rng) : null,
        birth: season - rng.int(18, 70),
        time: finishTime(course, level(rng) * (sex === "F" ? 1.08 : 1)) + rng.int(0, 9) * 100,
      });
    }
    // Demo members who ran it: about one line in thirty, members of the sport.
    const runners = members.filter(
      (m) => fits(m, course) && rng.chance(Math.min(0.5, (size / 30 / members.length) * 3)),
    );
    for (const member of runners.slice(0, Math.max(1, Math.round(size / 30)))) {
      const key = `${member.id}:${course.id}`;
      if (taken.has(key)) continue;
      taken.add(key);
      field.push({
        sex: member.sex,
        first: member.firstName,
        last: member.lastName,
        club: member.club,
        birth: member.birthYear,
        time: finishTime(course, member.level * (member.sex === "F" ? 1.08 : 1) * rng.range(0.96, 1.05)),
        member,
      });
    }
    // `time` is what each runner ran (the chip time); the gun time adds their wait to reach the line.
    const gun = new Map<(typeof field)[number], number>();
    [...field]
      .sort((a, b) => a.time - b.time)
      .forEach((runner, i) => {
        gun.set(runner, runner.time + Math.round(startDelay(i / field.length, field.length, rng) * 1000));
      });
    // A few of the field (never a demo member) did not finish: listed after the finishers.
    const dnf = Math.round(field.length * rng.range(0.01, 0.05));
    const out = new Set(field.filter((r) => !r.member).slice(0, dnf));
    // Ranked by the gun, as the official ranking is.
    const finishers = field.filter((r) => !out.has(r)).sort((a, b) => gun.get(a)! - gun.get(b)!);
    const bibs = rng.int(1, 400);
    const sexRanks = { M: 0, F: 0 };
    const categoryRanks = new Map<string, number>();
    [...finishers, ...out].forEach((runner, i) => {
      const finished = !out.has(runner);
      const cat = category(runner.birth, season);
      let sexRank: number | null = null;
      let categoryRank: number | null = null;
      if (finished) {
        sexRanks[runner.sex] += 1;
        sexRank = sexRanks[runner.sex];
        categoryRank = (categoryRanks.get(`${cat}${runner.sex}`) ?? 0) + 1;
        categoryRanks.set(`${cat}${runner.sex}`, categoryRank);
      }
      const timeMs = finished ? (gun.get(runner) ?? runner.time) : null;
      if (runner.member) claimed++;
      lines.push({
        courseId: course.id,
        eventId: course.event_id,
        source: "import",
        status: finished ? "finished" : "dnf",
        position: i + 1,
        rank: finished ? i + 1 : null,
        sexRank,
        categoryRank,
        bib: String(bibs + i * 3),
        name: `${runner.last.toUpperCase()} ${runner.first}`,
        firstName: runner.first,
        lastName: runner.last,
        club: runner.club,
        sex: runner.sex,
        country: "FRA",
        category: cat,
        timeMs,
        netTimeMs: finished ? runner.time : null,
        paceSPerKm: timeMs === null ? null : Math.round(timeMs / course.distance),
        userId: runner.member?.id ?? null,
        claimedAt: runner.member ? at(course.start_date, rng.int(1, 12)) : null,
        createdAt: at(course.start_date, 1),
      });
    });
  }

  // Hand-recorded results on other past races (no imported results there).
  const listedIds = new Set(listed.map((c) => c.id));
  const others = past.filter((c) => !listedIds.has(c.id));
  for (const member of members) {
    const count = rng.int(0, 7);
    for (let k = 0; k < count && others.length; k++) {
      const course = others[rng.int(0, others.length - 1)] as Course;
      const key = `${member.id}:${course.id}`;
      if (!fits(member, course) || taken.has(key)) continue;
      taken.add(key);
      const timeMs = finishTime(course, member.level * (member.sex === "F" ? 1.08 : 1) * rng.range(0.95, 1.06));
      const recorded = at(course.start_date, rng.int(1, 6));
      lines.push({
        courseId: course.id,
        eventId: course.event_id,
        source: "manual",
        status: "finished",
        name: `${member.firstName} ${member.lastName}`,
        firstName: member.firstName,
        lastName: member.lastName,
        timeMs,
        paceSPerKm: Math.round(timeMs / course.distance),
        userId: member.id,
        claimedAt: recorded,
        createdAt: recorded,
      });
    }
  }
  return { lines, claimed };
}
