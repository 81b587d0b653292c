/**
 * When a search finds nothing, the searches one step broader, nearest first: a wider radius, then
 * the same search without the text, the dates, the distance and elevation, the scope, the place,
 * the sport; then those steps one after the other. The page offers the first one that finds races
 * instead of a bare zero.
 */
import type { SearchQuery } from "./search.contract.ts";
import { DEFAULT_RADIUS, hasPlace, normalizeSearchQuery, RADIUS_CHOICES, updateSearchQuery } from "./search-url.ts";

export type BroaderChange = "radius" | "text" | "dates" | "distance" | "scope" | "place" | "sport";
export type Broadening = { changes: BroaderChange[]; query: SearchQuery; radius?: number };
/** A broader search and how many races it finds. */
export type BroaderSuggestion = Broadening & { count: number };

/** Radii tried around a place when nothing is near enough, in km. */
const WIDER_RADII = RADIUS_CHOICES.filter((km) => km >= 50 && km <= 100);

/** Each filter that can be let go of, and the patch that does it, in the order they are tried. */
function steps(query: SearchQuery): { change: BroaderChange; patch: Partial<SearchQuery> }[] {
  const out: { change: BroaderChange; patch: Partial<SearchQuery> }[] = [];
  if (query.q) out.push({ change: "text", patch: { q: undefined, literal: undefined } });
  if (query.from || query.to || query.range)
    out.push({ change: "dates", patch: { from: undefined, to: undefined, range: undefined } });
  if (query.distance || query.distanceMin !== undefined || query.distanceMax !== undefined || query.elevation) {
    out.push({
      change: "distance",
      patch: { distance: undefined, distanceMin: undefined, distanceMax: undefined, elevation: undefined },
    });
  }
  if (query.scope) out.push({ change: "scope", patch: { scope: undefined } });
  if (hasPlace(query) || query.region || query.department) {
    out.push({
      change: "place",
      patch: {
        place: undefined,
        lat: undefined,
        lng: undefined,
        radius: undefined,
        region: undefined,
        department: undefined,
      },
    });
  }
  if (query.sport) out.push({ change: "sport", patch: { sport: undefined } });
  return out;
}

/** Single changes first (wider radii, then one filter less each), then the changes accumulated. */
export function broaderSearches(query: SearchQuery): Broadening[] {
  const base = normalizeSearchQuery({ ...query, page: undefined });
  const out: Broadening[] = [];
  if (hasPlace(base)) {
    const radius = base.radius ?? DEFAULT_RADIUS;
    for (const km of WIDER_RADII) {
      if (km > radius) out.push({ changes: ["radius"], query: updateSearchQuery(base, { radius: km }), radius: km });
    }
  }
  const all = steps(base);
  for (const step of all) out.push({ changes: [step.change], query: updateSearchQuery(base, step.patch) });
  let accumulated = base;
  for (let i = 0; i < all.length; i++) {
    accumulated = updateSearchQuery(accumulated, all[i].patch);
    if (i > 0) out.push({ changes: all.slice(0, i + 1).map((s) => s.change), query: accumulated });
  }
  return out;
}
