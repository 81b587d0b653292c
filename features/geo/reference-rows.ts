/** The reference rows (regions, departments, communes) as they are built and shipped, and how communes were placed. */
import type { CountryRow } from "./countries.ts";
import type { communes, departments, regions } from "./geo.tables.ts";

export type PlacedBy = "laposte" | "merged" | "locality" | "postal_code" | "epci" | "department";

export type RegionRow = typeof regions.$inferInsert;
export type DepartmentRow = typeof departments.$inferInsert;
export type CommuneRow = typeof communes.$inferInsert & { placedBy: PlacedBy };

export type PlacementReport = {
  communes: number;
  /** Own row in La Poste's table. */
  laposte: number;
  /** Mean of its former (delegated/associated) communes or municipal arrondissements found in La Poste's table. */
  merged: number;
  /** Everything else, by method (see buildGeoReference). */
  fallback: number;
  fallbackBy: { locality: number; postalCode: number; epci: number; department: number };
};

export type GeoReference = {
  countries: CountryRow[];
  regions: RegionRow[];
  departments: DepartmentRow[];
  communes: CommuneRow[];
  report: PlacementReport;
};
