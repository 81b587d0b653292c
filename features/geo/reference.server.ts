import fs from "node:fs";
import { createRequire } from "node:module";
import { getTableName, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { SqlRunner } from "../../platform/db/bulk.server.ts";
import { bulkInsert, withIndexesBuiltAfter } from "../../platform/db/bulk.server.ts";
import { buildCountries } from "./countries.ts";
import { communes, countries, departments, regions } from "./geo.tables.ts";
import {
  type CsvSourceOptions,
  configuredCommunesCsv,
  type LaPosteIndex,
  parseLaPosteCsv,
  placeKey,
  readCommunesCsv,
  resolveCommunesCsvSource,
} from "./laposte.server.ts";
import type { CommuneRow, DepartmentRow, GeoReference, PlacementReport, RegionRow } from "./reference-rows.ts";
import { readShippedReference, SHIPPED_REFERENCE_DIR, shippedReferenceCodes } from "./shipped-reference.server.ts";
import { slugify } from "./slugify.ts";

export type {
  CommuneRow,
  DepartmentRow,
  GeoReference,
  PlacedBy,
  PlacementReport,
  RegionRow,
} from "./reference-rows.ts";

/** Zones of @etalab/decoupage-administratif kept: metropolitan France and the overseas departments. */
const KEPT_ZONES = new Set(["metro", "drom"]);

type EtalabCommune = {
  code: string;
  nom: string;
  type: "commune-actuelle" | "commune-deleguee" | "commune-associee" | "arrondissement-municipal";
  zone: string;
  departement?: string;
  region?: string;
  codesPostaux?: string[];
  population?: number;
  anciensCodes?: string[];
  /** Current commune a delegated/associated commune belongs to. */
  chefLieu?: string;
  /** Commune a municipal arrondissement (Paris, Lyon, Marseille) belongs to. */
  commune?: string;
};
type EtalabDepartment = { code: string; nom: string; region: string; zone: string };
type EtalabRegion = { code: string; nom: string; zone: string };
type EtalabEpci = { code: string; nom: string; membres: { code: string }[] };

export type Etalab = {
  communes: EtalabCommune[];
  departments: EtalabDepartment[];
  regions: EtalabRegion[];
  /** Intercommunalities, only read when a commune needs the intercommunality fallback. */
  epci: () => EtalabEpci[];
};

function readEtalabFile<T>(file: string): T {
  const require = createRequire(import.meta.url);
  return JSON.parse(fs.readFileSync(require.resolve(`@etalab/decoupage-administratif/data/${file}`), "utf8")) as T;
}

/**
 * The JSON files of @etalab/decoupage-administratif (its index.js is broken). Not cached: they are
 * only needed while loading, and the server should not keep ~50 MB of them for its lifetime.
 */
export function readEtalab(): Etalab {
  return {
    communes: readEtalabFile<EtalabCommune[]>("communes.json"),
    departments: readEtalabFile<EtalabDepartment[]>("departements.json"),
    regions: readEtalabFile<EtalabRegion[]>("regions.json"),
    epci: () => readEtalabFile<EtalabEpci[]>("epci.json"),
  };
}

export function formatPlacementReport(r: PlacementReport): string {
  const f = r.fallbackBy;
  return (
    `${r.communes} communes placed: ${r.laposte} by La Poste, ${r.merged} by former communes or arrondissements, ` +
    `${r.fallback} by fallback (${f.locality} La Poste locality, ${f.postalCode} same postal code, ` +
    `${f.epci} intercommunality centroid, ${f.department} department centroid)`
  );
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

function mean(points: { lat: number; lng: number }[]): { lat: number; lng: number } {
  let lat = 0;
  let lng = 0;
  for (const p of points) {
    lat += p.lat;
    lng += p.lng;
  }
  return { lat: lat / points.length, lng: lng / points.length };
}

type ReferenceCodes = Record<"countries" | "regions" | "departments" | "communes", string[]>;

/** Codes of the reference rows, computed without the CSV (to tell whether they are loaded). */
export function expectedGeoCodes(etalab: Etalab = readEtalab()): ReferenceCodes {
  return {
    countries: buildCountries().map((c) => c.code),
    regions: etalab.regions.filter((r) => KEPT_ZONES.has(r.zone)).map((r) => r.code),
    departments: etalab.departments.filter((d) => KEPT_ZONES.has(d.zone)).map((d) => d.code),
    communes: etalab.communes.filter((c) => c.type === "commune-actuelle" && KEPT_ZONES.has(c.zone)).map((c) => c.code),
  };
}

/**
 * Joins @etalab/decoupage-administratif (names, hierarchy, populations, postal codes) with La Poste's
 * coordinates. Every current commune ends with coordinates:
 * 1. its own La Poste row;
 * 2. else the mean of its former communes' rows (communes merged after La Poste's table was made) or
 *    of its municipal arrondissements' rows (Paris, Lyon, Marseille are single communes here);
 * Fallbacks, from the closest to the coarsest:
 * 3. "locality": La Poste rows of the same department naming it (Ligne_5 or commune name): communes
 *    restored after a merger are still localities of the commune they had joined, renumbered ones
 *    keep their name under the old code;
 * 4. "postal_code": mean of the La Poste rows of the other communes sharing its postal code(s);
 * 5. "epci": population-weighted centroid of its intercommunality's members placed by 1–4;
 * 6. "department": population-weighted centroid of its department's communes placed by 1–4.
 */
export function buildGeoReference(laposte: LaPosteIndex, etalab: Etalab = readEtalab()): GeoReference {
  const regionRows: RegionRow[] = etalab.regions
    .filter((r) => KEPT_ZONES.has(r.zone))
    .map((r) => ({ code: r.code, name: r.nom, slug: slugify(r.nom) }));
  const departmentRows: DepartmentRow[] = etalab.departments
    .filter((d) => KEPT_ZONES.has(d.zone))
    .map((d) => ({ code: d.code, name: d.nom, slug: slugify(d.nom), regionCode: d.region }));

  const parts = new Map<string, string[]>();
  const addPart = (parent: string | undefined, code: string) => {
    if (!parent || parent === code) return;
    const list = parts.get(parent) ?? [];
    if (!list.includes(code)) list.push(code);
    parts.set(parent, list);
  };
  for (const c of etalab.communes) {
    if (c.type === "commune-deleguee" || c.type === "commune-associee") addPart(c.chefLieu, c.code);
    else if (c.type === "arrondissement-municipal") addPart(c.commune, c.code);
    else for (const former of c.anciensCodes ?? []) addPart(c.code, former);
  }

  const byPostalCode = new Map<string, { lat: number; lng: number }[]>();
  for (const entry of laposte.byCode.values()) {
    if (entry.lat === null || entry.lng === null) continue;
    for (const postal of entry.postalCodes) {
      const list = byPostalCode.get(postal) ?? [];
      list.push({ lat: entry.lat, lng: entry.lng });
      byPostalCode.set(postal, list);
    }
  }

  const report: PlacementReport = {
    communes: 0,
    laposte: 0,
    merged: 0,
    fallback: 0,
    fallbackBy: { locality: 0, postalCode: 0, epci: 0, department: 0 },
  };
  const rows: CommuneRow[] = [];
  const unplaced: CommuneRow[] = [];
  for (const c of etalab.communes) {
    if (c.type !== "commune-actuelle" || !KEPT_ZONES.has(c.zone) || !c.departement || !c.region) continue;
    const own = laposte.byCode.get(c.code);
    const subunits = (parts.get(c.code) ?? []).map((code) => laposte.byCode.get(code));
    const row: CommuneRow = {
      code: c.code,
      name: c.nom,
      slug: slugify(c.nom),
      departmentCode: c.departement,
      regionCode: c.region,
      postalCodes: c.codesPostaux?.length
        ? [...c.codesPostaux]
        : own?.postalCodes.length
          ? [...own.postalCodes]
          : [...new Set(subunits.flatMap((p) => p?.postalCodes ?? []))].sort(),
      population: c.population ?? 0,
      lat: Number.NaN,
      lng: Number.NaN,
      placedBy: "laposte",
    };
    report.communes++;
    rows.push(row);
    if (own && own.lat !== null && own.lng !== null) {
      row.lat = own.lat;
      row.lng = own.lng;
      report.laposte++;
      continue;
    }
    const located = subunits.filter((p) => p && p.lat !== null && p.lng !== null) as { lat: number; lng: number }[];
    if (located.length > 0) {
      Object.assign(row, mean(located), { placedBy: "merged" });
      report.merged++;
      continue;
    }
    report.fallback++;
    const localities = laposte.byLocality.get(`${c.departement}|${placeKey(c.nom)}`);
    const neighbours = row.postalCodes!.flatMap((postal) => byPostalCode.get(postal) ?? []);
    if (localities?.length) {
      Object.assign(row, mean(localities), { placedBy: "locality" });
      report.fallbackBy.locality++;
    } else if (neighbours.length > 0) {
      Object.assign(row, mean(neighbours), { placedBy: "postal_code" });
      report.fallbackBy.postalCode++;
    } else {
      unplaced.push(row);
    }
  }

  if (unplaced.length > 0) {
    const byCode = new Map(rows.map((row) => [row.code, row]));
    const centroid = (members: (CommuneRow | undefined)[]) => {
      let lat = 0;
      let lng = 0;
      let weight = 0;
      for (const m of members) {
        if (!m || Number.isNaN(m.lat)) continue;
        const w = Math.max(1, m.population ?? 0);
        lat += m.lat * w;
        lng += m.lng * w;
        weight += w;
      }
      return weight > 0 ? { lat: lat / weight, lng: lng / weight } : null;
    };
    const epciOf = new Map<string, string[]>();
    for (const epci of etalab.epci()) {
      const members = epci.membres.map((m) => m.code);
      for (const code of members) epciOf.set(code, members);
    }
    const byDepartment = new Map<string, CommuneRow[]>();
    for (const row of rows) {
      const list = byDepartment.get(row.departmentCode) ?? [];
      list.push(row);
      byDepartment.set(row.departmentCode, list);
    }
    // Centroids are computed from communes placed by La Poste and the closer fallbacks only.
    const epciCentres = unplaced.map((row) => centroid((epciOf.get(row.code) ?? []).map((code) => byCode.get(code))));
    const departmentCentres = unplaced.map((row) => centroid(byDepartment.get(row.departmentCode) ?? []));
    unplaced.forEach((row, i) => {
      const centre = epciCentres[i] ?? departmentCentres[i];
      if (!centre) throw new Error(`No placed commune near ${row.code} ${row.name} to place it`);
      Object.assign(row, centre, { placedBy: epciCentres[i] ? "epci" : "department" });
      if (epciCentres[i]) report.fallbackBy.epci++;
      else report.fallbackBy.department++;
    });
  }
  for (const row of rows) {
    row.lat = round6(row.lat);
    row.lng = round6(row.lng);
  }
  return { countries: buildCountries(), regions: regionRows, departments: departmentRows, communes: rows, report };
}

export type GeoLoadOptions = CsvSourceOptions & {
  log?: (message: string) => void;
  force?: boolean;
  /** The shipped files' folder (default features/geo/data). */
  referenceDir?: string;
};

export type GeoLoadResult = {
  /** True when everything was already there and nothing was read nor written. */
  skipped: boolean;
  inserted: { countries: number; regions: number; departments: number; communes: number };
  report: PlacementReport | null;
  ms: number;
};

async function existingCodes(db: SqlRunner, table: string): Promise<Set<string>> {
  const result = (await db.execute(sql`SELECT code FROM ${sql.identifier(table)}`)) as unknown as {
    rows: { code: string }[];
  };
  return new Set(result.rows.map((r) => r.code));
}

/** True when every expected country, region, department and current commune is in the database. */
export async function geoReferenceLoaded(db: SqlRunner, expected: ReferenceCodes): Promise<boolean> {
  for (const [table, codes] of Object.entries(expected)) {
    const present = await existingCodes(db, table);
    if (codes.some((code) => !present.has(code))) return false;
  }
  return true;
}

/** `(xmax = 0)` is true for a freshly inserted row, false for one updated by ON CONFLICT. */
const countInserted = (rows: Record<string, unknown>[]) => rows.filter((r) => r.inserted === true).length;

/**
 * Loads countries, regions, departments and communes: from the files the repository ships
 * (features/geo/data), or, when COMMUNES_CSV is set, derived from that CSV and
 * @etalab/decoupage-administratif as the derive script does. Idempotent and cheap when already
 * loaded: it then only compares codes. Otherwise it upserts everything in one transaction (new rows
 * inserted, existing rows refreshed, nothing deleted: events point at communes).
 */
export async function loadGeoReference(
  db: Pick<import("../../platform/db/client.server.ts").Db, "execute" | "transaction">,
  options: GeoLoadOptions = {},
): Promise<GeoLoadResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const fromCsv = configuredCommunesCsv(options) !== undefined;
  const etalab = fromCsv ? readEtalab() : null;
  const expected = etalab ? expectedGeoCodes(etalab) : shippedReferenceCodes(options.referenceDir);
  if (!options.force && (await geoReferenceLoaded(db, expected))) {
    return {
      skipped: true,
      inserted: { countries: 0, regions: 0, departments: 0, communes: 0 },
      report: null,
      ms: Math.round(performance.now() - started),
    };
  }
  let geo: GeoReference;
  if (etalab) {
    const source = resolveCommunesCsvSource(options);
    log(`geo: reading communes coordinates from ${source}`);
    geo = buildGeoReference(parseLaPosteCsv(await readCommunesCsv(source)), etalab);
  } else {
    geo = readShippedReference(options.referenceDir);
    log(`geo: reading the shipped reference data (${SHIPPED_REFERENCE_DIR})`);
  }
  // A row that has not changed is left as it is: a forced reload of the same data writes nothing.
  const upsert = (table: PgTable, columns: string[]) =>
    sql.raw(
      `ON CONFLICT (code) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(", ")} ` +
        `WHERE (${columns.map((c) => `${getTableName(table)}.${c}`).join(", ")}) IS DISTINCT FROM (${columns.map((c) => `EXCLUDED.${c}`).join(", ")})`,
    );
  const returning = sql.raw("(xmax = 0) AS inserted");
  const inserted = await withIndexesBuiltAfter(db, [communes], async (tx) => ({
    countries: countInserted(
      await bulkInsert(tx, countries, geo.countries, {
        onConflict: upsert(countries, ["name_fr", "name_en"]),
        returning,
      }),
    ),
    regions: countInserted(
      await bulkInsert(tx, regions, geo.regions, { onConflict: upsert(regions, ["name", "slug"]), returning }),
    ),
    departments: countInserted(
      await bulkInsert(tx, departments, geo.departments, {
        onConflict: upsert(departments, ["name", "slug", "region_code"]),
        returning,
      }),
    ),
    communes: countInserted(
      await bulkInsert(tx, communes, geo.communes, {
        onConflict: upsert(communes, [
          "name",
          "slug",
          "department_code",
          "region_code",
          "postal_codes",
          "population",
          "lat",
          "lng",
          "placed_by",
        ]),
        returning,
      }),
    ),
  }));
  log(`geo: ${formatPlacementReport(geo.report)}`);
  return { skipped: false, inserted, report: geo.report, ms: Math.round(performance.now() - started) };
}
