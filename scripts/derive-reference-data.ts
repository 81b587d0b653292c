/**
 * Derives the compact reference files the repository ships from the raw open data (decision 042):
 *
 *   npm run data:derive [-- --from ../shared/data] [--check]
 *
 * - features/geo/data/{regions,departments,communes}.tsv: France's regions, departments and current
 *   communes (names, postal codes, populations: @etalab/decoupage-administratif; coordinates: La
 *   Poste's laposte_hexasmal.csv, placed as features/geo/reference.server.ts explains);
 * - features/maps/data/departments.topojson.gz and communes/NN.topojson.gz: IGN Admin Express
 *   outlines (france-geojson), as quantised TopoJSON, communes merged since 2018 under their
 *   current code.
 *
 * `--from` names the folder holding laposte_hexasmal.csv and france-geojson/ (default ../shared/data
 * beside the project). `--check` writes nothing and fails when the shipped files differ from what
 * the sources give. Nothing else reads the raw sources: the server and the tests read these files.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import type { FeatureCollection } from "geojson";
import { topology } from "topojson-server";
import { findProjectRoot, parseLaPosteCsv } from "../features/geo/laposte.server.ts";
import { buildGeoReference, formatPlacementReport, readEtalab } from "../features/geo/reference.server.ts";
import { formatShippedReference, SHIPPED_REFERENCE_DIR } from "../features/geo/shipped-reference.server.ts";
import {
  COMMUNES_OBJECT,
  DEPARTMENTS_OBJECT,
  SHIPPED_DEPARTMENTS_FILE,
  SHIPPED_OUTLINES_DIR,
  shippedCommunesFile,
} from "../features/maps/basemap/outlines.server.ts";

/** Quantisation: departments span France and its overseas (≈ 120° of longitude, ~15 m steps at 1e6
 * over that width are too coarse, so 1e7 ≈ 1.3 m); one department's communes ≈ 1–2°, 1e5 ≈ 2 m. */
const DEPARTMENTS_QUANTIZATION = 1e7;
const COMMUNES_QUANTIZATION = 1e5;

const { values } = parseArgs({
  options: {
    from: { type: "string" },
    check: { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
});
if (values.help) {
  console.log("Usage: npm run data:derive [-- --from DIR] [--check]");
  process.exit(0);
}
const root = findProjectRoot();
const from = path.resolve(values.from ?? path.join(root, "../shared/data"));
const csvFile = path.join(from, "laposte_hexasmal.csv");
const geojsonDir = path.join(from, "france-geojson");
for (const needed of [csvFile, path.join(geojsonDir, "departements-avec-outre-mer.geojson")]) {
  if (!fs.existsSync(needed)) {
    console.error(`data:derive: ${needed} not found (give the raw data's folder with --from)`);
    process.exit(2);
  }
}

const outputs = new Map<string, Buffer>();
const etalab = readEtalab();

// Communes, departments, regions.
const geo = buildGeoReference(parseLaPosteCsv(fs.readFileSync(csvFile, "utf8")), etalab);
for (const [name, text] of Object.entries(formatShippedReference(geo))) {
  outputs.set(path.join(SHIPPED_REFERENCE_DIR, name), Buffer.from(text));
}
console.log(formatPlacementReport(geo.report));

// Outlines: only the code of each shape is kept (the names are in communes.tsv).
const current = new Map<string, string>();
for (const c of etalab.communes) {
  if (c.type === "commune-actuelle") for (const former of c.anciensCodes ?? []) current.set(former, c.code);
  else if ((c.type === "commune-deleguee" || c.type === "commune-associee") && c.chefLieu)
    current.set(c.code, c.chefLieu);
}
const currentCodes = new Set(geo.communes.map((c) => c.code));
const currentOf = (code: string) => (currentCodes.has(code) ? code : (current.get(code) ?? code));
const gzip = (value: unknown) => zlib.gzipSync(JSON.stringify(value), { level: 9 });
const readGeojson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as FeatureCollection;
const onlyCode = (collection: FeatureCollection, map: (code: string) => string = (c) => c): FeatureCollection => ({
  type: "FeatureCollection",
  features: collection.features.map((f) => ({
    type: "Feature",
    properties: { code: map(String(f.properties?.code ?? "")) },
    geometry: f.geometry,
  })),
});

const departments = onlyCode(readGeojson(path.join(geojsonDir, "departements-avec-outre-mer.geojson")));
outputs.set(
  path.join(SHIPPED_OUTLINES_DIR, SHIPPED_DEPARTMENTS_FILE),
  gzip(topology({ [DEPARTMENTS_OBJECT]: departments }, DEPARTMENTS_QUANTIZATION)),
);
let remapped = 0;
for (const name of fs.readdirSync(path.join(geojsonDir, "communes")).sort()) {
  const code = /^communes-([0-9AB]{2,3})-/i.exec(name)?.[1]?.toUpperCase();
  if (!code) continue;
  const collection = onlyCode(readGeojson(path.join(geojsonDir, "communes", name)), (c) => {
    const now = currentOf(c);
    if (now !== c) remapped++;
    return now;
  });
  outputs.set(
    path.join(SHIPPED_OUTLINES_DIR, shippedCommunesFile(code)),
    gzip(topology({ [COMMUNES_OBJECT]: collection }, COMMUNES_QUANTIZATION)),
  );
}
console.log(
  `outlines: ${departments.features.length} departments, ${remapped} former communes under their current code`,
);

// gzip output embeds no time stamp (Node writes zero), so unchanged data gives unchanged bytes.
let total = 0;
const differing: string[] = [];
for (const [file, bytes] of outputs) {
  total += bytes.length;
  const target = path.join(root, file);
  const same = fs.existsSync(target) && fs.readFileSync(target).equals(bytes);
  if (same) continue;
  differing.push(file);
  if (!values.check) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
}
console.log(`${outputs.size} files, ${(total / 1024 / 1024).toFixed(1)} MB; ${differing.length} changed`);
if (values.check && differing.length) {
  console.error(`data:derive --check: differs from the sources: ${differing.slice(0, 10).join(", ")}`);
  process.exit(1);
}
