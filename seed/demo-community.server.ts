/**
 * A demo community for the demo catalogue (decision 034): without it a fresh `npm start` shows
 * empty rankings, an empty timeline, no finishers and no results, however real the races look.
 *
 * Deterministic (seeded PRNG): members with French names, a home city and sports, most of them
 * public; full results lists for recent past editions, as a timing company would publish them
 * (ranks overall, by sex and category, clubs, bibs, a few DNF), where some lines are the demo
 * members' claims; hand-recorded results on other past races; upcoming races in their planning.
 * Badges and best times are then computed by the real rules (features/badges). Addresses are at
 * example.com (reserved: no mail reaches anybody) and the accounts have no password: nobody signs
 * in as them. Made once, on a catalogue that has none; later starts change nothing.
 */
import { sql } from "drizzle-orm";
import { refreshMemberAchievements } from "../features/badges/badges.service.server.ts";
import { calendarEntries } from "../features/engagement/engagement.tables.ts";
import { users } from "../features/identity/identity.tables.ts";
import { results } from "../features/results/results.tables.ts";
import type { Db } from "../platform/db/client.server.ts";
import { rows } from "../platform/db/rows.server.ts";
import { Rng } from "../platform/prng.ts";

/** The demo members' addresses: `coureur.<n>@example.com`. */
const EMAIL_DOMAIN = "@example.com";
const EMAIL_PREFIX = "coureur.";

