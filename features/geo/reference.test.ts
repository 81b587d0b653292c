import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withIndexesBuiltAfter } from "../../platform/db/bulk.server.ts";
import { type Database, openDatabase } from "../../platform/db/client.server.ts";
import { loadReferenceData, type ReferenceLoadResult } from "../../seed/reference.server.ts";
import { SPORTS } from "../../shared/constants.ts";
import { events } from "../events/events.tables.ts";
import { buildCountries, ISO_COUNTRY_CODES } from "./countries.ts";
import {
  CommunesCsvError,
  configuredCommunesCsv,
  parseLaPosteCsv,
  readCommunesCsv,
  resolveCommunesCsvSource,
} from "./laposte.server.ts";
import { buildGeoReference, type Etalab, expectedGeoCodes, loadGeoReference, readEtalab } from "./reference.server.ts";
import {
  formatShippedReference,
  readShippedReference,
  shippedReferenceCodes,
  shippedReferenceDir,
} from "./shipped-reference.server.ts";
import { slugify } from "./slugify.ts";

/** A few rows of La Poste's table, in its format: Conques' former chef-lieu, and Rodez. */
const LAPOSTE_HEADER = "Code_commune_INSEE;Nom_commune;Code_postal;Ligne_5;Libellé_d_acheminement;coordonnees_gps";
const FIXTURE_CSV = [
  LAPOSTE_HEADER,
  "12076;CONQUES;12320;;CONQUES;44.598841,2.397994",
  "12202;RODEZ;12000;;RODEZ;44.358209,2.567873",
].join("\n");

/** @etalab/decoupage-administratif cut down to Aveyron (12), to derive from the fixture above. */
function aveyron(): Etalab {
  const etalab = readEtalab();
  return {
    communes: etalab.communes.filter((c) => c.code.startsWith("12")),
    departments: etalab.departments.filter((d) => d.code === "12"),
    regions: etalab.regions.filter((r) => r.code === "76"),
    epci: () => etalab.epci().filter((e) => e.membres.some((m) => m.code.startsWith("12"))),
  };
}

describe("slugify", () => {
  it("drops accents, apostrophes and case", () => {
    expect(slugify("Saint-Étienne")).toBe("saint-etienne");
    expect(slugify("Côtes-d'Armor")).toBe("cotes-d-armor");
    expect(slugify("L'Haÿ-les-Roses")).toBe("l-hay-les-roses");
    expect(slugify("Provence-Alpes-Côte d'Azur")).toBe("provence-alpes-cote-d-azur");
    expect(slugify("Œuvre  Ça ")).toBe("oeuvre-ca");
  });
});

describe("countries", () => {
  it("names every ISO 3166-1 country in French and English", () => {
    const rows = buildCountries();
    expect(ISO_COUNTRY_CODES.length).toBeGreaterThanOrEqual(249);
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    const byCode = new Map(rows.map((r) => [r.code, r]));
    expect(byCode.get("FR")).toMatchObject({ nameFr: "France", nameEn: "France" });
    expect(byCode.get("DE")).toMatchObject({ nameFr: "Allemagne", nameEn: "Germany" });
    expect(byCode.get("CH")?.nameFr).toBe("Suisse");
    for (const row of rows) expect(row.nameFr).not.toBe(row.code);
  });
});

