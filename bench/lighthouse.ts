/**
 * The `lighthouse` part of bench/run.ts: Lighthouse (npm `lighthouse`, mobile default config:
 * simulated slow 4G and 4× CPU slowdown) driving Debian's Chromium headless on three pages of the
 * running app, each run `runs` times; the median of each figure is reported, and the failing audits
 * are those of the run whose performance score is the median.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

export const CHROME_PATH = "/usr/bin/chromium";
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
/** One Lighthouse run is abandoned past this. */
const RUN_TIMEOUT_MS = 120_000;

export type FailingAudit = {
  id: string;
  title: string;
  score: number | null;
  weight: number;
  displayValue?: string;
  /** The first items of the audit's details (URL or node, savings), to see what to fix. */
  items?: string[];
};
export type LighthouseRun = {
  scores: Record<Category, number | null>;
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; totalBytes: number };
  failing: Record<Category, FailingAudit[]>;
  runWarnings: string[];
};
export type LighthousePage = {
  name: string;
  path: string;
  runs: LighthouseRun[];
  median: { scores: Record<Category, number | null>; metrics: LighthouseRun["metrics"] };
  /** The failing audits of the run with the median performance score. */
  failing: Record<Category, FailingAudit[]>;
};
export type LighthouseFigures = {
  chrome: string;
  lighthouse: string;
  formFactor: string;
  failures: string[];
  pages: LighthousePage[];
};

const mid = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
};

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

// The report's JSON, as far as it is read here.
type Audit = {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  numericValue?: number;
  details?: { overallSavingsMs?: number; overallSavingsBytes?: number; items?: Record<string, unknown>[] };
  metricSavings?: Record<string, number>;
};
type Lhr = {
  lighthouseVersion: string;
  environment: { hostUserAgent: string };
  configSettings: { formFactor: string };
  runWarnings: string[];
  runtimeError?: { code: string; message: string };
  audits: Record<string, Audit>;
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
};

function describeItem(item: Record<string, unknown>): string {
  const node = item.node as { selector?: string; snippet?: string } | undefined;
  const what = item.url ?? node?.selector ?? node?.snippet ?? item.label ?? item.source ?? "";
  const savings = [
    typeof item.wastedBytes === "number" ? `${Math.round(item.wastedBytes / 1024)} KiB` : "",
    typeof item.wastedMs === "number" ? `${Math.round(item.wastedMs)} ms` : "",
  ].filter(Boolean);
  const text = typeof what === "string" ? what : JSON.stringify(what).slice(0, 200);
  return savings.length ? `${text} (${savings.join(", ")})` : text;
}

/** Failing audits of a category, worst first: weighted ones by lost points, then by savings. */
function failingAudits(lhr: Lhr, category: Category): FailingAudit[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  const failing = refs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(
      ({ audit }) =>
        audit &&
        audit.score !== null &&
        audit.score < 0.9 &&
        !["notApplicable", "manual", "informative", "error"].includes(audit.scoreDisplayMode),
    );
  const savings = (audit: Audit) =>
    audit.details?.overallSavingsMs ?? audit.metricSavings?.LCP ?? audit.metricSavings?.TBT ?? 0;
  failing.sort(
    (a, b) =>
      b.ref.weight * (1 - (b.audit.score ?? 0)) - a.ref.weight * (1 - (a.audit.score ?? 0)) ||
      savings(b.audit) - savings(a.audit),
  );
  return failing.map(({ ref, audit }) => ({
    id: audit.id,
    title: audit.title,
    score: audit.score,
    weight: ref.weight,
    ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
    ...(audit.details?.items?.length ? { items: audit.details.items.slice(0, 3).map(describeItem) } : {}),
  }));
}

function readRun(lhr: Lhr): LighthouseRun {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (category: Category) => {
    const value = lhr.categories[category]?.score;
    return value === null || value === undefined ? null : Math.round(value * 100);
  };
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as Record<Category, number | null>,
    metrics: {
      fcpMs: numeric("first-contentful-paint"),
      lcpMs: numeric("largest-contentful-paint"),
      tbtMs: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      totalBytes: numeric("total-byte-weight"),
    },
    failing: Object.fromEntries(CATEGORIES.map((c) => [c, failingAudits(lhr, c)])) as Record<Category, FailingAudit[]>,
    runWarnings: lhr.runWarnings,
  };
}

/**
 * Runs Lighthouse `runs` times on each page, in one Chrome (a new tab per run), the pages
 * interleaved so that drift on a shared machine spreads over all of them. Chrome is always killed.
 */