const WOMEN = [
  "Camille",
  "Léa",
  "Manon",
  "Chloé",
  "Inès",
  "Jade",
  "Emma",
  "Louise",
  "Alice",
  "Juliette",
  "Clara",
  "Sarah",
  "Marie",
  "Lucie",
  "Pauline",
  "Mathilde",
  "Anaïs",
  "Élodie",
  "Laura",
  "Charlotte",
  "Margaux",
  "Zoé",
  "Océane",
  "Justine",
  "Amandine",
  "Claire",
  "Émilie",
  "Audrey",
  "Sophie",
  "Julie",
  "Céline",
  "Aurélie",
  "Nathalie",
  "Isabelle",
  "Agathe",
  "Romane",
  "Maëlle",
  "Noémie",
  "Estelle",
  "Hélène",
] as const;
const MEN = [
  "Hugo",
  "Lucas",
  "Nathan",
  "Théo",
  "Louis",
  "Jules",
  "Arthur",
  "Gabriel",
  "Raphaël",
  "Tom",
  "Maxime",
  "Thomas",
  "Antoine",
  "Nicolas",
  "Julien",
  "Romain",
  "Alexandre",
  "Guillaume",
  "Baptiste",
  "Quentin",
  "Clément",
  "Adrien",
  "Florian",
  "Kévin",
  "Mathieu",
  "Vincent",
  "Sébastien",
  "Olivier",
  "Jérôme",
  "Laurent",
  "Pierre",
  "François",
  "Benoît",
  "Yann",
  "Loïc",
  "Erwan",
  "Bastien",
  "Damien",
  "Cédric",
  "Rémi",
] as const;
const LAST_NAMES = [
  "Martin",
  "Bernard",
  "Dubois",
  "Thomas",
  "Robert",
  "Richard",
  "Petit",
  "Durand",
  "Leroy",
  "Moreau",
  "Simon",
  "Laurent",
  "Lefebvre",
  "Michel",
  "Garcia",
  "David",
  "Bertrand",
  "Roux",
  "Vincent",
  "Fournier",
  "Morel",
  "Girard",
  "André",
  "Lefèvre",
  "Mercier",
  "Dupont",
  "Lambert",
  "Bonnet",
  "François",
  "Martinez",
  "Legrand",
  "Garnier",
  "Faure",
  "Rousseau",
  "Blanc",
  "Guérin",
  "Muller",
  "Henry",
  "Roussel",
  "Nicolas",
  "Perrin",
  "Morin",
  "Mathieu",
  "Clément",
  "Gauthier",
  "Dumont",
  "Lopez",
  "Fontaine",
  "Chevalier",
  "Robin",
  "Masson",
  "Sanchez",
  "Gérard",
  "Nguyen",
  "Boyer",
  "Denis",
  "Lemaire",
  "Duval",
  "Joly",
  "Gautier",
  "Roger",
  "Roche",
  "Roy",
  "Noël",
  "Meyer",
  "Lucas",
  "Meunier",
  "Jean",
  "Pérez",
  "Marchand",
  "Dufour",
  "Blanchard",
  "Marie",
  "Barbier",
  "Brun",
  "Dumas",
  "Brunet",
  "Schmitt",
  "Leroux",
  "Colin",
  "Fernandez",
  "Pierre",
  "Renard",
  "Arnaud",
  "Rolland",
  "Caron",
  "Aubert",
  "Giraud",
  "Leclerc",
  "Vidal",
  "Bourgeois",
  "Renaud",
  "Lemoine",
  "Picard",
  "Gaillard",
  "Philippe",
  "Leclercq",
  "Lacroix",
  "Fabre",
  "Dupuis",
  "Olivier",
  "Rodriguez",
  "Da Silva",
  "Hubert",
  "Louis",
  "Charles",
  "Guillot",
  "Rivière",
  "Le Gall",
  "Guillaume",
  "Adam",
  "Rey",
  "Moulin",
  "Gonzalez",
  "Berger",
  "Lecomte",
  "Ménard",
  "Fleury",
  "Deschamps",
  "Carpentier",
  "Julien",
  "Benoît",
  "Paris",
  "Maillard",
  "Marchal",
  "Aubry",
  "Vasseur",
  "Le Roux",
  "Renault",
  "Jacquet",
  "Collet",
  "Prévost",
  "Poirier",
  "Charpentier",
  "Royer",
  "Huet",
  "Baron",
  "Dupuy",
  "Pons",
  "Paul",
  "Laine",
  "Carré",
  "Breton",
  "Rémy",
  "Schneider",
  "Perrot",
  "Guyot",
  "Barre",
  "Marty",
  "Cousin",
] as const;
const CITIES = [
  "Annecy",
  "Lyon",
  "Grenoble",
  "Chamonix-Mont-Blanc",
  "Paris",
  "Marseille",
  "Nantes",
  "Bordeaux",
  "Toulouse",
  "Lille",
  "Rennes",
  "Strasbourg",
  "Montpellier",
  "Nice",
  "Clermont-Ferrand",
  "Dijon",
  "Besançon",
  "Brest",
  "Pau",
  "Gap",
  "Chambéry",
  "Saint-Étienne",
  "Tours",
  "Angers",
  "Rouen",
  "Metz",
  "Nancy",
  "Perpignan",
  "Bayonne",
  "La Rochelle",
  "Limoges",
  "Poitiers",
  "Orléans",
  "Caen",
  "Le Mans",
  "Avignon",
  "Valence",
  "Albertville",
] as const;
const CLUBS = [
  "AC Annecy",
  "Lyon Athlétisme",
  "EA Grenoble",
  "Team Trail Chamonix",
  "Paris Université Club",
  "SCO Marseille",
  "Nantes Métropole Athlétisme",
  "Stade Bordelais",
  "Toulouse UC",
  "Lille Métropole Athlétisme",
  "Stade Rennais Athlétisme",
  "ASPTT Strasbourg",
  "Montpellier Agglo Athlétisme",
  "OGC Nice Athlétisme",
  "Clermont Auvergne Athlétisme",
  "Dijon UC",
  "Besançon Athlétic",
  "Brest Athlé",
  "Pau Athlé Pyrénées",
  "Trail des Écrins",
  "Chambéry Savoie Trail",
  "Coquelicot 42",
  "ASPTT Tours",
  "Angers Athlé",
  "Rouen Athlé 76",
  "Metz Athlétisme",
  "Nancy Trail Club",
  "Perpignan Running",
  "Côte Basque Trail",
  "La Rochelle Triathlon",
  "Limoges Athlé",
  "Poitiers Tri",
  "Running Club Orléans",
  "Caen Triathlon",
  "Le Mans Athlé",
  "Avignon Sport Nature",
  "Valence Triathlon",
  "Team Salomon Savoie",
  "Les Fous du Bitume",
  "Courir à Vélizy",
] as const;
const PRESENTATIONS = [
  "Je cours pour le plaisir et pour les copains du club. Objectif : finir un marathon sous 3 h 30.",
  "Traileuse du dimanche devenue accro aux longues distances. Le dénivelé, c'est la vie !",
  "Triathlète amateur, je prépare mon premier half-Ironman.",
  "Coureur depuis cinq ans, j'enchaîne les 10 km et les semis de ma région.",
  "Montagne, lacs et sentiers : toujours partant pour une sortie longue.",
  "Je découvre le trail après des années sur route, et je ne regrette rien.",
  "Papa de trois enfants, je m'entraîne à l'aube et je cours une course par mois.",
  "Ultra-traileur, je rêve de l'UTMB. En attendant, je collectionne les dossards.",
] as const;

