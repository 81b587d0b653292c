/**
 * The search box's words made into filters: `readText` (free-text.ts) finds sports, distances and
 * dates; here the words left are matched against departments, regions and communes (exact names
 * first, then one typo per five letters), and whatever is still left stays free text.
 */
import { inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import type { SportKey } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import type { Department, Region } from "../geo/geo.contract.ts";
import type { GeoService } from "../geo/geo.service.server.ts";
import { communes } from "../geo/geo.tables.ts";
import {
  CONNECTORS,
  editDistance,
  namesARace,
  placeSpans,
  readText,
  type Token,
  typoAllowance,
  type Understood,
} from "./free-text.ts";
import { MAX_RADIUS_KM, type SearchQuery } from "./search.contract.ts";

/** A French postal code as a word, and the "N km" right after it. */
const POSTAL_CODE = /(^|[\s,;])(\d{5})(?:\s*(?:,\s*)?(\d{1,3})\s*km\b)?(?=[\s,;]|$)/iu;

/** A commune at least this big wins over a department of the same name ("Paris", not "Vienne"). */
const CITY_OVER_DEPARTMENT = 100_000;

export type UnderstoodPlace =
  | { kind: "commune"; code: string; name: string; text: string }
  | { kind: "department"; code: string; name: string; text: string }
  | { kind: "region"; code: string; name: string; text: string };

export type Interpretation = {
  /** The search the text stands for (the other filters of `query` kept). */
  query: SearchQuery;
  understood: (Understood | UnderstoodPlace)[];
};

type Commune = { code: string; name: string; slug: string; population: number };

const squash = (slug: string) => slug.replace(/-/g, "");

function bestByName<T extends { slug: string }>(items: readonly T[], slug: string, fuzzy: boolean): T | undefined {
  const exact = items.find((item) => item.slug === slug);
  if (exact || !fuzzy) return exact;
  const allowed = typoAllowance(squash(slug).length);
  if (!allowed) return undefined;
  let best: { item: T; distance: number } | undefined;
  for (const item of items) {
    const distance = editDistance(squash(slug), squash(item.slug), allowed);
    if (distance <= allowed && (!best || distance < best.distance)) best = { item, distance };
  }
  return best?.item;
}

export function searchTextInterpreter(db: Db, geo: GeoService, clock: () => Date = () => new Date()) {
  async function communesNamed(slugs: string[]): Promise<Commune[]> {
    if (!slugs.length) return [];
    return db
      .select({ code: communes.code, name: communes.name, slug: communes.slug, population: communes.population })
      .from(communes)
      .where(inArray(communes.slug, slugs));
  }

  /** The place a span of words names, if any: exact names first, then close ones. */
  async function findPlace(
    tokens: Token[],
    regions: Region[],
    departments: Department[],
  ): Promise<{ place: UnderstoodPlace; from: number; to: number } | null> {
    const spans = placeSpans(tokens).filter((span) => !namesARace(tokens, span.from));
    if (!spans.length) return null;
    const text = (from: number, to: number) =>
      tokens
        .slice(from, to)
        .map((t) => t.raw)
        .join(" ");
    const named = await communesNamed([...new Set(spans.map((s) => s.slug))]);
    for (const fuzzy of [false, true]) {
      for (const span of spans) {
        if (fuzzy && squash(span.slug).length < 5) continue;
        const department = bestByName(departments, span.slug, fuzzy);
        const region = bestByName(regions, span.slug, fuzzy);
        let commune = fuzzy
          ? undefined
          : named.filter((c) => c.slug === span.slug).sort((a, b) => b.population - a.population)[0];
        if (fuzzy && !department && !region) {
          const [found] = await geo.findCity(span.slug.replace(/-/g, " "), 1);
          const allowed = typoAllowance(squash(span.slug).length);
          if (found && editDistance(squash(span.slug), squash(found.slug), allowed) <= allowed) {
            commune = found;
          }
        }
        const words = text(span.from, span.to);
        if (commune && (commune.population >= CITY_OVER_DEPARTMENT || (!department && !region))) {
          return { place: { kind: "commune", code: commune.code, name: commune.name, text: words }, ...span };
        }
        if (department) {
          return { place: { kind: "department", code: department.code, name: department.name, text: words }, ...span };
        }
        if (region) {
          return { place: { kind: "region", code: region.code, name: region.name, text: words }, ...span };
        }
      }
    }
    return null;
  }

  /** The commune of the first postal code in the text, the radius typed after it, and the text without them. */
  async function postalPlace(q: string): Promise<{ place: UnderstoodPlace; radius?: number; text: string } | null> {
    const match = POSTAL_CODE.exec(q);
    if (!match) return null;
    const [, before, code, km] = match;
    const [city] = await geo.findCity(code, 1);
    if (!city || !(city.postalCodes.includes(code) || city.code === code)) return null;
    const radius = km ? Math.min(Math.max(1, Number(km)), MAX_RADIUS_KM) : undefined;
    return {
      place: { kind: "commune", code: city.code, name: city.name, text: match[0].trim() },
      radius,
      text: `${q.slice(0, match.index)}${before}${q.slice(match.index + match[0].length)}`,
    };
  }

  return {
    /**
     * What `query.q` means, or null when nothing in it is a filter (then it stays free text).
     * Filters the text names replace the same filters of `query`; the words left become `q`.
     */
    async interpret(query: SearchQuery, today: string = parisToday(clock())): Promise<Interpretation | null> {
      if (!query.q) return null;
      // A postal code is a place, as in the place field ("74000", "cross près de 69003"), and a
      // distance right after it its radius ("38000 20 km"), not a course's distance.
      const postal = await postalPlace(query.q);
      const reading = readText(postal?.text ?? query.q, today);
      let rest = reading.rest;
      const understood: Interpretation["understood"] = [...reading.understood];
      const [regions, departments] = await Promise.all([geo.regions(), geo.departments()]);
      const found = postal ? null : await findPlace(rest, regions, departments);
      if (postal) understood.push(postal.place);
      if (found) {
        understood.push(found.place);
        // The little words that led to the place ("à", "près de", "near") go with it.
        let from = found.from;
        while (from > 0 && CONNECTORS.has(rest[from - 1].norm)) from--;
        rest = [...rest.slice(0, from), ...rest.slice(found.to)];
      }
      if (!understood.length) return null;

      const next: Record<string, unknown> = { ...query };
      const sports = understood.flatMap((u) => (u.kind === "sport" ? [u.sport] : []));
      if (sports.length) next.sport = [...new Set<SportKey>([...(query.sport ?? []), ...sports])];
      for (const part of understood) {
        if (part.kind === "distance") next.distance = [...new Set([...(query.distance ?? []), part.distance])];
        if (part.kind === "distanceRange") {
          next.distanceMin = part.min;
          next.distanceMax = part.max;
        }
        if (part.kind === "dates") {
          next.from = part.from;
          next.to = part.to;
          delete next.range;
        }
        if (part.kind === "commune") {
          for (const key of ["lat", "lng", "region", "department"]) delete next[key];
          next.place = part.code;
          next.radius = postal?.radius ?? (query.place || query.lat !== undefined ? query.radius : undefined);
        }
        if (part.kind === "department") {
          for (const key of ["lat", "lng", "place", "radius", "region"]) delete next[key];
          next.department = part.code;
        }
        if (part.kind === "region") {
          for (const key of ["lat", "lng", "place", "radius", "department"]) delete next[key];
          next.region = part.code;
        }
      }
      while (rest.length && CONNECTORS.has(rest[0].norm)) rest = rest.slice(1);
      while (rest.length && CONNECTORS.has(rest[rest.length - 1].norm)) rest = rest.slice(0, -1);
      const words = rest.filter((t) => !CONNECTORS.has(t.norm));
      next.q = words.length ? rest.map((t) => t.raw).join(" ") : undefined;
      if (!next.q && next.sort === "relevance") delete next.sort;
      delete next.page;
      return { query: next as SearchQuery, understood };
    },
  };
}
export type SearchTextInterpreter = ReturnType<typeof searchTextInterpreter>;
