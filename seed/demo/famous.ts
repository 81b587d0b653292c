import type { CourseType, SportKey } from "../../shared/constants.ts";
import { dayNumber, fromDayNumber, weekday } from "./dates.ts";

/**
 * Well-known French races, on their real month, in their real town, with their usual courses: a
 * visitor who runs knows them and checks them first. The rest of the demo catalogue is generated.
 * Dates follow the usual rule (the second Sunday of April…), not any one year's calendar; distances
 * and climbs are rounded.
 */
export type FamousCourse = {
  name: string;
  type?: CourseType;
  distance: number;
  elevationGain: number;
  /** Days after the event's first day, and local start time. */
  day?: number;
  time: [number, number];
  /** Where a point-to-point course starts and finishes, when not at the event's venue. */
  from?: string;
  to?: string;
  bibQuota: number;
  price: number;
};

/** A weekday of the month: `nth` 1–4, or -1 for the last one; `shift` days after it (Saturday before: -1). */
export type FamousDate =
  | { month: number; weekday: number; nth: 1 | 2 | 3 | 4 | -1; shift?: number }
  | { month: number; day: number };

export type FamousRace = {
  name: string;
  sport: SportKey;
  /** INSEE code of the town it is held in (the finish of a point-to-point race). */
  communeCode: string;
  venue: string;
  date: FamousDate;
  /** Days after the first one that the event lasts. */
  days?: number;
  firstYear: number;
  scope: "international" | "national";
  /** One sentence for the description, before the generated ones. */
  about: string;
  courses: FamousCourse[];
};

const SUNDAY = 0;
const FRIDAY = 5;
const SATURDAY = 6;

