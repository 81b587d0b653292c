/**
 * Seeds the database: migrations, reference data, then a demo catalogue.
 *
 *   npx tsx scripts/db-seed.ts [--events N] [--seed S] [--reset] [--reference-date YYYY-MM-DD] [--chunk N]
 *
 * Uses DATABASE_URL (a real PostgreSQL) when set, else the embedded PGlite database in
 * ${DATA_DIR:-./data}/pgdata — stop the server first, PGlite allows one process per data dir.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { formatPlacementReport } from "../features/geo/reference.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { DEFAULT_DEMO_EVENTS, DEFAULT_DEMO_SEED } from "../seed/demo/generator.ts";
import { countEvents, resetEventCatalogue, seedDemoCatalogue } from "../seed/demo/seed.server.ts";
import { refreshStatistics } from "../seed/index.server.ts";
import { loadReferenceData } from "../seed/reference.server.ts";

const USAGE = `Usage: npx tsx scripts/db-seed.ts [options]

  --events N              demo events to create (default: DEMO_EVENTS or ${DEFAULT_DEMO_EVENTS})
  --seed S                random seed, the same seed gives the same catalogue (default: DEMO_SEED or ${DEFAULT_DEMO_SEED})
  --reset                 empty the event catalogue first (events, courses, tracks… and what points at them)
  --reference-date DATE   "today" of the catalogue, YYYY-MM-DD (default: today)
  --chunk N               events per insert round (default: 2000)
  -h, --help              this help

Database: DATABASE_URL when set, else PGlite in \${DATA_DIR:-./data}/pgdata.
Communes: the files shipped in features/geo/data, or COMMUNES_CSV (La Poste's CSV, a path or an http(s) URL).`;

function fail(message: string): never {
  console.error(`db-seed: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integer(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const thousands = (n: number) => n.toLocaleString("en-US");

async function main() {
  let args: ReturnType<typeof parse>;
  const parse = () =>
    parseArgs({
      options: {
        events: { type: "string" },
        seed: { type: "string" },
        reset: { type: "boolean", default: false },
        "reference-date": { type: "string" },
        chunk: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  try {
    args = parse();
  } catch (error) {
    fail((error as Error).message);
  }
  const { values } = args;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const events = integer("events", values.events ?? env.DEMO_EVENTS, DEFAULT_DEMO_EVENTS, 0);
  const seed = integer("seed", values.seed ?? env.DEMO_SEED, DEFAULT_DEMO_SEED, Number.MIN_SAFE_INTEGER);
  const chunkSize = integer("chunk", values.chunk, 2_000, 1);
  const referenceDate = values["reference-date"];
  if (referenceDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(referenceDate))
    fail(`--reference-date must be YYYY-MM-DD, got "${referenceDate}"`);

  const started = performance.now();
  const url = env.DATABASE_URL || undefined;
  const dataDir = path.resolve(env.DATA_DIR || "./data", "pgdata");
  console.log(url ? `database: PostgreSQL (DATABASE_URL)` : `database: PGlite in ${dataDir}`);
  const database = await openDatabase({ url, dataDir });
  try {
    await database.migrate();
    console.log(`migrations applied (${seconds(performance.now() - started)})`);

    const reference = await loadReferenceData(database.db, { csvPath: env.COMMUNES_CSV, log: () => {} });
    if (reference.geo.skipped && reference.sports.skipped) console.log(`reference data already loaded`);
    else {
      const g = reference.geo.inserted;
      console.log(
        `reference data loaded in ${seconds(reference.ms)}: ${g.countries} countries, ${g.regions} regions, ` +
          `${g.departments} departments, ${thousands(g.communes)} communes, ${reference.sports.inserted} sports`,
      );
      if (reference.geo.report) console.log(`  ${formatPlacementReport(reference.geo.report)}`);
    }

    if (values.reset) {
      await resetEventCatalogue(database.db);
      console.log("event catalogue emptied");
    }
    const existing = await countEvents(database.db);
    if (existing > 0) {
      console.log(
        `${thousands(existing)} events already in the database: nothing generated (use --reset to replace them)`,
      );
      return;
    }
    if (events === 0) {
      console.log("no demo events requested");
      return;
    }
    console.log(`generating ${thousands(events)} demo events (seed ${seed})…`);
    const demo = await seedDemoCatalogue(database.db, {
      count: events,
      seed,
      referenceDate,
      chunkSize,
      onProgress: ({ events: done, total, ms }) => {
        const rate = done / Math.max(ms / 1000, 0.001);
        console.log(
          `  ${thousands(done).padStart(thousands(total).length)} / ${thousands(total)} events ` +
            `(${Math.round((100 * done) / total)}%) – ${seconds(ms)}, ${Math.round(rate)} events/s`,
        );
      },
    });
    await refreshStatistics(database.db);
    console.log(
      `demo catalogue: ${thousands(demo.events)} events, ${thousands(demo.groups)} series with several editions, ` +
        `${thousands(demo.courses)} courses, ${thousands(demo.prices)} prices, ${thousands(demo.tracks)} tracks, ` +
        `${thousands(demo.history)} history rows, dates ${demo.window.start} → ${demo.window.end}, in ${seconds(demo.ms)}`,
    );
  } finally {
    await database.close();
    console.log(`done in ${seconds(performance.now() - started)}`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? `db-seed: ${error.message}` : error);
  process.exit(1);
});
