/**
 * The results page's query at 20,000 rows (issue 13), run by the `results-import` part once its
 * import is written: `GET /api/results/{courseId}` through the results service (the route only
 * validates its query and calls it) for pages 1, the middle and the last of the overall ranking,
 * each view (men, women, a category) and a name and a bib search — median and p95 over RUNS calls
 * each, after WARMUP, with other courses' results in the table — then EXPLAIN ANALYZE of the very statement the service sent for the page's
 * rows (captured on its way to the database), to show which indexes it uses.
 */
import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { ResultsQuery } from "../features/results/results.contract.ts";
import { resultsService } from "../features/results/results.service.server.ts";
import type { Db } from "../platform/db/client.server.ts";
import { median, percentile } from "./load.ts";

const RUNS = 40;
const WARMUP = 3;

export type ResultsPageCase = {
  label: string;
  query: string;
  rows: number;
  matching: number;
  median: number;
  p95: number;
  /** Indexes the plan of the rows' statement reads, and whether it scans the whole table. */
  indexes: string[];
  seqScan: boolean;
  planMs: number | null;
  /** The same for the statement that counts the course's lines by category, sex and status (every call). */
  totalsPlanMs: number;
  totalsIndexes: string[];
};

const indexesOf = (plan: string) => [
  ...new Set([...plan.matchAll(/Index(?: Only)? Scan (?:Backward )?(?:using|on) (\w+)/g)].map((m) => m[1] as string)),
];