export const FAMOUS_RACES: readonly FamousRace[] = [
  {
    name: "Marathon de Paris",
    sport: "marathon",
    communeCode: "75056",
    venue: "Avenue des Champs-Élysées",
    date: { month: 4, weekday: SUNDAY, nth: 2 },
    firstYear: 1976,
    scope: "international",
    about:
      "Départ des Champs-Élysées, arrivée avenue Foch : le plus grand marathon de France traverse Paris d'est en ouest, par les bois de Vincennes et de Boulogne.",
    courses: [{ name: "Marathon", distance: 42_195, elevationGain: 110, time: [8, 0], bibQuota: 50_000, price: 135 }],
  },
  {
    name: "Semi-marathon de Paris",
    sport: "half_marathon",
    communeCode: "75056",
    venue: "Bois de Vincennes",
    date: { month: 3, weekday: SUNDAY, nth: 2 },
    firstYear: 1993,
    scope: "international",
    about: "Départ et arrivée au château de Vincennes, par la Bastille et les quais de Seine.",
    courses: [
      { name: "Semi-marathon", distance: 21_097, elevationGain: 70, time: [9, 30], bibQuota: 45_000, price: 65 },
    ],
  },
  {
    name: "Les 20 km de Paris",
    sport: "running",
    communeCode: "75056",
    venue: "Pont d'Iéna",
    date: { month: 10, weekday: SUNDAY, nth: 2 },
    firstYear: 1979,
    scope: "national",
    about: "Au pied de la tour Eiffel, une boucle par les quais de Seine et le bois de Boulogne.",
    courses: [{ name: "20 km", distance: 20_000, elevationGain: 80, time: [10, 0], bibQuota: 30_000, price: 38 }],
  },
  {
    name: "Paris-Versailles",
    sport: "running",
    communeCode: "75056",
    venue: "Tour Eiffel",
    date: { month: 9, weekday: SUNDAY, nth: -1 },
    firstYear: 1976,
    scope: "national",
    about: "De la tour Eiffel au château de Versailles, avec la côte des Gardes pour juge de paix.",
    courses: [
      {
        name: "16 km",
        distance: 16_000,
        elevationGain: 210,
        time: [10, 0],
        to: "Château de Versailles",
        bibQuota: 25_000,
        price: 32,
      },
    ],
  },
  {
    name: "EcoTrail de Paris",
    sport: "trail",
    communeCode: "75056",
    venue: "Tour Eiffel",
    date: { month: 3, weekday: SATURDAY, nth: 3 },
    firstYear: 2008,
    scope: "international",
    about: "Des forêts de l'Ouest parisien jusqu'à la tour Eiffel, par les parcs et les coteaux de la Seine.",
    courses: [
      {
        name: "EcoTrail – 80 km",
        distance: 80_000,
        elevationGain: 1_500,
        time: [8, 0],
        from: "Saint-Quentin-en-Yvelines",
        bibQuota: 2_500,
        price: 110,
      },
      {
        name: "EcoTrail – 45 km",
        distance: 45_000,
        elevationGain: 800,
        time: [10, 30],
        from: "Buc",
        bibQuota: 2_500,
        price: 70,
      },
      {
        name: "EcoTrail – 18 km",
        distance: 18_000,
        elevationGain: 300,
        time: [13, 0],
        from: "Meudon",
        bibQuota: 3_000,
        price: 35,
      },
    ],
  },
  {
    name: "Marseille-Cassis",
    sport: "running",
    communeCode: "13055",
    venue: "Stade Vélodrome",
    date: { month: 10, weekday: SUNDAY, nth: -1 },
    firstYear: 1979,
    scope: "national",
    about: "Du Vélodrome au port de Cassis par la route des Crêtes et le col de la Gineste.",
    courses: [
      {
        name: "20 km",
        distance: 20_000,
        elevationGain: 380,
        time: [8, 45],
        to: "Port de Cassis",
        bibQuota: 20_000,
        price: 42,
      },
    ],
  },
  {
    name: "UTMB Mont-Blanc",
    sport: "ultra_trail",
    communeCode: "74056",
    venue: "Place du Triangle de l'Amitié",
    // The Ultra-Trail du Mont-Blanc starts on the last Friday of August; the week's races the day before.
    date: { month: 8, weekday: FRIDAY, nth: -1, shift: -1 },
    days: 3,
    firstYear: 2003,
    scope: "international",
    about:
      "La semaine de l'Ultra-Trail du Mont-Blanc : le tour du massif par l'Italie et la Suisse, et ses courses sœurs.",
    courses: [
      {
        name: "UTMB – 174 km",
        distance: 174_000,
        elevationGain: 10_000,
        day: 1,
        time: [18, 0],
        bibQuota: 2_300,
        price: 470,
      },
      {
        name: "CCC – 101 km",
        distance: 101_000,
        elevationGain: 6_100,
        day: 1,
        time: [9, 0],
        from: "Courmayeur (Italie)",
        bibQuota: 1_900,
        price: 310,
      },
      {
        name: "OCC – 57 km",
        distance: 57_000,
        elevationGain: 3_500,
        time: [8, 15],
        from: "Orsières (Suisse)",
        bibQuota: 1_600,
        price: 180,
      },
    ],
  },
  {
    name: "Marathon du lac d'Annecy",
    sport: "marathon",
    communeCode: "74010",
    venue: "Impérial Palace",
    date: { month: 4, weekday: SUNDAY, nth: 3 },
    firstYear: 2003,
    scope: "national",
    about: "Le tour du lac d'Annecy par ses rives et la piste cyclable, au pied des montagnes.",
    courses: [
      { name: "Marathon", distance: 42_195, elevationGain: 180, time: [8, 30], bibQuota: 3_000, price: 75 },
      { name: "Semi-marathon", distance: 21_097, elevationGain: 90, time: [9, 30], bibQuota: 4_000, price: 40 },
    ],
  },
  {
    name: "Run in Lyon",
    sport: "marathon",
    communeCode: "69123",
    venue: "Place Bellecour",
    date: { month: 10, weekday: SUNDAY, nth: 1 },
    firstYear: 2010,
    scope: "international",
    about:
      "Le marathon de Lyon, de la place Bellecour au Vieux-Lyon, par les quais de Saône et le parc de la Tête d'Or.",
    courses: [
      { name: "Marathon", distance: 42_195, elevationGain: 150, time: [8, 0], bibQuota: 8_000, price: 80 },
      { name: "Semi-marathon", distance: 21_097, elevationGain: 90, time: [8, 30], bibQuota: 12_000, price: 45 },
      { name: "10 km", distance: 10_000, elevationGain: 40, time: [10, 30], bibQuota: 10_000, price: 25 },
    ],
  },
  {
    name: "Marathon de Toulouse",
    sport: "marathon",
    communeCode: "31555",
    venue: "Allées Jean-Jaurès",
    date: { month: 10, weekday: SUNDAY, nth: -1 },
    firstYear: 2007,
    scope: "national",
    about: "Un marathon roulant à travers la ville rose, du canal du Midi aux bords de Garonne.",
    courses: [
      { name: "Marathon", distance: 42_195, elevationGain: 120, time: [8, 30], bibQuota: 6_000, price: 65 },
      {
        name: "Marathon relais (4 relayeurs)",
        type: "relay",
        distance: 42_195,
        elevationGain: 120,
        time: [8, 30],
        bibQuota: 600,
        price: 120,
      },
      { name: "10 km", distance: 10_000, elevationGain: 30, time: [10, 0], bibQuota: 4_000, price: 20 },
    ],
  },
  {
    name: "Marathon de La Rochelle",
    sport: "marathon",
    communeCode: "17300",
    venue: "Vieux-Port",
    date: { month: 11, weekday: SUNDAY, nth: -1 },
    firstYear: 1991,
    scope: "national",
    about: "Une boucle par le Vieux-Port, les quais et le front de mer, pour finir devant les tours.",
    courses: [
      { name: "Marathon", distance: 42_195, elevationGain: 60, time: [9, 0], bibQuota: 10_000, price: 70 },
      {
        name: "Marathon en duo",
        type: "relay",
        distance: 42_195,
        elevationGain: 60,
        time: [9, 0],
        bibQuota: 1_000,
        price: 90,
      },
    ],
  },
  {
    name: "Marathon Nice-Cannes",
    sport: "marathon",
    communeCode: "06088",
    venue: "Promenade des Anglais",
    date: { month: 11, weekday: SUNDAY, nth: 2 },
    firstYear: 2008,
    scope: "international",
    about: "De la promenade des Anglais à la Croisette, tout au long de la Méditerranée.",
    courses: [{ name: "Marathon", distance: 42_195, elevationGain: 120, time: [8, 0], bibQuota: 14_000, price: 85 }],
  },
  {
    name: "Marathon de Nantes",
    sport: "marathon",
    communeCode: "44109",
    venue: "Cours Saint-Pierre",
    date: { month: 4, weekday: SUNDAY, nth: -1 },
    firstYear: 2001,
    scope: "national",
    about: "De l'île de Nantes au château des ducs de Bretagne, par les bords de l'Erdre.",
    courses: [
      { name: "Marathon", distance: 42_195, elevationGain: 140, time: [9, 0], bibQuota: 5_000, price: 65 },
      { name: "Semi-marathon", distance: 21_097, elevationGain: 70, time: [9, 15], bibQuota: 6_000, price: 35 },
      { name: "10 km", distance: 10_000, elevationGain: 35, time: [9, 30], bibQuota: 4_000, price: 20 },
    ],
  },
  {
    name: "Marathon de la baie du Mont-Saint-Michel",
    sport: "marathon",
    communeCode: "35049",
    venue: "Port de la Houle",
    date: { month: 5, weekday: SUNDAY, nth: -1 },
    firstYear: 1998,
    scope: "national",
    about: "De Cancale au Mont-Saint-Michel, le long de la baie et des polders.",
    courses: [
      {
        name: "Marathon",
        distance: 42_195,
        elevationGain: 90,
        time: [9, 0],
        to: "Le Mont-Saint-Michel",
        bibQuota: 4_000,
        price: 65,
      },
    ],
  },
  {
    name: "Semi-marathon de Boulogne-Billancourt",
    sport: "half_marathon",
    communeCode: "92012",
    venue: "Avenue Jean-Baptiste-Clément",
    date: { month: 11, weekday: SUNDAY, nth: 3 },
    firstYear: 1996,
    scope: "national",
    about: "L'un des semi-marathons les plus rapides de France, entre la Seine et le bois de Boulogne.",
    courses: [
      { name: "Semi-marathon", distance: 21_097, elevationGain: 50, time: [9, 0], bibQuota: 10_000, price: 40 },
    ],
  },
  {
    name: "Paris-Roubaix Challenge",
    sport: "cycling",
    communeCode: "59512",
    venue: "Vélodrome André-Pétrieux",
    // The day before the professionals' Paris-Roubaix, the second Sunday of April.
    date: { month: 4, weekday: SUNDAY, nth: 2, shift: -1 },
    firstYear: 2012,
    scope: "international",
    about: "Les secteurs pavés de l'Enfer du Nord, jusqu'au tour de piste du vélodrome de Roubaix.",
    courses: [
      {
        name: "Grand parcours – 170 km",
        distance: 170_000,
        elevationGain: 900,
        time: [7, 0],
        from: "Busigny",
        bibQuota: 2_000,
        price: 75,
      },
      {
        name: "Parcours moyen – 145 km",
        distance: 145_000,
        elevationGain: 750,
        time: [7, 30],
        from: "Busigny",
        bibQuota: 2_000,
        price: 70,
      },
      {
        name: "Petit parcours – 70 km",
        distance: 70_000,
        elevationGain: 300,
        time: [9, 0],
        bibQuota: 2_000,
        price: 50,
      },
    ],
  },
  {
    name: "Embrunman",
    sport: "ironman",
    communeCode: "05046",
    venue: "Plan d'eau d'Embrun",
    date: { month: 8, day: 15 },
    firstYear: 1984,
    scope: "international",
    about:
      "Le triathlon le plus dur d'Europe : le lac de Serre-Ponçon, le col de l'Izoard, puis un marathon autour d'Embrun.",
    courses: [
      {
        name: "Embrunman (3,8 km / 188 km / 42,195 km)",
        distance: 233_995,
        elevationGain: 4_200,
        time: [6, 0],
        bibQuota: 1_300,
        price: 420,
      },
    ],
  },
  {
    name: "Ironman Nice",
    sport: "ironman",
    communeCode: "06088",
    venue: "Promenade des Anglais",
    date: { month: 6, weekday: SUNDAY, nth: 4 },
    firstYear: 2005,
    scope: "international",
    about: "La baie des Anges à la nage, l'arrière-pays niçois à vélo, la promenade des Anglais en courant.",
    courses: [
      {
        name: "Ironman (3,8 km / 180 km / 42,195 km)",
        distance: 225_995,
        elevationGain: 2_500,
        time: [6, 30],
        bibQuota: 2_500,
        price: 650,
      },
    ],
  },
  {
    name: "Ironman 70.3 Aix-en-Provence",
    sport: "ironman",
    communeCode: "13001",
    venue: "Lac de Peyrolles",
    date: { month: 5, weekday: SUNDAY, nth: 3 },
    firstYear: 2012,
    scope: "international",
    about:
      "La nage dans le lac de Peyrolles, le vélo au pied de la Sainte-Victoire, l'arrivée au cœur d'Aix-en-Provence.",
    courses: [
      {
        name: "Ironman 70.3 (1,9 km / 90 km / 21,097 km)",
        distance: 112_997,
        elevationGain: 1_300,
        time: [7, 0],
        bibQuota: 2_500,
        price: 330,
      },
    ],
  },
  {
    name: "Triathlon de Gérardmer",
    sport: "triathlon",
    communeCode: "88196",
    venue: "Esplanade du lac",
    date: { month: 9, weekday: SUNDAY, nth: 1 },
    firstYear: 1988,
    scope: "national",
    about: "La nage dans le lac de Gérardmer, le vélo sur les routes des Vosges.",
    courses: [
      {
        name: "Triathlon L (1,9 km / 90 km / 21,1 km)",
        distance: 113_000,
        elevationGain: 1_600,
        time: [9, 0],
        bibQuota: 1_200,
        price: 150,
      },
      {
        name: "Triathlon S (0,75 km / 20 km / 5 km)",
        distance: 25_750,
        elevationGain: 300,
        time: [14, 0],
        bibQuota: 800,
        price: 40,
      },
    ],
  },
];

