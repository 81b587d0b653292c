import type {
  coursePrices,
  courses,
  EventOptions,
  eventHistory,
  events,
  tracks,
} from "../../features/events/events.tables.ts";
import { slugify } from "../../features/geo/slugify.ts";
import { timeZoneOfDepartment } from "../../features/geo/time-zone.ts";
import { generatedImagePath } from "../../features/illustrations/event-images.ts";
import { pickCumulative, Rng } from "../../platform/prng.ts";
import { SPORTS, type SportKey } from "../../shared/constants.ts";
import { zonedTime } from "../../shared/zoned-time.ts";
import { type CourseSpec, courseSpecs, famousCourseSpecs } from "./courses.ts";
import { addMonths, dayNumber, fromDayNumber, toIsoDate, weekday } from "./dates.ts";
import { FAMOUS_RACES, type FamousRace, famousDays } from "./famous.ts";
import { demoLandscape } from "./landscapes.ts";
import { type EventName, eventDescription, eventName, type NameContext, organizerName } from "./names.ts";
import { type Anchor, haversine, type Relief, reliefAt, terrainAt } from "./terrain.ts";
import { synthesizeTrack } from "./track.ts";

export const DEFAULT_DEMO_EVENTS = 7_000;
export const DEFAULT_DEMO_SEED = 2026;

export type DemoCommune = {
  code: string;
  name: string;
  departmentCode: string;
  regionCode: string;
  population: number;
  lat: number;
  lng: number;
  postalCodes: string[];
};

export type DemoPlaces = {
  communes: readonly DemoCommune[];
  departments: readonly { code: string; name: string }[];
  regions: readonly { code: string; name: string }[];
};

export type DemoOptions = {
  /** Number of events (editions included). */
  count?: number;
  seed?: number;
  /** "Today" of the catalogue: events span the 24 months before and the 12 months after it. */
  referenceDate?: Date | string;
};

type EventInsert = typeof events.$inferInsert;
export type DemoEventRow = Omit<EventInsert, "id" | "sportId" | "groupId" | "searchVector">;
export type DemoCourseRow = Omit<typeof courses.$inferInsert, "id" | "eventId">;
export type DemoPriceRow = Omit<typeof coursePrices.$inferInsert, "id" | "courseId">;
export type DemoTrackRow = Omit<typeof tracks.$inferInsert, "id" | "courseId">;
export type DemoHistoryRow = Omit<typeof eventHistory.$inferInsert, "id" | "eventId">;

export type DemoCourse = { course: DemoCourseRow; prices: DemoPriceRow[]; track: DemoTrackRow | null };
export type DemoEvent = {
  sport: SportKey;
  /** Slug of the event's group, when it belongs to a series of yearly editions. */
  groupSlug: string | null;
  event: DemoEventRow;
  courses: DemoCourse[];
  history: DemoHistoryRow[];
};
/** One race series: its group (when it has several editions) and its editions, oldest first. */
export type DemoSeries = { group: { name: string; slug: string } | null; editions: DemoEvent[] };

