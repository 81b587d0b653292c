import type { Db } from "../../db/client.server.ts";

/** One event with its courses, editions and tracks (issue 3). */
export function eventDetailService(_db: Db, _clock: () => Date = () => new Date()) {
  return {};
}
