/**
 * The `results-import` part of `npm run bench`: a 20,000-line results file (semicolons, French
 * titles, H/F, categories, official and net times) imported into one course on embedded PGlite,
 * as the import screen does it — parse (read the CSV, check every line, keep the grid), start
 * (check again with the mapping, queue the job), then the job writing every line in one
 * transaction. Peak memory is the process's maxRSS and the highest heap seen while it runs. Then
 * the results page's query on those 20,000 lines (bench/results-page.ts).
 */
import { eq, sql } from "drizzle-orm";
import { courses } from "../features/events/events.tables.ts";
import { users } from "../features/identity/identity.tables.ts";
import { createJobQueue } from "../features/jobs/jobs.service.server.ts";
import {
  RESULTS_IMPORT_QUEUE,
  resultsImportService,
} from "../features/results/import/results-import.service.server.ts";
import { resultsWorkers } from "../features/results/import/results-workers.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { ensureSeeded } from "../seed/index.server.ts";
import { type ResultsPageFigures, resultsPageBench } from "./results-page.ts";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

export type ResultsImportFigures = {
  rows: number;
  fileBytes: number;
  parseMs: number;
  startMs: number;
  jobMs: number;
  totalMs: number;
  peakHeapMb: number;
  maxRssMb: number;
  /** The results page's query on the imported course (bench/results-page.ts). */
  page: ResultsPageFigures;
};

/** A file as a timing company exports it: n lines, each with official and net times. */
export function resultsFile(n: number): string {
  const lines = ["Clt;Dossard;Nom;Prénom;Sexe;Cat.;Club;Temps officiel (réel)"];
  const time = (s: number) =>
    `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  for (let i = 0; i < n; i++) {
    const seconds = 1800 + Math.floor((i * 5400) / n);
    lines.push(
      `${i + 1};${i + 1};NOM${i};Prénom${i};${i % 3 ? "H" : "F"};${["SEH", "M0F", "V1H", "SEF"][i % 4]};Club ${i % 80};${time(seconds)} (${time(seconds - 7)})`,
    );
  }
  return lines.join("\r\n");
}

export async function resultsImportPart(options: { rows?: number } = {}): Promise<ResultsImportFigures> {
  const n = options.rows ?? 20_000;
  const database = await openDatabase({ dataDir: "memory://" });
  await database.migrate();
  log("results-import: seeding a small catalogue…");
  await ensureSeeded(database.db, { demoEvents: 50, seed: 7, log: () => {} });
  const db = database.db;
  const [course] = await db.select({ id: courses.id }).from(courses).limit(1);
  await db.update(courses).set({ distance: 10_000 }).where(eq(courses.id, course!.id));
  const [admin] = await db
    .insert(users)
    .values({ email: "bench@example.fr", slug: "bench-admin", role: "admin", emailStatus: "verified" })
    .returning({ id: users.id });
  const actor = { id: admin!.id, role: "admin" as const, emailStatus: "verified" as const };
  const jobs = createJobQueue(db);
  const service = resultsImportService(db, () => new Date(), { enqueue: jobs.enqueue });
  jobs.register<{ importId: number }>(RESULTS_IMPORT_QUEUE, async ({ importId }) => service.run(importId));

  const bytes = new TextEncoder().encode(resultsFile(n));
  // The worker is handed the bytes (they are unusable afterwards).
  const fileBytes = bytes.length;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 20);
  log(`results-import: importing ${n} lines…`);
  const t0 = performance.now();
  // Read in a worker thread, as the route does (decision 044).
  const read = await resultsWorkers.read({ bytes }, 10_000);
  if ("refused" in read) throw new Error(`results-import: the file was refused (${read.refused.reason})`);
  const preview = await service.parse(actor, course!.id, read, "bench.csv", "fr");
  const t1 = performance.now();
  await service.start(actor, { courseId: course!.id, token: preview.token }, "fr");
  const t2 = performance.now();
  await jobs.drain();
  const t3 = performance.now();
  clearInterval(sampler);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  const [check] = await db
    .execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM results`)
    .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
  if (Number(check!.n) !== n) throw new Error(`results-import: ${check!.n} lines written, ${n} expected`);
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const middle = Math.floor(n / 2) + 1;
  const page = await resultsPageBench(db, course!.id, {
    rows: n,
    category: "M0F",
    name: `nom${middle}`,
    bib: String(middle),
  });
  await database.close();
  await resultsWorkers.stop();
  return {
    rows: n,
    fileBytes,
    parseMs: Math.round(t1 - t0),
    startMs: Math.round(t2 - t1),
    jobMs: Math.round(t3 - t2),
    totalMs: Math.round(t3 - t0),
    peakHeapMb: Math.round(peakHeap / 1024 / 1024),
    // maxRSS is in kilobytes, for the whole run so far (seeding included).
    maxRssMb,
    page,
  };
}

export function resultsImportTable(f: ResultsImportFigures): string {
  return [
    "| lines | file | parse (read, check, keep) | start (check, queue) | job (one transaction) | total | peak heap | max RSS |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    `| ${f.rows} | ${(f.fileBytes / 1024 / 1024).toFixed(1)} MB | ${f.parseMs} ms | ${f.startMs} ms | ${f.jobMs} ms | ${f.totalMs} ms | ${f.peakHeapMb} MB | ${f.maxRssMb} MB |`,
  ].join("\n");
}
