/**
 * Reading what people type in the search box ("trail annecy", "marathon lyon octobre",
 * "10 km nantes", "semi marathn bordeaux en mars") into the search's own filters.
 *
 * This module is the pure half: it finds sports, distances, months, years and "this weekend" in
 * the words (accents, case and small typos forgiven), and lists the word spans that could name a
 * place. `interpret.server.ts` resolves those spans against the communes, departments and regions
 * and gives the rest back as free text.
 */
import type { SportKey } from "../../shared/constants.ts";
import type { DistanceShortcut } from "./search.contract.ts";

export type Token = {
  /** Lower case, accent-free ("pres", "d", "octobre"). */
  norm: string;
  /** As typed. */
  raw: string;
};

/** A recognised part of the text, for the "we understood" line and the tests. */
export type Understood =
  | { kind: "sport"; sport: SportKey; text: string }
  | { kind: "distance"; distance: DistanceShortcut; text: string }
  | { kind: "distanceRange"; min: number; max: number; text: string }
  | { kind: "dates"; from: string; to: string; text: string };

export type TextReading = {
  understood: Understood[];
  /** The words left, in order (connectors included: place names contain them). */
  rest: Token[];
};

/** Accent-free lower case, apostrophes and dashes as spaces, as the tokens compare. */
export function normalizeText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/œ/g, "oe").replace(/æ/g, "ae");
}

/** Words of the text; "10km", "21,1 km" and "42.195km" keep their number whole. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\d+(?:[.,]\d+)?|[\p{L}\p{M}]+/gu)) {
    tokens.push({ raw: match[0], norm: normalizeText(match[0]) });
  }
  return tokens;
}

/**
 * Sports by their words, longest phrases first. Multi-word names also match as one word
 * ("ultratrail", "semimarathon") since people type them both ways.
 */
const SPORT_WORDS: [string, SportKey][] = [
  ["course a pied", "running"],
  ["courses a pied", "running"],
  ["trail running", "trail"],
  ["ultra trail", "ultra_trail"],
  ["ultra trails", "ultra_trail"],
  ["trail court", "short_trail"],
  ["trails courts", "short_trail"],
  ["short trail", "short_trail"],
  ["semi marathon", "half_marathon"],
  ["semi marathons", "half_marathon"],
  ["half marathon", "half_marathon"],
  ["mountain bike", "mtb"],
  ["velo tout terrain", "mtb"],
  ["swim run", "swimrun"],
  ["iron man", "ironman"],
  ["running", "running"],
  ["course", "running"],
  ["courses", "running"],
  ["corrida", "running"],
  ["trail", "trail"],
  ["trails", "trail"],
  ["ultra", "ultra_trail"],
  ["ultratrail", "ultra_trail"],
  ["triathlon", "triathlon"],
  ["triathlons", "triathlon"],
  ["tri", "triathlon"],
  ["ironman", "ironman"],
  ["vtt", "mtb"],
  ["mtb", "mtb"],
  ["swimrun", "swimrun"],
  ["cyclisme", "cycling"],
  ["cyclosportive", "cycling"],
  ["cyclosportives", "cycling"],
  ["cyclo", "cycling"],
  ["velo", "cycling"],
  ["cycling", "cycling"],
  ["marathon", "marathon"],
  ["marathons", "marathon"],
  ["semi", "half_marathon"],
  ["semimarathon", "half_marathon"],
  ["half", "half_marathon"],
];

const MONTH_WORDS: Record<string, number> = {
  janvier: 1,
  janv: 1,
  january: 1,
  jan: 1,
  fevrier: 2,
  fevr: 2,
  fev: 2,
  february: 2,
  feb: 2,
  mars: 3,
  march: 3,
  avril: 4,
  avr: 4,
  april: 4,
  apr: 4,
  mai: 5,
  may: 5,
  juin: 6,
  june: 6,
  juillet: 7,
  juil: 7,
  july: 7,
  aout: 8,
  august: 8,
  aug: 8,
  septembre: 9,
  sept: 9,
  september: 9,
  sep: 9,
  octobre: 10,
  october: 10,
  oct: 10,
  novembre: 11,
  november: 11,
  nov: 11,
  decembre: 12,
  december: 12,
  dec: 12,
};

/** Little words around the parts people type ("trail à annecy en juin", "races near lyon"). */
export const CONNECTORS = new Set([
  "a",
  "au",
  "aux",
  "autour",
  "de",
  "d",
  "du",
  "des",
  "en",
  "et",
  "la",
  "le",
  "les",
  "l",
  "pres",
  "vers",
  "sur",
  "dans",
  "cote",
  "in",
  "near",
  "around",
  "at",
  "the",
  "of",
  "on",
  "and",
  "ce",
  "cet",
  "this",
  "mois",
  "month",
  "km",
  "k",
  "race",
  "races",
]);

const WEEKEND_WORDS = new Set(["weekend", "week end"]);
const UNITS = new Set(["km", "k", "kms", "kilometres", "kilometers"]);