export type ResultsPageFigures = {
  rows: number;
  /** Other courses' lines in the table. */
  otherRows: number;
  runs: number;
  cases: ResultsPageCase[];
  plans: Record<string, string>;
};

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** `db` with every statement it executes also pushed to `sent`. */
function capturing(db: Db, sent: SQL[]): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "execute") {
        return (query: SQL) => {
          sent.push(query);
          return target.execute(query);
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

export async function resultsPageBench(
  db: Db,
  courseId: number,
  options: { rows: number; category: string; name: string; bib: string },
): Promise<ResultsPageFigures> {
  const sent: SQL[] = [];
  const service = resultsService(capturing(db, sent), () => new Date());
  const dialect = new PgDialect();
  // A site has other courses' results beside this one: 1,000 lines for each other course of the
  // catalogue, so that the planner weighs the course's share of the table as it would in production.
  const others = await db.execute(sql`
    INSERT INTO results (course_id, event_id, position, rank, sex_rank, category_rank, bib, name, sex, category, time_ms, status)
    SELECT c.id, c.event_id, g, g, (g + 1) / 2, (g + 3) / 4, g::text, 'AUTRE' || g || ' Coureur', CASE WHEN g % 2 = 0 THEN 'F' ELSE 'M' END,
      (ARRAY['SEH', 'M0F', 'V1H', 'SEF'])[g % 4 + 1], 1800000 + g * 1000, 'finished'
    FROM courses c CROSS JOIN generate_series(1, 1000) g WHERE c.id <> ${courseId}`);
  const otherRows = (others as unknown as { affectedRows?: number; rowCount?: number }).affectedRows ?? 0;
  // The fresh lines as autovacuum would leave them on a server.
  await db.execute(sql`VACUUM ANALYZE results`);
  const pageSize = 50;
  const last = Math.ceil(options.rows / pageSize);
  const middle = Math.ceil(last / 2);
  const cases: { label: string; query: Partial<ResultsQuery> }[] = [
    { label: "overall, page 1", query: { page: 1 } },
    { label: `overall, page ${middle} (middle)`, query: { page: middle } },
    { label: `overall, page ${last} (last)`, query: { page: last } },
    { label: "men, page 1", query: { type: "men" } },
    { label: "women, page 1", query: { type: "women" } },
    { label: `category ${options.category}, page 1`, query: { type: "category", category: options.category } },
    { label: `name search "${options.name}"`, query: { q: options.name } },
    { label: `bib search "${options.bib}"`, query: { q: options.bib } },
  ];
  const figures: ResultsPageCase[] = [];
  const plans: Record<string, string> = {};
  for (const { label, query } of cases) {
    const full: ResultsQuery = { type: "general", page: 1, pageSize, ...query };
    const times: number[] = [];
    let answer = await service.courseResults(courseId, full);
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const t0 = performance.now();
      answer = await service.courseResults(courseId, full);
      if (i >= WARMUP) times.push(performance.now() - t0);
    }
    if (answer.rows.length === 0) throw new Error(`results-page: ${label} answered no rows`);
    // The rows' statement of the last call, explained as it was sent.
    const rowsStatement = [...sent]
      .reverse()
      .find((q) => /FROM results r LEFT JOIN users u/.test(dialect.sqlToQuery(q).sql));
    const totalsStatement = [...sent]
      .reverse()
      .find((q) => /GROUP BY category, sex, status, source/.test(dialect.sqlToQuery(q).sql));
    if (!rowsStatement || !totalsStatement) throw new Error("results-page: the service's statements were not seen");
    sent.length = 0;
    const explain = async (statement: SQL) =>
      ((await db.execute(sql`EXPLAIN ANALYZE ${statement}`)) as unknown as { rows: Record<string, string>[] }).rows
        .map((row) => Object.values(row)[0])
        .join("\n");
    const plan = await explain(rowsStatement);
    const totalsPlan = await explain(totalsStatement);
    plans[label] = plan;
    plans[`${label}: totals`] = totalsPlan;
    const indexes = [
      ...new Set(
        [...plan.matchAll(/Index(?: Only)? Scan (?:Backward )?(?:using|on) (\w+)/g)].map((m) => m[1] as string),
      ),
    ];
    const sorted = [...times].sort((a, b) => a - b);
    const planMs = plan.match(/Execution Time: ([\d.]+) ms/)?.[1];
    figures.push({
      label,
      query: new URLSearchParams(
        Object.entries(query).map(([k, v]) => [k, String(v)]) as [string, string][],
      ).toString(),
      rows: answer.rows.length,
      matching: answer.matching,
      median: Math.round(median(sorted) * 10) / 10,
      p95: Math.round(percentile(sorted, 95) * 10) / 10,
      indexes,
      seqScan: /Seq Scan on results/.test(plan),
      planMs: planMs ? Number(planMs) : null,
      totalsPlanMs: Number(totalsPlan.match(/Execution Time: ([\d.]+) ms/)?.[1] ?? Number.NaN),
      totalsIndexes: indexesOf(totalsPlan),
    });
    log(`results-page: ${label}: p95 ${figures.at(-1)?.p95} ms, ${indexes.join(", ") || "no index"}`);
  }
  return { rows: options.rows, otherRows, runs: RUNS, cases: figures, plans };
}

export function resultsPageTable(f: ResultsPageFigures): string {
  return [
    `| GET /api/results/{course}? (${f.rows.toLocaleString("en-GB")} rows; ${f.otherRows.toLocaleString("en-GB")} of other courses; ${f.runs} calls each) | rows / matching | median | p95 | rows' statement: indexes (EXPLAIN ANALYZE) | its execution | totals' statement: indexes, execution |`,
    "| --- | ---: | ---: | ---: | --- | ---: | --- |",
    ...f.cases.map(
      (c) =>
        `| ${c.label} (\`${c.query}\`) | ${c.rows} / ${c.matching.toLocaleString("en-GB")} | ${c.median} ms | **${c.p95} ms** | ` +
        `${c.indexes.map((i) => `\`${i}\``).join(", ") || "none"}${c.seqScan ? " + seq scan" : ""} | ${c.planMs ?? "?"} ms | ` +
        `${c.totalsIndexes.map((i) => `\`${i}\``).join(", ") || "seq scan"}, ${c.totalsPlanMs} ms |`,
    ),
  ].join("\n");
}
