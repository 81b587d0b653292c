import type { Db } from "../../db/client.server.ts";

/** Event search (issue 3): filters, facets, map markers, iCalendar feed. */
export function searchService(_db: Db, _clock: () => Date = () => new Date()) {
  return {};
}
