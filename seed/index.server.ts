import { sql } from "drizzle-orm";
import type { Db } from "../platform/db/client.server.ts";
import { DEFAULT_DEMO_EVENTS, DEFAULT_DEMO_SEED } from "./demo/generator.ts";
import { countEvents, type DemoSeedReport, seedDemoCatalogue } from "./demo/seed.server.ts";
import { loadReferenceData, type ReferenceLoadResult } from "./reference.server.ts";

export type EnsureSeededOptions = {
  /** Demo events to create on an empty catalogue; 0 for none. */
  demoEvents?: number;
  seed?: number;
  /** "Today" of the demo catalogue (default: now). */
  referenceDate?: Date | string;
  /** Path or http(s) URL of La Poste's communes CSV (else COMMUNES_CSV, else the shipped features/geo/data). */
  csvPath?: string;
  log?: (message: string) => void;
};

export type EnsureSeededResult = { reference: ReferenceLoadResult; demo: DemoSeedReport | null; ms: number };

/** Any key shared by every process seeding the same database. */
const SEED_LOCK = 0x0d055a2d;

/**
 * Brings a migrated database to a usable state: reference data, then the demo catalogue when there
 * are no events yet. Cheap and idempotent on later starts. Everything runs in one transaction under
 * an advisory lock, so two servers starting together against one PostgreSQL seed once.
 */
export async function ensureSeeded(
  db: Pick<Db, "select" | "execute" | "transaction">,
  options: EnsureSeededOptions = {},
): Promise<EnsureSeededResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    const reference = await loadReferenceData(tx, { csvPath: options.csvPath, log });
    let demo: DemoSeedReport | null = null;
    const wanted = options.demoEvents ?? DEFAULT_DEMO_EVENTS;
    if (wanted > 0 && (await countEvents(tx)) === 0) {
      log(`demo catalogue: generating ${wanted} events…`);
      demo = await seedDemoCatalogue(tx, {
        count: wanted,
        seed: options.seed ?? DEFAULT_DEMO_SEED,
        referenceDate: options.referenceDate,
      });
      log(
        `demo catalogue: ${demo.events} events (${demo.groups} series with several editions), ${demo.courses} courses, ` +
          `${demo.prices} prices, ${demo.tracks} tracks, from ${demo.window.start} to ${demo.window.end}, in ${demo.ms} ms`,
      );
    }
    return { reference, demo, ms: Math.round(performance.now() - started) };
  });
  if (result.demo || !result.reference.geo.skipped) await refreshStatistics(db);
  return result;
}

/**
 * Call after any bulk load. Fresh rows have no planner statistics (and PGlite runs no autovacuum):
 * without them searches plan sequential scans over the text, trigram and spatial indexes. VACUUM
 * also fills the visibility map, so covering indexes can answer alone.
 */
export async function refreshStatistics(db: Pick<Db, "execute">): Promise<void> {
  await db.execute(sql`VACUUM (ANALYZE) events, courses, course_prices, tracks, communes`);
}
