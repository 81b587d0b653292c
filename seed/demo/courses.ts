import type { Rng } from "../../platform/prng.ts";
import type { CourseType, SportKey } from "../../shared/constants.ts";
import type { FamousRace } from "./famous.ts";
import { frenchNumber, km } from "./names.ts";

/** One race of an event, before dates and prices: the same every year for an event with editions. */
export type CourseSpec = {
  name: string;
  type: CourseType;
  distance: number | null;
  duration: number | null;
  elevationGain: number | null;
  /** Minutes after the event's first start. */
  startOffset: number;
  pointToPoint: boolean;
  /** What the price and track depend on. */
  kind: "road" | "trail" | "multisport" | "bike" | "kids" | "walk";
  description: string;
  bibQuota: number | null;
  refuellingPoints: number | null;
  mandatoryEquipment: string | null;
  minAge: number | null;
  itraPoints: number | null;
  utmbIndex: string | null;
  challenge: string | null;
  basePrice: number;
};

export type CourseContext = {
  /** 0 plain … 1 high mountain. */
  mountain: number;
  population: number;
  timed: boolean;
  connected: boolean;
  departmentName: string;
  regionName: string;
  /** Hint from the name: a night race starts in the evening. */
  night: boolean;
  /** What the name promises (names.ts `EventName`): "Les 10 km", "Les 24 heures", "Ironman 70.3"… */
  distance?: number;
  hours?: number;
  ironman?: "full" | "half";
  vertical?: boolean;
  long?: boolean;
};

const roundTo = (x: number, step: number) => Math.round(x / step) * step;

/** Metres of climbing per km, by kind of race and terrain. */
function climbRate(kind: "road" | "trail" | "ultra" | "bike" | "cycling", mountain: number, rng: Rng): number {
  switch (kind) {
    case "road":
      return rng.range(0, 4) + 10 * mountain * rng.next();
    case "trail":
      return mountain > 0.45 ? rng.range(40, 65) : mountain > 0.2 ? rng.range(30, 48) : rng.range(15, 32);
    case "ultra":
      return mountain > 0.45 ? rng.range(45, 65) : mountain > 0.2 ? rng.range(32, 50) : rng.range(18, 32);
    case "bike":
      return mountain > 0.45 ? rng.range(28, 42) : rng.range(12, 28);
    case "cycling":
      return mountain > 0.45 ? rng.range(18, 30) : rng.range(5, 14);
  }
}

const EQUIPMENT_BASE = [
  "réserve d'eau de 1 L minimum",
  "gobelet personnel",
  "couverture de survie",
  "sifflet",
  "téléphone portable chargé",
];
const EQUIPMENT_LONG = [
  "veste imperméable avec capuche",
  "lampe frontale avec piles de rechange",
  "réserve alimentaire",
  "bande élastique adhésive",
  "pantalon ou collant long",
  "bonnet et gants",
];

