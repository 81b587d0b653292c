/**
 * The badges a member can earn, defined in code (decision 028), and the pure rules that award them
 * from the member's finished results. No database here: `refreshMemberAchievements`
 * (badges.service.server.ts) reads the facts and writes what these rules return.
 */
import { SPORTS, type SportKey } from "../../shared/constants.ts";

/** One finished result as the rules see it, in chronological order (event date, then id). */
export type FinishedRace = {
  resultId: number;
  courseId: number;
  /** The broad sport of the event (trail for an ultra-trail, running for a marathon). */
  sport: SportKey;
  /** Metres; null for a timed race without a distance. */
  distance: number | null;
  /** Metres of positive gain; null when unknown. */
  elevationGain: number | null;
  /** Net time when the file gave one, else the official time; null when unknown. */
  timeMs: number | null;
};

export type BadgeFamily = "finisher" | "sport" | "distance" | "total" | "races" | "marathon" | "elevation";

/** What every badge shows: its family picks the drawing, `figure` the text drawn in it. */
export type BadgeDefinition = {
  code: string;
  family: BadgeFamily;
  /** Short text drawn inside the icon ("42", "100", "3h"). */
  figure: string;
  fr: string;
  en: string;
  /** Order in the grid (families, then difficulty). */
  order: number;
  /** The result that earns it, or null when not earned (races in chronological order). */
  earnedBy: (races: readonly FinishedRace[]) => number | null;
};

/** Distance bands (metres, inclusive). A course "is" a 10 km, a half or a marathon within these. */
export const DISTANCE_BANDS = {
  "10k": { min: 9_500, max: 10_500 },
  half: { min: 20_600, max: 21_600 },
  marathon: { min: 41_700, max: 42_700 },
} as const;
/** Beyond the marathon band: an ultra. */
export const ULTRA_MIN = 42_701;

/**
 * Best times (users.best_10k/best_half/best_marathon) come from courses much closer to the
 * distance: ±1.5 % (150 m on a 10 km), so a 10,4 km trail never sets a 10 km record.
 */
export const BEST_TIME_DISTANCES = {
  best10k: 10_000,
  bestHalf: 21_097.5,
  bestMarathon: 42_195,
} as const;
export const BEST_TIME_TOLERANCE = 0.015;
export type BestTimeKey = keyof typeof BEST_TIME_DISTANCES;

export function bestTimeKeyOf(distance: number | null): BestTimeKey | null {
  if (distance === null) return null;
  for (const [key, target] of Object.entries(BEST_TIME_DISTANCES) as [BestTimeKey, number][]) {
    if (Math.abs(distance - target) <= target * BEST_TIME_TOLERANCE) return key;
  }
  return null;
}

/** Best times in seconds (what the profile stores), from the races; null where none qualifies. */
export function bestTimes(races: readonly FinishedRace[]): Record<BestTimeKey, number | null> {
  const best: Record<BestTimeKey, number | null> = { best10k: null, bestHalf: null, bestMarathon: null };
  for (const race of races) {
    const key = bestTimeKeyOf(race.distance);
    if (!key || race.timeMs === null) continue;
    const seconds = Math.round(race.timeMs / 1000);
    const current = best[key];
    if (current === null || seconds < current) best[key] = seconds;
  }
  return best;
}

const inBand = (distance: number | null, band: { min: number; max: number }) =>
  distance !== null && distance >= band.min && distance <= band.max;

const first = (races: readonly FinishedRace[], test: (race: FinishedRace) => boolean) =>
  races.find(test)?.resultId ?? null;

/** The race at which a running total first reaches `threshold`. */
function crossing(races: readonly FinishedRace[], value: (race: FinishedRace) => number, threshold: number) {
  let total = 0;
  for (const race of races) {
    total += value(race);
    if (total >= threshold) return race.resultId;
  }
  return null;
}

const BROAD_SPORTS = SPORTS.filter((s) => s.parent === null);

