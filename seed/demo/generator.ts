/**
 * The demo catalogue generator: race series drawn over France's communes, one at a time. The
 * parts: places.ts (terrain, the weights a town is drawn with, seasons), series-plan.ts (a series'
 * town, name, courses and dates; the well-known races; the showcases), editions.ts (the events,
 * courses, prices and tracks rows), catalogue-state.ts (the names, towns and slugs taken).
 */
import { Rng } from "../../platform/prng.ts";
import type { DemoOptions, DemoPlaces, DemoSeries } from "./catalogue-rows.ts";
import { type CatalogueState, claim } from "./catalogue-state.ts";
import { addMonths, dayNumber, toIsoDate } from "./dates.ts";
import { FAMOUS_RACES } from "./famous.ts";
import { placeDraws, SPORT_KEYS, SPORT_SHARES } from "./places.ts";
import { famousSeries, generatedSeries, RUNNING_SHARE, SHOWCASES } from "./series-plan.ts";

export type {
  DemoCommune,
  DemoCourse,
  DemoCourseRow,
  DemoEvent,
  DemoEventRow,
  DemoHistoryRow,
  DemoOptions,
  DemoPlaces,
  DemoPriceRow,
  DemoSeries,
  DemoTrackRow,
} from "./catalogue-rows.ts";

export const DEFAULT_DEMO_EVENTS = 7_000;
export const DEFAULT_DEMO_SEED = 2026;

export type DemoWindow = { start: string; end: string; today: string };

export function demoWindow(referenceDate: Date | string = new Date()): DemoWindow {
  const today = typeof referenceDate === "string" ? referenceDate.slice(0, 10) : toIsoDate(referenceDate);
  return { start: addMonths(today, -24), end: addMonths(today, 12), today };
}

/**
 * The demo catalogue, one race series at a time (so that huge catalogues stream in chunks). Deterministic:
 * the same places, options and seed always give the same rows.
 */
export function* generateDemoCatalogue(places: DemoPlaces, options: DemoOptions = {}): Generator<DemoSeries> {
  const count = options.count ?? DEFAULT_DEMO_EVENTS;
  const rng = new Rng(options.seed ?? DEFAULT_DEMO_SEED);
  const window = demoWindow(options.referenceDate);
  const first = dayNumber(window.start);
  const last = dayNumber(window.end);
  const todayDay = dayNumber(window.today);
  const departmentNames = new Map(places.departments.map((d) => [d.code, d.name]));
  const regionNames = new Map(places.regions.map((r) => [r.code, r.name]));

  const { placesWithTerrain, cumulative, byCode } = placeDraws(places.communes);
  const sportWeights = SPORT_KEYS.map((k) => [k, SPORT_SHARES[k]] as const);

  // The names, towns and slugs taken (catalogue-state.ts): a name is one race, a town holds one marathon.
  const state: CatalogueState = {
    first,
    last,
    todayDay,
    departmentNames,
    regionNames,
    placesWithTerrain,
    cumulative,
    sportWeights,
    names: new Set<string>(),
    seriesAt: new Map<string, number>(),
    marathons: [],
    eventSlugs: new Set<string>(),
    groupSlugs: new Set<string>(),
  };
  // The well-known races hold their names and towns from the start, listed or not (a small catalogue).
  const famous = FAMOUS_RACES.flatMap((race) => {
    const place = byCode.get(race.communeCode);
    return place ? [{ race, place }] : [];
  });
  for (const { race, place } of famous) claim(state, race.sport, place, race.name);

  // Every sport appears at least once, whatever the count: the first series go round the sports; the
  // well-known races come next.
  let produced = 0;
  let series = 0;
  let nextFamous = 0;
  while (produced < count) {
    let out: DemoSeries;
    if (series >= SPORT_KEYS.length && nextFamous < famous.length) {
      const { race, place } = famous[nextFamous++];
      out = famousSeries(state, rng.fork(), race, place, count - produced);
    } else {
      const sport = series < SPORT_KEYS.length ? SPORT_KEYS[series] : rng.weighted(sportWeights);
      const showcase = series < SHOWCASES.length ? SHOWCASES[series] : undefined;
      // A series still running has its latest edition in the coming year and up to two before it; one
      // that stopped, its last edition in the past.
      const running = showcase ? (showcase.days?.[0] ?? 1) > 0 : rng.chance(RUNNING_SHARE);
      const editions = Math.min(
        count - produced,
        showcase?.days
          ? 1
          : running
            ? rng.weighted([
                [1, 75],
                [2, 17],
                [3, 8],
              ])
            : rng.weighted([
                [1, 80],
                [2, 20],
              ]),
      );
      out = generatedSeries(state, rng.fork(), sport, editions, running, showcase);
    }
    series++;
    if (out.editions.length === 0) continue;
    produced += out.editions.length;
    yield out;
  }
}
