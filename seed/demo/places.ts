/**
 * Where and when each sport happens: the communes' terrain and relief, the weights the catalogue
 * draws a town for a sport with (population × terrain), and the months of each sport's season.
 */
import { SPORTS, type SportKey } from "../../shared/constants.ts";
import type { DemoCommune } from "./catalogue-rows.ts";
import { type Anchor, type Relief, reliefAt, terrainAt } from "./terrain.ts";

export const SPORT_KEYS = SPORTS.map((s) => s.key) as SportKey[];

/** Share of events per sport. */
export const SPORT_SHARES: Record<SportKey, number> = {
  running: 18,
  trail: 19,
  triathlon: 8,
  mtb: 10,
  swimrun: 3.5,
  cycling: 7,
  ironman: 1.5,
  marathon: 3,
  half_marathon: 7.5,
  short_trail: 10,
  ultra_trail: 4.5,
};

export type Place = DemoCommune &
  Relief & { mountain: number; water: number; massif: Anchor | null; waterBody: Anchor | null };

/**
 * Where each sport happens: population (cities get road races) times terrain (trails in the mountains,
 * swimruns by the water). Weights per commune; the catalogue draws communes in proportion.
 */
function placeWeight(sport: SportKey, p: Place): number {
  const pop = Math.max(p.population, 1);
  const m = p.mountain;
  const w = p.water;
  switch (sport) {
    case "running":
      return pop ** 0.9;
    case "half_marathon":
      return pop >= 3_000 ? pop : 0;
    case "marathon":
      return pop >= 20_000 ? pop ** 1.1 : 0;
    case "trail":
      return pop ** 0.45 * (0.15 + 6 * m ** 1.5);
    case "short_trail":
      return pop ** 0.5 * (0.3 + 4 * m);
    case "ultra_trail":
      return pop ** 0.3 * (0.03 + 10 * m * m);
    case "triathlon":
      return pop ** 0.6 * (0.1 + 4 * w);
    case "ironman":
      return pop >= 5_000 ? pop ** 0.8 * (0.05 + 5 * w) : 0;
    case "swimrun":
      return pop ** 0.4 * (0.01 + 8 * w * w);
    case "mtb":
      return pop ** 0.4 * (0.5 + 2 * m);
    case "cycling":
      return pop ** 0.55 * (0.6 + 1.5 * m);
  }
}

/** Relative number of events per month (January first), in the lowlands. */
const SEASONS: Record<SportKey, number[]> = {
  running: [6, 6, 9, 10, 10, 9, 7, 5, 10, 10, 8, 7],
  half_marathon: [3, 4, 10, 12, 8, 5, 2, 2, 8, 12, 10, 4],
  marathon: [2, 3, 10, 13, 7, 4, 1, 1, 7, 13, 9, 3],
  trail: [4, 5, 7, 9, 10, 10, 9, 8, 10, 10, 7, 5],
  short_trail: [4, 5, 7, 9, 10, 10, 9, 8, 10, 10, 7, 5],
  ultra_trail: [1, 2, 3, 5, 7, 10, 13, 13, 10, 6, 3, 1],
  triathlon: [0, 0, 1, 4, 9, 13, 13, 12, 10, 3, 0, 0],
  ironman: [0, 0, 0, 3, 8, 12, 12, 8, 8, 2, 0, 0],
  swimrun: [0, 0, 0, 3, 8, 13, 14, 12, 10, 4, 0, 0],
  mtb: [3, 4, 6, 9, 10, 10, 8, 7, 10, 9, 6, 3],
  cycling: [1, 2, 5, 9, 11, 12, 11, 9, 9, 5, 2, 1],
};
/** In the mountains: snow from December to April, the season from June to September. */
const MOUNTAIN_SEASONS: Partial<Record<SportKey, number[]>> = {
  trail: [1, 1, 2, 3.5, 9, 16, 15, 14, 13, 7, 2, 1],
  short_trail: [1, 1, 2, 3.5, 9, 16, 15, 14, 13, 7, 2, 1],
  ultra_trail: [0.5, 0.5, 1, 3, 6, 12, 16, 17, 13, 5, 1, 0.5],
  mtb: [0.5, 0.5, 1.5, 4, 8, 12, 14, 14, 10, 5, 1, 0.5],
  cycling: [0.2, 0.3, 1, 3, 8, 13, 15, 15, 10, 4, 0.5, 0.2],
};

/** Month weights of a sport at a place: from the lowland season to the mountain one with altitude. */
export function seasonAt(sport: SportKey, place: Place): number[] {
  const low = SEASONS[sport];
  const high = MOUNTAIN_SEASONS[sport];
  if (!high) return low;
  const a = Math.min(1, Math.max(0, (place.elevation - 300) / 700, (place.mountain - 0.2) / 0.5));
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const [lowSum, highSum] = [sum(low), sum(high)];
  return low.map((w, i) => (1 - a) * (w / lowSum) + a * (high[i] / highSum));
}

/**
 * Each commune's terrain and relief, and per sport the running total of the communes' weights that
 * places are drawn from: the same for the same communes, so computed once per list (a catalogue
 * generated again from the same places, as tests and benchmarks do, skips 35,000 terrain lookups).
 */
const preparedPlaces = new WeakMap<
  readonly DemoCommune[],
  { placesWithTerrain: Place[]; cumulative: Map<SportKey, Float64Array>; byCode: Map<string, Place> }
>();
export function placeDraws(communes: readonly DemoCommune[]) {
  let prepared = preparedPlaces.get(communes);
  if (!prepared) {
    const placesWithTerrain: Place[] = communes.map((c) => {
      const terrain = terrainAt(c.lat, c.lng, c.departmentCode);
      return { ...c, ...terrain, ...reliefAt(c, terrain) };
    });
    const cumulative = new Map<SportKey, Float64Array>();
    for (const sport of SPORT_KEYS) {
      const acc = new Float64Array(placesWithTerrain.length);
      let total = 0;
      placesWithTerrain.forEach((p, i) => {
        total += placeWeight(sport, p);
        acc[i] = total;
      });
      cumulative.set(sport, acc);
    }
    const byCode = new Map(placesWithTerrain.map((p) => [p.code, p]));
    prepared = { placesWithTerrain, cumulative, byCode };
    preparedPlaces.set(communes, prepared);
  }
  return prepared;
}

export type Terrain = "mountain" | "sea" | "lake" | "town" | "country";

/** The landscape of a series: mountain, sea or lake (water sports by the water), town or country. */
export function terrainOf(sport: SportKey, place: Place): Terrain {
  const road = sport === "running" || sport === "marathon" || sport === "half_marathon";
  if (place.mountain > 0.45 && !road) return "mountain";
  if ((sport === "swimrun" || sport === "triathlon" || sport === "ironman") && place.waterBody)
    return place.waterBody.kind === "sea" ? "sea" : "lake";
  return place.population > 20_000 || road ? "town" : "country";
}
