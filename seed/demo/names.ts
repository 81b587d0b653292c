import type { Rng } from "../../platform/prng.ts";
import type { SportKey } from "../../shared/constants.ts";
import type { Anchor } from "./terrain.ts";

const ELIDING = /^[AEIOUYÂÀÉÈÊËÎÏÔÖÛÙÜŒH]/i;
/** Names whose "h" is aspirated: « de Haut Valromey », « de Hazebrouck », « de Haguenau », not « d'H… ». */
const ASPIRATED_H = /^Ha/;

/** "de Nantes", "d'Annecy", "du Havre", "des Sables-d'Olonne", "de La Rochelle". */
export function withDe(name: string): string {
  if (name.startsWith("Le ")) return `du ${name.slice(3)}`;
  if (name.startsWith("Les ")) return `des ${name.slice(4)}`;
  if (ELIDING.test(name) && !ASPIRATED_H.test(name)) return `d'${name}`;
  return `de ${name}`;
}

/** "à Nantes", "au Havre", "aux Sables-d'Olonne". */
export function withA(name: string): string {
  if (name.startsWith("Le ")) return `au ${name.slice(3)}`;
  if (name.startsWith("Les ")) return `aux ${name.slice(4)}`;
  return `à ${name}`;
}

/** The part of a commune name that survives "de"/"à" contractions: "Le Havre" → "Havre". */
export function placeCore(name: string): string {
  return name.replace(/^(Le|Les) /, "");
}

export type NameContext = {
  city: string;
  massif: Anchor | null;
  water: Anchor | null;
  mountain: number;
  water01: number;
  /** Near the sea rather than a lake. */
  coastal: boolean;
};

/** A race's name and what it promises: the courses the name announces (`Les 10 km`, `Ironman 70.3`…). */
export type EventName = {
  name: string;
  night?: boolean;
  months?: number[];
  timed?: boolean;
  connected?: boolean;
  /** The main course's distance, in metres, when the name gives it. */
  distance?: number;
  /** The longest timed race, in hours, when the name gives it. */
  hours?: number;
  ironman?: "full" | "half";
  /** A vertical kilometre: 1,000 m of climbing on a few kilometres. */
  vertical?: boolean;
  /** A long mountain-bike race (a "marathon VTT", 60 km and more). */
  long?: boolean;
};

const MOUNTAIN_WORDS = [
  "Crêtes",
  "Cimes",
  "Sommets",
  "Balcons",
  "Lacs",
  "Cascades",
  "Forts",
  "Estives",
  "Chamois",
  "Bergers",
];
const HILL_WORDS = [
  "Coteaux",
  "Châteaux",
  "Vignes",
  "Bois",
  "Étangs",
  "Moulins",
  "Lavoirs",
  "Chemins creux",
  "Sources",
];
const SEA_WORDS = ["Falaises", "Douaniers", "Dunes", "Phares", "Criques", "Caps", "Pins", "Embruns"];
const TOWN_WORDS = ["Remparts", "Quais", "Ponts", "Lavoirs", "Moulins", "Berges", "Jardins", "Châteaux"];

function terrainWord(ctx: NameContext, rng: Rng): string {
  if (ctx.mountain > 0.45) return rng.pick(MOUNTAIN_WORDS);
  if (ctx.coastal && ctx.water01 > 0.3) return rng.pick(SEA_WORDS);
  return rng.pick(HILL_WORDS);
}

