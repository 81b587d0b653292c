/**
 * The site's offline base map over the real open data, for the posters' tests and bench: France's
 * outlines from MAP_DATA_DIR or ../shared/data/france-geojson (resolveMapDataDir, as the maps'
 * tests find them: a missing folder fails loudly, it is never skipped), the towns from La Poste's
 * table and @etalab/decoupage-administratif (the reference-data loader's own reading).
 */

import { parseLaPosteCsv, readCommunesCsv, resolveCommunesCsvSource } from "../../geo/laposte.server.ts";
import { buildGeoReference } from "../../geo/reference.server.ts";
import { createBasemap, resolveMapDataDir } from "../../maps/basemap/basemap.server.ts";
import { openDataSource } from "./opendata.server.ts";

export function realOpenData() {
  const { dir, tried } = resolveMapDataDir(process.env.MAP_DATA_DIR);
  if (!dir) throw new Error(`France's outlines not found at ${tried}: set MAP_DATA_DIR to the france-geojson folder`);
  const basemap = createBasemap({
    dataDir: dir,
    reference: async () => {
      const ref = buildGeoReference(parseLaPosteCsv(await readCommunesCsv(resolveCommunesCsvSource())));
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
