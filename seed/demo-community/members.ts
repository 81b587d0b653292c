/**
 * The demo members: a French name, a unique profile slug, a home city, sports, maybe a club and a
 * presentation; most profiles public. Addresses at example.com, no password.
 */
import type { users } from "../../features/identity/identity.tables.ts";
import type { Rng } from "../../platform/prng.ts";
import { CITIES, CLUBS, LAST_NAMES, MEN, PRESENTATIONS, WOMEN } from "./people.ts";
import { level, type Member, pick } from "./race-model.ts";

/** The demo members' addresses: `coureur.<n>@example.com`. */
export const EMAIL_DOMAIN = "@example.com";
export const EMAIL_PREFIX = "coureur.";

/** Sports whose members also run: a trail runner's results may be on the road. */
const SPORT_OF_MEMBER = ["running", "running", "running", "trail", "trail", "triathlon"] as const;

function slugOf(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const dayMs = 86_400_000;

/** `count` members (their user rows, and what the results need of each, without an id yet). */
export function memberRows(
  count: number,
  now: Date,
  rng: Rng,
): { people: Omit<Member, "id">[]; userRows: (typeof users.$inferInsert)[] } {
  const people: Omit<Member, "id">[] = [];
  const userRows: (typeof users.$inferInsert)[] = [];
  const slugs = new Set<string>();
  for (let n = 1; n <= count; n++) {
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
    const birthYear = now.getUTCFullYear() - rng.int(19, 64);
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
      termsAcceptedAt: new Date(now.getTime() - rng.int(20, 700) * dayMs),
      createdAt: new Date(now.getTime() - rng.int(20, 700) * dayMs),
    });
  }
  return { people, userRows };
}