/** Optimal string alignment distance, stopping early past `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[i][j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2][j - 2] + 1);
      rows[i][j] = value;
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** How many typos a word of this length forgives: none under 5 letters, one, then two from 9. */
export function typoAllowance(length: number): number {
  return length < 5 ? 0 : length < 9 ? 1 : 2;
}

/** Words (accent-free lower case) by their first letter, for typoCorrections. */
export type Vocabulary = ReadonlyMap<string, readonly string[]>;

export function vocabularyOf(words: Iterable<string>): Vocabulary {
  const byLetter = new Map<string, string[]>();
  for (const word of new Set(words)) {
    if (!word) continue;
    const bucket = byLetter.get(word[0] as string);
    if (bucket) bucket.push(word);
    else byLetter.set(word[0] as string, [word]);
  }
  return byLetter;
}

/**
 * The words of the vocabulary `typed` is most probably a typo of ("ecahppee" → "echappee"), as
 * closeEnough forgives them: two neighbouring letters swapped from 5 letters, and from 7 letters
 * typoAllowance edits (a swap is one) keeping the first letter. Short words forgive nothing else:
 * too many are one letter apart ("corse" is not "course"). The closest ones only, at most `limit`.
 */
export function typoCorrections(typed: string, vocabulary: Vocabulary, limit = 5): string[] {
  if (typed.length < 5) return [];
  let best = Number.POSITIVE_INFINITY;
  let found: string[] = [];
  const consider = (word: string, distance: number) => {
    if (distance < best) {
      best = distance;
      found = [word];
    } else if (distance === best) found.push(word);
  };
  for (const letter of new Set([typed[0], typed[1]])) {
    for (const word of vocabulary.get(letter as string) ?? []) {
      if (word === typed) continue;
      if (word.length === typed.length && swapped(typed, word)) consider(word, 1);
      else if (letter === typed[0] && Math.min(word.length, typed.length) >= 7) {
        const allowed = typoAllowance(Math.min(word.length, typed.length));
        const distance = editDistance(typed, word, allowed);
        if (distance <= allowed) consider(word, distance);
      }
    }
  }
  return found.slice(0, limit);
}

/**
 * Whether `typed` is `word` or a typo of it. Only long words forgive a typo here: short ones are
 * too close to place names ("corse" is not "course").
 */
function closeEnough(typed: string, word: string): boolean {
  if (typed === word) return true;
  if (word.length >= 5 && typed.length === word.length && swapped(typed, word)) return true;
  if (word.length < 7) return false;
  const allowed = typoAllowance(word.length);
  return allowed > 0 && typed[0] === word[0] && editDistance(typed, word, allowed) <= allowed;
}

