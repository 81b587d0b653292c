import { asc } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import type { Sport } from "./sports.contract.ts";
import { sports } from "./sports.tables.ts";

export function sportsService(db: Db) {
  let cache: Sport[] | undefined;
  return {
    /** The sports list changes only through the back-office; cached per process. */
    async list(): Promise<Sport[]> {
      cache ??= await db
        .select({
          id: sports.id,
          key: sports.key,
          nameFr: sports.nameFr,
          nameEn: sports.nameEn,
          slugFr: sports.slugFr,
          slugEn: sports.slugEn,
          parentKey: sports.parentKey,
        })
        .from(sports)
        .orderBy(asc(sports.position), asc(sports.id));
      return cache;
    },
    invalidate() {
      cache = undefined;
    },
  };
}