/** A believable French race name built from the place and its terrain. */
export function eventName(sport: SportKey, ctx: NameContext, rng: Rng): EventName {
  const deCity = withDe(ctx.city);
  const deMassif = ctx.massif ? ctx.massif.de : deCity;
  const deWater = ctx.water ? ctx.water.de : deCity;
  const word = () => terrainWord(ctx, rng);
  const nearMassif = ctx.massif !== null;
  switch (sport) {
    case "running": {
      if (rng.chance(0.05)) {
        const hours = rng.pick([6, 6, 12, 24]);
        return { name: `Les ${hours} heures ${deCity}`, timed: true, hours };
      }
      if (rng.chance(0.01)) return { name: `Course connectée ${deCity}`, connected: true };
      return rng.weighted<EventName>([
        [{ name: `Les Foulées ${deCity}` }, 5],
        [{ name: `Les 10 km ${deCity}`, distance: 10_000 }, 4],
        [{ name: `La Corrida ${deCity}`, night: true, months: [12] }, 1.5],
        [{ name: `La Ronde ${deCity}` }, 2],
        [{ name: `Les Boucles ${deCity}` }, 2],
        [{ name: `La Course des ${rng.pick(TOWN_WORDS)} ${deCity}` }, 2],
        [{ name: `La Nocturne ${deCity}`, night: true }, 1.5],
        [{ name: `Run in ${ctx.city}` }, 1],
        [{ name: `Cross ${deCity}`, months: [11, 12, 1, 2] }, 1],
        [{ name: `Urban Trail ${deCity}` }, 1],
        [{ name: `Course pédestre ${deCity}` }, 1.5],
        [{ name: `Les Foulées des ${word()} ${deCity}` }, 1.5],
      ]);
    }
    case "half_marathon":
      return rng.weighted<EventName>([
        [{ name: `Semi-marathon ${deCity}` }, 6],
        [{ name: `Semi-marathon international ${deCity}` }, 1],
        [{ name: `Le Semi ${deCity}` }, 2],
        [{ name: `Semi-marathon des ${word()} ${deCity}` }, 2],
      ]);
    case "marathon":
      return rng.weighted<EventName>([
        [{ name: `Marathon ${deCity}` }, 6],
        [{ name: `Marathon international ${deCity}` }, 1.5],
        [
          { name: `Marathon des ${rng.pick(["Vignes", "Châteaux", "Deux Rives", "Côtes", "Remparts"])} ${deCity}` },
          1.5,
        ],
      ]);
    case "trail":
      return rng.weighted<EventName>([
        [{ name: `Trail des Crêtes ${deMassif}` }, nearMassif ? 2 : 0],
        [{ name: `Trail ${deCity}` }, 4],
        [{ name: `Trail des ${word()} ${deCity}` }, 4],
        [{ name: `Trail des ${word()} ${deMassif}` }, nearMassif ? 3 : 0],
        [{ name: `Grand Trail ${deMassif}` }, nearMassif ? 1.5 : 0.3],
        [{ name: `Trail nocturne ${deCity}`, night: true }, 1],
        [{ name: `L'Échappée ${deMassif}` }, 1],
        [{ name: `Les Traces ${deMassif}` }, 1],
      ]);
    case "short_trail":
      return rng.weighted<EventName>([
        [{ name: `Trail court ${deCity}` }, 2],
        [{ name: `Trail découverte ${deCity}` }, 2],
        [{ name: `Les Sentiers ${deCity}` }, 2],
        [{ name: `Course nature ${deCity}` }, 2],
        [{ name: `Petit Trail des ${word()} ${deCity}` }, 2],
        [{ name: `Trail nocturne ${deCity}`, night: true }, 1],
        [{ name: `Kilomètre vertical ${deMassif}`, vertical: true }, ctx.mountain > 0.6 ? 1 : 0],
      ]);
    case "ultra_trail":
      return rng.weighted<EventName>([
        [{ name: `Ultra-Trail ${deMassif}` }, 4],
        [{ name: `Grand Raid ${deMassif}` }, 2],
        [{ name: `La Traversée ${deMassif}` }, 2],
        [{ name: `Tour ${deMassif}` }, nearMassif ? 1.5 : 0],
        [{ name: `L'Ultra des ${word()} ${deCity}` }, 1.5],
      ]);
    case "triathlon":
      return rng.weighted<EventName>([
        [{ name: `Triathlon ${deCity}` }, 5],
        [{ name: `Triathlon ${deWater}` }, ctx.water ? 3 : 0],
        [{ name: `Triathlon international ${deCity}` }, 0.7],
        [{ name: `Triathlon des ${word()} ${deCity}` }, 1],
      ]);
    case "ironman":
      return rng.weighted<EventName>([
        [{ name: `Ironman ${ctx.city}`, ironman: "full" }, 3],
        [{ name: `Ironman 70.3 ${ctx.city}`, ironman: "half" }, 3],
        [{ name: `Triathlon XXL ${deWater}` }, 1.5],
        [{ name: `L'Extrême ${deMassif}` }, nearMassif ? 1 : 0],
      ]);
    case "swimrun":
      return rng.weighted<EventName>([
        [{ name: `Swimrun ${deWater}` }, ctx.water ? 5 : 0],
        [{ name: `Swimrun ${deCity}` }, 2],
        [{ name: `Swimrun des ${ctx.coastal ? rng.pick(["Îles", "Criques", "Caps"]) : "Lacs"} ${deCity}` }, 2],
      ]);
    case "mtb":
      return rng.weighted<EventName>([
        [{ name: `Raid VTT ${deMassif}` }, 3],
        [{ name: `Rando VTT ${deCity}` }, 3],
        [{ name: `Roc ${deMassif}` }, nearMassif ? 1.5 : 0.3],
        [{ name: `Enduro ${deCity}` }, 1],
        [{ name: `VTT des ${word()} ${deCity}` }, 2],
        [{ name: `Marathon VTT ${deMassif}`, long: true }, 1],
      ]);
    case "cycling":
      return rng.weighted<EventName>([
        [{ name: `Cyclosportive ${deMassif}` }, 3],
        [{ name: `Grand Prix cycliste ${deCity}` }, 2],
        [{ name: `Randonnée cyclo ${deCity}` }, 2],
        [{ name: `L'Étape ${deMassif}` }, nearMassif ? 1.5 : 0.3],
        [{ name: `Les Boucles cyclistes ${deCity}` }, 2],
        [{ name: `La Cyclo des ${word()} ${deCity}` }, 1.5],
      ]);
  }
}

