import type { Db } from "../../platform/db/client.server.ts";
import type { SportKey } from "../../shared/constants.ts";
import { geoService } from "../geo/geo.service.server.ts";
import { sportsService } from "../sports/sports.service.server.ts";

/*
 * The search reads places and sports through this file only: geo's regions, departments and
 * communes, its SQL array and INSEE code helpers, the sports list.
 */
export type { Department, Region } from "../geo/geo.contract.ts";
export { INSEE_CODE, pgArray } from "../geo/geo.service.server.ts";

/** The sports as the search reads them: database ids by key, keys by id, and the list. */
export type SportMaps = {
  idByKey: Map<string, number>;
  keyById: Map<number, SportKey>;
  list: Awaited<ReturnType<ReturnType<typeof sportsService>["list"]>>;
};

/** What every part of the search uses besides the events: the database, the clock, places and sports. */
export type SearchContext = {
  db: Db;
  clock: () => Date;
  geo: ReturnType<typeof geoService>;
  sportMaps: () => Promise<SportMaps>;
};

export function searchContext(db: Db, clock: () => Date): SearchContext {
  const sportList = sportsService(db);
  return {
    db,
    clock,
    geo: geoService(db),
    async sportMaps() {
      const list = await sportList.list();
      return {
        idByKey: new Map(list.map((s) => [s.key, s.id])),
        keyById: new Map(list.map((s) => [s.id, s.key as SportKey])),
        list,
      };
    },
  };
}
