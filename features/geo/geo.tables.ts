import { doublePrecision, index, integer, pgTable, text, varchar } from "drizzle-orm/pg-core";

export const countries = pgTable("countries", {
  code: varchar("code", { length: 2 }).primaryKey(),
  nameFr: text("name_fr").notNull(),
  nameEn: text("name_en").notNull(),
});

export const regions = pgTable("regions", {
  code: varchar("code", { length: 3 }).primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
});

export const departments = pgTable(
  "departments",
  {
    code: varchar("code", { length: 3 }).primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    regionCode: varchar("region_code", { length: 3 })
      .notNull()
      .references(() => regions.code),
  },
  (t) => [index("departments_region_idx").on(t.regionCode)],
);

/** Current communes of France (metropolitan and overseas departments), with the centre's coordinates. */
export const communes = pgTable(
  "communes",
  {
    code: varchar("code", { length: 5 }).primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    departmentCode: varchar("department_code", { length: 3 })
      .notNull()
      .references(() => departments.code),
    regionCode: varchar("region_code", { length: 3 })
      .notNull()
      .references(() => regions.code),
    postalCodes: text("postal_codes").array().notNull(),
    population: integer("population").notNull().default(0),
    lat: doublePrecision("lat").notNull(),
    lng: doublePrecision("lng").notNull(),
    /**
     * How the coordinates were found: "laposte" (own row), "merged" (former communes or arrondissements),
     * or a fallback: "locality", "postal_code", "epci" or "department" (see features/geo/reference.server.ts).
     */
    placedBy: varchar("placed_by", { length: 12 }).notNull(),
  },
  (t) => [index("communes_department_idx").on(t.departmentCode), index("communes_population_idx").on(t.population)],
);
