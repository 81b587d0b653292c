/**
 * The site's offline base map over the real open data, for the posters' tests and bench: France's
 * outlines as the server finds them (resolveOutlines: the shipped ones, or MAP_DATA_DIR's
 * france-geojson folder), the towns of the shipped reference data (features/geo/data).
 */

import { readShippedReference } from "../../geo/shipped-reference.server.ts";
import { createBasemap } from "../../maps/basemap/basemap.server.ts";
import { resolveOutlines } from "../../maps/basemap/outlines.server.ts";
import { openDataSource } from "./opendata.server.ts";

export function realOpenData() {
  const { outlines, tried } = resolveOutlines(process.env.MAP_DATA_DIR);
  if (!outlines) throw new Error(`France's outlines not found at ${tried}`);
  const basemap = createBasemap({
    outlines,
    reference: async () => {
      const ref = readShippedReference();
      return {
        towns: ref.communes.map((c) => ({
          code: c.code,
          name: c.name,
          lat: Number(c.lat),
          lng: Number(c.lng),
          population: Number(c.population ?? 0),
        })),
        departmentRegions: Object.fromEntries(ref.departments.map((d) => [d.code, d.regionCode])),
      };
    },
    names: { country: (code) => code, sea: (key) => key },
  });
  return { basemap, openData: openDataSource(basemap) };
}
