/**
 * What the demo catalogue generator reads (communes, departments, regions) and the rows it yields:
 * race series, their editions (events) with courses, prices, tracks and history.
 */
import type { coursePrices, courses, eventHistory, events, tracks } from "../../features/events/events.tables.ts";
import type { SportKey } from "../../shared/constants.ts";

export type DemoCommune = {
  code: string;
  name: string;
  departmentCode: string;
  regionCode: string;
  population: number;
  lat: number;
  lng: number;
  postalCodes: string[];
};

export type DemoPlaces = {
  communes: readonly DemoCommune[];
  departments: readonly { code: string; name: string }[];
  regions: readonly { code: string; name: string }[];
};

export type DemoOptions = {
  /** Number of events (editions included). */
  count?: number;
  seed?: number;
  /** "Today" of the catalogue: events span the 24 months before and the 12 months after it. */
  referenceDate?: Date | string;
};

type EventInsert = typeof events.$inferInsert;
export type DemoEventRow = Omit<EventInsert, "id" | "sportId" | "groupId" | "searchVector">;
export type DemoCourseRow = Omit<typeof courses.$inferInsert, "id" | "eventId">;
export type DemoPriceRow = Omit<typeof coursePrices.$inferInsert, "id" | "courseId">;
export type DemoTrackRow = Omit<typeof tracks.$inferInsert, "id" | "courseId">;
export type DemoHistoryRow = Omit<typeof eventHistory.$inferInsert, "id" | "eventId">;

export type DemoCourse = { course: DemoCourseRow; prices: DemoPriceRow[]; track: DemoTrackRow | null };
export type DemoEvent = {
  sport: SportKey;
  /** Slug of the event's group, when it belongs to a series of yearly editions. */
  groupSlug: string | null;
  event: DemoEventRow;
  courses: DemoCourse[];
  history: DemoHistoryRow[];
};
/** One race series: its group (when it has several editions) and its editions, oldest first. */
export type DemoSeries = { group: { name: string; slug: string } | null; editions: DemoEvent[] };
