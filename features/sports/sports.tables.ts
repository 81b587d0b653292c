import { integer, pgTable, serial, text, varchar } from "drizzle-orm/pg-core";

export const sports = pgTable("sports", {
  id: serial("id").primaryKey(),
  /** Stable key used in code and URLs (see shared/constants.ts SPORTS). */
  key: varchar("key", { length: 32 }).notNull().unique(),
  slugFr: text("slug_fr").notNull().unique(),
  slugEn: text("slug_en").notNull().unique(),
  nameFr: text("name_fr").notNull(),
  nameEn: text("name_en").notNull(),
  /** Parent sport key: half marathon is a kind of running, ultra trail a kind of trail. */
  parentKey: varchar("parent_key", { length: 32 }),
  position: integer("position").notNull().default(0),
});
