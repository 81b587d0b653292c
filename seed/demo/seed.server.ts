import { sql } from "drizzle-orm";
import {
  coursePrices,
  courses,
  eventGroups,
  eventHistory,
  events,
  tracks,
} from "../../features/events/events.tables.ts";
import { communes, departments, regions } from "../../features/geo/geo.tables.ts";
import { sports } from "../../features/sports/sports.tables.ts";
import { bulkInsert, type SqlRunner, withIndexesBuiltAfter } from "../../platform/db/bulk.server.ts";
import type { Db } from "../../platform/db/client.server.ts";
import { ELEVATION_BANDS, elevationBandOf } from "../../shared/constants.ts";
import {
  DEFAULT_DEMO_EVENTS,
  DEFAULT_DEMO_SEED,
  type DemoEvent,
  type DemoOptions,
  type DemoPlaces,
  type DemoSeries,
  demoWindow,
  generateDemoCatalogue,
} from "./generator.ts";

export type DemoSeedOptions = DemoOptions & {
  /** Events per insert round (their courses, prices and tracks follow in the same round). */
  chunkSize?: number;
  onProgress?: (progress: { events: number; total: number; ms: number }) => void;
};

export type DemoSeedReport = {
  events: number;
  groups: number;
  courses: number;
  prices: number;
  tracks: number;
  history: number;
  window: { start: string; end: string };
  ms: number;
};

/** Communes, departments and regions as the generator wants them, in a stable order. */
export async function loadDemoPlaces(db: Pick<Db, "select">): Promise<DemoPlaces> {
  // One after the other: inside a transaction they share one connection.
  const communeRows = await db
    .select({
      code: communes.code,
      name: communes.name,
      departmentCode: communes.departmentCode,
      regionCode: communes.regionCode,
      population: communes.population,
      lat: communes.lat,
      lng: communes.lng,
      postalCodes: communes.postalCodes,
    })
    .from(communes);
  const departmentRows = await db.select({ code: departments.code, name: departments.name }).from(departments);
  const regionRows = await db.select({ code: regions.code, name: regions.name }).from(regions);
  if (communeRows.length === 0) throw new Error("The demo catalogue needs the reference data: load it first.");
  // Sorted here too: the same seed must give the same catalogue whatever the server's collation.
  const byCode = (a: { code: string }, b: { code: string }) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
  return {
    communes: communeRows.sort(byCode),
    departments: departmentRows.sort(byCode),
    regions: regionRows.sort(byCode),
  };
}

/**
 * Generates the demo catalogue and inserts it in one transaction, chunk by chunk: groups, events,
 * courses, prices, tracks and history of `chunkSize` events per round, each table in one statement.
 */
export async function seedDemoCatalogue(
  db: Pick<Db, "select" | "transaction" | "execute">,
  options: DemoSeedOptions = {},
): Promise<DemoSeedReport> {
  const started = performance.now();
  const total = options.count ?? DEFAULT_DEMO_EVENTS;
  const chunkSize = options.chunkSize ?? 2_000;
  const places = await loadDemoPlaces(db);
  const sportRows = await db.select({ id: sports.id, key: sports.key }).from(sports);
  const sportIds = new Map(sportRows.map((s) => [s.key, s.id]));
  const report: DemoSeedReport = {
    events: 0,
    groups: 0,
    courses: 0,
    prices: 0,
    tracks: 0,
    history: 0,
    window: demoWindow(options.referenceDate),
    ms: 0,
  };
  const generator = generateDemoCatalogue(places, {
    count: total,
    seed: options.seed ?? DEFAULT_DEMO_SEED,
    referenceDate: options.referenceDate,
  });
  await withIndexesBuiltAfter(db, [eventGroups, events, courses, coursePrices, tracks, eventHistory], async (tx) => {
    let pending: DemoSeries[] = [];
    let pendingEvents = 0;
    const flush = async () => {
      if (pending.length === 0) return;
      await insertSeries(tx, pending, sportIds, report);
      pending = [];
      pendingEvents = 0;
      options.onProgress?.({ events: report.events, total, ms: Math.round(performance.now() - started) });
    };
    for (const series of generator) {
      pending.push(series);
      pendingEvents += series.editions.length;
      if (pendingEvents >= chunkSize) await flush();
    }
    await flush();
  });
  report.ms = Math.round(performance.now() - started);
  return report;
}