/** Every badge but the per-course finisher badges (those are made by `finisherBadge`). */
export const BADGES: readonly BadgeDefinition[] = [
  ...BROAD_SPORTS.map(
    (s, i): BadgeDefinition => ({
      code: `sport-${s.key}`,
      family: "sport",
      figure: s.fr.slice(0, 1).toUpperCase(),
      fr: `Finisher ${s.fr.toLowerCase()}`,
      en: `${s.en} finisher`,
      order: 100 + i,
      earnedBy: (races) => first(races, (r) => r.sport === s.key),
    }),
  ),
  {
    code: "distance-10k",
    family: "distance",
    figure: "10",
    fr: "10 km",
    en: "10K",
    order: 200,
    earnedBy: (races) => first(races, (r) => inBand(r.distance, DISTANCE_BANDS["10k"])),
  },
  {
    code: "distance-half",
    family: "distance",
    figure: "21",
    fr: "Semi-marathon",
    en: "Half marathon",
    order: 201,
    earnedBy: (races) => first(races, (r) => inBand(r.distance, DISTANCE_BANDS.half)),
  },
  {
    code: "distance-marathon",
    family: "distance",
    figure: "42",
    fr: "Marathon",
    en: "Marathon",
    order: 202,
    earnedBy: (races) => first(races, (r) => inBand(r.distance, DISTANCE_BANDS.marathon)),
  },
  {
    code: "first-ultra",
    family: "distance",
    figure: "U",
    fr: "Premier ultra",
    en: "First ultra",
    order: 203,
    earnedBy: (races) => first(races, (r) => r.distance !== null && r.distance >= ULTRA_MIN),
  },
  {
    code: "ultra-100k",
    family: "distance",
    figure: "100",
    fr: "Ultra de 100 km",
    en: "100 km ultra",
    order: 204,
    earnedBy: (races) => first(races, (r) => r.distance !== null && r.distance >= 100_000),
  },
  ...([100, 500, 1000] as const).map(
    (km, i): BadgeDefinition => ({
      code: `total-${km}km`,
      family: "total",
      figure: String(km),
      fr: `${km === 1000 ? "1 000" : km} km parcourus`,
      en: `${km === 1000 ? "1,000" : km} km covered`,
      order: 300 + i,
      earnedBy: (races) => crossing(races, (r) => r.distance ?? 0, km * 1000),
    }),
  ),
  ...([5, 10, 25, 50] as const).map(
    (n, i): BadgeDefinition => ({
      code: `races-${n}`,
      family: "races",
      figure: String(n),
      fr: `${n} courses`,
      en: `${n} races`,
      order: 400 + i,
      earnedBy: (races) => (races.length >= n ? (races[n - 1]?.resultId ?? null) : null),
    }),
  ),
  ...(
    [
      { code: "marathon-sub-4h", ms: 4 * 3600_000, figure: "4h", fr: "Marathon en moins de 4 h", en: "Sub-4 marathon" },
      {
        code: "marathon-sub-3h30",
        ms: 3.5 * 3600_000,
        figure: "3h30",
        fr: "Marathon en moins de 3 h 30",
        en: "Sub-3:30 marathon",
      },
      { code: "marathon-sub-3h", ms: 3 * 3600_000, figure: "3h", fr: "Marathon en moins de 3 h", en: "Sub-3 marathon" },
    ] as const
  ).map(
    (m, i): BadgeDefinition => ({
      code: m.code,
      family: "marathon",
      figure: m.figure,
      fr: m.fr,
      en: m.en,
      order: 500 + i,
      earnedBy: (races) =>
        first(races, (r) => inBand(r.distance, DISTANCE_BANDS.marathon) && r.timeMs !== null && r.timeMs < m.ms),
    }),
  ),
  ...(
    [
      { m: 1000, fr: "D+ 1 000 m", en: "1,000 m climbed" },
      { m: 8848, fr: "D+ de l’Everest", en: "Everest climbed" },
      { m: 20000, fr: "D+ 20 000 m", en: "20,000 m climbed" },
    ] as const
  ).map(
    (e, i): BadgeDefinition => ({
      code: `elevation-${e.m}`,
      family: "elevation",
      figure: e.m >= 10000 ? `${e.m / 1000}k` : e.m === 8848 ? "8848" : `${e.m / 1000}k`,
      fr: e.fr,
      en: e.en,
      order: 600 + i,
      earnedBy: (races) => crossing(races, (r) => r.elevationGain ?? 0, e.m),
    }),
  ),
];

export const FINISHER_PREFIX = "finisher-course-";

/** The code of the finisher badge of one course. */
export const finisherCode = (courseId: number) => `${FINISHER_PREFIX}${courseId}`;

/** A badge code's definition; per-course finisher badges have none (their names come from the course). */
export const badgeDefinition = (code: string) => BADGES.find((b) => b.code === code) ?? null;

/** Every badge the races earn: code → the result that earned it. */
export function earnedBadges(races: readonly FinishedRace[]): Map<string, number> {
  const earned = new Map<string, number>();
  for (const race of races)
    if (!earned.has(finisherCode(race.courseId))) earned.set(finisherCode(race.courseId), race.resultId);
  for (const badge of BADGES) {
    const resultId = badge.earnedBy(races);
    if (resultId !== null) earned.set(badge.code, resultId);
  }
  return earned;
}