/** A club or association that could run this race. */
export function organizerName(sport: SportKey, ctx: NameContext, rng: Rng): string {
  const deCity = withDe(ctx.city);
  const common: [string, number][] = [
    [`Comité des fêtes ${deCity}`, 1],
    [`Office de tourisme ${deCity}`, 0.5],
    [`Union sportive ${deCity}`, 1],
    [`Foyer rural ${deCity}`, 0.7],
  ];
  switch (sport) {
    case "running":
    case "half_marathon":
    case "marathon":
      return rng.weighted([
        ...common,
        [`ASPTT ${ctx.city}`, 2],
        [`Athlétic Club ${deCity}`, 3],
        [`${ctx.city} Athlétisme`, 2],
        [`Running Club ${deCity}`, 2],
        [`Entente athlétique ${deCity}`, 1.5],
        [`Les Joggeurs ${deCity}`, 1],
        [`Sou des écoles ${deCity}`, 0.5],
      ]);
    case "trail":
    case "short_trail":
    case "ultra_trail":
      return rng.weighted([
        ...common,
        [`Trail Club ${ctx.massif ? ctx.massif.de : deCity}`, 3],
        [`Les Amis du trail ${deCity}`, 2],
        [`${ctx.city} Outdoor`, 1],
        [`Athlétic Club ${deCity}`, 1],
        [`ASPTT ${ctx.city}`, 0.7],
        [`Association Sentiers et Cimes ${deCity}`, 1],
      ]);
    case "triathlon":
    case "ironman":
    case "swimrun":
      return rng.weighted([
        [`${ctx.city} Triathlon`, 3],
        [`Triathlon Club ${deCity}`, 3],
        [`ASPTT ${ctx.city} Triathlon`, 1],
        [`Team Swimrun ${ctx.water ? ctx.water.de : deCity}`, sport === "swimrun" ? 3 : 0],
        [`Club nautique ${deCity}`, 1],
        [`Office de tourisme ${deCity}`, 0.5],
      ]);
    case "mtb":
    case "cycling":
      return rng.weighted([
        ...common,
        [`Vélo Club ${deCity}`, 3],
        [`${sport === "mtb" ? "VTT Club" : "Cyclo Club"} ${deCity}`, 3],
        [`Union cycliste ${deCity}`, 1.5],
        [`ASPTT ${ctx.city} Cyclisme`, 0.7],
      ]);
  }
}

const MONTHS = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];
const DAYS = ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"];

