import { sql } from "drizzle-orm";
import { type GeoLoadOptions, type GeoLoadResult, loadGeoReference } from "../features/geo/reference.server.ts";
import { sports } from "../features/sports/sports.tables.ts";
import { bulkInsert, type SqlRunner } from "../platform/db/bulk.server.ts";
import type { Db } from "../platform/db/client.server.ts";
import { SPORTS } from "../shared/constants.ts";

export type ReferenceLoadResult = {
  geo: GeoLoadResult;
  sports: { skipped: boolean; inserted: number };
  ms: number;
};

/** The sports of shared/constants.ts, in display order. */
export function sportRows(): (typeof sports.$inferInsert)[] {
  return SPORTS.map((s, position) => ({
    key: s.key,
    parentKey: s.parent,
    nameFr: s.fr,
    nameEn: s.en,
    slugFr: s.slugFr,
    slugEn: s.slugEn,
    position,
  }));
}

/** Inserts missing sports and refreshes their names, slugs and order; nothing when all are there. */
export async function loadSports(db: Pick<Db, "execute" | "transaction">): Promise<ReferenceLoadResult["sports"]> {
  const rows = sportRows();
  const present = (await db.execute(sql`SELECT key FROM sports`)) as unknown as { rows: { key: string }[] };
  const keys = new Set(present.rows.map((r) => r.key));
  if (rows.every((r) => keys.has(r.key))) return { skipped: true, inserted: 0 };
  const written = await db.transaction((tx: SqlRunner) =>
    bulkInsert(tx, sports, rows, {
      onConflict: sql.raw(
        "ON CONFLICT (key) DO UPDATE SET parent_key = EXCLUDED.parent_key, name_fr = EXCLUDED.name_fr, " +
          "name_en = EXCLUDED.name_en, slug_fr = EXCLUDED.slug_fr, slug_en = EXCLUDED.slug_en, position = EXCLUDED.position",
      ),
      returning: sql.raw("(xmax = 0) AS inserted"),
    }),
  );
  return { skipped: false, inserted: written.filter((r) => r.inserted === true).length };
}

/**
 * Reference data every start needs: countries, regions, departments, communes (with coordinates)
 * and sports. Safe on every start: when everything is present it only compares codes (~0.1 s) and
 * needs neither the CSV nor a write.
 */
export async function loadReferenceData(
  db: Pick<Db, "execute" | "transaction">,
  options: GeoLoadOptions = {},
): Promise<ReferenceLoadResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const geo = await loadGeoReference(db, options);
  const sportsResult = await loadSports(db);
  const ms = Math.round(performance.now() - started);
  if (geo.skipped && sportsResult.skipped) log(`reference data already loaded (checked in ${ms} ms)`);
  else
    log(
      `reference data loaded in ${ms} ms: ${geo.inserted.countries} countries, ${geo.inserted.regions} regions, ` +
        `${geo.inserted.departments} departments, ${geo.inserted.communes} communes, ${sportsResult.inserted} sports inserted`,
    );
  return { geo, sports: sportsResult, ms };
}
