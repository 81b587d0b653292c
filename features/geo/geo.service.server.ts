import type { Db } from "../../db/client.server.ts";

/** Regions, departments, countries, commune autocomplete and reverse geocoding (issue 3). */
export function geoService(_db: Db) {
  return {};
}
