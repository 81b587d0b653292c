/**
 * The reference data the repository ships (features/geo/data/, decision 042): France's regions,
 * departments and current communes with their names, postal codes, populations and coordinates,
 * derived by `npm run data:derive` from La Poste's table and @etalab/decoupage-administratif. The
 * server reads these files; it never needs the raw sources (COMMUNES_CSV still overrides them).
 *
 * Format: tab-separated UTF-8 text with a header line, one row a line, lists space-separated.
 */
import fs from "node:fs";
import path from "node:path";
import { buildCountries, ISO_COUNTRY_CODES } from "./countries.ts";
import { findProjectRoot } from "./laposte.server.ts";
import type {
  CommuneRow,
  DepartmentRow,
  GeoReference,
  PlacedBy,
  PlacementReport,
  RegionRow,
} from "./reference-rows.ts";
import { slugify } from "./slugify.ts";

export const SHIPPED_REFERENCE_DIR = "features/geo/data";

const COLUMNS = {
  regions: ["code", "name"],
  departments: ["code", "name", "region"],
  communes: ["code", "name", "department", "region", "postal_codes", "population", "lat", "lng", "placed_by"],
} as const;
type Table = keyof typeof COLUMNS;

const PLACED_BY: readonly PlacedBy[] = ["laposte", "merged", "locality", "postal_code", "epci", "department"];

export class ShippedReferenceError extends Error {
  override name = "ShippedReferenceError";
}

export function shippedReferenceDir(projectRoot = findProjectRoot()): string {
  return path.join(projectRoot, SHIPPED_REFERENCE_DIR);
}

function tsv(table: Table, rows: string[][]): string {
  const lines = [COLUMNS[table].join("\t"), ...rows.map((cells) => cells.join("\t"))];
  return `${lines.join("\n")}\n`;
}

/** The three files' text for a reference (the derive script writes them). */
export function formatShippedReference(geo: Pick<GeoReference, "regions" | "departments" | "communes">) {
  const clean = (value: string) => value.replace(/[\t\r\n]+/g, " ");
  return {
    "regions.tsv": tsv(
      "regions",
      geo.regions.map((r) => [r.code, clean(r.name)]),
    ),
    "departments.tsv": tsv(
      "departments",
      geo.departments.map((d) => [d.code, clean(d.name), d.regionCode]),
    ),
    "communes.tsv": tsv(
      "communes",
      geo.communes.map((c) => [
        c.code,
        clean(c.name),
        c.departmentCode,
        c.regionCode,
        (c.postalCodes ?? []).join(" "),
        String(c.population ?? 0),
        String(c.lat),
        String(c.lng),
        c.placedBy,
      ]),
    ),
  };
}

function readTable(dir: string, table: Table): string[][] {
  const file = path.join(dir, `${table}.tsv`);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new ShippedReferenceError(
      `Reference data missing: ${file}. It is part of the repository (run \`npm run data:derive\` to rebuild it).`,
    );
  }
  const [header, ...lines] = text.split("\n").filter((line) => line.length > 0);
  if (header !== COLUMNS[table].join("\t")) {
    throw new ShippedReferenceError(`${file}: unexpected header "${header?.slice(0, 120)}"`);
  }
  return lines.map((line, i) => {
    const cells = line.split("\t");
    if (cells.length !== COLUMNS[table].length) {
      throw new ShippedReferenceError(
        `${file}, line ${i + 2}: ${cells.length} columns, ${COLUMNS[table].length} expected`,
      );
    }
    return cells;
  });
}

function number(file: string, value: string, what: string): number {
  const n = Number(value);
  if (value === "" || !Number.isFinite(n))
    throw new ShippedReferenceError(`${file}: ${what} "${value}" is not a number`);
  return n;
}

/** How the shipped communes were placed, counted from their `placed_by`. */
function placementOf(communes: CommuneRow[]): PlacementReport {
  const count = (by: PlacedBy) => communes.filter((c) => c.placedBy === by).length;
  const fallbackBy = {
    locality: count("locality"),
    postalCode: count("postal_code"),
    epci: count("epci"),
    department: count("department"),
  };
  return {
    communes: communes.length,
    laposte: count("laposte"),
    merged: count("merged"),
    fallback: fallbackBy.locality + fallbackBy.postalCode + fallbackBy.epci + fallbackBy.department,
    fallbackBy,
  };
}

/**
 * The codes of the shipped rows only (the first column), to tell whether a database holds them:
 * every start asks, so this reads no more than it must (no rows, no slugs, no country names).
 */
export function shippedReferenceCodes(dir = shippedReferenceDir()): Record<Table | "countries", string[]> {
  const codes = (table: Table) => {
    const file = path.join(dir, `${table}.tsv`);
    if (!fs.existsSync(file)) readTable(dir, table); // throws the missing file's message
    const lines = fs.readFileSync(file, "utf8").split("\n");
    const out: string[] = [];
    for (let i = 1; i < lines.length; i++) {
      const tab = lines[i].indexOf("\t");
      if (tab > 0) out.push(lines[i].slice(0, tab));
    }
    return out;
  };
  return {
    countries: [...ISO_COUNTRY_CODES],
    regions: codes("regions"),
    departments: codes("departments"),
    communes: codes("communes"),
  };
}

/** Reads the shipped files (countries are built from code, as the CSV path builds them). */
export function readShippedReference(dir = shippedReferenceDir()): GeoReference {
  const regions: RegionRow[] = readTable(dir, "regions").map(([code, name]) => ({ code, name, slug: slugify(name) }));
  const departments: DepartmentRow[] = readTable(dir, "departments").map(([code, name, regionCode]) => ({
    code,
    name,
    slug: slugify(name),
    regionCode,
  }));
  const file = path.join(dir, "communes.tsv");
  const communes: CommuneRow[] = readTable(dir, "communes").map(
    ([code, name, departmentCode, regionCode, postal, population, lat, lng, placedBy]) => {
      if (!PLACED_BY.includes(placedBy as PlacedBy)) {
        throw new ShippedReferenceError(`${file}: commune ${code} has an unknown placed_by "${placedBy}"`);
      }
      return {
        code,
        name,
        slug: slugify(name),
        departmentCode,
        regionCode,
        postalCodes: postal ? postal.split(" ") : [],
        population: number(file, population, `population of ${code}`),
        lat: number(file, lat, `latitude of ${code}`),
        lng: number(file, lng, `longitude of ${code}`),
        placedBy: placedBy as PlacedBy,
      };
    },
  );
  return { countries: buildCountries(), regions, departments, communes, report: placementOf(communes) };
}
