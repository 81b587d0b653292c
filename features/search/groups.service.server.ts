import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { SPORT_KEYS, type SportKey } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { eventState } from "../events/event-state.ts";
import type { EventCard } from "../events/events.contract.ts";
import { courses, events } from "../events/events.tables.ts";
import { departments } from "../geo/geo.tables.ts";
import { sports } from "../sports/sports.tables.ts";
import type { SearchQuery } from "./search.contract.ts";
import { type SearchService, searchService, weekendRange } from "./search.service.server.ts";

/** Home-page groups of `GET /api/events_group/{type}`. */
export const EVENT_GROUPS = [
  "upcoming",
  "this_weekend",
  "next_weekend",
  "new",
  ...SPORT_KEYS.map((key) => `sport-${key}` as const),
] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

export function eventGroupsService(
  db: Db,
  clock: () => Date = () => new Date(),
  search: SearchService = searchService(db, clock),
) {
  const service = {
    /** The next active events, soonest first, as cards. */
    async upcoming(limit: number): Promise<EventCard[]> {
      const today = parisToday(clock());
      const rows = await db
        .select({
          id: events.id,
          slug: events.slug,
          name: events.name,
          sport: sports.key,
          startDate: events.startDate,
          endDate: events.endDate,
          city: events.city,
          departmentCode: events.departmentCode,
          departmentName: departments.name,
          scope: events.scope,
          cancelled: events.cancelled,
          postponed: events.postponed,
          maxElevation: events.maxElevation,
          coverImage: events.coverImage,
        })
        .from(events)
        .innerJoin(sports, eq(sports.id, events.sportId))
        .leftJoin(departments, eq(departments.code, events.departmentCode))
        .where(and(eq(events.status, "active"), gte(events.startDate, today), eq(events.cancelled, false)))
        .orderBy(asc(events.startDate), asc(events.id))
        .limit(limit);
      const ids = rows.map((r) => r.id);
      const courseRows = ids.length
        ? await db
            .select({ eventId: courses.eventId, distance: courses.distance, duration: courses.duration })
            .from(courses)
            .where(inArray(courses.eventId, ids))
            .orderBy(asc(courses.eventId), sql`${courses.distance} asc nulls last`)
        : [];
      return rows.map((r) => {
        const own = courseRows.filter((c) => c.eventId === r.id);
        return {
          id: r.id,
          slug: r.slug,
          name: r.name,
          sport: r.sport as SportKey,
          startDate: r.startDate,
          endDate: r.endDate,
          city: r.city,
          departmentCode: r.departmentCode,
          departmentName: r.departmentName,
          scope: r.scope,
          state: eventState(r, today),
          distances: own.flatMap((c) => (c.distance == null ? [] : [c.distance])),
          durations: own.flatMap((c) => (c.duration == null ? [] : [c.duration])),
          maxElevation: r.maxElevation,
          coverImage: r.coverImage,
        };
      });
    },
    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events);
      return row?.n ?? 0;
    },

    /**
     * A home-page group and the search that lists all of it (for a "see all" link):
     * - upcoming: the next events, soonest first;
     * - this_weekend / next_weekend: events on the Saturday or Sunday of this ISO week or the next
     *   (today onwards), multi-day events overlapping them included;
     * - new: the most recently listed events not finished yet;
     * - sport-<key>: the next events of a sport and its sub-sports.
     * Cancelled events are left out.
     */
    async group(type: EventGroup, limit: number): Promise<{ events: EventCard[]; search: SearchQuery }> {
      if (type === "upcoming") return { events: await service.upcoming(limit), search: {} };
      const today = parisToday(clock());
      let query: SearchQuery;
      if (type === "this_weekend" || type === "next_weekend") {
        query = weekendRange(today, type === "this_weekend" ? 0 : 1);
      } else if (type === "new") {
        query = {};
      } else {
        query = { sport: [type.slice("sport-".length) as SportKey] };
      }
      const items = await search.list(query, limit, type === "new" ? "created" : "search");
      return { events: items.map(({ lat: _lat, lng: _lng, distanceKm: _km, ...card }) => card), search: query };
    },
  };
  return service;
}
