import type { Terrain } from "../../features/illustrations/landscape.ts";
import { PROFILE_SAMPLES, profileLevels } from "../../features/illustrations/landscape.ts";
import { Rng } from "../../platform/prng.ts";
import type { SportKey } from "../../shared/constants.ts";

/** FNV-1a of a string: a seed that depends on the event alone, not on the catalogue's draws. */
export function stringSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The landscape of a demo event: its terrain, a seed from its slug, and the elevation profile of
 * its main course — the GPS track's when it has one, else a few climbs drawn to its positive
 * elevation. Draws nothing from the catalogue's random source, so the rest of the catalogue is the
 * same with or without pictures.
 */
export function demoLandscape(input: {
  sport: SportKey;
  terrain: Terrain;
  slug: string;
  /** The main course's positive elevation (metres), when known. */
  elevationGain: number | null;
  /** The main course's track profile ([distance, elevation] pairs), when it has one. */
  trackProfile?: readonly (readonly [number, number])[] | null;
}) {
  const seed = stringSeed(input.slug);
  if (input.trackProfile && input.trackProfile.length >= 2) {
    return {
      sport: input.sport,
      terrain: input.terrain,
      seed: seed % 1296,
      profile: profileLevels(input.trackProfile.map((p) => p[1])),
    };
  }
  const rng = new Rng(seed);
  const gain = input.elevationGain ?? (input.terrain === "mountain" ? 800 : 60);
  const climbs = Math.min(5, Math.max(1, Math.round(gain / rng.range(400, 900))));
  const phase = rng.range(0, 2 * Math.PI);
  const wobble = rng.range(0.15, 0.35);
  const second = rng.range(0, 2 * Math.PI);
  const shape: number[] = [];
  for (let k = 0; k < PROFILE_SAMPLES; k++) {
    const t = k / (PROFILE_SAMPLES - 1);
    shape.push(Math.sin(Math.PI * climbs * t + phase) + wobble * Math.sin(Math.PI * (climbs * 3 + 1) * t + second));
  }
  // Scale the shape so that its climbing matches the course's positive elevation.
  let rise = 0;
  for (let k = 1; k < shape.length; k++) rise += Math.max(0, shape[k] - shape[k - 1]);
  const scale = rise > 0 ? gain / rise : 0;
  return {
    sport: input.sport,
    terrain: input.terrain,
    seed: seed % 1296,
    profile: profileLevels(shape.map((s) => s * scale)),
  };
}
