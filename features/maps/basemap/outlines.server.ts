/**
 * France's outlines for the offline base map and the posters' borders (decision 042): departments
 * (their polygons are the land, their shared edges the department, region and outline borders) and,
 * department by department, the communes.
 *
 * By default they come from the compact files the repository ships in features/maps/data/ (TopoJSON,
 * gzipped, derived by `npm run data:derive` from IGN Admin Express via france-geojson); MAP_DATA_DIR
 * may name a france-geojson folder instead (its raw GeoJSON files, as published).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { FeatureCollection } from "geojson";
import { topology } from "topojson-server";
import type { Topology } from "topojson-specification";
import { findProjectRoot } from "../../geo/laposte.server.ts";

export const SHIPPED_OUTLINES_DIR = "features/maps/data";
export const DEPARTMENTS_OBJECT = "departments";
export const COMMUNES_OBJECT = "communes";
/** The shipped files' names. */
export const SHIPPED_DEPARTMENTS_FILE = "departments.topojson.gz";
export const shippedCommunesFile = (department: string) => path.join("communes", `${department}.topojson.gz`);
const GEOJSON_DEPARTMENTS_FILE = "departements-avec-outre-mer.geojson";

export type Outlines = {
  /** Where they come from, for logs. */
  source: string;
  /** Departments as polygons with a `code` property, in the object DEPARTMENTS_OBJECT. */
  departments: () => Topology;
  /** A department's communes (a `code` property each) in the object COMMUNES_OBJECT; null when none. */
  communes: (department: string) => Promise<Topology | null>;
  /** Changes whenever the files do (part of the base map's versioned URLs). */
  version: string;
};

const gunzipJson = <T>(bytes: Buffer): T => JSON.parse(zlib.gunzipSync(bytes).toString("utf8")) as T;

/** The shipped outlines, or null when the folder has none (a damaged checkout). */
export function shippedOutlines(dir = path.join(findProjectRoot(), SHIPPED_OUTLINES_DIR)): Outlines | null {
  const departmentsFile = path.join(dir, SHIPPED_DEPARTMENTS_FILE);
  if (!fs.existsSync(departmentsFile)) return null;
  const hash = createHash("sha1").update(fs.readFileSync(departmentsFile));
  const communeFiles = new Map<string, string>();
  const folder = path.join(dir, "communes");
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []) {
    const code = /^([0-9AB]{2,3})\.topojson\.gz$/i.exec(name)?.[1];
    if (!code) continue;
    const file = path.join(folder, name);
    communeFiles.set(code.toUpperCase(), file);
    hash.update(`${code}:${fs.statSync(file).size}`);
  }
  return {
    source: dir,
    departments: () => gunzipJson<Topology>(fs.readFileSync(departmentsFile)),
    communes: async (department) => {
      const file = communeFiles.get(department.toUpperCase());
      return file ? gunzipJson<Topology>(await fs.promises.readFile(file)) : null;
    },
    version: `shipped:${hash.digest("hex").slice(0, 12)}`,
  };
}

/** A france-geojson folder's outlines (MAP_DATA_DIR), or null when it does not hold them. */
export function geojsonOutlines(dir: string): Outlines | null {
  const departmentsFile = path.join(dir, GEOJSON_DEPARTMENTS_FILE);
  if (!fs.existsSync(departmentsFile)) return null;
  const communeFiles = new Map<string, string>();
  const folder = path.join(dir, "communes");
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []) {
    const code = /^communes-([0-9AB]{2,3})-/i.exec(name)?.[1];
    if (code) communeFiles.set(code.toUpperCase(), path.join(folder, name));
  }
  const stat = fs.statSync(departmentsFile);
  const hash = createHash("sha1").update(`${stat.size}:${stat.mtimeMs}`);
  for (const [code, file] of communeFiles) hash.update(`${code}:${fs.statSync(file).size}`);
  const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as FeatureCollection;
  return {
    source: dir,
    departments: () => topology({ [DEPARTMENTS_OBJECT]: read(departmentsFile) }) as unknown as Topology,
    communes: async (department) => {
      const file = communeFiles.get(department.toUpperCase());
      if (!file) return null;
      const collection = JSON.parse(await fs.promises.readFile(file, "utf8")) as FeatureCollection;
      return topology({ [COMMUNES_OBJECT]: collection }) as unknown as Topology;
    },
    version: `geojson:${hash.digest("hex").slice(0, 12)}`,
  };
}

/**
 * The outlines the site uses: MAP_DATA_DIR's france-geojson folder when it is set (relative to the
 * project), else the shipped ones; `tried` says where it looked when there are none.
 */
export function resolveOutlines(
  configured: string | undefined,
  projectRoot = findProjectRoot(),
): { outlines: Outlines | null; tried: string } {
  if (configured) {
    const dir = path.resolve(projectRoot, configured);
    return { outlines: geojsonOutlines(dir), tried: dir };
  }
  const dir = path.join(projectRoot, SHIPPED_OUTLINES_DIR);
  return { outlines: shippedOutlines(dir), tried: dir };
}
