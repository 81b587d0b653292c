/**
 * The `fault` part of `npm run bench`: the server as `npm start` runs it (production build, PGlite in
 * a data folder seeded with the 3,200-event demo catalogue), under load and killed.
 *
 *   load   50 keep-alive clients for 30 s on a mix of search pages, event pages, a landing page, the
 *          English home and the JSON API. Goal: 0 errors; p50 and p99 reported.
 *   crash  a write burst from many client addresses: 6 clients registering (an account and a code
 *          mail each) and 6 asking for password recovery of addresses without an account (a
 *          mail each), every acknowledged answer recorded; the server is killed with SIGKILL 6–9 s
 *          in, then started again on the same data folder. Checks: every acknowledged
 *          registration is there, every acknowledged request's mail arrives, and every mail
 *          queued reaches the local SMTP server exactly once — those in flight at the kill
 *          included, taken over once their lease went stale.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { STALE_AFTER_MS } from "../features/jobs/jobs.service.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { startTestSmtpServer } from "../tests/support/smtp-server.ts";
import { type LoadResult, runLoad } from "./load.ts";
import {
  apiRequest,
  clientAddress,
  copyDataDir,
  ensureFreshBuild,
  launch,
  registrationBody,
  removeDataDir,
  seededDataDir,
  sleep,
} from "./server-process.ts";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

export type CrashFigures = {
  burstClients: number;
  killedAfterMs: number;
  requests: number;
  acknowledged: number;
  /** Of which registrations (the rest: recoveries). */
  acknowledgedRegistrations: number;
  refused: number;
  /** Requests cut by the kill: their outcome was never told. */
  unanswered: number;
  acknowledgedMissing: number;
  unansweredCommitted: number;
  restartMs: number;
  mailsQueued: number;
  mailsSentInDb: number;
  mailsOtherStatus: Record<string, number>;
  smtpReceived: number;
  /** Messages received more than once (same Message-ID). */
  duplicates: number;
  /** Messages queued but never received. */
  missing: number;
  /** Received messages no queued message accounts for. */
  unexpected: number;
  /** Acknowledged requests whose mail never came, or came more than once. */
  acknowledgedWithoutMail: number;
  acknowledgedMailedTwice: number;
  receivedBeforeKill: number;
  receivedAfterRestart: number;
  /** Mail jobs run more than once (taken over after the kill, or retried). */
  jobsRunAgain: number;
  jobsNotDone: Record<string, number>;
  /** From the kill to the last message received. */
  lastMailAfterKillMs: number;
  /** From the restarted server's first answer to the last message received. */
  lastMailAfterRestartMs: number;
};

export type FaultFigures = { load: LoadResult; crash: CrashFigures };

/** Paths of the load: pages visitors open and the API the pages and apps call. */
async function loadPaths(origin: string): Promise<string[]> {
  const slugs: string[] = [];
  for (const sport of ["trail", "running", "triathlon", "cycling"]) {
    const list = (await (await fetch(`${origin}/api/events?sport=${sport}`)).json()) as {
      events?: { slug: string }[];
      items?: { slug: string }[];
    };
    const first = (list.events ?? list.items ?? [])[0];
    if (first) slugs.push(first.slug);
  }
  if (slugs.length === 0) throw new Error("no event found in the demo catalogue");
  return [
    "/",
    "/?sport=trail",
    "/?sport=trail&region=84",
    "/?q=lac",
    "/?place=69123&radius=50",
    "/courses/trail",
    "/en",
    ...slugs.map((slug) => `/course/${slug}`),
    "/api/events?sport=trail",
    "/api/events?q=lac&sport=trail",
    "/api/events?place=69123&radius=50",
    "/api/events?elevation=1000-2000&range=next_month",
    "/api/sports",
  ];
}

