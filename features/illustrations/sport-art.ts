/**
 * The stand-in picture of an event without a photo: one landscape per sport, in the sport's
 * colours, drawn by landscape.ts and kept as small static SVG files (art/<sport>.svg), which the
 * build serves as hashed assets. `npx tsx features/illustrations/write-sport-art.ts` writes them again
 * after a change of the drawing; a test checks that they are up to date.
 */
import { SPORT_KEYS, type SportKey } from "../../shared/constants.ts";
import { type LandscapeSpec, landscapeSvg, type Terrain } from "./landscape.ts";

const TERRAIN_OF: Record<SportKey, Terrain> = {
  running: "town",
  marathon: "town",
  half_marathon: "town",
  trail: "mountain",
  short_trail: "country",
  ultra_trail: "mountain",
  mtb: "country",
  cycling: "country",
  triathlon: "lake",
  ironman: "sea",
  swimrun: "lake",
};

/** A course of two climbs, the second higher: a generic profile. */
const PROFILE = [2, 7, 15, 22, 24, 18, 11, 8, 10, 17, 25, 31, 33, 26, 15, 5];

export function sportArtSpec(sport: SportKey): LandscapeSpec {
  const terrain = TERRAIN_OF[sport];
  const relief = terrain === "mountain" ? 1 : 0.6;
  return {
    sport,
    terrain,
    // Mid-morning skies ("day": seed / 9 divisible by 3), the sport's own hue (seed % 9 = 4), a
    // different sun and ridges per sport.
    seed: 27 * (SPORT_KEYS.indexOf(sport) + 1) + 4,
    profile: PROFILE.map((level) => Math.round(level * relief)),
  };
}

/** The SVG file of a sport's stand-in: 16:10, filling any frame it is shown in. */
export function sportArtSvg(sport: SportKey): string {
  return `${landscapeSvg(sportArtSpec(sport), 800, 500, { fill: true })}\n`;
}