async function insertSeries(
  tx: SqlRunner,
  batch: DemoSeries[],
  sportIds: Map<string, number>,
  report: DemoSeedReport,
): Promise<void> {
  const groups = batch.flatMap((s) => (s.group ? [s.group] : []));
  const groupIds = new Map<string, number>();
  for (const row of await bulkInsert(tx, eventGroups, groups, { returning: ["id", "slug"] }))
    groupIds.set(row.slug as string, row.id as number);

  const editions: DemoEvent[] = batch.flatMap((s) => s.editions);
  const eventRows = editions.map((e) => {
    const sportId = sportIds.get(e.sport);
    if (sportId === undefined) throw new Error(`Sport ${e.sport} is missing: load the reference data first.`);
    // The band mask the courses' trigger would set: given here, so inserting them updates no event.
    const elevationBands = e.courses.reduce((bits, c) => {
      const gain = c.course.elevationGain;
      if (gain === null || gain === undefined) return bits;
      return bits | (1 << ELEVATION_BANDS.findIndex((band) => band.key === elevationBandOf(gain)));
    }, 0);
    return { ...e.event, sportId, elevationBands, groupId: e.groupSlug ? groupIds.get(e.groupSlug) : undefined };
  });
  const eventIds = new Map<string, number>();
  for (const row of await bulkInsert(tx, events, eventRows, { returning: ["id", "slug"], chunkRows: 2_000 }))
    eventIds.set(row.slug as string, row.id as number);

  const courseRows = editions.flatMap((e) =>
    e.courses.map((c) => ({ ...c.course, eventId: eventIds.get(e.event.slug)! })),
  );
  const courseIds = new Map<string, number>();
  for (const row of await bulkInsert(tx, courses, courseRows, { returning: ["id", "event_id", "position"] }))
    courseIds.set(`${row.event_id}|${row.position}`, row.id as number);
  const courseIdOf = (e: DemoEvent, position: number) => courseIds.get(`${eventIds.get(e.event.slug)}|${position}`)!;

  const priceRows = editions.flatMap((e) =>
    e.courses.flatMap((c, position) => c.prices.map((p) => ({ ...p, courseId: courseIdOf(e, position) }))),
  );
  await bulkInsert(tx, coursePrices, priceRows, { chunkRows: 10_000 });
  const trackRows = editions.flatMap((e) =>
    e.courses.flatMap((c, position) => (c.track ? [{ ...c.track, courseId: courseIdOf(e, position) }] : [])),
  );
  await bulkInsert(tx, tracks, trackRows, { chunkBytes: 8 * 1024 * 1024 });
  const historyRows = editions.flatMap((e) => e.history.map((h) => ({ ...h, eventId: eventIds.get(e.event.slug)! })));
  await bulkInsert(tx, eventHistory, historyRows, { chunkRows: 10_000 });

  report.groups += groups.length;
  report.events += eventRows.length;
  report.courses += courseRows.length;
  report.prices += priceRows.length;
  report.tracks += trackRows.length;
  report.history += historyRows.length;
}

/** Number of events in the catalogue. */
export async function countEvents(db: SqlRunner): Promise<number> {
  const result = (await db.execute(sql`SELECT count(*)::int AS n FROM events`)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Empties the event catalogue (events, groups, courses, prices, tracks, images, history) and restarts
 * their ids. CASCADE also empties tables that point at events (favourites, comments…): this is for
 * development databases only.
 */
export async function resetEventCatalogue(db: SqlRunner): Promise<void> {
  await db.execute(
    sql`TRUNCATE TABLE event_history, event_images, tracks, course_prices, courses, events, event_groups RESTART IDENTITY CASCADE`,
  );
}