/** Share of events per sport. */
const SPORT_SHARES: Record<SportKey, number> = {
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

type Place = DemoCommune &
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
function seasonAt(sport: SportKey, place: Place): number[] {
  const low = SEASONS[sport];
  const high = MOUNTAIN_SEASONS[sport];
  if (!high) return low;
  const a = Math.min(1, Math.max(0, (place.elevation - 300) / 700, (place.mountain - 0.2) / 0.5));
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const [lowSum, highSum] = [sum(low), sum(high)];
  return low.map((w, i) => (1 - a) * (w / lowSum) + a * (high[i] / highSum));
}

/** Share of race series still running: their latest edition is in the coming year. */
const RUNNING_SHARE = 0.92;

const TRACKED_SPORTS = new Set<SportKey>([
  "running",
  "half_marathon",
  "marathon",
  "trail",
  "short_trail",
  "ultra_trail",
]);
/** Share of trail and running courses that come with a GPS track. */
const TRACK_SHARE = 0.13;

const VENUES_TOWN = [
  "Place de la Mairie",
  "Stade municipal",
  "Parc des sports",
  "Esplanade",
  "Place du Marché",
  "Salle polyvalente",
];
const VENUES_NATURE = [
  "Salle des fêtes",
  "Base de loisirs",
  "Place de l'Église",
  "Gymnase",
  "Domaine du château",
  "Camping municipal",
];
const VENUES_WATER = ["Base nautique", "Plage centrale", "Port de plaisance", "Front de mer", "Plan d'eau"];
const VENUES_MOUNTAIN = [
  "Front de neige",
  "Maison du parc",
  "Place du village",
  "Office de tourisme",
  "Parking du col",
];
const STREETS = [
  "rue de la République",
  "avenue du Général-de-Gaulle",
  "place de la Mairie",
  "rue du Stade",
  "chemin du Lac",
  "route de la Forêt",
  "avenue Jean-Jaurès",
  "rue Victor-Hugo",
  "allée des Sports",
  "rue de l'Église",
];

/** Phone numbers in the ranges ARCEP reserves for fiction (01 99 00…, 06 39 98…). */
function fictionalPhone(rng: Rng): string {
  const prefix = rng.pick(["01 99 00", "02 61 91", "03 53 01", "04 65 71", "05 36 49", "06 39 98"]);
  return `${prefix} ${String(rng.int(0, 99)).padStart(2, "0")} ${String(rng.int(0, 99)).padStart(2, "0")}`;
}

function hourOf(sport: SportKey, night: boolean, rng: Rng): [number, number] {
  const minute = rng.pick([0, 0, 15, 30, 30, 45]);
  if (night) return [rng.int(18, 20), minute];
  switch (sport) {
    case "ultra_trail":
      return rng.chance(0.3) ? [rng.int(21, 23), 0] : [rng.int(4, 7), minute];
    case "marathon":
    case "half_marathon":
      return [rng.int(8, 9), minute];
    case "trail":
    case "short_trail":
      return [rng.int(7, 9), minute];
    case "triathlon":
    case "ironman":
      return [rng.int(7, 13), minute];
    case "cycling":
      return [rng.int(7, 8), minute];
    default:
      return [rng.int(8, 10), minute];
  }
}

export type DemoWindow = { start: string; end: string; today: string };

export function demoWindow(referenceDate: Date | string = new Date()): DemoWindow {
  const today = typeof referenceDate === "string" ? referenceDate.slice(0, 10) : toIsoDate(referenceDate);
  return { start: addMonths(today, -24), end: addMonths(today, 12), today };
}

const SPORT_KEYS = SPORTS.map((s) => s.key) as SportKey[];

/** Series of one sport that a town holds at most: one marathon, one half marathon, one ironman. */
const SERIES_PER_COMMUNE: Partial<Record<SportKey, number>> = { marathon: 1, half_marathon: 1, ironman: 1 };
/** Marathons at least this far apart, in metres: a city's marathon is the only one around it. */
const MARATHON_SPACING = 30_000;

/** One edition in a given state: held within `days` of today, put off by `postponed` weeks, or cancelled. */
type Showcase = { days?: [number, number]; postponed?: [number, number]; cancelled?: boolean };
/**
 * The first series show, whatever the count, what a calendar holds besides its ordinary races: it
 * opens on a race to come; then a race run a fortnight ago whose next edition is not listed yet (the
 * nightly job lists it), one put off and run since, one put off still to come, one cancelled.
 */
const SHOWCASES: readonly Showcase[] = [
  { days: [7, 120] },
  { days: [-25, -5] },
  { days: [-85, -40], postponed: [2, 4] },
  { days: [14, 150], postponed: [2, 8] },
  { cancelled: true },
];

/**
 * Each commune's terrain and relief, and per sport the running total of the communes' weights that
 * places are drawn from: the same for the same communes, so computed once per list (a catalogue
 * generated again from the same places, as tests and benchmarks do, skips 35,000 terrain lookups).
 */
const preparedPlaces = new WeakMap<
  readonly DemoCommune[],
  { placesWithTerrain: Place[]; cumulative: Map<SportKey, Float64Array>; byCode: Map<string, Place> }
>();
function placeDraws(communes: readonly DemoCommune[]) {
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

type Terrain = "mountain" | "sea" | "lake" | "town" | "country";

/** What a series keeps from year to year; its editions are drawn from it. */
type SeriesPlan = {
  sport: SportKey;
  place: Place;
  naming: EventName;
  organizer: string;
  specs: CourseSpec[];
  /** Where each course starts and finishes when not at the venue (well-known point-to-point races). */
  ends: { from?: string; to?: string }[];
  scope: "local" | "regional" | "national" | "international";
  big: boolean;
  terrain: Terrain;
  venue: string;
  address: string;
  hour: number;
  minute: number;
  multiDay: number;
  /** The day each edition was planned for, oldest first, 364 days apart (the same weekday). */
  days: number[];
  firstEdition: number;
  /** A well-known race: never cancelled, postponed or left pending. */
  famous: boolean;
  /** One edition shown cancelled, or put off by so many weeks (`showcase`). */
  state?: { edition: number; cancelled?: boolean; postponedWeeks?: [number, number] };
  about?: string;
};

function terrainOf(sport: SportKey, place: Place): Terrain {
  const road = sport === "running" || sport === "marathon" || sport === "half_marathon";
  if (place.mountain > 0.45 && !road) return "mountain";
  if ((sport === "swimrun" || sport === "triathlon" || sport === "ironman") && place.waterBody)
    return place.waterBody.kind === "sea" ? "sea" : "lake";
  return place.population > 20_000 || road ? "town" : "country";
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

  const eventSlugs = new Set<string>();
  const groupSlugs = new Set<string>();
  const uniqueSlug = (base: string, taken: Set<string>) => {
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  };

  // A name is one race (one edition a year), wherever it is: « Marathon de Paris » is the one in Paris.
  // A town holds one marathon, and marathons keep their distance from one another.
  const names = new Set<string>();
  const seriesAt = new Map<string, number>();
  const marathons: Place[] = [];
  const nameKey = (name: string) => name.toLowerCase();
  const free = (sport: SportKey, place: Place) =>
    (seriesAt.get(`${sport} ${place.code}`) ?? 0) < (SERIES_PER_COMMUNE[sport] ?? Number.POSITIVE_INFINITY) &&
    (sport !== "marathon" || marathons.every((m) => haversine(m.lat, m.lng, place.lat, place.lng) >= MARATHON_SPACING));
  const claim = (sport: SportKey, place: Place, name: string) => {
    names.add(nameKey(name));
    seriesAt.set(`${sport} ${place.code}`, (seriesAt.get(`${sport} ${place.code}`) ?? 0) + 1);
    if (sport === "marathon") marathons.push(place);
  };
  // The well-known races hold their names and towns from the start, listed or not (a small catalogue).
  const famous = FAMOUS_RACES.flatMap((race) => {
    const place = byCode.get(race.communeCode);
    return place ? [{ race, place }] : [];
  });
  for (const { race, place } of famous) claim(race.sport, place, race.name);

  // Every sport appears at least once, whatever the count: the first series go round the sports; the
  // well-known races come next.
  let produced = 0;
  let series = 0;
  let nextFamous = 0;
  while (produced < count) {
    let out: DemoSeries;
    if (series >= SPORT_KEYS.length && nextFamous < famous.length) {
      const { race, place } = famous[nextFamous++];
      out = famousSeries(rng.fork(), race, place, count - produced);
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
      out = generatedSeries(rng.fork(), sport, editions, running, showcase);
    }
    series++;
    if (out.editions.length === 0) continue;
    produced += out.editions.length;
    yield out;
  }

  function nameContext(place: Place): NameContext {
    return {
      city: place.name,
      massif: place.massif,
      water: place.waterBody,
      mountain: place.mountain,
      water01: place.water,
      coastal: place.waterBody?.kind === "sea",
    };
  }

  /**
   * A town for a new series of `wanted` and a name no other series has: another town when the first
   * has no room or no free name, another sport when the sport has no room left (a huge catalogue).
   */
  function placeAndName(rng: Rng, wanted: SportKey): { sport: SportKey; place: Place; naming: EventName } {
    let sport = wanted;
    for (let attempt = 1; ; attempt++) {
      const place = placesWithTerrain[pickCumulative(cumulative.get(sport)!, rng)];
      if (free(sport, place)) {
        const ctx = nameContext(place);
        for (let retry = 0; retry < 6; retry++) {
          const naming = eventName(sport, ctx, rng);
          // Past any sensible size, a number tells the races apart.
          for (let n = 2; attempt > 5_000 && names.has(nameKey(naming.name)); n++) naming.name = `${naming.name} ${n}`;
          if (names.has(nameKey(naming.name))) continue;
          claim(sport, place, naming.name);
          return { sport, place, naming };
        }
      }
      if (attempt % 50 === 0) sport = rng.weighted(sportWeights);
    }
  }

  function generatedSeries(
    rng: Rng,
    wanted: SportKey,
    editionCount: number,
    running: boolean,
    showcase?: Showcase,
  ): DemoSeries {
    const { sport, place, naming } = placeAndName(rng, wanted);
    const departmentName = departmentNames.get(place.departmentCode) ?? place.departmentCode;
    const regionName = regionNames.get(place.regionCode) ?? place.regionCode;
    const organizer = organizerName(sport, nameContext(place), rng);
    const specs = courseSpecs(
      sport,
      {
        mountain: place.mountain,
        population: place.population,
        timed: naming.timed ?? false,
        connected: naming.connected ?? false,
        departmentName,
        regionName,
        night: naming.night ?? false,
        distance: naming.distance,
        hours: naming.hours,
        ironman: naming.ironman,
        vertical: naming.vertical,
        long: naming.long,
      },
      rng,
    );
    const big =
      (sport === "marathon" && place.population > 150_000) ||
      sport === "ironman" ||
      (sport === "ultra_trail" && (specs[0].distance ?? 0) >= 100_000 && place.mountain > 0.5) ||
      (sport === "half_marathon" && place.population > 300_000);
    const scope = big
      ? rng.weighted([
          ["international", 4],
          ["national", 5],
          ["regional", 1],
        ] as const)
      : rng.weighted([
          ["local", 62],
          ["regional", 32],
          ["national", 5],
          ["international", 1],
        ] as const);
    const terrain = terrainOf(sport, place);
    const venues =
      terrain === "mountain"
        ? VENUES_MOUNTAIN
        : terrain === "sea" || terrain === "lake"
          ? VENUES_WATER
          : terrain === "town"
            ? VENUES_TOWN
            : VENUES_NATURE;
    const venue = rng.pick(venues);
    const address = `${rng.int(1, 40)} ${rng.pick(STREETS)}`;
    const season = seasonAt(sport, place);
    const overseas = place.departmentCode.startsWith("97");
    const months = naming.months;
    const monthWeight = (month: number) =>
      months ? (months.includes(month) ? 1 : 0) : overseas ? 1 : season[month - 1];
    const [hour, minute] = hourOf(sport, naming.night ?? false, rng);
    // A night start runs into the next day.
    const multiDay = Math.max(
      hour >= 21 ? 1 : 0,
      sport === "ultra_trail"
        ? rng.weighted([
            [0, 5],
            [1, 4],
            [2, 1],
          ] as const)
        : rng.chance(0.05)
          ? 1
          : 0,
    );
    const preferredWeekday = sport === "ultra_trail" && multiDay > 0 ? rng.pick([5, 6]) : rng.chance(0.6) ? 0 : 6;
    // Date of the latest edition: by season, on a weekend, in the coming year for a series still
    // running, else in the past leaving room for the earlier yearly editions.
    const latestDay = showcase?.days
      ? pickDay(rng, todayDay + showcase.days[0], todayDay + showcase.days[1] - multiDay, monthWeight, preferredWeekday)
      : running
        ? pickDay(rng, todayDay, last - multiDay, monthWeight, preferredWeekday)
        : pickDay(rng, first + 364 * (editionCount - 1), todayDay - 1 - multiDay, monthWeight, preferredWeekday);
    return seriesOf(rng, {
      sport,
      place,
      naming,
      organizer,
      specs,
      ends: [],
      scope,
      big,
      terrain,
      venue,
      address,
      hour,
      minute,
      multiDay,
      days: Array.from({ length: editionCount }, (_, e) => latestDay - 364 * (editionCount - 1 - e)),
      firstEdition: rng.int(1, 30),
      famous: false,
      state: showcase && {
        edition: editionCount - 1,
        cancelled: showcase.cancelled,
        postponedWeeks: showcase.postponed,
      },
    });
  }

  /** A well-known race, every year of the window on its usual date (the earliest `budget` editions). */
  function famousSeries(rng: Rng, race: FamousRace, place: Place, budget: number): DemoSeries {
    const multiDay = race.days ?? 0;
    const days = famousDays(race.date, first, last, multiDay).slice(0, budget);
    const specs = famousCourseSpecs(race, rng);
    const start = race.courses.reduce((a, c) =>
      (c.day ?? 0) * 1440 + c.time[0] * 60 + c.time[1] < (a.day ?? 0) * 1440 + a.time[0] * 60 + a.time[1] ? c : a,
    );
    return seriesOf(rng, {
      sport: race.sport,
      place,
      naming: { name: race.name },
      organizer: organizerName(race.sport, nameContext(place), rng),
      specs,
      ends: race.courses.map((c) => ({ from: c.from, to: c.to })),
      scope: race.scope,
      big: true,
      terrain: terrainOf(race.sport, place),
      venue: race.venue,
      address: `${rng.int(1, 40)} ${rng.pick(STREETS)}`,
      hour: start.time[0],
      minute: start.time[1],
      multiDay,
      days,
      firstEdition: days.length ? Number(fromDayNumber(days[0]).slice(0, 4)) - race.firstYear + 1 : 1,
      famous: true,
      about: race.about,
    });
  }

  /** The editions of a series, oldest first, and its group when it has several. */
  function seriesOf(rng: Rng, plan: SeriesPlan): DemoSeries {
    const { sport, place, naming, organizer, specs, scope, big, terrain, venue, address, hour, minute, multiDay } =
      plan;
    const name = naming.name;
    const departmentName = departmentNames.get(place.departmentCode) ?? place.departmentCode;
    const timeZone = timeZoneOfDepartment(place.departmentCode);
    const editionCount = plan.days.length;
    const baseLat = place.lat + rng.range(-0.012, 0.012);
    const baseLng = place.lng + rng.range(-0.016, 0.016);
    const slugBase = slugify(name);
    const group = editionCount > 1 ? { name, slug: uniqueSlug(slugBase, groupSlugs) } : null;
    const social = {
      facebook: rng.chance(0.6),
      instagram: rng.chance(0.4),
      x: rng.chance(0.1),
      youtube: rng.chance(0.08),
      vimeo: rng.chance(0.03),
    };
    const hasContact = rng.chance(0.85);
    const phone = rng.chance(0.5) ? fictionalPhone(rng) : null;
    const options: EventOptions = {
      refuelling: specs.some((s) => (s.distance ?? 0) >= 8_000 || s.duration !== null) || rng.chance(0.3),
      meal: rng.chance(sport === "ultra_trail" || sport === "trail" ? 0.6 : 0.3),
      cloakroom: rng.chance(terrain === "town" ? 0.7 : 0.35),
      showers: rng.chance(0.5),
      reward: rng.chance(0.65),
    };
    const volunteers = Math.max(10, Math.round((specs[0].bibQuota ?? 200) / rng.range(4, 10) / 5) * 5);
    const isCompetition = !/^Rando|^Randonnée/.test(name);
    const postalCode = place.postalCodes[0] ?? null;
    // Tracks start at the venue: none for a course that starts or ends elsewhere, nor for a vertical climb.
    const trackDraws = specs.map(
      (s, i) =>
        TRACKED_SPORTS.has(sport) &&
        s.distance !== null &&
        s.type !== "kids" &&
        s.type !== "walk" &&
        s.type !== "virtual" &&
        !plan.ends[i]?.from &&
        !plan.ends[i]?.to &&
        (s.elevationGain ?? 0) <= s.distance * 0.15 &&
        rng.chance(TRACK_SHARE),
    );
    // The start is in the village or close above it (a car park, a ski front), never below its valley.
    const baseElevation = Math.max(place.floor, 2, place.elevation + rng.range(-10, 40));
    const road = sport === "running" || sport === "marathon" || sport === "half_marathon";

    const editions: DemoEvent[] = [];
    for (let e = 0; e < editionCount; e++) {
      const originalDay = plan.days[e];
      let startDay = originalDay;
      // A showcase's edition is as it says; a well-known race is held as planned; the others are
      // sometimes cancelled, or put off by a few weeks within their year (the next edition stays in
      // the next year).
      const shown = plan.state?.edition === e ? plan.state : undefined;
      const steady = plan.famous || shown !== undefined;
      const cancelled = shown?.cancelled ?? (!steady && rng.chance(0.02));
      let postponed = false;
      const weeks = shown?.postponedWeeks ?? (!steady && !cancelled && rng.chance(0.02) ? [2, 10] : null);
      if (weeks) {
        const shifted = originalDay + 7 * rng.int(weeks[0], weeks[1]);
        const sameYear = fromDayNumber(shifted).slice(0, 4) === fromDayNumber(originalDay).slice(0, 4);
        if (shifted + multiDay <= last && (sameYear || e === editionCount - 1)) {
          startDay = shifted;
          postponed = true;
        }
      }
      const date = fromDayNumber(startDay);
      const endDate = fromDayNumber(startDay + multiDay);
      const year = Number(date.slice(0, 4));
      const slug = uniqueSlug(`${slugBase}-${year}`, eventSlugs);
      const edition = plan.firstEdition + e;
      const past = startDay < todayDay;
      const opensDay = originalDay - rng.int(120, 240);
      const createdDay = Math.min(todayDay, opensDay - rng.int(5, 60));
      const createdAt = new Date(createdDay * 86_400_000 + rng.int(7, 20) * 3_600_000 + rng.int(0, 59) * 60_000);
      const status = !steady && rng.chance(past ? 0.01 : 0.08) ? "pending" : "active";
      const checked = status === "active" && (steady || rng.chance(past ? 0.95 : 0.82));
      const inflation = 1 + 0.03 * (e - (editionCount - 1));
      const event: DemoEventRow = {
        slug,
        name,
        description: eventDescription(
          {
            name,
            city: place.name,
            departmentName,
            departmentCode: place.departmentCode,
            date,
            edition,
            terrain,
            courses: specs,
            options: options as Record<string, boolean>,
            organizer,
            volunteers,
            about: plan.about,
          },
          rng,
        ),
        organizerName: organizer,
        isCompetition,
        isOwner: rng.chance(0.4),
        isConnected: naming.connected ?? false,
        contactEmail: hasContact ? `contact@${slugify(organizer).slice(0, 40)}.example.org` : null,
        contactPhone: phone,
        options,
        website: rng.chance(0.85) ? `https://example.org/courses/${slugBase}` : null,
        registrationUrl: past && rng.chance(0.3) ? null : `https://inscriptions.example.com/${slug}`,
        registrationOpensAt: zonedTime(fromDayNumber(opensDay), 10, 0, timeZone),
        liveTrackingUrl:
          big || (sport === "ultra_trail" && rng.chance(0.5)) ? `https://live.example.net/${slug}` : null,
        facebookUrl: social.facebook ? `https://facebook.example.com/${slugBase}` : null,
        instagramUrl: social.instagram ? `https://instagram.example.com/${slugBase.replace(/-/g, "_")}` : null,
        xUrl: social.x ? `https://x.example.com/${slugBase.replace(/-/g, "").slice(0, 15)}` : null,
        youtubeUrl: social.youtube ? `https://youtube.example.com/@${slugBase}` : null,
        vimeoUrl: social.vimeo ? `https://vimeo.example.com/${slugBase}` : null,
        liveVideoUrl: big && rng.chance(0.3) ? `https://video.example.net/live/${slug}` : null,
        address,
        zipcode: postalCode,
        city: place.name,
        place: venue,
        countryCode: "FR",
        communeCode: place.code,
        departmentCode: place.departmentCode,
        regionCode: place.regionCode,
        lat: Math.round(baseLat * 1e6) / 1e6,
        lng: Math.round(baseLng * 1e6) / 1e6,
        startDate: date,
        endDate,
        originalDate: postponed ? fromDayNumber(originalDay) : null,
        cancelled,
        postponed,
        scope,
        status,
        checkStatus: checked ? "checked" : "to_check",
        dateConfirmed: checked && (steady || rng.chance(0.92)),
        createdAt,
        updatedAt: new Date(Math.max(createdAt.getTime(), Math.min(todayDay, startDay) * 86_400_000)),
      };

      const eventCourses: DemoCourse[] = specs.map((spec, position) => {
        // After a night start of the main course, the shorter ones start the next morning; a
        // well-known race's courses may start on later days.
        const nextMorning = spec.startOffset > 0 && hour >= 21;
        const startMinutes = (nextMorning ? 7 * 60 : hour * 60 + minute) + spec.startOffset;
        const courseDay = (nextMorning ? startDay + 1 : startDay) + Math.floor(startMinutes / 1440);
        const startAt = zonedTime(
          fromDayNumber(courseDay),
          Math.floor(startMinutes / 60) % 24,
          startMinutes % 60,
          timeZone,
        );
        const prices = priceRows(rng, spec, originalDay, opensDay, inflation);
        let track: DemoTrackRow | null = null;
        if (trackDraws[position] && spec.distance !== null) {
          const t = synthesizeTrack(rng, {
            lat: baseLat,
            lng: baseLng,
            distance: spec.distance,
            elevationGain: spec.elevationGain ?? 0,
            baseElevation,
            floor: place.floor,
            ceiling: road ? Math.min(place.ceiling, baseElevation + 400) : place.ceiling,
            loop: !spec.pointToPoint,
            style: road && terrain === "town" ? "road" : "trail",
          });
          track = {
            name: `${name} – ${spec.name}`,
            points: t.points,
            distance: Math.round(t.stats.distance),
            elevationGain: Math.round(t.stats.elevationGain),
            elevationLoss: Math.round(t.stats.elevationLoss),
            minElevation: t.stats.minElevation === null ? null : Math.round(t.stats.minElevation),
            maxElevation: t.stats.maxElevation === null ? null : Math.round(t.stats.maxElevation),
            profile: t.profile,
            startLat: t.points[0][1],
            startLng: t.points[0][0],
            createdAt,
          };
        }
        const atVenue = `${venue}, ${place.name}`;
        const ends = plan.ends[position];
        return {
          course: {
            name: spec.name,
            type: spec.type,
            distance: spec.distance,
            duration: spec.duration,
            elevationGain: spec.elevationGain,
            bibQuota: spec.bibQuota,
            description: spec.description,
            startAt,
            startPlace: ends?.from ?? atVenue,
            finishPlace: ends
              ? (ends.to ?? atVenue)
              : spec.pointToPoint
                ? `${rng.pick(["Arrivée au sommet", "Place du village", "Refuge", "Station", "Lac"])} (${rng.int(5, 40)} km ${rng.pick(["au nord", "au sud", "à l'est", "à l'ouest"])})`
                : atVenue,
            refuellingPoints: spec.refuellingPoints,
            mandatoryEquipment: spec.mandatoryEquipment,
            minAge: spec.minAge,
            itraPoints: spec.itraPoints,
            utmbIndex: spec.utmbIndex,
            challenge: spec.challenge,
            complete: rng.chance(0.92),
            position,
          },
          prices,
          track,
        };
      });
      const distances = specs.map((s) => s.distance).filter((d): d is number => d !== null);
      event.maxElevation = specs.reduce<number | null>(
        (max, s) => (s.elevationGain === null ? max : Math.max(max ?? 0, s.elevationGain)),
        null,
      );
      event.minDistance = distances.length ? Math.min(...distances) : null;
      event.maxDistance = distances.length ? Math.max(...distances) : null;
      // A landscape of the main course instead of a photo, drawn when a page first shows it.
      const tracked = eventCourses.find((c) => c.track !== null);
      const landscape = generatedImagePath(
        demoLandscape({
          sport,
          terrain,
          slug,
          elevationGain: tracked?.course.elevationGain ?? specs[0].elevationGain,
          trackProfile: tracked?.track?.profile,
        }),
      );
      event.coverImage = landscape;
      event.headerImage = landscape;

      const history: DemoHistoryRow[] = [{ type: "creation", data: { source: "demo" }, createdAt }];
      if (status === "active")
        history.push({
          type: "validation",
          data: {},
          createdAt: new Date(createdAt.getTime() + rng.int(1, 5) * 86_400_000),
        });
      const announced = new Date(Math.min(todayDay, startDay - rng.int(7, 45)) * 86_400_000 + 9 * 3_600_000);
      if (cancelled) history.push({ type: "cancellation", data: { date }, createdAt: announced });
      if (postponed)
        history.push({
          type: "postponement",
          data: { originalDate: fromDayNumber(originalDay), date },
          createdAt: new Date(Math.min(todayDay, originalDay - rng.int(7, 45)) * 86_400_000 + 9 * 3_600_000),
        });
      editions.push({ sport, groupSlug: group?.slug ?? null, event, courses: eventCourses, history });
    }
    return { group, editions };
  }
}

const segmentCache = new Map<string, [number, number, number][]>();

/** The calendar months overlapping [from, to], as [first day, last day, month number]. */
function monthSegments(from: number, to: number): [number, number, number][] {
  const key = `${from}|${to}`;
  let segments = segmentCache.get(key);
  if (!segments) {
    segments = [];
    for (let start = from; start <= to; ) {
      const iso = fromDayNumber(start);
      const end = Math.min(to, dayNumber(addMonths(`${iso.slice(0, 8)}01`, 1)) - 1);
      segments.push([start, end, Number(iso.slice(5, 7))]);
      start = end + 1;
    }
    if (segmentCache.size > 100) segmentCache.clear();
    segmentCache.set(key, segments);
  }
  return segments;
}

/** A day in [from, to] drawn by month weight, moved to the preferred weekday when it stays in range. */
function pickDay(
  rng: Rng,
  from: number,
  to: number,
  monthWeight: (month: number) => number,
  preferredWeekday: number,
): number {
  const months = monthSegments(from, to).map(([a, b, month]) => [[a, b], monthWeight(month) * (b - a + 1)] as const);
  const [a, b] = months.some(([, w]) => w > 0) ? rng.weighted(months) : [from, to];
  let day = rng.int(a, b);
  if (rng.chance(0.9)) {
    let shift = preferredWeekday - weekday(fromDayNumber(day));
    if (shift > 3) shift -= 7;
    if (shift < -3) shift += 7;
    if (day + shift < from) shift += 7;
    if (day + shift > to) shift -= 7;
    if (day + shift >= from && day + shift <= to) day += shift;
  }
  return day;
}

/** Price periods before the race: early bird, standard, late (or a single price), in euros. */
function priceRows(rng: Rng, spec: CourseSpec, raceDay: number, opensDay: number, inflation: number): DemoPriceRow[] {
  const base = spec.basePrice * inflation;
  const euros = (x: number) => (Math.round(x * 2) / 2).toFixed(2);
  if (base <= 0)
    return [{ label: "Gratuit", startsOn: fromDayNumber(opensDay), endsOn: fromDayNumber(raceDay - 1), price: "0.00" }];
  const layout =
    spec.type === "kids"
      ? "single"
      : rng.weighted([
          ["three", 5],
          ["two", 3],
          ["single", 2],
        ] as const);
  const iso = fromDayNumber;
  if (layout === "single")
    return [
      { label: "Tarif unique", startsOn: iso(opensDay), endsOn: iso(raceDay - rng.int(1, 5)), price: euros(base) },
    ];
  if (layout === "two") {
    const close = raceDay - rng.int(8, 21);
    return [
      { label: "Tarif normal", startsOn: iso(opensDay), endsOn: iso(close), price: euros(base) },
      {
        label: "Dernière minute",
        startsOn: iso(close + 1),
        endsOn: iso(raceDay - 1),
        price: euros(base + rng.pick([3, 5, 5, 8])),
      },
    ];
  }
  const earlyEnd = Math.max(opensDay + 14, raceDay - rng.int(75, 110));
  const lateStart = raceDay - rng.int(14, 28);
  return [
    { label: "Early bird", startsOn: iso(opensDay), endsOn: iso(earlyEnd), price: euros(base * rng.range(0.75, 0.88)) },
    { label: "Tarif normal", startsOn: iso(earlyEnd + 1), endsOn: iso(lateStart - 1), price: euros(base) },
    {
      label: "Tarif tardif",
      startsOn: iso(lateStart),
      endsOn: iso(raceDay - rng.int(1, 3)),
      price: euros(base * rng.range(1.1, 1.3)),
    },
  ];
}
