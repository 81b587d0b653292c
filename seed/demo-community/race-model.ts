/**
 * How the demo community races: finishing times by sport and level, FFA-style categories, the
 * wait to cross the start line, and which catalogue sports a member of each sport races in.
 */
import type { Rng } from "../../platform/prng.ts";

/** Seconds per km of effort of the median finisher, by sport (road pace; trail counts D+ as km). */
export const MEDIAN_PACE: Record<string, number> = {
  running: 345,
  half_marathon: 330,
  marathon: 320,
  trail: 400,
  short_trail: 390,
  ultra_trail: 480,
  triathlon: 190,
  ironman: 205,
  swimrun: 420,
  mtb: 170,
  cycling: 125,
};
/** The catalogue's sports a member of each sport races in. */
export const RACES_OF: Record<string, readonly string[]> = {
  running: ["running", "half_marathon", "marathon"],
  trail: ["trail", "short_trail", "ultra_trail"],
  triathlon: ["triathlon", "ironman", "swimrun"],
};
/** Sports whose members also run: a trail runner's results may be on the road. */

export type Member = {
  id: number;
  firstName: string;
  lastName: string;
  sex: "M" | "F";
  /** Finishing-time factor: 0.7 is quick, 1.4 is a walker. */
  level: number;
  sports: string[];
  club: string | null;
  birthYear: number;
};

export type Course = {
  id: number;
  event_id: number;
  distance: number;
  elevation_gain: number | null;
  sport: string;
  start_date: string;
};

/** The FFA-style category of a birth year in a season ("SE", "M0"…, "ES", "JU"). */
export function category(birthYear: number, seasonYear: number): string {
  const age = seasonYear - birthYear;
  if (age < 18) return "CA";
  if (age < 20) return "JU";
  if (age < 23) return "ES";
  if (age < 35) return "SE";
  return `M${Math.min(10, Math.floor((age - 35) / 5))}`;
}

/**
 * A finishing time in milliseconds for a course: the median finisher's pace for the sport over the
 * effort distance (distance + D+ / 100 m as km on foot), times the runner's level.
 */
export function finishTime(course: Pick<Course, "distance" | "elevation_gain" | "sport">, level: number): number {
  const onFoot = !["triathlon", "ironman", "mtb", "cycling"].includes(course.sport);
  const effortKm = course.distance / 1000 + (onFoot ? (course.elevation_gain ?? 0) / 100 : 0);
  // Longer races are slower per km (Riegel's exponent, ~1.06).
  const fatigue = (Math.max(effortKm, 1) / 10) ** 0.06;
  const pace = (MEDIAN_PACE[course.sport] ?? 360) * fatigue;
  return Math.round(effortKm * pace * level * 1000);
}

/** Runners through the start arch per second: the back of a 300-runner field crosses a minute after the gun. */
const STARTERS_PER_SECOND = 5;

/**
 * Seconds between the gun and a runner's crossing of the start line (chip time = gun time less
 * this). Runners line up roughly by speed: `fraction` is the runner's place in that order (0 the
 * front, 1 the back). The front starts on the line; the back waits for the field ahead to cross.
 */
export function startDelay(fraction: number, fieldSize: number, rng: Rng): number {
  const place = Math.min(1, Math.max(0, fraction * (1 + rng.normal() * 0.15)));
  return Math.round((place * (fieldSize / STARTERS_PER_SECOND) + rng.range(0, 1.5)) * 10) / 10;
}

/** Whether a member races in the course's sport. */
export function fits(member: Member, course: Course): boolean {
  return member.sports.some((s) => RACES_OF[s]?.includes(course.sport));
}

/** One of the list, at random. */
export function pick<T>(list: readonly T[], rng: Rng): T {
  return list[rng.int(0, list.length - 1)] as T;
}

/** A runner's level: log-normal around the median finisher (1.0), bounded. */
export function level(rng: Rng): number {
  return Math.min(1.6, Math.max(0.62, Math.exp(rng.normal() * 0.17)));
}
