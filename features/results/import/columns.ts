/**
 * The fields a results file may carry and the French and English column titles timing companies
 * give them. Isomorphic and pure: the import screen shows the same field names in its selects.
 */

/** Every field a column can be mapped to; `speed` and `pace` are recognised so they are not mistaken, then ignored. */
export const RESULT_FIELDS = [
  "rank",
  "bib",
  "name",
  "lastName",
  "firstName",
  "sex",
  "category",
  "categoryRank",
  "sexRank",
  "club",
  "country",
  "time",
  "netTime",
  "status",
  "speed",
  "pace",
] as const;
export type ResultField = (typeof RESULT_FIELDS)[number];

/** One entry per column of the file: the field it holds, or null (ignored). */
export type ColumnMapping = (ResultField | null)[];

/** Lower case, no accents, punctuation as spaces: "Pl./Sexe" → "pl sexe", "Temps officiel (réel)" → "temps officiel reel". */
export function normaliseHeader(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/n°|nº/g, "no ")
    .replace(/[^a-z0-9/]+/g, " ")
    .replace(/\s*\/\s*/g, " ")
    .trim()
    .replace(/\s+/g, " ");
}

const ALIASES: Record<ResultField, string[]> = {
  rank: [
    "place",
    "pl",
    "clt",
    "clst",
    "clas",
    "class",
    "classement",
    "classement general",
    "clt general",
    "clt scratch",
    "place scratch",
    "scratch",
    "rang",
    "rank",
    "pos",
    "position",
    "overall",
    "overall place",
    "general",
  ],
  bib: ["dossard", "doss", "dos", "no dossard", "no", "num", "numero", "bib", "bib number", "bib no", "race number"],
  name: [
    "nom prenom",
    "prenom nom",
    "nom et prenom",
    "nom prenoms",
    "name",
    "full name",
    "participant",
    "coureur",
    "concurrent",
    "athlete",
    "runner",
    "nom complet",
    "identite",
  ],
  lastName: ["nom", "last name", "lastname", "surname", "family name", "nom de famille"],
  firstName: ["prenom", "first name", "firstname", "given name"],
  sex: ["sexe", "sx", "s", "genre", "gender", "sex", "h f", "m f", "f h"],
  category: ["cat", "categ", "categorie", "category", "cat age", "age group", "division"],
  categoryRank: [
    "place cat",
    "pl cat",
    "clt cat",
    "clst cat",
    "rang cat",
    "class cat",
    "classement cat",
    "classement categorie",
    "clt categorie",
    "place categorie",
    "rang categorie",
    "cat rank",
    "category rank",
    "category place",
    "div place",
    "pl categ",
  ],
  sexRank: [
    "pl sexe",
    "place sexe",
    "clt sexe",
    "clst sexe",
    "rang sexe",
    "class sexe",
    "classement sexe",
    "clt sx",
    "pl sx",
    "gender rank",
    "gender place",
    "sex rank",
    "sex place",
  ],
  club: [
    "club",
    "equipe",
    "equipe club",
    "club equipe",
    "team",
    "club team",
    "team club",
    "association",
    "asso",
    "club asso",
    "structure",
  ],
  country: ["nat", "nation", "nationalite", "pays", "country", "nationality", "nat pays"],
  time: [
    "temps",
    "temps officiel",
    "temps officiel reel",
    "temps final",
    "temps scratch",
    "temps total",
    "temps course",
    "tps",
    "chrono",
    "time",
    "official time",
    "gun time",
    "finish time",
    "final time",
    "result",
    "resultat",
    "arrivee",
    "temps arrivee",
  ],
  netTime: ["temps reel", "temps net", "temps puce", "net time", "chip time", "real time", "net"],
  status: ["statut", "status", "etat", "state"],
  speed: ["vitesse", "vit", "vitesse moy", "vitesse moyenne", "moy", "km h", "speed", "avg speed"],
  pace: ["allure", "pace", "min km", "allure min km", "avg pace"],
};

const BY_ALIAS = new Map<string, ResultField>();
for (const field of RESULT_FIELDS) for (const alias of ALIASES[field]) BY_ALIAS.set(alias, field);

/** The field a column title names, or null. */
export function fieldOfHeader(header: string): ResultField | null {
  const key = normaliseHeader(header);
  if (!key) return null;
  const exact = BY_ALIAS.get(key);
  if (exact) return exact;
  // "Temps (h:mm:ss)", "Vitesse (km/h)", "Nom - Prénom": the words before the unit or the separator.
  const shorter = key.replace(/\s(?:h mm ss|hh mm ss|km h|min km|m s)$/, "");
  if (shorter !== key && BY_ALIAS.get(shorter)) return BY_ALIAS.get(shorter) ?? null;
  return null;
}

/**
 * The mapping of a header row: each field to the first column that names it. A "Nom" column with
 * no first-name column beside it holds the whole name ("DUPONT Jean", the usual French export),
 * not the surname alone.
 */
export function detectMapping(header: readonly string[]): ColumnMapping {
  const taken = new Set<ResultField>();
  const mapping = header.map((title) => {
    const field = fieldOfHeader(title);
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
  if (taken.has("lastName") && !taken.has("firstName") && !taken.has("name")) {
    return mapping.map((field) => (field === "lastName" ? "name" : field));
  }
  return mapping;
}

/** How many cells of a row are known column titles: the header row is the first that scores best. */
export function headerScore(row: readonly string[]): number {
  const seen = new Set<ResultField>();
  for (const cell of row) {
    const field = fieldOfHeader(cell);
    if (field) seen.add(field);
  }
  return seen.size;
}