describe("communes CSV source (COMMUNES_CSV overrides the shipped data)", () => {
  const emptyRoot = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-no-csv-"));
  const project = path.join(emptyRoot, "main");
  fs.mkdirSync(project);
  const csvFile = path.join(emptyRoot, "laposte.csv");
  fs.writeFileSync(csvFile, FIXTURE_CSV);
  afterAll(() => fs.rmSync(emptyRoot, { recursive: true, force: true }));

  it("is not needed: unset, the shipped files are read", () => {
    expect(configuredCommunesCsv({ env: {} })).toBeUndefined();
    expect(() => resolveCommunesCsvSource({ projectRoot: project, env: {} })).toThrow(CommunesCsvError);
  });

  it("reports a configured path that does not exist", () => {
    expect(() => resolveCommunesCsvSource({ projectRoot: project, env: { COMMUNES_CSV: "nowhere.csv" } })).toThrow(
      /not found at .*nowhere\.csv \(from COMMUNES_CSV\)/,
    );
  });

  it("refuses to load an empty database from a missing CSV, before writing anything", async () => {
    const calls: string[] = [];
    const fakeDb = {
      execute: async () => ({ rows: [] }),
      transaction: async () => {
        calls.push("transaction");
      },
    } as never;
    await expect(
      loadGeoReference(fakeDb, { projectRoot: project, env: { COMMUNES_CSV: "nowhere.csv" } }),
    ).rejects.toThrow(/nowhere\.csv.*COMMUNES_CSV/s);
    expect(calls).toEqual([]);
  });

  it("reads the CSV from COMMUNES_CSV, as a path or an http URL", async () => {
    expect(resolveCommunesCsvSource({ projectRoot: project, env: { COMMUNES_CSV: csvFile } })).toBe(csvFile);
    const server = http.createServer((req, res) => {
      if (req.url === "/laposte.csv") res.end(fs.readFileSync(csvFile));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const url = resolveCommunesCsvSource({ projectRoot: project, env: { COMMUNES_CSV: `${base}/laposte.csv` } });
      expect(url).toBe(`${base}/laposte.csv`);
      const index = parseLaPosteCsv(await readCommunesCsv(url));
      expect(index.rows).toBe(2);
      expect(index.byCode.get("12202")).toEqual({ lat: 44.358209, lng: 2.567873, postalCodes: ["12000"] });
      await expect(readCommunesCsv(`${base}/missing.csv`)).rejects.toThrow(/HTTP 404/);
    } finally {
      server.close();
    }
  });

  it("rejects a file that is not La Poste's table", () => {
    expect(() => parseLaPosteCsv("code,name\n1,a\n")).toThrow(/Code_commune_INSEE/);
  });

  it("places a commune merged after La Poste's table at the mean of its former communes, the others by fallback", () => {
    // Conques-en-Rouergue (12218) has no row of its own: La Poste files it under its former
    // chef-lieu 12076. Every other commune of the cut-down Aveyron falls back to a centroid.
    const geo = buildGeoReference(parseLaPosteCsv(FIXTURE_CSV), aveyron());
    const byCode = new Map(geo.communes.map((c) => [c.code, c]));
    expect(byCode.get("12218")).toMatchObject({
      name: "Conques-en-Rouergue",
      placedBy: "merged",
      lat: 44.598841,
      lng: 2.397994,
    });
    expect(byCode.get("12202")).toMatchObject({ name: "Rodez", placedBy: "laposte", lat: 44.358209 });
    expect(geo.report.laposte).toBe(1);
    expect(geo.report.fallback).toBe(geo.communes.length - 2);
    for (const c of geo.communes) expect(Math.abs(c.lat - 44.4)).toBeLessThan(0.6);
  });
});

describe("the shipped reference data (features/geo/data)", () => {
  const shipped = readShippedReference();

  it("has every current commune, department and region of the pinned @etalab/decoupage-administratif", () => {
    // A newer package (new mergers) without `npm run data:derive` fails here.
    const expected = expectedGeoCodes();
    expect(shipped.communes.map((c) => c.code).sort()).toEqual([...expected.communes].sort());
    expect(shipped.departments.map((d) => d.code).sort()).toEqual([...expected.departments].sort());
    expect(shipped.regions.map((r) => r.code).sort()).toEqual([...expected.regions].sort());
  });

  it("lists the same codes when read for the start's check as when read whole", () => {
    const codes = shippedReferenceCodes();
    expect(codes.communes).toEqual(shipped.communes.map((c) => c.code));
    expect(codes.departments).toEqual(shipped.departments.map((d) => d.code));
    expect(codes.regions).toEqual(shipped.regions.map((r) => r.code));
    expect(codes.countries).toEqual(shipped.countries.map((c) => c.code));
  });

  it("reads back exactly what the derive script writes", () => {
    const dir = shippedReferenceDir();
    for (const [name, text] of Object.entries(formatShippedReference(shipped))) {
      expect(text === fs.readFileSync(path.join(dir, name), "utf8"), name).toBe(true);
    }
  });

  it("refuses a damaged file with its line, and says how to rebuild a missing one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-shipped-"));
    try {
      expect(() => readShippedReference(dir)).toThrow(/regions\.tsv.*npm run data:derive/);
      const files = formatShippedReference(shipped);
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
      fs.appendFileSync(path.join(dir, "communes.tsv"), "99999\tNulle-part\t01\t84\t\t0\tnord\t5\tlaposte\n");
      expect(() => readShippedReference(dir)).toThrow(/communes\.tsv: latitude of 99999 "nord" is not a number/);
      fs.writeFileSync(path.join(dir, "communes.tsv"), `${files["communes.tsv"]}1\t2\n`);
      expect(() => readShippedReference(dir)).toThrow(/communes\.tsv, line \d+: 2 columns, 9 expected/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("reference data in the database", () => {
  let database: Database;
  let first: ReferenceLoadResult;
  const log: string[] = [];
  const query = async <T>(text: string, params: unknown[] = []) => (await database.pglite!.query<T>(text, params)).rows;

  const indexes = () =>
    query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename IN ('communes', 'events') ORDER BY indexname",
    );
  let migratedIndexes: { indexdef: string }[];

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await database.migrate();
    migratedIndexes = await indexes();
    first = await loadReferenceData(database.db, { log: (m) => log.push(m) });
  }, 120_000);
  afterAll(() => database?.close());

  it("loads everything and reports how communes were placed", () => {
    const report = first.geo.report!;
    expect(first.geo.skipped).toBe(false);
    expect(first.geo.inserted.countries).toBeGreaterThanOrEqual(249);
    expect(first.geo.inserted.regions).toBe(18);
    expect(first.geo.inserted.departments).toBe(101);
    expect(report.communes).toBeGreaterThan(34_000);
    expect(first.geo.inserted.communes).toBe(report.communes);
    expect(report.laposte + report.merged + report.fallback).toBe(report.communes);
    expect(report.laposte).toBeGreaterThan(34_000);
    expect(report.merged).toBeGreaterThan(0);
    const f = report.fallbackBy;
    expect(f.locality + f.postalCode + f.epci + f.department).toBe(report.fallback);
    expect(log.join("\n")).toMatch(/communes placed: \d+ by La Poste, \d+ by former communes.*\d+ by fallback/);
    expect(first.sports.inserted).toBe(SPORTS.length);
  });

  it("gives every current commune coordinates inside France or its overseas departments", async () => {
    const [{ n }] = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM communes WHERE lat IS NULL OR lng IS NULL OR lat = 'NaN' OR lng = 'NaN'",
    );
    expect(n).toBe(0);
    const [metro] = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM communes WHERE department_code NOT LIKE '97%'
         AND NOT (lat BETWEEN 41.3 AND 51.1 AND lng BETWEEN -5.2 AND 9.6)`,
    );
    expect(metro.n).toBe(0);
    const [reunion] = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM communes WHERE department_code = '974'
         AND NOT (lat BETWEEN -21.4 AND -20.8 AND lng BETWEEN 55.2 AND 55.9)`,
    );
    expect(reunion.n).toBe(0);
  });

  it("keeps proper accented names, populations and postal codes", async () => {
    const [stEtienne] = await query<Record<string, unknown>>("SELECT * FROM communes WHERE code = '42218'");
    expect(stEtienne).toMatchObject({
      name: "Saint-Étienne",
      slug: "saint-etienne",
      department_code: "42",
      region_code: "84",
      placed_by: "laposte",
    });
    expect(stEtienne.lat as number).toBeCloseTo(45.43, 1);
    expect(stEtienne.lng as number).toBeCloseTo(4.39, 1);
    expect(stEtienne.population as number).toBeGreaterThan(150_000);
    expect(stEtienne.postal_codes).toContain("42000");

    const [paris] = await query<Record<string, unknown>>("SELECT * FROM communes WHERE code = '75056'");
    expect(paris).toMatchObject({ name: "Paris", department_code: "75", region_code: "11" });
    expect(paris.population as number).toBeGreaterThan(2_000_000);
    expect(paris.lat as number).toBeCloseTo(48.86, 1);
    expect(paris.lng as number).toBeCloseTo(2.35, 1);
    expect((paris.postal_codes as string[]).length).toBe(21);
    // Arrondissements are not communes here.
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM communes WHERE code = '75101'");
    expect(n).toBe(0);

    const [reunion] = await query<Record<string, unknown>>("SELECT * FROM communes WHERE code = '97411'");
    expect(reunion).toMatchObject({ name: "Saint-Denis", department_code: "974", region_code: "04" });
  });

  it("places a commune merged after La Poste's table where its former chef-lieu is", async () => {
    const [conques] = await query<{ name: string; lat: number; lng: number; placed_by: string }>(
      "SELECT name, lat, lng, placed_by FROM communes WHERE code = '12218'",
    );
    expect(conques).toMatchObject({ name: "Conques-en-Rouergue", placed_by: "merged" });
    expect(conques.lat).toBeCloseTo(44.6, 1);
    expect(conques.lng).toBeCloseTo(2.4, 1);
  });

  it("places restored communes with a fallback close to where they are", async () => {
    // Sannerville (14666) left Saline in 2025; La Poste lists it as a locality of Saline (14712).
    const [sannerville] = await query<{ lat: number; lng: number; placed_by: string }>(
      "SELECT lat, lng, placed_by FROM communes WHERE code = '14666'",
    );
    expect(sannerville.placed_by).toBe("locality");
    expect(sannerville.lat).toBeCloseTo(49.19, 1);
    expect(sannerville.lng).toBeCloseTo(-0.18, 1);
  });

  it("has slugged regions and departments", async () => {
    const rows = await query<{ code: string; slug: string; region_code: string }>(
      "SELECT code, slug, region_code FROM departments WHERE code IN ('22', '2A', '974') ORDER BY code",
    );
    expect(rows).toEqual([
      { code: "22", slug: "cotes-d-armor", region_code: "53" },
      { code: "2A", slug: "corse-du-sud", region_code: "94" },
      { code: "974", slug: "la-reunion", region_code: "04" },
    ]);
    const [region] = await query<{ name: string; slug: string }>("SELECT name, slug FROM regions WHERE code = '84'");
    expect(region).toEqual({ name: "Auvergne-Rhône-Alpes", slug: "auvergne-rhone-alpes" });
  });

  it("loads the sports with names and slugs in both languages", async () => {
    const rows = await query<{ key: string; name_fr: string; slug_en: string; parent_key: string | null }>(
      "SELECT key, name_fr, slug_en, parent_key FROM sports ORDER BY position",
    );
    expect(rows.map((r) => r.key)).toEqual(SPORTS.map((s) => s.key));
    expect(rows.find((r) => r.key === "ultra_trail")).toMatchObject({
      name_fr: "Ultra-trail",
      slug_en: "ultra-trail",
      parent_key: "trail",
    });
  });

  it("builds the indexes of the tables it fills after the load, the same as the migrations made them", async () => {
    expect(migratedIndexes.length).toBeGreaterThan(10);
    expect(await indexes()).toEqual(migratedIndexes);
    // A load that fails (here into the still empty events table) leaves every index in place.
    await expect(
      withIndexesBuiltAfter(database.db, [events], async () => {
        throw new Error("the load failed");
      }),
    ).rejects.toThrow("the load failed");
    expect(await indexes()).toEqual(migratedIndexes);
  });

  it("is idempotent: a second run inserts nothing, and COMMUNES_CSV's table refreshes rows in place", async () => {
    const before = await query<{ n: number }>(
      "SELECT (SELECT count(*) FROM countries) + (SELECT count(*) FROM communes) + (SELECT count(*) FROM sports) AS n",
    );
    const second = await loadReferenceData(database.db, { env: {} });
    expect(second.geo.skipped).toBe(true);
    expect(second.sports.skipped).toBe(true);
    expect(second.geo.inserted).toEqual({ countries: 0, regions: 0, departments: 0, communes: 0 });
    // Forcing a reload refreshes rows in place (a commune renamed by hand gets its name back, the
    // others are left as they are) and still inserts nothing.
    await query("UPDATE communes SET name = 'Annecy-le-Renommé' WHERE code = '74010'");
    const untouched = await query<{ xmin: string }>("SELECT xmin::text FROM communes WHERE code = '75056'");
    const forced = await loadGeoReference(database.db, { force: true, env: {} });
    expect(forced.inserted).toEqual({ countries: 0, regions: 0, departments: 0, communes: 0 });
    await expect(query("SELECT name FROM communes WHERE code = '74010'")).resolves.toEqual([{ name: "Annecy" }]);
    await expect(query("SELECT xmin::text FROM communes WHERE code = '75056'")).resolves.toEqual(untouched);
    // La Poste's table through COMMUNES_CSV (here one written from the shipped rows, in its format)
    // is derived as the script derives it: the same communes, a moved one moved, nothing inserted.
    const placed = (await query<{ code: string; name: string; postal_codes: string[]; lat: number; lng: number }>(
      "SELECT code, name, postal_codes, lat, lng FROM communes WHERE placed_by = 'laposte'",
    )) as { code: string; name: string; postal_codes: string[]; lat: number; lng: number }[];
    const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dossard-csv-")), "laposte_hexasmal.csv");
    const moved = (c: { code: string; lat: number }) => (c.code === "74010" ? 45.9 : c.lat);
    fs.writeFileSync(
      csv,
      [
        LAPOSTE_HEADER,
        ...placed.flatMap((c) =>
          c.postal_codes.map((p) => `${c.code};${c.name.toUpperCase()};${p};;;${moved(c)},${c.lng}`),
        ),
      ].join("\n"),
    );
    const fromCsv = await loadGeoReference(database.db, { force: true, env: { COMMUNES_CSV: csv } });
    expect(fromCsv.inserted.communes).toBe(0);
    await expect(query("SELECT lat FROM communes WHERE code = '74010'")).resolves.toEqual([{ lat: 45.9 }]);
    await loadGeoReference(database.db, { force: true, env: {} });
    fs.rmSync(path.dirname(csv), { recursive: true, force: true });
    const after = await query<{ n: number }>(
      "SELECT (SELECT count(*) FROM countries) + (SELECT count(*) FROM communes) + (SELECT count(*) FROM sports) AS n",
    );
    expect(after).toEqual(before);
  }, 60_000);
});
