/**
 * Runners' names as results files print them and as members give theirs: split a full name
 * ("DUPONT Jean-Pierre", the usual French timing export, or "Jean-Pierre DUPONT"), and tell whether
 * a results line could be a member's ("C'est moi"). Accents, case, hyphens, apostrophes and the
 * order of the words do not count; initials stand for first names. Isomorphic and pure.
 */

/** The words of a name: no accents, lower case, hyphens, apostrophes and dots as spaces. */
export function nameWords(name: string | null | undefined): string[] {
  if (!name) return [];
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** A word written in capitals, as files write surnames: two letters at least, none in lower case. */
function isCapitalised(word: string): boolean {
  const letters = word.replace(/[^\p{L}]/gu, "");
  return letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

/**
 * The surname and first names of a full name whose surname is in capitals: "DUPONT Jean-Pierre",
 * "LE GALL Marie Anne", "Jean-Pierre DUPONT". Null parts when the case does not tell them apart
 * ("Jean Dupont", "DUPONT JEAN", a surname alone).
 */
export function splitFullName(full: string): { lastName: string | null; firstName: string | null } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  const capitals = words.map(isCapitalised);
  const lead = capitals.indexOf(false);
  // "NOM Prénom": capitals first, then words that are not.
  if (lead > 0 && capitals.slice(lead).every((c) => !c)) {
    return { lastName: words.slice(0, lead).join(" "), firstName: words.slice(lead).join(" ") };
  }
  // "Prénom NOM".
  const trail = capitals.lastIndexOf(false);
  if (trail >= 0 && trail < words.length - 1 && capitals.slice(0, trail + 1).every((c) => !c)) {
    return { lastName: words.slice(trail + 1).join(" "), firstName: words.slice(0, trail + 1).join(" ") };
  }
  return { lastName: null, firstName: null };
}

/**
 * How a results line's name compares with a member's: "full" (every word of the surname and of the
 * first names, in any order), "initials" (the surname, and the first names' initials: "DUPONT J.",
 * "J-P Dupont"), else "none". A member without a first name or surname matches nothing.
 */
export type NameMatch = "full" | "initials" | "none";

export function matchName(lineName: string, member: { firstName: string | null; lastName: string | null }): NameMatch {
  const surname = nameWords(member.lastName);
  const first = nameWords(member.firstName);
  if (surname.length === 0 || first.length === 0) return "none";
  const rest = nameWords(lineName);
  for (const word of surname) {
    const at = rest.indexOf(word);
    if (at < 0) return "none";
    rest.splice(at, 1);
  }
  if (rest.length === 0) return "none";
  const sorted = (words: string[]) => [...words].sort().join(" ");
  if (sorted(rest) === sorted(first)) return "full";
  // Initials: "J", "J P" (from "J.-P."), "JP".
  if (rest.every((word) => word.length <= 2 && /^[a-z]+$/.test(word))) {
    const letters = rest.join("");
    const initials = first.map((word) => word[0]).join("");
    if (letters === initials || letters === initials[0]) return "initials";
  }
  return "none";
}
