/**
 * The `accounts` part of `npm run bench`: can a visitor tell from the answer time whether an
 * address has an account? The server as `npm start` runs it (mail to a local SMTP server), and in
 * one run, rounds of four requests in a random order, each from its own client address:
 *
 *   POST /api/register          with an address that has an account (409 "already used")
 *   POST /api/register          with a new address (201)
 *   POST /api/recover-password  for an address that has an account (200)
 *   POST /api/recover-password  for an address without one (200)
 *
 * Each request waits for the mail the previous one queued to leave (half a second at most: before
 * issue 10, an unknown address got none), so that every request finds the server idle. Goal
 * (issue 10): known ÷ unknown medians within noise, 0.9–1.1; a 90 % bootstrap interval of each
 * ratio tells how much noise there is (BENCH_ACCOUNTS_ROUNDS=150 narrows it). `--baseline
 * <checkout>` measures another (built) checkout first, the same way.
 */
import path from "node:path";
import { startTestSmtpServer, type TestSmtpServer } from "../tests/support/smtp-server.ts";
import { median, percentile } from "./load.ts";
import {
  apiRequest,
  clientAddress,
  copyDataDir,
  ensureFreshBuild,
  launch,
  registrationBody,
  removeDataDir,
  root,
  seededDataDir,
  sleep,
} from "./server-process.ts";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

type Kind = "registerKnown" | "registerNew" | "recoverKnown" | "recoverUnknown";
const KINDS: Kind[] = ["registerKnown", "registerNew", "recoverKnown", "recoverUnknown"];
const WARMUP = 5;
const EXPECTED: Record<Kind, number> = { registerKnown: 409, registerNew: 201, recoverKnown: 200, recoverUnknown: 200 };

export type Timing = { n: number; median: number; p10: number; p90: number };
export type Interval = { low: number; high: number };
export type AccountsRun = {
  label: string;
  checkout: string;
  rounds: number;
  timings: Record<Kind, Timing>;
  registerRatio: number;
  recoverRatio: number;
  /** 90 % bootstrap intervals of the two ratios. */
  registerInterval: Interval;
  recoverInterval: Interval;
  /** Answers to known and unknown recoveries: same status, same body. */
  recoverAnswersIdentical: boolean;
};
export type AccountsFigures = { runs: AccountsRun[] };

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, median: median(sorted), p10: percentile(sorted, 10), p90: percentile(sorted, 90) };
}

/** 90 % interval of median(a) ÷ median(b), from 2,000 resamples of each. */
function bootstrapRatio(a: number[], b: number[]): Interval {
  const resampledMedian = (values: number[]) =>
    median(Array.from({ length: values.length }, () => values[Math.floor(Math.random() * values.length)]));
  const ratios = Array.from({ length: 2_000 }, () => resampledMedian(a) / resampledMedian(b)).sort((x, y) => x - y);
  return { low: percentile(ratios, 5), high: percentile(ratios, 95) };
}

function shuffled<T>(values: T[]): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** Waits until the SMTP server has received `count` messages (the server is idle again). */
async function settled(smtp: TestSmtpServer, count: number, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (smtp.messages.length < count && Date.now() < deadline) await sleep(5);
  await sleep(30);
}

export async function accountsPart(options: { quick: boolean; baseline?: string }): Promise<AccountsFigures> {
  ensureFreshBuild();
  const base = await seededDataDir(3_200);
  const runs: AccountsRun[] = [];
  if (options.baseline) {
    const checkout = path.resolve(options.baseline);
    ensureFreshBuild(checkout);
    runs.push(await accountsRun(base, options.quick, "before", checkout));
  }
  runs.push(await accountsRun(base, options.quick, options.baseline ? "after" : "now", root));
  return { runs };
}