async function loadRun(base: string, durationMs: number): Promise<LoadResult> {
  const dataDir = copyDataDir(base, "fault-load");
  const server = await launch(dataDir);
  try {
    const paths = await loadPaths(server.baseURL);
    for (const p of paths) {
      const response = await fetch(`${server.baseURL}${p}`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${p} answered ${response.status}`);
    }
    log(`fault/load: 50 clients, ${durationMs / 1000} s, ${paths.length} paths in turn`);
    const result = await runLoad({
      url: `${server.baseURL}/`,
      paths,
      concurrency: 50,
      durationMs,
      warmupMs: 3_000,
      timeoutMs: 15_000,
    });
    log(
      `fault/load: ${result.requests} requests, ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.median.toFixed(1)} ms, ` +
        `p99 ${result.latencyMs.p99.toFixed(1)} ms, ${result.errors} errors`,
    );
    return result;
  } finally {
    await server.stop("SIGTERM");
    removeDataDir(dataDir);
  }
}

type Attempt = { kind: "register" | "recover"; email: string; status: number | "cut" };

async function crashRun(base: string): Promise<CrashFigures> {
  const smtp = await startTestSmtpServer();
  const dataDir = copyDataDir(base, "fault-crash");
  const stamp = Date.now().toString(36);
  const clients = 12;
  try {
    let server = await launch(dataDir, { SMTP_URL: smtp.url });
    const attempts: Attempt[] = [];
    let killed = false;
    let n = 0;
    const burstStarted = Date.now();
    const killAfterMs = 6_000 + Math.floor(Math.random() * 3_000);
    log(`fault/crash: ${clients} clients registering or recovering; SIGKILL after ${killAfterMs} ms`);
    const origin = server.baseURL;
    const burst = Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        const kind = client % 2 === 0 ? "register" : "recover";
        while (!killed) {
          const i = n++;
          const email = `crash-${kind}-${i}-${stamp}@example.org`;
          try {
            const answer = await apiRequest(origin, {
              path: kind === "register" ? "/api/register" : "/api/recover-password",
              body: kind === "register" ? registrationBody(email) : { email },
              from: clientAddress(200_000 + i),
              timeoutMs: 20_000,
            });
            attempts.push({ kind, email, status: answer.status });
          } catch {
            attempts.push({ kind, email, status: "cut" });
          }
        }
      }),
    );
    await sleep(killAfterMs);
    killed = true;
    server.child.kill("SIGKILL");
    const killedAt = Date.now();
    await server.stop("SIGKILL");
    await burst;
    const receivedBeforeKill = smtp.messages.length;
    const isAcknowledged = (a: Attempt) => a.status === (a.kind === "register" ? 201 : 200);
    log(
      `fault/crash: killed after ${killedAt - burstStarted} ms: ${attempts.filter(isAcknowledged).length} acknowledged, ` +
        `${attempts.filter((a) => a.status === "cut").length} cut, ${receivedBeforeKill} mails received so far`,
    );

    const restartStarted = Date.now();
    server = await launch(dataDir, { SMTP_URL: smtp.url });
    const ready = Date.now();
    log(`fault/crash: restarted on the same data folder in ${ready - restartStarted} ms; waiting for the mail`);
    // Jobs that were running at the kill are taken over once their lease is stale (30 s after the
    // last heartbeat): wait past that, then until the mail stops coming.
    const quietMs = 3_000;
    let lastCount = -1;
    let lastChange = Date.now();
    const deadline = killedAt + STALE_AFTER_MS + 60_000;
    while (Date.now() < deadline) {
      if (smtp.messages.length !== lastCount) {
        lastCount = smtp.messages.length;
        lastChange = Date.now();
      }
      if (Date.now() - killedAt > STALE_AFTER_MS + 5_000 && Date.now() - lastChange > quietMs) break;
      await sleep(100);
    }
    const lastReceivedAt = lastChange;
    const code = await server.stop("SIGTERM");
    if (code !== 0) log(`fault/crash: the restarted server stopped with code ${code}`);

    // What the data folder holds now.
    const database = await openDatabase({ dataDir: path.join(dataDir, "pgdata") });
    let users: Set<string>;
    let mails: { id: number; recipient: string; status: string; message_id: string | null }[];
    let jobs: { status: string; attempts: number }[];
    try {
      const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
      users = new Set(
        rows<{ email: string }>(
          await database.db.execute(
            sql`SELECT lower(email) AS email FROM users WHERE email LIKE ${`crash-%-${stamp}@example.org`}`,
          ),
        ).map((r) => r.email),
      );
      mails = rows(
        await database.db.execute(
          sql`SELECT id, recipient, status, message_id FROM mail_messages WHERE recipient LIKE ${`crash-%-${stamp}@example.org`}`,
        ),
      );
      jobs = rows(await database.db.execute(sql`SELECT status, attempts FROM jobs WHERE queue = 'mail.send'`));
    } finally {
      await database.close();
    }

    const acknowledged = attempts.filter(isAcknowledged);
    const cut = attempts.filter((a) => a.status === "cut");
    const receivedIds = new Map<string, number>();
    for (const m of smtp.messages) receivedIds.set(m.messageId, (receivedIds.get(m.messageId) ?? 0) + 1);
    const queuedIds = new Set(mails.map((m) => m.message_id).filter(Boolean) as string[]);
    const mailsTo = new Map<string, number>();
    for (const m of smtp.messages)
      for (const to of m.to) mailsTo.set(to.toLowerCase(), (mailsTo.get(to.toLowerCase()) ?? 0) + 1);
    const statusCounts = (values: string[]) =>
      values.reduce<Record<string, number>>((acc, v) => {
        acc[v] = (acc[v] ?? 0) + 1;
        return acc;
      }, {});
    const figures: CrashFigures = {
      burstClients: clients,
      killedAfterMs: killedAt - burstStarted,
      requests: attempts.length,
      acknowledged: acknowledged.length,
      acknowledgedRegistrations: acknowledged.filter((a) => a.kind === "register").length,
      refused: attempts.filter((a) => a.status !== "cut" && !isAcknowledged(a)).length,
      unanswered: cut.length,
      acknowledgedMissing: acknowledged.filter((a) => a.kind === "register" && !users.has(a.email)).length,
      unansweredCommitted: cut.filter((a) => a.kind === "register" && users.has(a.email)).length,
      restartMs: ready - restartStarted,
      mailsQueued: mails.length,
      mailsSentInDb: mails.filter((m) => m.status === "sent").length,
      mailsOtherStatus: statusCounts(mails.filter((m) => m.status !== "sent").map((m) => m.status)),
      smtpReceived: smtp.messages.length,
      duplicates: [...receivedIds.values()].filter((count) => count > 1).length,
      missing: mails.filter((m) => !m.message_id || !receivedIds.has(m.message_id)).length,
      unexpected: [...receivedIds.keys()].filter((id) => !queuedIds.has(id)).length,
      acknowledgedWithoutMail: acknowledged.filter((a) => !mailsTo.has(a.email)).length,
      acknowledgedMailedTwice: acknowledged.filter((a) => (mailsTo.get(a.email) ?? 0) > 1).length,
      receivedBeforeKill,
      receivedAfterRestart: smtp.messages.length - receivedBeforeKill,
      jobsRunAgain: jobs.filter((j) => j.attempts > 1).length,
      jobsNotDone: statusCounts(jobs.filter((j) => j.status !== "done").map((j) => j.status)),
      lastMailAfterKillMs: lastReceivedAt - killedAt,
      lastMailAfterRestartMs: lastReceivedAt - ready,
    };
    log(
      `fault/crash: ${figures.acknowledgedMissing} acknowledged missing, ${figures.mailsQueued} mails queued, ` +
        `${figures.smtpReceived} received, ${figures.duplicates} duplicates, ${figures.missing} missing, ` +
        `${figures.jobsRunAgain} jobs run again`,
    );
    return figures;
  } finally {
    await smtp.close();
    removeDataDir(dataDir);
  }
}

export async function faultPart(options: { quick: boolean }): Promise<FaultFigures> {
  ensureFreshBuild();
  const base = await seededDataDir(3_200);
  const load = await loadRun(base, options.quick ? 10_000 : 30_000);
  const crash = await crashRun(base);
  return { load, crash };
}

const fmt = (n: number, digits = 1) => n.toLocaleString("en-GB", { maximumFractionDigits: digits });

export function faultTables(f: FaultFigures): string {
  const l = f.load;
  const loadLines = [
    `**Load**: ${l.concurrency} clients, ${fmt(l.durationMs / 1000, 0)} s: **${fmt(l.requests, 0)} requests, ` +
      `${fmt(l.requestsPerSecond, 0)} req/s, ${l.errors} errors**, p50 **${fmt(l.latencyMs.median)} ms**, ` +
      `p99 **${fmt(l.latencyMs.p99)} ms** (max ${fmt(l.latencyMs.max, 0)} ms).`,
    "",
    "| Path | Requests | Errors | p50 | p99 |",
    "| --- | --- | --- | --- | --- |",
    ...(l.perPath ?? []).map(
      (p) =>
        `| \`${p.path.replace(/^\/course\/.+/, "/course/…")}\` | ${p.requests} | ${p.errors} | ${fmt(p.latencyMs.median)} ms | ${fmt(p.latencyMs.p99)} ms |`,
    ),
  ];
  const c = f.crash;
  const ok = (good: boolean) => (good ? "✓" : "✗");
  const crashLines = [
    "",
    `**Crash**: ${c.burstClients} clients registering or asking for password recovery, SIGKILL after ${fmt(c.killedAfterMs / 1000)} s, restart on the same data folder in ${fmt(c.restartMs / 1000)} s.`,
    "",
    "| Check | Result |",
    "| --- | --- |",
    `| Requests sent / acknowledged (of which registrations) / refused / cut by the kill | ${c.requests} / ${c.acknowledged} (${c.acknowledgedRegistrations}) / ${c.refused} / ${c.unanswered} |`,
    `| Acknowledged registrations missing after the restart | **${c.acknowledgedMissing}** ${ok(c.acknowledgedMissing === 0)} |`,
    `| Cut registrations that had committed anyway | ${c.unansweredCommitted} |`,
    `| Mails queued / marked sent / other | ${c.mailsQueued} / ${c.mailsSentInDb} / ${JSON.stringify(c.mailsOtherStatus)} |`,
    `| Mails received by the SMTP server (before the kill / after) | ${c.smtpReceived} (${c.receivedBeforeKill} / ${c.receivedAfterRestart}) |`,
    `| Queued mails never received | **${c.missing}** ${ok(c.missing === 0)} |`,
    `| Mails received twice (same Message-ID) | **${c.duplicates}** ${ok(c.duplicates === 0)} |`,
    `| Received mails no queued message accounts for | ${c.unexpected} |`,
    `| Acknowledged requests without their mail / with it twice | **${c.acknowledgedWithoutMail}** / **${c.acknowledgedMailedTwice}** ${ok(c.acknowledgedWithoutMail === 0 && c.acknowledgedMailedTwice === 0)} |`,
    `| Mail jobs run again (taken over after the kill) / not done | ${c.jobsRunAgain} / ${JSON.stringify(c.jobsNotDone)} |`,
    `| Last mail received after the kill / after the restart | ${fmt(c.lastMailAfterKillMs / 1000)} s / ${fmt(c.lastMailAfterRestartMs / 1000)} s |`,
  ];
  return [...loadLines, ...crashLines].join("\n");
}
