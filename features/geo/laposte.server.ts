import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { slugify } from "./slugify.ts";

/**
 * La Poste's "base officielle des codes postaux" (laposte_hexasmal.csv, Licence Ouverte / Etalab).
 * The repository ships the communes derived from it (features/geo/data, shipped-reference.server.ts);
 * this reader serves the derive script, and the server when COMMUNES_CSV (a path or an http(s) URL)
 * overrides the shipped data.
 */
export const COMMUNES_CSV_ENV = "COMMUNES_CSV";
export const LAPOSTE_ATTRIBUTION = "Source : La Poste, base officielle des codes postaux";

export class CommunesCsvError extends Error {
  override name = "CommunesCsvError";
}

/** The nearest folder above `from` holding a package.json (the project root, from sources or build/). */
export function findProjectRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

export type CsvSourceOptions = {
  /** Explicit path or http(s) URL; wins over everything (the server passes COMMUNES_CSV here). */
  csvPath?: string;
  env?: Record<string, string | undefined>;
  projectRoot?: string;
};

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** The configured CSV (`csvPath`, else `COMMUNES_CSV`), or undefined: the shipped data is used. */
export function configuredCommunesCsv(options: CsvSourceOptions = {}): string | undefined {
  return options.csvPath || (options.env ?? process.env)[COMMUNES_CSV_ENV] || undefined;
}

/**
 * Where to read the configured CSV from: a URL as it is, a path relative to the project root. A
 * configured path that does not exist is an error rather than a silent fallback.
 */
export function resolveCommunesCsvSource(options: CsvSourceOptions = {}): string {
  const configured = configuredCommunesCsv(options);
  if (!configured) {
    throw new CommunesCsvError(`No communes CSV configured: set ${COMMUNES_CSV_ENV} to its path or http(s) URL.`);
  }
  if (isUrl(configured)) return configured;
  const resolved = path.resolve(options.projectRoot ?? findProjectRoot(), configured);
  if (fs.existsSync(resolved)) return resolved;
  throw new CommunesCsvError(
    `La Poste communes CSV not found at ${resolved} (from ${COMMUNES_CSV_ENV}): give the path or http(s) URL of ` +
      "laposte_hexasmal.csv, or unset it to use the communes shipped in features/geo/data.",
  );
}

/** The CSV's text, from a file or an http(s) URL. */
export async function readCommunesCsv(source: string): Promise<string> {
  if (!isUrl(source)) return fs.promises.readFile(source, "utf8");
  let response: Response;
  try {
    response = await fetch(source);
  } catch (error) {
    throw new CommunesCsvError(`Could not download the communes CSV from ${source}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    throw new CommunesCsvError(`Could not download the communes CSV from ${source}: HTTP ${response.status}`);
  }
  return response.text();
}

export type LaPosteCommune = { lat: number | null; lng: number | null; postalCodes: string[] };
export type LaPosteIndex = {
  /** By INSEE code. */
  byCode: Map<string, LaPosteCommune>;
  /** Coordinates of rows naming a locality (Ligne_5, or the commune itself), by `${department}|${key}`. */
  byLocality: Map<string, { lat: number; lng: number }[]>;
  rows: number;
};

/** Department code of an INSEE commune code: 2 characters, 3 overseas (97x). */
export function departmentOfInsee(code: string): string {
  return code.startsWith("97") ? code.slice(0, 3) : code.slice(0, 2);
}

/**
 * A comparison key for French place names across spellings: "Saint-Étienne", "ST ETIENNE" and
 * "Saint Etienne" all give "st etienne".
 */
export function placeKey(name: string): string {
  return slugify(name)
    .split("-")
    .map((word) => (word === "saint" ? "st" : word === "sainte" ? "ste" : word))
    .join(" ");
}

export function parseLaPosteCsv(text: string): LaPosteIndex {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = lines[0]?.split(";") ?? [];
  const col = (name: string) => header.findIndex((h) => h.trim() === name);
  const iCode = col("Code_commune_INSEE");
  const iName = col("Nom_commune");
  const iPostal = col("Code_postal");
  const iLine5 = col("Ligne_5");
  const iGps = col("coordonnees_gps");
  if (iCode < 0 || iPostal < 0 || iGps < 0 || iName < 0) {
    throw new CommunesCsvError(
      "The communes CSV does not look like La Poste's laposte_hexasmal.csv: expected the columns " +
        `Code_commune_INSEE;Nom_commune;Code_postal;Ligne_5;…;coordonnees_gps, got "${lines[0]?.slice(0, 120)}"`,
    );
  }
  const byCode = new Map<string, LaPosteCommune>();
  const byLocality = new Map<string, { lat: number; lng: number }[]>();
  let rows = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const cells = line.split(";");
    const code = cells[iCode]?.trim();
    if (!code) continue;
    rows++;
    let entry = byCode.get(code);
    if (!entry) {
      entry = { lat: null, lng: null, postalCodes: [] };
      byCode.set(code, entry);
    }
    const postal = cells[iPostal]?.trim();
    if (postal && !entry.postalCodes.includes(postal)) entry.postalCodes.push(postal);
    const gps = cells[iGps]?.trim();
    if (!gps) continue;
    const [lat, lng] = gps.split(",").map(Number);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    if (entry.lat === null) {
      entry.lat = lat;
      entry.lng = lng;
    }
    const department = departmentOfInsee(code);
    for (const name of [cells[iLine5], cells[iName]]) {
      if (!name?.trim()) continue;
      const key = `${department}|${placeKey(name)}`;
      const list = byLocality.get(key) ?? [];
      if (!list.some((p) => p.lat === lat && p.lng === lng)) list.push({ lat, lng });
      byLocality.set(key, list);
    }
  }
  return { byCode, byLocality, rows };
}
