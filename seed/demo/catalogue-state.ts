/**
 * What the series of one catalogue share while it is generated: its window (day numbers), the
 * places to draw from, and the names, towns and slugs already taken. A name is one race (one
 * edition a year), wherever it is: « Marathon de Paris » is the one in Paris. A town holds one
 * marathon, and marathons keep their distance from one another.
 */
import type { SportKey } from "../../shared/constants.ts";
import type { Place } from "./places.ts";
import { haversine } from "./terrain.ts";

export type CatalogueState = {
  first: number;
  last: number;
  todayDay: number;
  departmentNames: Map<string, string>;
  regionNames: Map<string, string>;
  placesWithTerrain: Place[];
  cumulative: Map<SportKey, Float64Array>;
  sportWeights: (readonly [SportKey, number])[];
  names: Set<string>;
  seriesAt: Map<string, number>;
  marathons: Place[];
  eventSlugs: Set<string>;
  groupSlugs: Set<string>;
};

/** Series of one sport that a town holds at most: one marathon, one half marathon, one ironman. */
const SERIES_PER_COMMUNE: Partial<Record<SportKey, number>> = { marathon: 1, half_marathon: 1, ironman: 1 };
/** Marathons at least this far apart, in metres: a city's marathon is the only one around it. */
const MARATHON_SPACING = 30_000;

export const nameKey = (name: string) => name.toLowerCase();

/** Whether `place` has room for another series of `sport`. */
export const free = (state: CatalogueState, sport: SportKey, place: Place) =>
  (state.seriesAt.get(`${sport} ${place.code}`) ?? 0) < (SERIES_PER_COMMUNE[sport] ?? Number.POSITIVE_INFINITY) &&
  (sport !== "marathon" ||
    state.marathons.every((m) => haversine(m.lat, m.lng, place.lat, place.lng) >= MARATHON_SPACING));

/** Takes a series' name and its room in its town. */
export const claim = (state: CatalogueState, sport: SportKey, place: Place, name: string) => {
  state.names.add(nameKey(name));
  state.seriesAt.set(`${sport} ${place.code}`, (state.seriesAt.get(`${sport} ${place.code}`) ?? 0) + 1);
  if (sport === "marathon") state.marathons.push(place);
};

/** `base`, or `base-2`, `base-3`… the first not taken; taken from then on. */
export const uniqueSlug = (base: string, taken: Set<string>) => {
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  taken.add(slug);
  return slug;
};