/** Seconds per km of effort of the median finisher, by sport (road pace; trail counts D+ as km). */
const MEDIAN_PACE: Record<string, number> = {
  running: 345,
  half_marathon: 330,
  marathon: 320,
  trail: 400,
  short_trail: 390,
  ultra_trail: 480,
  triathlon: 190,
  ironman: 205,
  swimrun: 420,
  mtb: 170,
  cycling: 125,
};
/** The catalogue's sports a member of each sport races in. */
const RACES_OF: Record<string, readonly string[]> = {
  running: ["running", "half_marathon", "marathon"],
  trail: ["trail", "short_trail", "ultra_trail"],
  triathlon: ["triathlon", "ironman", "swimrun"],
};
/** Sports whose members also run: a trail runner's results may be on the road. */
const SPORT_OF_MEMBER = ["running", "running", "running", "trail", "trail", "triathlon"] as const;

type Member = {
  id: number;
  firstName: string;
  lastName: string;
  sex: "M" | "F";
  /** Finishing-time factor: 0.7 is quick, 1.4 is a walker. */
  level: number;
  sports: string[];
  club: string | null;
  birthYear: number;
};

type Course = {
  id: number;
  event_id: number;
  distance: number;
  elevation_gain: number | null;
  sport: string;
  start_date: string;
};

export type DemoCommunityReport = { members: number; results: number; claimed: number; planned: number; ms: number };

/** The FFA-style category of a birth year in a season ("SE", "M0"…, "ES", "JU"). */
export function category(birthYear: number, seasonYear: number): string {
  const age = seasonYear - birthYear;
  if (age < 18) return "CA";
  if (age < 20) return "JU";
  if (age < 23) return "ES";
  if (age < 35) return "SE";
  return `M${Math.min(10, Math.floor((age - 35) / 5))}`;
}

/**
 * A finishing time in milliseconds for a course: the median finisher's pace for the sport over the
 * effort distance (distance + D+ / 100 m as km on foot), times the runner's level.
 */
export function finishTime(course: Pick<Course, "distance" | "elevation_gain" | "sport">, level: number): number {
  const onFoot = !["triathlon", "ironman", "mtb", "cycling"].includes(course.sport);
  const effortKm = course.distance / 1000 + (onFoot ? (course.elevation_gain ?? 0) / 100 : 0);
  // Longer races are slower per km (Riegel's exponent, ~1.06).
  const fatigue = (Math.max(effortKm, 1) / 10) ** 0.06;
  const pace = (MEDIAN_PACE[course.sport] ?? 360) * fatigue;
  return Math.round(effortKm * pace * level * 1000);
}

/** Runners through the start arch per second: the back of a 300-runner field crosses a minute after the gun. */
const STARTERS_PER_SECOND = 5;

/**
 * Seconds between the gun and a runner's crossing of the start line (chip time = gun time less
 * this). Runners line up roughly by speed: `fraction` is the runner's place in that order (0 the
 * front, 1 the back). The front starts on the line; the back waits for the field ahead to cross.
 */