function mandatoryEquipment(distance: number, elevation: number, rng: Rng): string | null {
  if (distance < 25_000 && elevation < 1_500) return null;
  const long = distance >= 60_000 || elevation >= 3_000;
  const items = [...EQUIPMENT_BASE, ...(long ? EQUIPMENT_LONG : rng.sample(EQUIPMENT_LONG, 2))];
  const text = items.join(", ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** ITRA points from the effort (km + D+/100), as the scale published by ITRA. */
function itraPoints(distance: number, elevation: number): number | null {
  const effort = distance / 1000 + elevation / 100;
  if (effort < 25) return null;
  if (effort < 45) return 1;
  if (effort < 75) return 2;
  if (effort < 115) return 3;
  if (effort < 155) return 4;
  if (effort < 210) return 5;
  return 6;
}

function utmbCategory(distance: number, elevation: number): string | null {
  const effort = distance / 1000 + elevation / 100;
  if (effort < 20) return null;
  if (effort < 45) return "20K";
  if (effort < 75) return "50K";
  if (effort < 160) return "100K";
  return "100M";
}

/** A bib quota in [min, max], grown for big cities when `cityBoost` > 0, rounded to 50. */
function bib(min: number, max: number, rng: Rng, population: number, cityBoost = 0): number {
  const factor =
    cityBoost > 0 ? Math.min(12, Math.max(0.4, (Math.max(population, 1) / 20_000) ** (0.25 * cityBoost))) : 1;
  return Math.min(50_000, Math.max(50, roundTo(rng.range(min, max) * factor, 50)));
}

type Draft = Omit<
  CourseSpec,
  "startOffset" | "refuellingPoints" | "mandatoryEquipment" | "itraPoints" | "utmbIndex" | "challenge" | "description"
> & {
  description?: string;
};

/**
 * Names of trail courses by length and rank: an ultra is long, a discovery short, the event's main
 * course is its "grand parcours" whatever its length; summits only in the mountains.
 */
function trailLabels(distance: number, mountain: number, main: boolean): string[] {
  const summits = mountain > 0.3;
  if (distance >= 80_000) return ["L'Ultra", "Le Grand Raid", "L'Intégrale", "La Grande Traversée"];
  if (distance >= 42_000)
    return ["L'Intégrale", "Le Grand Parcours", "Le Grand Trail", ...(summits ? ["Le Trail des Cimes"] : [])];
  if (main) return ["Le Trail", "Le Grand Parcours", "L'Intégrale", ...(summits ? ["Le Parcours des Crêtes"] : [])];
  if (distance >= 20_000)
    return ["Le Trail", "La Mi-Course", "Le Moyen Parcours", ...(summits ? ["Le Parcours des Crêtes"] : [])];
  return ["La Découverte", "Le Petit Trail", "L'Initiation", "La Balade des Coureurs"];
}

/** Courses of an event: 1 to 5, the main one first. */
export function courseSpecs(sport: SportKey, ctx: CourseContext, rng: Rng): CourseSpec[] {
  const drafts: Draft[] = [];
  const m = ctx.mountain;
  const pop = ctx.population;
  const road = (distance: number, name: string, type: CourseType = "race", basePrice?: number): Draft => ({
    name,
    type,
    distance,
    duration: null,
    elevationGain: Math.round((distance / 1000) * climbRate("road", m, rng)),
    pointToPoint: false,
    kind: type === "walk" ? "walk" : type === "kids" ? "kids" : "road",
    bibQuota: type === "kids" ? bib(50, 200, rng, pop) : bib(200, 1200, rng, pop, 1),
    minAge:
      type === "kids" ? rng.int(6, 9) : distance > 21_000 ? 20 : distance > 15_000 ? 18 : distance >= 10_000 ? 16 : 12,
    basePrice:
      basePrice ?? (type === "kids" ? rng.pick([0, 0, 3, 5]) : roundTo(6 + (distance / 1000) * rng.range(0.9, 1.4), 1)),
  });
  const kids = (label = "Course des enfants"): Draft => {
    const distance = roundTo(rng.range(800, 2500), 500);
    return road(distance, `${label} – ${km(distance)}`, "kids");
  };
  const walk = (): Draft => {
    const distance = roundTo(rng.range(6_000, 12_000), 500);
    return { ...road(distance, `Marche nordique ${km(distance)}`, "walk"), basePrice: rng.pick([5, 6, 8, 10]) };
  };

  // Each course of an event under its own label.
  const labelled = new Set<string>();
  const label = (distance: number, names = trailLabels(distance, m, drafts.length === 0)): string => {
    const free = names.filter((name) => !labelled.has(name));
    const chosen = rng.pick(free.length ? free : names);
    labelled.add(chosen);
    return chosen;
  };
  const trail = (distance: number, label: string, ultra = false): Draft => {
    const elevationGain = roundTo((distance / 1000) * climbRate(ultra ? "ultra" : "trail", m, rng), 10);
    return {
      name: `${label} – ${km(distance)}`,
      type: "race",
      distance,
      duration: null,
      elevationGain,
      pointToPoint: ultra ? rng.chance(0.5) : rng.chance(0.1),
      kind: "trail",
      bibQuota: ultra ? bib(200, 1500, rng, pop) : bib(150, 800, rng, pop),
      minAge: distance >= 42_000 ? 20 : distance >= 20_000 ? 18 : 16,
      basePrice: roundTo(8 + (distance / 1000) * rng.range(0.8, 1.2) + elevationGain / 200, 1),
    };
  };

  switch (sport) {
    case "running": {
      if (ctx.timed) {
        // The hours the name announces are the longest race.
        const hours = rng.pick(
          [[6], [6, 12], [6, 24], [12, 24], [6, 12, 24], [24]].filter(
            (h) => ctx.hours === undefined || Math.max(...h) === ctx.hours,
          ),
        );
        for (const h of [...hours].reverse())
          drafts.push({
            name: `${h} heures`,
            type: "race",
            distance: null,
            duration: h * 3600,
            elevationGain: null,
            pointToPoint: false,
            kind: "road",
            bibQuota: bib(60, 300, rng, pop),
            minAge: h >= 12 ? 20 : 18,
            basePrice: roundTo(15 + h * rng.range(1.5, 2.5), 1),
          });
        if (rng.chance(0.5))
          drafts.push({
            ...drafts[0],
            name: `${drafts[0].name} en relais`,
            type: "relay",
            basePrice: drafts[0].basePrice * 3,
          });
        break;
      }
      const main =
        ctx.distance ??
        rng.weighted<number>([
          [10_000, 6],
          [5_000, 1.5],
          [15_000, 1],
          [12_000, 1],
          [8_000, 1],
          [20_000, 0.5],
        ]);
      drafts.push(road(main, ctx.connected ? `${km(main)} connecté` : km(main), ctx.connected ? "virtual" : "race"));
      if (!ctx.connected) {
        if (main > 5_000 && rng.chance(0.6)) drafts.push(road(5_000, km(5_000)));
        if (main >= 10_000 && rng.chance(0.15)) drafts.push(road(21_097, "Semi-marathon"));
        if (rng.chance(0.3)) drafts.push(walk());
        if (rng.chance(0.35)) drafts.push(kids());
      }
      break;
    }
    case "half_marathon":
      drafts.push({ ...road(21_097, "Semi-marathon"), bibQuota: bib(500, 3000, rng, pop, 1.5) });
      if (rng.chance(0.7)) drafts.push(road(10_000, km(10_000)));
      if (rng.chance(0.3)) drafts.push({ ...road(21_097, "Semi-marathon en duo", "relay"), basePrice: 45 });
      if (rng.chance(0.35)) drafts.push(road(5_000, km(5_000)));
      if (rng.chance(0.25)) drafts.push(kids());
      break;
    case "marathon":
      drafts.push({
        ...road(42_195, "Marathon"),
        bibQuota: bib(1000, 6000, rng, pop, 2),
        basePrice: roundTo(rng.range(45, 75) + Math.max(0, Math.log10(pop) - 5) * 30, 1),
      });
      if (rng.chance(0.8)) drafts.push(road(21_097, "Semi-marathon"));
      if (rng.chance(0.4)) drafts.push({ ...road(42_195, "Marathon relais (4 relayeurs)", "relay"), basePrice: 120 });
      // Its shortest race is a 10 km: children run elsewhere.
      if (rng.chance(0.5)) drafts.push(road(10_000, km(10_000)));
      break;
    case "trail":
    case "short_trail": {
      if (ctx.vertical) {
        // A vertical kilometre: 1,000 m up in a few kilometres, then a trail for the others.
        const distance = roundTo(rng.range(3, 5) * 1000, 100);
        drafts.push({
          name: `Kilomètre vertical – ${km(distance)}`,
          type: "race",
          distance,
          duration: null,
          elevationGain: 1_000,
          pointToPoint: true,
          kind: "trail",
          bibQuota: bib(100, 400, rng, pop),
          minAge: 18,
          basePrice: roundTo(rng.range(15, 25), 1),
        });
        const other = roundTo(rng.range(10, 20) * 1000, 500);
        if (rng.chance(0.6)) drafts.push(trail(other, label(other)));
        break;
      }
      const [lo, hi] =
        sport === "trail"
          ? rng.weighted<[number, number]>([
              [[18, 28], 3],
              [[28, 45], 3],
              [[45, 60], 1],
            ])
          : [7, 20];
      const main = roundTo(rng.range(lo, hi) * 1000, 500);
      drafts.push(trail(main, label(main)));
      const extra = sport === "trail" ? rng.int(1, 3) : rng.int(0, 2);
      let distance = main;
      for (let i = 0; i < extra; i++) {
        distance = roundTo(distance * rng.range(0.4, 0.7), 500);
        if (distance < 5_000) break;
        drafts.push(trail(distance, label(distance)));
      }
      if (rng.chance(0.2)) drafts.push({ ...walk(), elevationGain: roundTo(rng.range(100, 400), 10) });
      if (drafts.length < 5 && rng.chance(0.2)) drafts.push(kids("Trail des enfants"));
      break;
    }
    case "ultra_trail": {
      const main = rng.pick([80, 90, 100, 110, 120, 140, 160, 170]) * 1000;
      drafts.push(trail(main, label(main), true));
      // The middle course: a trail marathon, or a long trail.
      const middle = rng.chance(0.3) ? 42_195 : roundTo(rng.range(40, 65) * 1000, 1000);
      drafts.push(
        trail(middle, middle === 42_195 ? (m > 0.3 ? "Le Marathon des Cimes" : "Le Marathon nature") : label(middle)),
      );
      const short = roundTo(rng.range(18, 30) * 1000, 1000);
      if (rng.chance(0.7)) drafts.push(trail(short, label(short)));
      if (rng.chance(0.3))
        drafts.push({
          ...drafts[0],
          name: `${drafts[0].name} en relais`,
          type: "relay",
          basePrice: drafts[0].basePrice * 1.5,
        });
      break;
    }
    case "triathlon": {
      const formats = [
        { label: "XS", swim: 400, bike: 10_000, run: 2_500, price: 20 },
        { label: "S", swim: 750, bike: 20_000, run: 5_000, price: 35 },
        { label: "M", swim: 1_500, bike: 40_000, run: 10_000, price: 65 },
        { label: "L", swim: 2_500, bike: 80_000, run: 20_000, price: 110 },
      ];
      const chosen = rng.sample(formats, rng.int(1, 3)).sort((a, b) => b.swim - a.swim);
      for (const f of chosen) {
        const distance = f.swim + f.bike + f.run;
        drafts.push({
          name: `Triathlon ${f.label} (${km(f.swim)} / ${km(f.bike)} / ${km(f.run)})`,
          type: "race",
          distance,
          duration: null,
          elevationGain: roundTo((f.bike / 1000) * climbRate("cycling", m, rng) + (f.run / 1000) * 5, 10),
          pointToPoint: false,
          kind: "multisport",
          bibQuota: bib(150, 800, rng, pop),
          minAge: f.label === "XS" ? 12 : f.label === "S" ? 14 : f.label === "M" ? 16 : 18,
          basePrice: f.price + rng.int(-5, 10),
        });
      }
      if (rng.chance(0.3))
        drafts.push({
          ...drafts[drafts.length - 1],
          name: `${drafts[drafts.length - 1].name} en relais`,
          type: "relay",
        });
      if (drafts.length < 5 && rng.chance(0.2))
        drafts.push({
          ...drafts[drafts.length - 1],
          name: "Triathlon jeunes (100 m / 2 km / 500 m)",
          type: "kids",
          kind: "kids",
          distance: 2_600,
          elevationGain: 0,
          minAge: 8,
          basePrice: 5,
        });
      break;
    }
    case "ironman": {
      const full = ctx.ironman ? ctx.ironman === "full" : rng.chance(0.5);
      const legs = full
        ? { label: "Ironman", swim: 3_800, bike: 180_000, run: 42_195, price: rng.range(380, 650) }
        : { label: "Ironman 70.3", swim: 1_900, bike: 90_000, run: 21_097, price: rng.range(220, 350) };
      const base: Draft = {
        name: `${legs.label} (${km(legs.swim)} / ${km(legs.bike)} / ${km(legs.run)})`,
        type: "race",
        distance: legs.swim + legs.bike + legs.run,
        duration: null,
        elevationGain: roundTo((legs.bike / 1000) * climbRate("cycling", m, rng) + (legs.run / 1000) * 4, 10),
        pointToPoint: false,
        kind: "multisport",
        bibQuota: bib(1500, 3000, rng, pop),
        minAge: 18,
        basePrice: roundTo(legs.price, 5),
      };
      drafts.push(base);
      if (full && rng.chance(0.4)) {
        drafts.push({
          ...base,
          name: "Ironman 70.3 (1,9 km / 90 km / 21,097 km)",
          distance: 112_997,
          elevationGain: roundTo((base.elevationGain ?? 0) / 2, 10),
          basePrice: roundTo(base.basePrice * 0.55, 5),
        });
      }
      if (rng.chance(0.3))
        drafts.push({ ...base, name: `${base.name} en relais`, type: "relay", basePrice: base.basePrice * 1.2 });
      break;
    }
    case "swimrun": {
      const main = roundTo(rng.range(18, 42) * 1000, 500);
      const swimRatio = rng.range(0.12, 0.2);
      const swimrun = (distance: number, label: string, team: boolean): Draft => ({
        name: `${label} – ${km(distance)} dont ${km(roundTo(distance * swimRatio, 100))} de nage`,
        type: team ? "team" : "race",
        distance,
        duration: null,
        elevationGain: roundTo((distance / 1000) * (1 - swimRatio) * climbRate("trail", m, rng) * 0.5, 10),
        pointToPoint: rng.chance(0.3),
        kind: "multisport",
        bibQuota: bib(60, 300, rng, pop),
        minAge: 18,
        basePrice: roundTo(40 + (distance / 1000) * rng.range(2, 3.5), 5),
      });
      drafts.push(swimrun(main, rng.pick(["Le Long", "L'Intégrale", "Le Grand Format"]), rng.chance(0.7)));
      if (rng.chance(0.8)) drafts.push(swimrun(roundTo(main * rng.range(0.4, 0.6), 500), "Le Court", rng.chance(0.5)));
      if (rng.chance(0.4)) drafts.push(swimrun(roundTo(rng.range(5, 8) * 1000, 500), "La Découverte", false));
      break;
    }
    case "mtb": {
      // A "marathon VTT" is long.
      const main = roundTo((ctx.long ? rng.range(60, 100) : rng.range(30, 80)) * 1000, 1000);
      let distance = main;
      const count = rng.int(1, 4);
      for (let i = 0; i < count; i++) {
        const elevationGain = roundTo((distance / 1000) * climbRate("bike", m, rng), 10);
        drafts.push({
          name: `${i === 0 ? "Grand parcours VTT" : i === 1 ? "Parcours VTT" : "Petit parcours VTT"} – ${km(distance)}`,
          type: "race",
          distance,
          duration: null,
          elevationGain,
          pointToPoint: false,
          kind: "bike",
          bibQuota: bib(150, 900, rng, pop),
          minAge: distance >= 40_000 ? 16 : 12,
          basePrice: roundTo(8 + (distance / 1000) * rng.range(0.3, 0.5), 1),
        });
        distance = roundTo(distance * rng.range(0.5, 0.75), 1000);
        if (distance < 12_000) break;
      }
      if (drafts.length < 5 && rng.chance(0.15))
        drafts.push({
          ...drafts[drafts.length - 1],
          name: "VTT jeunes – 8 km",
          distance: 8_000,
          type: "kids",
          kind: "kids",
          elevationGain: 100,
          minAge: 8,
          basePrice: 3,
        });
      break;
    }
    case "cycling": {
      const main = roundTo(rng.range(80, 180) * 1000, 5000);
      let distance = main;
      const count = rng.int(1, 3);
      for (let i = 0; i < count; i++) {
        drafts.push({
          name: `${i === 0 ? "Grand parcours" : i === 1 ? "Parcours moyen" : "Petit parcours"} – ${km(distance)}`,
          type: "race",
          distance,
          duration: null,
          elevationGain: roundTo((distance / 1000) * climbRate("cycling", m, rng), 10),
          pointToPoint: false,
          kind: "bike",
          bibQuota: bib(200, 1500, rng, pop),
          minAge: 16,
          basePrice: roundTo(10 + (distance / 1000) * rng.range(0.15, 0.3), 1),
        });
        distance = roundTo(distance * rng.range(0.5, 0.7), 5000);
        if (distance < 40_000) break;
      }
      break;
    }
  }

  const courses = drafts.slice(0, 5);
  const challenge =
    rng.chance(0.1) && courses.length > 0
      ? rng.pick([
          `Challenge ${ctx.departmentName}`,
          `${ctx.regionName} ${sport.includes("trail") ? "Trail Tour" : "Running Tour"}`,
          `Coupe ${ctx.regionName}`,
        ])
      : null;
  return completed(courses, challenge, rng);
}

/** The courses of a well-known race (famous.ts), as its table gives them, with the same details as the others. */
export function famousCourseSpecs(race: FamousRace, rng: Rng): CourseSpec[] {
  const kind: CourseSpec["kind"] =
    race.sport === "trail" || race.sport === "short_trail" || race.sport === "ultra_trail"
      ? "trail"
      : race.sport === "triathlon" || race.sport === "ironman" || race.sport === "swimrun"
        ? "multisport"
        : race.sport === "mtb" || race.sport === "cycling"
          ? "bike"
          : "road";
  const minutes = race.courses.map((c) => (c.day ?? 0) * 1440 + c.time[0] * 60 + c.time[1]);
  const first = Math.min(...minutes);
  const drafts = race.courses.map(
    (c): Draft => ({
      name: c.name,
      type: c.type ?? "race",
      distance: c.distance,
      duration: null,
      elevationGain: c.elevationGain,
      pointToPoint: Boolean(c.from || c.to),
      kind,
      bibQuota: c.bibQuota,
      minAge: kind === "multisport" || c.distance > 21_100 ? 20 : c.distance > 15_000 ? 18 : 16,
      basePrice: c.price,
    }),
  );
  return completed(
    drafts,
    null,
    rng,
    minutes.map((m) => m - first),
  );
}

/** Start offsets, aid stations, kit, ITRA points and descriptions of an event's courses (the main one first). */
function completed(courses: Draft[], challenge: string | null, rng: Rng, startOffsets?: number[]): CourseSpec[] {
  return courses.map((draft, i) => {
    const distance = draft.distance ?? 0;
    const elevation = draft.elevationGain ?? 0;
    const isTrail = draft.kind === "trail";
    // A well-known race (given start offsets) is on the ITRA and UTMB calendars.
    const itra = isTrail && (startOffsets || rng.chance(0.6)) ? itraPoints(distance, elevation) : null;
    const utmb = isTrail && (startOffsets || rng.chance(0.3)) ? utmbCategory(distance, elevation) : null;
    return {
      ...draft,
      startOffset: startOffsets ? startOffsets[i] : i === 0 ? 0 : rng.pick([15, 30, 45, 60, 90, 120]),
      refuellingPoints:
        draft.kind === "kids" || draft.distance === null
          ? null
          : Math.floor(distance / (isTrail ? 9_000 : draft.kind === "road" ? 5_000 : 20_000)),
      mandatoryEquipment: isTrail ? mandatoryEquipment(distance, elevation, rng) : null,
      itraPoints: itra,
      utmbIndex: utmb,
      challenge: challenge && i === 0 && draft.type === "race" ? challenge : null,
      description:
        draft.description ??
        describeCourse(draft.distance, draft.duration, draft.elevationGain, draft.kind, draft.type, rng),
    };
  });
}

function describeCourse(
  distance: number | null,
  duration: number | null,
  elevation: number | null,
  kind: CourseSpec["kind"],
  type: CourseType,
  rng: Rng,
): string {
  if (duration !== null)
    return `Course de ${duration / 3600} heures sur une boucle de ${frenchNumber(rng.pick([1, 1.2, 1.5, 2]))} km : le plus grand nombre de tours l'emporte.`;
  if (type === "kids") return "Course réservée aux enfants, encadrée par les bénévoles. Certificat médical non exigé.";
  if (type === "walk") return "Marche non chronométrée, ouverte à tous. Bâtons conseillés.";
  const d = km(distance ?? 0);
  const dplus = elevation ? `${frenchNumber(elevation)} m D+` : "parcours plat";
  switch (kind) {
    case "trail":
      return rng.pick([
        `${d} et ${dplus} sur sentiers, avec plusieurs ravitaillements.`,
        `Un parcours de ${d} (${dplus}) exigeant, alternant montées sèches et descentes techniques.`,
        `${d}, ${dplus} : un tracé nature à travers bois et crêtes.`,
      ]);
    case "road":
      return rng.pick([
        `Parcours de ${d} homologué, ${dplus}.`,
        `${d} sur route, ${dplus}, propice aux records.`,
        `Boucle de ${d} en centre-ville (${dplus}).`,
      ]);
    case "multisport":
      return `Épreuve enchaînée de ${d} au total, ${dplus} sur les parties vélo et course à pied.`;
    default:
      return `Parcours de ${d} avec ${dplus}, balisé et sécurisé.`;
  }
}
