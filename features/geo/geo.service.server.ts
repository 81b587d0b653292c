import { asc, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import type { Locale } from "../../shared/constants.ts";
import {
  type City,
  type Country,
  DEFAULT_CITY_RESULTS,
  type Department,
  GEOCODE_MAX_KM,
  type GeocodeResult,
  MAX_CITY_RESULTS,
  type MapReference,
  type Region,
} from "./geo.contract.ts";
import { countries, departments, regions } from "./geo.tables.ts";
import { slugify } from "./slugify.ts";

type CityRow = {
  code: string;
  name: string;
  slug: string;
  postal_codes: string[];
  department_code: string;
  department_name: string;
  region_code: string;
  population: number;
  lat: number;
  lng: number;
};

const CITY_COLUMNS = sql`c.code, c.name, c.slug, c.postal_codes, c.department_code, d.name AS department_name,
  c.region_code, c.population, c.lat, c.lng`;

function toCity(row: CityRow): City {
  return {
    code: row.code,
    name: row.name,
    slug: row.slug,
    postalCodes: row.postal_codes,
    departmentCode: row.department_code,
    departmentName: row.department_name,
    regionCode: row.region_code,
    population: Number(row.population),
    lat: Number(row.lat),
    lng: Number(row.lng),
  };
}

/** A PostgreSQL array literal, sent as one text parameter (`${pgArray(list)}::text[]`). */
export function pgArray(values: readonly (string | number)[]): string {
  return `{${values.map((v) => `"${String(v).replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}

export { rows };

/** An INSEE commune code: five digits, or Corsica's 2A/2B followed by three digits. */
export const INSEE_CODE = /^(?:\d{5}|2[AB]\d{3})$/i;
export const POSTAL_CODE = /^\d{5}$/;

/** The slug form of a place name as typed: "St-Etienne" → "saint-etienne", "Ste Foy" → "sainte-foy". */
export function cityQuerySlug(text: string): string {
  return slugify(text)
    .split("-")
    .map((word) => (word === "st" ? "saint" : word === "ste" ? "sainte" : word))
    .join("-");
}

/** Regions, departments, countries, commune autocomplete and reverse geocoding (issue 3). */
export function geoService(db: Db) {
  let regionCache: Promise<Region[]> | undefined;
  let departmentCache: Promise<Department[]> | undefined;
  const countryCache = new Map<Locale, Promise<Country[]>>();

  /** Cached lists are dropped when loading them failed, so the next call retries. */
  function cached<T>(load: () => Promise<T>, clear: () => void): Promise<T> {
    const promise = load();
    promise.catch(clear);
    return promise;
  }

  const service = {
    /** Every region, by name (French collation). */
    regions(): Promise<Region[]> {
      regionCache ??= cached(
        async () => {
          const list = await db
            .select({ code: regions.code, name: regions.name, slug: regions.slug })
            .from(regions)
            .orderBy(asc(regions.code));
          const collator = new Intl.Collator("fr");
          return list.sort((a, b) => collator.compare(a.name, b.name));
        },
        () => {
          regionCache = undefined;
        },
      );
      return regionCache;
    },

    /** Every department by code ("01" … "976"), or those of one region (by its code). */
    async departments(regionCode?: string): Promise<Department[]> {
      // An async function: a Drizzle query is a lazy thenable that would run again at every await.
      departmentCache ??= cached(
        async () =>
          await db
            .select({
              code: departments.code,
              name: departments.name,
              slug: departments.slug,
              regionCode: departments.regionCode,
            })
            .from(departments)
            .orderBy(asc(departments.code)),
        () => {
          departmentCache = undefined;
        },
      );
      const list = await departmentCache;
      return regionCode ? list.filter((d) => d.regionCode === regionCode) : list;
    },

    /** Every country with its name in the language, sorted in that language. */
    countries(locale: Locale = "fr"): Promise<Country[]> {
      let list = countryCache.get(locale);
      if (!list) {
        list = cached(
          async () => {
            const all = await db
              .select({ code: countries.code, nameFr: countries.nameFr, nameEn: countries.nameEn })
              .from(countries);
            const collator = new Intl.Collator(locale);
            return all
              .map((c) => ({ code: c.code, name: locale === "en" ? c.nameEn : c.nameFr }))
              .sort((a, b) => collator.compare(a.name, b.name));
          },
          () => countryCache.delete(locale),
        );
        countryCache.set(locale, list);
      }
      return list;
    },

    /** A region by INSEE code ("84") or slug ("auvergne-rhone-alpes"), case-insensitive. */
    async region(codeOrSlug: string): Promise<Region | null> {
      const key = codeOrSlug.trim().toLowerCase();
      return (await service.regions()).find((r) => r.code.toLowerCase() === key || r.slug === key) ?? null;
    },

    /** A department by code ("38", "2A", "974") or slug ("isere"), case-insensitive. */
    async department(codeOrSlug: string): Promise<Department | null> {
      const key = codeOrSlug.trim().toLowerCase();
      return (await service.departments()).find((d) => d.code.toLowerCase() === key || d.slug === key) ?? null;
    },

    /**
     * Place autocomplete, in two steps so that the common case stays on a b-tree:
     * 1. names starting with the text ("saint-eti"), the exact name first, then by population;
     * 2. when those do not fill the list, names containing it as a word ("etienne") or close to it
     *    (a typo: "grenble"), by trigram similarity tier, then population.
     * A 2 to 5 digit token matches postal codes by prefix (and a full INSEE code), alone or with a
     * name ("69001 lyon"); an exact postal code ranks first.
     */
    async findCity(q: string, limit: number = DEFAULT_CITY_RESULTS): Promise<City[]> {
      const max = Math.min(Math.max(1, Math.trunc(limit) || DEFAULT_CITY_RESULTS), MAX_CITY_RESULTS);
      const text = q.replace(/\0/g, "").trim();
      const digits = /(?:^|\s)(\d{2,5})(?=\s|$)/.exec(text)?.[1];
      const name = cityQuerySlug(digits ? text.replace(digits, " ") : text);
      if (!name && !digits) return [];
      const postal: SQL[] = [];
      const postalOrder: SQL[] = [];
      if (digits) {
        const prefix = sql`postal_code_prefixes(c.postal_codes) @> ARRAY[${digits}]::text[]`;
        postal.push(digits.length === 5 ? sql`(${prefix} OR c.code = ${digits})` : prefix);
        if (digits.length === 5) postalOrder.push(sql`(${digits} = ANY(c.postal_codes)) DESC`);
      }
      const select = (where: SQL[], order: SQL[], count: number) =>
        rows<CityRow>(
          db,
          sql`SELECT ${CITY_COLUMNS}
            FROM communes c JOIN departments d ON d.code = c.department_code
            WHERE ${sql.join(where, sql` AND `)}
            ORDER BY ${sql.join([...order, ...postalOrder, sql`c.population DESC`, sql`c.code`], sql`, `)}
            LIMIT ${count}`,
        );
      if (!name) return (await select(postal, [], max)).map(toCity);
      const prefix = `${name}%`;
      const found = await select([sql`c.slug LIKE ${prefix}`, ...postal], [sql`(c.slug = ${name}) DESC`], max);
      if (found.length < max && name.length >= 3) {
        const fuzzy = await select(
          [sql`(${name} <% c.slug OR ${name} <<% c.slug)`, sql`c.slug NOT LIKE ${prefix}`, ...postal],
          // Similarity in tiers, so that population decides between comparable matches.
          [sql`round(greatest(strict_word_similarity(${name}, c.slug), similarity(${name}, c.slug)) * 5) DESC`],
          max - found.length,
        );
        found.push(...fuzzy);
      }
      return found.map(toCity);
    },

    /**
     * The commune whose centre is nearest to a point (KNN on the GiST index of
     * `ll_to_earth(lat, lng)`), or null when it is more than GEOCODE_MAX_KM away (outside France).
     */
    async nearest(lat: number, lng: number): Promise<GeocodeResult | null> {
      if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
      const [row] = await rows<CityRow & { metres: number }>(
        db,
        sql`SELECT ${CITY_COLUMNS}, earth_distance(ll_to_earth(${lat}, ${lng}), ll_to_earth(c.lat, c.lng)) AS metres
          FROM (SELECT * FROM communes
                ORDER BY ll_to_earth(lat, lng) <-> ll_to_earth(${lat}, ${lng}) LIMIT 1) c
          JOIN departments d ON d.code = c.department_code`,
      );
      if (!row) return null;
      const distanceKm = Number(row.metres) / 1000;
      if (distanceKm > GEOCODE_MAX_KM) return null;
      return { city: toCity(row), distanceKm: Math.round(distanceKm * 100) / 100 };
    },

    /**
     * A commune by INSEE code ("38185"), else by postal code ("38000": its most populous
     * commune); null when neither matches.
     */
    async communeByCodeOrPostal(code: string): Promise<City | null> {
      const key = code.trim().toUpperCase();
      if (!INSEE_CODE.test(key)) return null;
      const [row] = await rows<CityRow>(
        db,
        sql`SELECT ${CITY_COLUMNS}
          FROM communes c JOIN departments d ON d.code = c.department_code
          WHERE c.code = ${key} OR postal_code_prefixes(c.postal_codes) @> ARRAY[${key}]::text[]
          ORDER BY (c.code = ${key}) DESC, c.population DESC
          LIMIT 1`,
      );
      return row ? toCity(row) : null;
    },

    /**
     * Every commune's name, centre and population, and every department's region: what the base
     * map draws (town labels by population, region borders). Read once by the tile server.
     */
    async mapReference(): Promise<MapReference> {
      const towns = await rows<{ code: string; name: string; lat: number; lng: number; population: number }>(
        db,
        sql`SELECT code, name, lat, lng, population FROM communes ORDER BY population DESC, code`,
      );
      const list = await service.departments();
      return {
        towns: towns.map((t) => ({ ...t, lat: Number(t.lat), lng: Number(t.lng), population: Number(t.population) })),
        departmentRegions: Object.fromEntries(list.map((d) => [d.code, d.regionCode])),
      };
    },
  };
  return service;
}
export type GeoService = ReturnType<typeof geoService>;