export function startDelay(fraction: number, fieldSize: number, rng: Rng): number {
  const place = Math.min(1, Math.max(0, fraction * (1 + rng.normal() * 0.15)));
  return Math.round((place * (fieldSize / STARTERS_PER_SECOND) + rng.range(0, 1.5)) * 10) / 10;
}

function pick<T>(list: readonly T[], rng: Rng): T {
  return list[rng.int(0, list.length - 1)] as T;
}

function slugOf(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A runner's level: log-normal around the median finisher (1.0), bounded. */
function level(rng: Rng): number {
  return Math.min(1.6, Math.max(0.62, Math.exp(rng.normal() * 0.17)));
}

/** Whether the demo community was made already (or a member took one of its addresses). */
async function alreadyMade(db: Db): Promise<boolean> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${EMAIL_DOMAIN}`}`,
  );
  return (row?.n ?? 0) > 0;
}

/**
 * Makes the demo community when the catalogue has past editions and no demo community yet.
 * `now` is the catalogue's "today". Returns null when nothing was made.
 */
export async function ensureDemoCommunity(
  db: Db,
  options: { members: number; seed: number; now: Date },
): Promise<DemoCommunityReport | null> {
  const started = performance.now();
  if (options.members <= 0 || (await alreadyMade(db))) return null;
  const today = options.now.toISOString().slice(0, 10);
  const past = await rows<Course>(
    db,
    sql`SELECT c.id, c.event_id, c.distance, c.elevation_gain, s.key AS sport, e.start_date::text AS start_date
        FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE e.status = 'active' AND NOT e.cancelled AND c.type = 'race' AND c.distance >= 1000
          AND e.start_date < ${today}::date AND e.start_date >= ${today}::date - 540
        ORDER BY e.start_date DESC, c.id`,
  );
  if (past.length === 0) return null;
  const upcoming = await rows<Course>(
    db,
    sql`SELECT c.id, c.event_id, c.distance, c.elevation_gain, s.key AS sport, e.start_date::text AS start_date
        FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE e.status = 'active' AND NOT e.cancelled AND c.type = 'race' AND c.distance >= 1000
          AND e.start_date >= ${today}::date AND e.start_date < ${today}::date + 240
        ORDER BY e.start_date, c.id LIMIT 4000`,
  );
  const rng = new Rng(options.seed ^ 0x5eed);
  const dayMs = 86_400_000;
  // A moment within `days` after a race, never after "now": a race of last weekend was recorded
  // some time since, not all of them in the last hour.
  const at = (isoDay: string, days: number) => {
    const race = Date.parse(`${isoDay}T17:00:00Z`);
    const room = Math.max(0, Math.min(days * dayMs, options.now.getTime() - 60_000 - race));
    return new Date(race + rng.range(0.05, 1) * room);
  };

  const report = await db.transaction(async (tx) => {
    // Members.
    const people: Omit<Member, "id">[] = [];
    const userRows: (typeof users.$inferInsert)[] = [];
    const slugs = new Set<string>();
    for (let n = 1; n <= options.members; n++) {
      const sex = rng.chance(0.42) ? "F" : "M";
      const firstName = pick(sex === "F" ? WOMEN : MEN, rng);
      const lastName = pick(LAST_NAMES, rng);
      const sport = pick(SPORT_OF_MEMBER, rng);
      const sports = sport === "trail" && rng.chance(0.5) ? ["trail", "running"] : [sport];
      let slug = slugOf(`${firstName}-${lastName}`);
      if (slugs.has(slug)) slug = `${slug}-${n}`;
      slugs.add(slug);
      const pseudo = rng.chance(0.15)
        ? `${firstName.toLowerCase()}_${pick(["trail", "run", "42k", "ultra", "tri"], rng)}`
        : "";
      const birthYear = options.now.getUTCFullYear() - rng.int(19, 64);
      const club = rng.chance(0.45) ? pick(CLUBS, rng) : null;
      people.push({ firstName, lastName, sex, level: level(rng), sports, club, birthYear });
      userRows.push({
        email: `${EMAIL_PREFIX}${n}${EMAIL_DOMAIN}`,
        emailStatus: "verified",
        firstName,
        lastName,
        pseudo,
        slug,
        gender: sex === "F" ? "female" : "male",
        city: pick(CITIES, rng),
        country: "FR",
        presentation: rng.chance(0.35) ? pick(PRESENTATIONS, rng) : null,
        sports,
        publicProfile: rng.chance(0.9),
        locale: "fr",
        termsAcceptedAt: new Date(options.now.getTime() - rng.int(20, 700) * dayMs),
        createdAt: new Date(options.now.getTime() - rng.int(20, 700) * dayMs),
      });
    }
    const inserted = await tx.insert(users).values(userRows).returning({ id: users.id });
    const members: Member[] = people.map((p, i) => ({ ...p, id: inserted[i]?.id ?? 0 }));

    const lines: (typeof results.$inferInsert)[] = [];
    const taken = new Set<string>();
    let claimed = 0;
    const fits = (member: Member, course: Course) => member.sports.some((s) => RACES_OF[s]?.includes(course.sport));

    // Full results lists for a share of the recent past courses.
    const listed = past.filter((_, i) => i % 3 === 0).slice(0, Math.max(30, Math.round(options.members * 0.4)));
    for (const course of listed) {
      const season = Number(course.start_date.slice(0, 4));
      const size = Math.round(rng.range(40, course.distance >= 40_000 ? 300 : 180));
      const field: {
        sex: "M" | "F";
        first: string;
        last: string;
        club: string | null;
        birth: number;
        time: number;
        member?: Member;
      }[] = [];
      for (let i = 0; i < size; i++) {
        const sex = rng.chance(course.sport.includes("trail") ? 0.3 : 0.4) ? "F" : "M";
        field.push({
          sex,
          first: pick(sex === "F" ? WOMEN : MEN, rng),
          last: pick(LAST_NAMES, rng),
          club: rng.chance(0.4) ? pick(CLUBS, rng) : null,
          birth: season - rng.int(18, 70),
          time: finishTime(course, level(rng) * (sex === "F" ? 1.08 : 1)) + rng.int(0, 9) * 100,
        });
      }
      // Demo members who ran it: about one line in thirty, members of the sport.
      const runners = members.filter(
        (m) => fits(m, course) && rng.chance(Math.min(0.5, (size / 30 / members.length) * 3)),
      );
      for (const member of runners.slice(0, Math.max(1, Math.round(size / 30)))) {
        const key = `${member.id}:${course.id}`;
        if (taken.has(key)) continue;
        taken.add(key);
        field.push({
          sex: member.sex,
          first: member.firstName,
          last: member.lastName,
          club: member.club,
          birth: member.birthYear,
          time: finishTime(course, member.level * (member.sex === "F" ? 1.08 : 1) * rng.range(0.96, 1.05)),
          member,
        });
      }
      // `time` is what each runner ran (the chip time); the gun time adds their wait to reach the line.
      const gun = new Map<(typeof field)[number], number>();
      [...field]
        .sort((a, b) => a.time - b.time)
        .forEach((runner, i) => {
          gun.set(runner, runner.time + Math.round(startDelay(i / field.length, field.length, rng) * 1000));
        });
      // A few of the field (never a demo member) did not finish: listed after the finishers.
      const dnf = Math.round(field.length * rng.range(0.01, 0.05));
      const out = new Set(field.filter((r) => !r.member).slice(0, dnf));
      // Ranked by the gun, as the official ranking is.
      const finishers = field.filter((r) => !out.has(r)).sort((a, b) => gun.get(a)! - gun.get(b)!);
      const bibs = rng.int(1, 400);
      const sexRanks = { M: 0, F: 0 };
      const categoryRanks = new Map<string, number>();
      [...finishers, ...out].forEach((runner, i) => {
        const finished = !out.has(runner);
        const cat = category(runner.birth, season);
        let sexRank: number | null = null;
        let categoryRank: number | null = null;
        if (finished) {
          sexRanks[runner.sex] += 1;
          sexRank = sexRanks[runner.sex];
          categoryRank = (categoryRanks.get(`${cat}${runner.sex}`) ?? 0) + 1;
          categoryRanks.set(`${cat}${runner.sex}`, categoryRank);
        }
        const timeMs = finished ? (gun.get(runner) ?? runner.time) : null;
        if (runner.member) claimed++;
        lines.push({
          courseId: course.id,
          eventId: course.event_id,
          source: "import",
          status: finished ? "finished" : "dnf",
          position: i + 1,
          rank: finished ? i + 1 : null,
          sexRank,
          categoryRank,
          bib: String(bibs + i * 3),
          name: `${runner.last.toUpperCase()} ${runner.first}`,
          firstName: runner.first,
          lastName: runner.last,
          club: runner.club,
          sex: runner.sex,
          country: "FRA",
          category: cat,
          timeMs,
          netTimeMs: finished ? runner.time : null,
          paceSPerKm: timeMs === null ? null : Math.round(timeMs / course.distance),
          userId: runner.member?.id ?? null,
          claimedAt: runner.member ? at(course.start_date, rng.int(1, 12)) : null,
          createdAt: at(course.start_date, 1),
        });
      });
    }

    // Hand-recorded results on other past races (no imported results there).
    const listedIds = new Set(listed.map((c) => c.id));
    const others = past.filter((c) => !listedIds.has(c.id));
    for (const member of members) {
      const count = rng.int(0, 7);
      for (let k = 0; k < count && others.length; k++) {
        const course = others[rng.int(0, others.length - 1)] as Course;
        const key = `${member.id}:${course.id}`;
        if (!fits(member, course) || taken.has(key)) continue;
        taken.add(key);
        const timeMs = finishTime(course, member.level * (member.sex === "F" ? 1.08 : 1) * rng.range(0.95, 1.06));
        const recorded = at(course.start_date, rng.int(1, 6));
        lines.push({
          courseId: course.id,
          eventId: course.event_id,
          source: "manual",
          status: "finished",
          name: `${member.firstName} ${member.lastName}`,
          firstName: member.firstName,
          lastName: member.lastName,
          timeMs,
          paceSPerKm: Math.round(timeMs / course.distance),
          userId: member.id,
          claimedAt: recorded,
          createdAt: recorded,
        });
      }
    }
    for (let i = 0; i < lines.length; i += 1000) await tx.insert(results).values(lines.slice(i, i + 1000));

    // Upcoming races in their planning.
    const plans: (typeof calendarEntries.$inferInsert)[] = [];
    for (const member of members) {
      const candidates = upcoming.filter((c) => fits(member, c));
      const count = Math.min(candidates.length, rng.int(0, 4));
      const chosen = new Set<number>();
      for (let k = 0; k < count; k++) {
        const course = candidates[rng.int(0, candidates.length - 1)] as Course;
        if (chosen.has(course.id)) continue;
        chosen.add(course.id);
        plans.push({
          userId: member.id,
          courseId: course.id,
          eventId: course.event_id,
          status: rng.chance(0.4) ? "registered" : "planned",
          createdAt: new Date(options.now.getTime() - rng.int(0, 60) * dayMs - rng.int(0, 86_399) * 1000),
        });
      }
    }
    for (let i = 0; i < plans.length; i += 1000) await tx.insert(calendarEntries).values(plans.slice(i, i + 1000));

    // Badges and best times by the real rules, awarded when the result that earned them was recorded.
    await refreshMemberAchievements(
      tx,
      members.map((m) => m.id),
    );
    await tx.execute(sql`
      UPDATE user_badges b SET awarded_at = coalesce(r.claimed_at, r.created_at)
      FROM results r WHERE b.result_id = r.id AND b.user_id IN (
        SELECT id FROM users WHERE email LIKE ${`${EMAIL_PREFIX}%${EMAIL_DOMAIN}`})`);
    return {
      members: members.length,
      results: lines.length,
      claimed,
      planned: plans.length,
      ms: Math.round(performance.now() - started),
    };
  });
  // Fresh rows have no planner statistics (PGlite runs no autovacuum): the rankings would scan.
  await db.execute(sql`VACUUM (ANALYZE) users, results, calendar_entries, user_badges`);
  return { ...report, ms: Math.round(performance.now() - started) };
}
