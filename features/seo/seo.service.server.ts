import { and, asc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { events } from "../events/events.tables.ts";
import { departments, regions } from "../geo/geo.tables.ts";
import { sports } from "../sports/sports.tables.ts";

export type LandingCounts = {
  /** Upcoming events by sport key, a parent sport counting its children's events too. */
  sports: Record<string, number>;
  /** Upcoming events by region slug. */
  regions: Record<string, number>;
  /** Upcoming events by department slug. */
  departments: Record<string, number>;
  /** Upcoming events by sport key then region slug (parents counting their children). */
  sportRegions: Record<string, Record<string, number>>;
};

/** What the sitemap lists, read from the database (issue 3). */
export function seoService(db: Db, clock: () => Date = () => new Date()) {
  const active = eq(events.status, "active");
  const notAfterNow = (date: Date) => {
    const now = clock();
    return date.getTime() > now.getTime() ? now : date;
  };
  return {
    /** Active events (past ones included: their pages stay online). */
    async activeEventCount(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(events).where(active);
      return row?.n ?? 0;
    },

    /**
     * A page of active events for a sitemap file, in a stable order. A change is never dated after
     * now (a clock set wrong, imported data): crawlers distrust a sitemap whose dates are ahead.
     */
    async activeEvents(offset: number, limit: number): Promise<{ slug: string; updatedAt: Date }[]> {
      const rows = await db
        .select({ slug: events.slug, updatedAt: events.updatedAt })
        .from(events)
        .where(active)
        .orderBy(asc(events.id))
        .offset(offset)
        .limit(limit);
      return rows.map((row) => ({ ...row, updatedAt: notAfterNow(new Date(row.updatedAt)) }));
    },

    /** When the catalogue last changed (for the index's lastmod), never after now. */
    async lastModified(): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<string | null>`max(${events.updatedAt})` })
        .from(events)
        .where(active);
      return row?.at ? notAfterNow(new Date(row.at)) : null;
    },

    /**
     * Upcoming (not finished, not cancelled) active events per landing page, so the sitemap lists
     * only landing pages with races to show.
     */
    async landingCounts(): Promise<LandingCounts> {
      const today = parisToday(clock());
      const rows = await db
        .select({
          sport: sports.key,
          parent: sports.parentKey,
          region: regions.slug,
          department: departments.slug,
          n: sql<number>`count(*)::int`,
        })
        .from(events)
        .innerJoin(sports, eq(sports.id, events.sportId))
        .leftJoin(regions, eq(regions.code, events.regionCode))
        .leftJoin(departments, eq(departments.code, events.departmentCode))
        .where(and(active, eq(events.cancelled, false), gte(events.endDate, today)))
        .groupBy(sports.key, sports.parentKey, regions.slug, departments.slug);
      const counts: LandingCounts = { sports: {}, regions: {}, departments: {}, sportRegions: {} };
      const add = (record: Record<string, number>, key: string | null, n: number) => {
        if (key) record[key] = (record[key] ?? 0) + n;
      };
      for (const row of rows) {
        for (const sport of row.parent ? [row.sport, row.parent] : [row.sport]) {
          add(counts.sports, sport, row.n);
          counts.sportRegions[sport] ??= {};
          add(counts.sportRegions[sport], row.region, row.n);
        }
        add(counts.regions, row.region, row.n);
        add(counts.departments, row.department, row.n);
      }
      return counts;
    },
  };
}
export type SeoService = ReturnType<typeof seoService>;