async function accountsRun(base: string, quick: boolean, label: string, checkout: string): Promise<AccountsRun> {
  // BENCH_ACCOUNTS_ROUNDS: more rounds, a narrower interval (on a busy machine).
  const rounds = Number(process.env.BENCH_ACCOUNTS_ROUNDS) || (quick ? 12 : 60);
  const smtp = await startTestSmtpServer();
  const dataDir = copyDataDir(base, `accounts-${label}`);
  log(`accounts (${label}): ${checkout}`);
  const server = await launch(dataDir, { SMTP_URL: smtp.url }, checkout);
  let address = 100_000;
  const from = () => clientAddress(address++);
  const stamp = Date.now().toString(36);
  try {
    // Accounts to ask about: one per round for registration, one for recovery (one request a
    // minute per address).
    log(`accounts: creating ${2 * (rounds + WARMUP)} accounts`);
    const known: string[] = [];
    for (let n = 0; n < 2 * (rounds + WARMUP); n++) {
      const email = `known-${n}-${stamp}@example.org`;
      const answer = await apiRequest(server.baseURL, {
        path: "/api/register",
        body: registrationBody(email),
        from: from(),
      });
      if (answer.status !== 201) throw new Error(`register ${email}: ${answer.status} ${answer.body}`);
      known.push(email);
      await settled(smtp, known.length);
    }
    // Warm-up rounds, not counted (the server also learns both paths' times there).
    const samples: Record<Kind, number[]> = {
      registerKnown: [],
      registerNew: [],
      recoverKnown: [],
      recoverUnknown: [],
    };
    const bodies: Record<string, Set<string>> = { recoverKnown: new Set(), recoverUnknown: new Set() };
    log(`accounts: ${rounds} rounds of the four requests, in random order`);
    for (let round = -WARMUP; round < rounds; round++) {
      const knownForRegister = known[2 * (round + WARMUP)];
      const knownForRecovery = known[2 * (round + WARMUP) + 1];
      for (const kind of shuffled(KINDS)) {
        const request =
          kind === "registerKnown"
            ? { path: "/api/register", body: registrationBody(knownForRegister) }
            : kind === "registerNew"
              ? { path: "/api/register", body: registrationBody(`new-${round + WARMUP}-${stamp}@example.org`) }
              : kind === "recoverKnown"
                ? { path: "/api/recover-password", body: { email: knownForRecovery } }
                : { path: "/api/recover-password", body: { email: `nobody-${round + WARMUP}-${stamp}@example.org` } };
        const before = smtp.messages.length;
        const answer = await apiRequest(server.baseURL, { ...request, from: from() });
        if (answer.status !== EXPECTED[kind]) {
          throw new Error(`${kind}: expected ${EXPECTED[kind]}, got ${answer.status} ${answer.body}`);
        }
        if (round >= 0) {
          samples[kind].push(answer.ms);
          if (kind in bodies) bodies[kind].add(`${answer.status} ${answer.body}`);
        }
        // Each of the four queues one mail: wait for it, so the next request finds the server
        // idle (before issue 10, two of them queued none: half a second then).
        await settled(smtp, before + 1, 500);
      }
    }
    const timings = Object.fromEntries(KINDS.map((k) => [k, timing(samples[k])])) as Record<Kind, Timing>;
    const figures: AccountsRun = {
      label,
      checkout,
      rounds,
      timings,
      registerRatio: timings.registerKnown.median / timings.registerNew.median,
      recoverRatio: timings.recoverKnown.median / timings.recoverUnknown.median,
      registerInterval: bootstrapRatio(samples.registerKnown, samples.registerNew),
      recoverInterval: bootstrapRatio(samples.recoverKnown, samples.recoverUnknown),
      recoverAnswersIdentical:
        bodies.recoverKnown.size === 1 &&
        bodies.recoverUnknown.size === 1 &&
        [...bodies.recoverKnown][0] === [...bodies.recoverUnknown][0],
    };
    log(
      `accounts (${label}): register known/new ${timings.registerKnown.median.toFixed(1)}/${timings.registerNew.median.toFixed(1)} ms ` +
        `(×${figures.registerRatio.toFixed(2)}), recover known/unknown ${timings.recoverKnown.median.toFixed(1)}/` +
        `${timings.recoverUnknown.median.toFixed(1)} ms (×${figures.recoverRatio.toFixed(2)})`,
    );
    return figures;
  } finally {
    await server.stop("SIGTERM");
    await smtp.close();
    removeDataDir(dataDir);
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

export function accountsTable(f: AccountsFigures): string {
  const lines = [
    "| Checkout | Request | Address with an account: median (p10–p90) | Address without one: median (p10–p90) | Ratio (goal 0.9–1.1) | 90 % interval of the ratio |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const run of f.runs) {
    const t = run.timings;
    const row = (label: string, a: Timing, b: Timing, ratio: number, interval: Interval) =>
      `| ${run.label} | ${label} | **${ms(a.median)}** (${ms(a.p10)}–${ms(a.p90)}) | **${ms(b.median)}** (${ms(b.p10)}–${ms(b.p90)}) | ` +
      `**${ratio.toFixed(2)}**${ratio >= 0.9 && ratio <= 1.1 ? " ✓" : " ✗"} | ${interval.low.toFixed(2)}–${interval.high.toFixed(2)} |`;
    lines.push(
      row("`POST /api/register` (409 / 201)", t.registerKnown, t.registerNew, run.registerRatio, run.registerInterval),
      row(
        "`POST /api/recover-password` (200 / 200)",
        t.recoverKnown,
        t.recoverUnknown,
        run.recoverRatio,
        run.recoverInterval,
      ),
    );
  }
  const last = f.runs[f.runs.length - 1];
  lines.push(
    "",
    `${last.rounds} rounds of the four requests in random order per checkout, after ${WARMUP} warm-up rounds; ` +
      `recovery answers ${last.recoverAnswersIdentical ? "identical (status and body)" : "DIFFERENT"} for both kinds of address.`,
  );
  return lines.join("\n");
}
