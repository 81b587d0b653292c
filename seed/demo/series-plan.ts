/**
 * Planning a race series: its town and a name no other series has, its organiser and courses, its
 * scope, venue and address, its start hour and the day of each edition (by season, on a weekend);
 * or a well-known race on its usual date. The first series are showcases of the states an edition
 * can be in. The editions' rows are drawn from the plan (editions.ts).
 */
import { pickCumulative, type Rng } from "../../platform/prng.ts";
import type { SportKey } from "../../shared/constants.ts";
import type { DemoSeries } from "./catalogue-rows.ts";
import { type CatalogueState, claim, free, nameKey } from "./catalogue-state.ts";
import { courseSpecs, famousCourseSpecs } from "./courses.ts";
import { fromDayNumber } from "./dates.ts";
import { seriesOf } from "./editions.ts";
import { type FamousRace, famousDays } from "./famous.ts";
import { type EventName, eventName, type NameContext, organizerName } from "./names.ts";
import { type Place, seasonAt, terrainOf } from "./places.ts";
import { hourOf, pickDay } from "./race-days.ts";

/** Share of race series still running: their latest edition is in the coming year. */
export const RUNNING_SHARE = 0.92;

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

/** One edition in a given state: held within `days` of today, put off by `postponed` weeks, or cancelled. */
export type Showcase = { days?: [number, number]; postponed?: [number, number]; cancelled?: boolean };
/**
 * The first series show, whatever the count, what a calendar holds besides its ordinary races: it
 * opens on a race to come; then a race run a fortnight ago whose next edition is not listed yet (the
 * nightly job lists it), one put off and run since, one put off still to come, one cancelled.
 */
export const SHOWCASES: readonly Showcase[] = [
  { days: [7, 120] },
  { days: [-25, -5] },
  { days: [-85, -40], postponed: [2, 4] },
  { days: [14, 150], postponed: [2, 8] },
  { cancelled: true },
];

export function nameContext(place: Place): NameContext {
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
function placeAndName(
  state: CatalogueState,
  rng: Rng,
  wanted: SportKey,
): { sport: SportKey; place: Place; naming: EventName } {
  const { placesWithTerrain, cumulative, names, sportWeights } = state;
  let sport = wanted;
  for (let attempt = 1; ; attempt++) {
    const place = placesWithTerrain[pickCumulative(cumulative.get(sport)!, rng)];
    if (free(state, sport, place)) {
      const ctx = nameContext(place);
      for (let retry = 0; retry < 6; retry++) {
        const naming = eventName(sport, ctx, rng);
        // Past any sensible size, a number tells the races apart.
        for (let n = 2; attempt > 5_000 && names.has(nameKey(naming.name)); n++) naming.name = `${naming.name} ${n}`;
        if (names.has(nameKey(naming.name))) continue;
        claim(state, sport, place, naming.name);
        return { sport, place, naming };
      }
    }
    if (attempt % 50 === 0) sport = rng.weighted(sportWeights);
  }
}

/** A new series of `wanted` (or another sport when it has no room left), its editions on its season's weekends. */
export function generatedSeries(
  state: CatalogueState,
  rng: Rng,
  wanted: SportKey,
  editionCount: number,
  running: boolean,
  showcase?: Showcase,
): DemoSeries {
  const { first, last, todayDay, departmentNames, regionNames } = state;
  const { sport, place, naming } = placeAndName(state, rng, wanted);
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
  const monthWeight = (month: number) => (months ? (months.includes(month) ? 1 : 0) : overseas ? 1 : season[month - 1]);
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
  return seriesOf(state, rng, {
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
export function famousSeries(
  state: CatalogueState,
  rng: Rng,
  race: FamousRace,
  place: Place,
  budget: number,
): DemoSeries {
  const { first, last } = state;
  const multiDay = race.days ?? 0;
  const days = famousDays(race.date, first, last, multiDay).slice(0, budget);
  const specs = famousCourseSpecs(race, rng);
  const start = race.courses.reduce((a, c) =>
    (c.day ?? 0) * 1440 + c.time[0] * 60 + c.time[1] < (a.day ?? 0) * 1440 + a.time[0] * 60 + a.time[1] ? c : a,
  );
  return seriesOf(state, rng, {
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