/** "samedi 14 juin 2025" for an ISO date. */
export function frenchDate(iso: string): string {
  const d = new Date(`${iso}T12:00:00Z`);
  const day = d.getUTCDate();
  return `${DAYS[d.getUTCDay()]} ${day === 1 ? "1er" : day} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** 1re, 2e, 3e… */
export function ordinal(n: number): string {
  return n === 1 ? "1re" : `${n}e`;
}

/** "2 300" with a narrow no-break space, as French typography wants; independent of the ICU data. */
export function frenchNumber(n: number): string {
  const [int, dec] = String(n).split(".");
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f");
  return dec ? `${grouped},${dec}` : grouped;
}

/** "21,1 km", "42,195 km", "10 km". */
export function km(metres: number): string {
  const value = metres / 1000;
  const text = Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
  return `${frenchNumber(Number(text))} km`;
}

const TERRAIN_SENTENCES: Record<"mountain" | "sea" | "lake" | "town" | "country", string[]> = {
  mountain: [
    "Les parcours alternent sentiers en balcon, passages de crêtes et descentes techniques, avec des panoramas à couper le souffle.",
    "Single tracks, pierriers et alpages : un terrain exigeant réservé aux coureurs préparés.",
    "Le tracé emprunte des sentiers de montagne balisés pour l'occasion, entre forêts de sapins et sommets.",
  ],
  sea: [
    "Le tracé longe le littoral par le sentier des douaniers, entre criques, plages et falaises.",
    "Un cadre exceptionnel face à la mer, avec des passages sur le sable et sur les chemins côtiers.",
  ],
  lake: [
    "Les épreuves se déroulent autour du plan d'eau, dans un cadre naturel préservé.",
    "Le site, au bord de l'eau, offre un parcours roulant et des points de vue magnifiques.",
  ],
  town: [
    "Le parcours, rapide et entièrement fermé à la circulation, traverse le centre historique.",
    "Un tracé urbain roulant, idéal pour battre son record personnel, au cœur de la ville.",
    "Ambiance garantie tout au long du parcours grâce aux animations et au public venu encourager les coureurs.",
  ],
  country: [
    "Les parcours empruntent chemins de campagne, sous-bois et petites routes à travers les villages.",
    "Un tracé vallonné et varié, entre champs, bois et coteaux.",
  ],
};

const OPTION_TEXT: Record<string, string> = {
  refuelling: "ravitaillements sur le parcours",
  meal: "repas d'après-course",
  cloakroom: "consigne",
  showers: "douches",
  reward: "cadeau finisher",
};

export type DescriptionInput = {
  name: string;
  city: string;
  departmentName: string;
  departmentCode: string;
  date: string;
  edition: number;
  terrain: keyof typeof TERRAIN_SENTENCES;
  courses: { distance: number | null; duration: number | null; elevationGain: number | null }[];
  options: Record<string, boolean | undefined>;
  organizer: string;
  volunteers: number;
  /** A sentence about the race itself, after the first one. */
  about?: string;
};

/** A few French sentences: edition and date, terrain, courses, services, organiser. */
export function eventDescription(input: DescriptionInput, rng: Rng): string {
  const sentences: string[] = [];
  sentences.push(
    rng.pick([
      `${input.name} revient pour sa ${ordinal(input.edition)} édition le ${frenchDate(input.date)} ${withA(input.city)} (${input.departmentName}).`,
      `Rendez-vous le ${frenchDate(input.date)} ${withA(input.city)} (${input.departmentCode}) pour la ${ordinal(input.edition)} édition de cette épreuve.`,
      `Pour sa ${ordinal(input.edition)} édition, l'épreuve vous attend le ${frenchDate(input.date)} ${withA(input.city)} (${input.departmentName}, ${input.departmentCode}).`,
    ]),
  );
  sentences.push(input.about ?? rng.pick(TERRAIN_SENTENCES[input.terrain]));
  const distances = input.courses.filter((c) => c.distance !== null);
  const timed = input.courses.filter((c) => c.duration !== null);
  if (input.courses.length === 1) {
    const c = input.courses[0];
    if (c.distance !== null) {
      const dplus = c.elevationGain ? ` et ${frenchNumber(c.elevationGain)} m de dénivelé positif` : "";
      sentences.push(`Au programme : un parcours unique de ${km(c.distance)}${dplus}.`);
    } else if (c.duration !== null)
      sentences.push(`Au programme : ${c.duration / 3600} heures de course sur une boucle.`);
  } else if (timed.length > 0) {
    sentences.push(
      `Au programme : ${timed.map((c) => `${(c.duration ?? 0) / 3600} h`).join(", ")} de course sur une boucle mesurée, en solo ou en relais.`,
    );
  } else if (distances.length > 1) {
    const sorted = [...distances].sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0));
    const short = sorted[0];
    const long = sorted[sorted.length - 1];
    const dplus = (c: (typeof sorted)[number]) => (c.elevationGain ? ` (${frenchNumber(c.elevationGain)} m D+)` : "");
    sentences.push(
      `Au programme : ${input.courses.length} épreuves, du ${km(short.distance ?? 0)}${dplus(short)} au ${km(long.distance ?? 0)}${dplus(long)}.`,
    );
  }
  const services = Object.entries(input.options)
    .filter(([, on]) => on)
    .map(([key]) => OPTION_TEXT[key])
    .filter(Boolean);
  if (services.length > 0) {
    const list = services.length === 1 ? services[0] : `${services.slice(0, -1).join(", ")} et ${services.at(-1)}`;
    sentences.push(`Sur place : ${list}.`);
  }
  sentences.push(
    rng.pick([
      `L'épreuve est organisée par ${input.organizer}, avec le soutien de ${input.volunteers} bénévoles.`,
      `Organisation : ${input.organizer}. Plus de ${input.volunteers} bénévoles vous accueilleront.`,
      `${input.organizer} et ses ${input.volunteers} bénévoles vous attendent nombreux !`,
    ]),
  );
  return sentences.join(" ");
}