/** A race's day in `year`, as a day number. */
export function famousDay(date: FamousDate, year: number): number {
  const iso = (month: number, day: number) =>
    `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  if ("day" in date) return dayNumber(iso(date.month, date.day));
  const first = dayNumber(iso(date.month, 1));
  const lastOfMonth = (date.month === 12 ? dayNumber(`${year + 1}-01-01`) : dayNumber(iso(date.month + 1, 1))) - 1;
  const day =
    date.nth === -1
      ? lastOfMonth - ((weekday(fromDayNumber(lastOfMonth)) - date.weekday + 7) % 7)
      : first + ((date.weekday - weekday(fromDayNumber(first)) + 7) % 7) + 7 * (date.nth - 1);
  return day + (date.shift ?? 0);
}

/**
 * The days of a race's editions within [first, last] (the last edition ending by `last`), oldest
 * first, one a year and 364 days apart (the same weekday) like every series of the catalogue: taken
 * from the rule in the year of the latest edition, or of the earliest when that keeps every edition
 * in the race's month (the rule drifts by a day a year).
 */
export function famousDays(date: FamousDate, first: number, last: number, days = 0): number[] {
  const years: number[] = [];
  for (let year = Number(fromDayNumber(first).slice(0, 4)); year <= Number(fromDayNumber(last).slice(0, 4)); year++) {
    const day = famousDay(date, year);
    if (day >= first && day + days <= last) years.push(year);
  }
  if (!years.length) return [];
  const n = years.length;
  const inMonth = (day: number) => Number(fromDayNumber(day).slice(5, 7)) === date.month;
  const fromLatest = years.map((_, i) => famousDay(date, years[n - 1]) - 364 * (n - 1 - i));
  const fromEarliest = years.map((_, i) => famousDay(date, years[0]) + 364 * i);
  const chosen = fromLatest.every(inMonth) ? fromLatest : fromEarliest;
  return chosen.filter((day) => day >= first && day + days <= last);
}
