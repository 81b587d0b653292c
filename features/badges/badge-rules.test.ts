import { describe, expect, it } from "vitest";
import { SPORTS } from "../../shared/constants.ts";
import { BADGES, bestTimeKeyOf, bestTimes, earnedBadges, type FinishedRace, finisherCode } from "./badge-rules.ts";

let nextId = 1;
/** A finished race; ids grow in the order races are made (the rules' chronological order). */
const race = (over: Partial<FinishedRace> = {}): FinishedRace => {
  const id = nextId++;
  return {
    resultId: id,
    courseId: 1000 + id,
    sport: "running",
    distance: 10_000,
    elevationGain: 0,
    timeMs: 3_000_000,
    ...over,
  };
};
const h = (hours: number, minutes = 0, seconds = 0) => ((hours * 60 + minutes) * 60 + seconds) * 1000;

describe("badge rules", () => {
  // Each row: the races (oldest first), a badge, and which race (index) earns it, or null.
  const cases: [string, () => FinishedRace[], string, number | null][] = [
    ["a 10 km earns the 10 km badge", () => [race({ distance: 10_000 })], "distance-10k", 0],
    ["a 10,6 km trail is no 10 km", () => [race({ distance: 10_600 })], "distance-10k", null],
    ["a half marathon", () => [race({ distance: 21_097 })], "distance-half", 0],
    ["a marathon", () => [race({ distance: 42_195 })], "distance-marathon", 0],
    ["a marathon is no ultra", () => [race({ distance: 42_195 })], "first-ultra", null],
    [
      "the first ultra is the first race over the marathon",
      () => [race({ distance: 10_000 }), race({ distance: 56_000 }), race({ distance: 80_000 })],
      "first-ultra",
      1,
    ],
    ["100 km ultra", () => [race({ distance: 99_999 }), race({ distance: 100_000 })], "ultra-100k", 1],
    [
      "marathon in 2:59:59 is under 3 h",
      () => [race({ distance: 42_195, timeMs: h(2, 59, 59) })],
      "marathon-sub-3h",
      0,
    ],
    [
      "marathon in exactly 3 h is not under 3 h",
      () => [race({ distance: 42_195, timeMs: h(3) })],
      "marathon-sub-3h",
      null,
    ],
    ["…but under 3 h 30", () => [race({ distance: 42_195, timeMs: h(3) })], "marathon-sub-3h30", 0],
    [
      "a 50 km in 3 h is no marathon time",
      () => [race({ distance: 50_000, timeMs: h(2, 50) })],
      "marathon-sub-4h",
      null,
    ],
    [
      "sub-4 on the second marathon",
      () => [race({ distance: 42_195, timeMs: h(4, 10) }), race({ distance: 42_195, timeMs: h(3, 55) })],
      "marathon-sub-4h",
      1,
    ],
    ["4 races are not 5", () => Array.from({ length: 4 }, () => race()), "races-5", null],
    ["the 5th race earns 5 races", () => Array.from({ length: 6 }, () => race()), "races-5", 4],
    ["the 10th race earns 10 races", () => Array.from({ length: 10 }, () => race()), "races-10", 9],
    [
      "100 km total is crossed by the race that reaches it",
      () => [race({ distance: 42_195 }), race({ distance: 42_195 }), race({ distance: 15_610 })],
      "total-100km",
      2,
    ],
    [
      "99,999 km is not 100",
      () => [race({ distance: 42_195 }), race({ distance: 42_195 }), race({ distance: 15_609 })],
      "total-100km",
      null,
    ],
    ["a timed race without distance adds nothing", () => [race({ distance: null })], "total-100km", null],
    [
      "D+ 1 000 m over two races",
      () => [race({ elevationGain: 600 }), race({ elevationGain: 400 })],
      "elevation-1000",
      1,
    ],
    ["unknown D+ counts as 0", () => [race({ elevationGain: null })], "elevation-1000", null],
    ["Everest", () => [race({ elevationGain: 5000 }), race({ elevationGain: 3848 })], "elevation-8848", 1],
    ["first trail", () => [race({ sport: "running" }), race({ sport: "trail" })], "sport-trail", 1],
    ["no cycling", () => [race({ sport: "running" })], "sport-cycling", null],
  ];

  it.each(cases)("%s", (_label, make, code, index) => {
    const races = make();
    const earned = earnedBadges(races);
    expect(earned.get(code) ?? null).toBe(index === null ? null : races[index]?.resultId);
  });

  it("gives one finisher badge per course, earned by its first finish", () => {
    const a = race({ courseId: 7 });
    const b = race({ courseId: 8 });
    const earned = earnedBadges([a, b]);
    expect(earned.get(finisherCode(7))).toBe(a.resultId);
    expect(earned.get(finisherCode(8))).toBe(b.resultId);
    expect(earnedBadges([])).toEqual(new Map());
  });

  it("defines each badge once, with French and English names, and a sport badge per broad sport", () => {
    const codes = BADGES.map((b) => b.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const badge of BADGES) {
      expect(badge.fr.trim()).not.toBe("");
      expect(badge.en.trim()).not.toBe("");
      expect(badge.code.length).toBeLessThanOrEqual(64);
    }
    expect(codes.filter((c) => c.startsWith("sport-")).sort()).toEqual(
      SPORTS.filter((s) => s.parent === null)
        .map((s) => `sport-${s.key}`)
        .sort(),
    );
  });
});

describe("best times", () => {
  it.each([
    [10_000, "best10k"],
    [10_150, "best10k"],
    [10_151, null],
    [21_097, "bestHalf"],
    [21_400, "bestHalf"],
    [42_195, "bestMarathon"],
    [42_800, "bestMarathon"],
    [43_000, null],
    [null, null],
  ] as const)("a course of %s m counts for %s", (distance, key) => {
    expect(bestTimeKeyOf(distance)).toBe(key);
  });

  it("keeps the fastest time per distance, in whole seconds", () => {
    const best = bestTimes([
      race({ distance: 10_000, timeMs: 2_700_400 }),
      race({ distance: 10_000, timeMs: 2_650_600 }),
      race({ distance: 42_195, timeMs: null }),
      race({ distance: 21_100, timeMs: h(1, 35) }),
    ]);
    expect(best).toEqual({ best10k: 2651, bestHalf: 5700, bestMarathon: null });
  });
});