/** Whether two words differ only by two neighbouring letters swapped ("trial", "trail"). */
function swapped(a: string, b: string): boolean {
  const i = [...a].findIndex((c, k) => c !== b[k]);
  return i >= 0 && i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

const iso = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The shortcut a typed distance (km) stands for, else a ±5 % range around it. */
function distanceFor(km: number): { distance: DistanceShortcut } | { min: number; max: number } {
  if (km >= 4.5 && km <= 5.5) return { distance: "5k" };
  if (km >= 9.5 && km <= 10.5) return { distance: "10k" };
  if (km >= 21 && km <= 21.2) return { distance: "half" };
  if (km >= 42 && km <= 42.3) return { distance: "marathon" };
  const margin = Math.max(0.5, Math.round(km * 0.05 * 2) / 2);
  return { min: Math.max(0, km - margin), max: km + margin };
}

/** The saturday and sunday of the week-end at or after `today` (ISO dates). */
function weekendOf(today: string): { from: string; to: string } {
  const date = new Date(`${today}T12:00:00Z`);
  const day = date.getUTCDay(); // 0 sunday … 6 saturday
  const saturday = new Date(date);
  saturday.setUTCDate(date.getUTCDate() + (day === 0 ? -1 : 6 - day));
  const sunday = new Date(saturday);
  sunday.setUTCDate(saturday.getUTCDate() + 1);
  return { from: (day === 0 ? date : saturday).toISOString().slice(0, 10), to: sunday.toISOString().slice(0, 10) };
}

/**
 * Sports, distances, months, years and "this weekend" found in `text`; `today` (ISO date, Paris)
 * decides which June "juin" means: this year's if not over, else next year's.
 */
export function readText(text: string, today: string): TextReading {
  const tokens = tokenize(text);
  const used = new Array(tokens.length).fill(false);
  const understood: Understood[] = [];
  const span = (from: number, to: number) =>
    tokens
      .slice(from, to)
      .map((t) => t.raw)
      .join(" ");

  // Distances: "10 km", "10km", "21,1 km", "10k"; a bare number is left alone (a year, a postcode).
  for (let i = 0; i < tokens.length; i++) {
    const match = /^(\d+(?:[.,]\d+)?)(k|km|kms)?$/.exec(tokens[i].norm);
    if (!match) continue;
    const unitNext = !match[2] && i + 1 < tokens.length && UNITS.has(tokens[i + 1].norm);
    if (!match[2] && !unitNext) continue;
    const km = Number(match[1].replace(",", "."));
    if (!(km > 0 && km <= 1000)) continue;
    const found = distanceFor(km);
    const end = unitNext ? i + 2 : i + 1;
    understood.push(
      "distance" in found
        ? { kind: "distance", distance: found.distance, text: span(i, end) }
        : { kind: "distanceRange", min: found.min, max: found.max, text: span(i, end) },
    );
    for (let k = i; k < end; k++) used[k] = true;
  }

  // Sports: the longest phrase first, each word once; small typos forgiven on long words.
  const sports = new Set<SportKey>();
  for (const [phrase, sport] of SPORT_WORDS) {
    const words = phrase.split(" ");
    for (let i = 0; i + words.length <= tokens.length; i++) {
      if (words.some((w, k) => used[i + k] || !closeEnough(tokens[i + k].norm, w))) continue;
      // "semi" or "half" alone followed by a distance word is the half marathon too; "course" and
      // "courses" are running only when nothing more precise was typed (handled below).
      for (let k = 0; k < words.length; k++) used[i + k] = true;
      if (!sports.has(sport)) understood.push({ kind: "sport", sport, text: span(i, i + words.length) });
      sports.add(sport);
    }
  }
  // "course" beside a more precise sport ("course trail") adds nothing: keep only the precise one.
  if (sports.size > 1 && sports.has("running")) {
    const index = understood.findIndex((u) => u.kind === "sport" && u.sport === "running");
    const runningWords = ["course", "courses", "running"];
    const entry = understood[index];
    if (entry && runningWords.includes(normalizeText(entry.text))) understood.splice(index, 1);
  }

  // Months ("octobre", "en juin 2027") and years alone ("2027").
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const word = tokens[i].norm;
    const month = MONTH_WORDS[word] ?? fuzzyMonth(word);
    const yearAt = (k: number) =>
      k < tokens.length && !used[k] && /^20\d\d$/.test(tokens[k].norm) ? Number(tokens[k].norm) : null;
    if (month) {
      const [thisYear, thisMonth] = today.split("-").map(Number);
      const year = yearAt(i + 1) ?? (month >= thisMonth ? thisYear : thisYear + 1);
      const end = yearAt(i + 1) ? i + 2 : i + 1;
      understood.push({
        kind: "dates",
        from: iso(year, month, 1),
        to: iso(year, month, lastDay(year, month)),
        text: span(i, end),
      });
      for (let k = i; k < end; k++) used[k] = true;
      break;
    }
    const year = yearAt(i);
    if (year && year >= Number(today.slice(0, 4)) - 1 && year <= Number(today.slice(0, 4)) + 5) {
      understood.push({ kind: "dates", from: iso(year, 1, 1), to: iso(year, 12, 31), text: tokens[i].raw });
      used[i] = true;
      break;
    }
  }

  // "ce week-end", "this weekend".
  if (!understood.some((u) => u.kind === "dates")) {
    for (let i = 0; i < tokens.length; i++) {
      if (used[i]) continue;
      const two = i + 1 < tokens.length ? `${tokens[i].norm} ${tokens[i + 1].norm}` : "";
      const length = WEEKEND_WORDS.has(two) ? 2 : WEEKEND_WORDS.has(tokens[i].norm) ? 1 : 0;
      if (!length) continue;
      understood.push({ kind: "dates", ...weekendOf(today), text: span(i, i + length) });
      for (let k = i; k < i + length; k++) used[k] = true;
      break;
    }
  }

  return { understood, rest: tokens.filter((_, i) => !used[i]) };
}

function fuzzyMonth(word: string): number | undefined {
  if (word.length < 6) return undefined;
  for (const [name, month] of Object.entries(MONTH_WORDS)) {
    if (closeEnough(word, name)) return month;
  }
  return undefined;
}

/** Word spans of `tokens` that could name a place, longest first (never starting or ending on a connector, except an article that starts a name: "Le Mans", "La Rochelle"). */
export function placeSpans(tokens: Token[], maxWords = 5): { from: number; to: number; slug: string }[] {
  const spans: { from: number; to: number; slug: string }[] = [];
  const articles = new Set(["le", "la", "les", "l"]);
  for (let length = Math.min(maxWords, tokens.length); length >= 1; length--) {
    for (let from = 0; from + length <= tokens.length; from++) {
      const words = tokens.slice(from, from + length).map((t) => t.norm);
      const first = words[0];
      const last = words[words.length - 1];
      if ((CONNECTORS.has(first) && !(articles.has(first) && length > 1)) || CONNECTORS.has(last)) continue;
      if (words.some((w) => /^\d/.test(w))) continue;
      spans.push({ from, to: from + length, slug: words.join("-") });
    }
  }
  return spans;
}

/**
 * Whether the words before a place span make it part of a race's name rather than where it is:
 * "Trail des Aiguilles", "Ronde du Lac" (a place is typed "à Annecy", "Annecy", "de Paris").
 */
export function namesARace(tokens: Token[], from: number): boolean {
  const before = tokens[from - 1]?.norm;
  return before === "des" || before === "du";
}