export async function runLighthouse(
  origin: string,
  pages: { name: string; path: string }[],
  runs: number,
  deadline: number,
  log: (message: string) => void,
): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: "silent",
  });
  const collected = pages.map((page) => ({ ...page, runs: [] as LighthouseRun[] }));
  let meta = { chrome: "unknown", lighthouse: "unknown", formFactor: "mobile" };
  /** Runs that failed (retried once): reported, not fatal. */
  const failures: string[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      for (const page of collected) {
        if (Date.now() > deadline) {
          log(`lighthouse: deadline reached, stopping after ${i} complete round(s)`);
          break;
        }
        const started = performance.now();
        let run: LighthouseRun | undefined;
        // A run can fail on a trace hiccup (NO_NAVSTART, NO_FCP on a loaded machine): one retry, then skipped.
        for (let attempt = 1; attempt <= 2 && !run; attempt++) {
          try {
            const result = await withTimeout(
              lighthouse(`${origin}${page.path}`, {
                port: chrome.port,
                output: "json",
                logLevel: "error",
                onlyCategories: [...CATEGORIES],
              }),
              RUN_TIMEOUT_MS,
              `lighthouse ${page.path}`,
            );
            if (!result) throw new Error(`lighthouse ${page.path}: no result`);
            const lhr = result.lhr as unknown as Lhr;
            meta = {
              chrome: lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? "unknown",
              lighthouse: lhr.lighthouseVersion,
              formFactor: lhr.configSettings.formFactor,
            };
            run = readRun(lhr);
          } catch (error) {
            failures.push(`${page.path} run ${i + 1} attempt ${attempt}: ${(error as Error).message}`);
            log(`lighthouse ${page.name} run ${i + 1} attempt ${attempt} failed: ${(error as Error).message}`);
            await new Promise((resolve) => setTimeout(resolve, 2_000));
          }
        }
        if (!run) continue;
        page.runs.push(run);
        const s = run.scores;
        log(
          `lighthouse ${page.name} run ${i + 1}/${runs} (${Math.round((performance.now() - started) / 1000)} s): ` +
            `perf ${s.performance}, a11y ${s.accessibility}, bp ${s["best-practices"]}, seo ${s.seo}`,
        );
      }
      if (Date.now() > deadline) break;
    }
  } finally {
    await Promise.resolve(chrome.kill()).catch(() => undefined);
  }
  return {
    ...meta,
    failures,
    pages: collected
      .filter((page) => page.runs.length)
      .map((page) => {
        const medianOf = (pick: (run: LighthouseRun) => number) => mid(page.runs.map(pick));
        const scores = Object.fromEntries(
          CATEGORIES.map((c) => {
            const values = page.runs.map((run) => run.scores[c]).filter((v): v is number => v !== null);
            return [c, values.length ? mid(values) : null];
          }),
        ) as Record<Category, number | null>;
        const byPerf = [...page.runs].sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
        return {
          name: page.name,
          path: page.path,
          runs: page.runs,
          median: {
            scores,
            metrics: {
              fcpMs: medianOf((r) => r.metrics.fcpMs),
              lcpMs: medianOf((r) => r.metrics.lcpMs),
              tbtMs: medianOf((r) => r.metrics.tbtMs),
              cls: medianOf((r) => r.metrics.cls),
              totalBytes: medianOf((r) => r.metrics.totalBytes),
            },
          },
          failing: byPerf[Math.floor((byPerf.length - 1) / 2)].failing,
        };
      }),
  };
}

const GOALS: Partial<Record<Category, number>> = { performance: 90, accessibility: 95, seo: 100 };

export function lighthouseTable(f: LighthouseFigures): string {
  const header = ["Page", "Runs", "Perf.", "A11y", "Best pr.", "SEO", "FCP", "LCP", "TBT", "CLS", "Bytes"];
  const cell = (value: number | null, category: Category) => {
    if (value === null) return "—";
    const goal = GOALS[category];
    const text = String(Math.round(value));
    return goal === undefined ? text : value >= goal ? `**${text}**` : `${text} ✗`;
  };
  const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = f.pages.map((p) => {
    const m = p.median.metrics;
    return [
      `${p.name} (\`${p.path}\`)`,
      String(p.runs.length),
      ...CATEGORIES.map((c) => cell(p.median.scores[c], c)),
      sec(m.fcpMs),
      sec(m.lcpMs),
      `${Math.round(m.tbtMs)} ms`,
      m.cls.toFixed(3),
      `${Math.round(m.totalBytes / 1024)} KB`,
    ];
  });
  const failing = f.pages.flatMap((p) =>
    (["performance", "accessibility", "seo"] as const)
      .filter((c) => p.failing[c].length)
      .map(
        (c) =>
          `- ${p.name}, ${c}: ${p.failing[c]
            .slice(0, 3)
            .map((a) => `\`${a.id}\` (${a.title}${a.displayValue ? `, ${a.displayValue}` : ""})`)
            .join("; ")}`,
      ),
  );
  const escapeCell = (text: string) => text.replaceAll("|", "\\|");
  const table = [header, header.map(() => "---"), ...lines]
    .map((cells) => `| ${cells.map(escapeCell).join(" | ")} |`)
    .join("\n");
  return (
    `${table}\n\nLighthouse ${f.lighthouse}, ${f.formFactor} default config, ${f.chrome} headless; ` +
    `scores 0–100 and metrics are medians over the runs; **bold** meets the goal, ✗ misses it ` +
    `(performance ≥ 90, accessibility ≥ 95, SEO 100).\n\nFailing audits (top 3, run with the median performance score):\n\n` +
    (failing.length ? failing.join("\n") : "- none") +
    (f.failures.length ? `\n\nFailed Lighthouse runs (retried once): ${f.failures.join("; ")}` : "")
  );
}
