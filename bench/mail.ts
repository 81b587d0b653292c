/**
 * The `mail` part of `npm run bench`: how fast the server as `npm start` runs it delivers a burst
 * of mail to a real local SMTP server (tests/support/smtp-server.ts, which parses every message).
 *
 *   queued  500 messages are queued in the data folder while the server is stopped (as after a
 *           crash during a burst), then the server starts: time from its first answer on /healthz
 *           to the 500th message received, with MAIL_CONCURRENCY 8 (the default) and 1 (one
 *           message at a time, as before). Then 200 messages to an SMTP server that answers each
 *           one after 100 ms, as a distant relay does, with 8 and 1.
 *   burst   500 password-recovery requests for addresses without an account (each queues one mail)
 *           from 500 client addresses, 20 at a time: time to the last answer and to the last mail.
 *
 * Goal (issue 10): 500 queued mails drain in 30 s or less.
 */
import path from "node:path";
import { createJobQueue } from "../features/jobs/jobs.service.server.ts";
import { createMailService } from "../features/mail/mail.service.server.ts";
import { openDatabase } from "../platform/db/client.server.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../tests/support/smtp-server.ts";
import {
  apiRequest,
  clientAddress,
  copyDataDir,
  ensureFreshBuild,
  launch,
  removeDataDir,
  seededDataDir,
  sleep,
} from "./server-process.ts";

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

export type MailRun = {
  scenario: "queued" | "burst";
  concurrency: number;
  /** The SMTP server's delay before answering each message. */
  answerDelayMs: number;
  messages: number;
  /** queued: server ready → last message; burst: first request → last message. */
  drainMs: number;
  /** burst: first request → last answer. */
  requestsMs?: number;
  perSecond: number;
  maxConnections: number;
  maxInData: number;
  duplicates: number;
};
export type MailFigures = { runs: MailRun[]; goalMs: number };

const GOAL_MS = 30_000;

async function waitForCount(smtp: TestSmtpServer, count: number, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs;
  while (smtp.messages.length < count) {
    if (Date.now() > deadline) throw new Error(`${smtp.messages.length} of ${count} messages after ${limitMs} ms`);
    await sleep(20);
  }
  return Date.now();
}

function duplicates(smtp: TestSmtpServer): number {
  const ids = smtp.messages.map((m) => m.messageId);
  return ids.length - new Set(ids).size;
}

/** Queues `count` messages in a stopped server's data folder, as requests would have. */
async function queueMessages(dataDir: string, count: number, publicUrl: string): Promise<void> {
  const database = await openDatabase({ dataDir: path.join(dataDir, "pgdata") });
  try {
    const jobs = createJobQueue(database.db);
    const mail = createMailService({
      db: database.db,
      jobs,
      config: {
        SMTP_URL: "smtp://127.0.0.1:9",
        MAIL_FROM: "Dossard <no-reply@dossard.test>",
        PUBLIC_URL: publicUrl,
        dataDir,
      },
    });
    for (let n = 0; n < count; n++) {
      await mail.send({
        to: `queued-${n}@example.org`,
        template: "verifyEmail",
        locale: "fr",
        params: { firstName: "Bench" },
        secrets: { code: String(10_000 + n) },
      });
    }
  } finally {
    await database.close();
  }
}

/** A data folder holding `count` queued messages, made once per run and copied for each server. */
async function queuedDataDir(base: string, count: number): Promise<string> {
  const dir = copyDataDir(base, `mail-queued-${count}`);
  log(`mail: queueing ${count} messages in a stopped server's data folder`);
  await queueMessages(dir, count, "http://127.0.0.1");
  return dir;
}

async function queuedRun(queued: string, count: number, concurrency: number, answerDelayMs = 0): Promise<MailRun> {
  const smtp = await startTestSmtpServer({ answerDelayMs });
  const dataDir = copyDataDir(queued, `mail-run-${concurrency}-${answerDelayMs}`);
  try {
    const server = await launch(dataDir, { SMTP_URL: smtp.url, MAIL_CONCURRENCY: String(concurrency) });
    const ready = Date.now();
    try {
      const done = await waitForCount(smtp, count, 300_000);
      await sleep(500);
      const run: MailRun = {
        scenario: "queued",
        concurrency,
        answerDelayMs,
        messages: smtp.messages.length,
        drainMs: done - ready,
        perSecond: count / ((done - ready) / 1000),
        maxConnections: smtp.stats.maxConnections,
        maxInData: smtp.stats.maxInData,
        duplicates: duplicates(smtp),
      };
      log(
        `mail: ${count} queued, MAIL_CONCURRENCY ${concurrency}, SMTP answering after ${answerDelayMs} ms: drained in ` +
          `${(run.drainMs / 1000).toFixed(1)} s (${run.perSecond.toFixed(0)}/s, ${run.maxInData} at once, ${run.maxConnections} connections)`,
      );
      return run;
    } finally {
      await server.stop("SIGTERM");
    }
  } finally {
    await smtp.close();
    removeDataDir(dataDir);
  }
}

async function burstRun(base: string, count: number, parallel: number): Promise<MailRun> {
  const smtp = await startTestSmtpServer();
  const dataDir = copyDataDir(base, "mail-burst");
  const server = await launch(dataDir, { SMTP_URL: smtp.url });
  try {
    log(`mail: ${count} password recoveries from ${count} addresses, ${parallel} at a time`);
    const started = Date.now();
    let next = 0;
    let failures = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const n = next++;
          const answer = await apiRequest(server.baseURL, {
            path: "/api/recover-password",
            body: { email: `burst-${n}-${started}@example.org` },
            from: clientAddress(50_000 + n),
          });
          if (answer.status !== 200) failures++;
        }
      }),
    );
    const answered = Date.now();
    if (failures) throw new Error(`${failures} recovery requests failed`);
    const done = await waitForCount(smtp, count, 300_000);
    await sleep(500);
    const run: MailRun = {
      scenario: "burst",
      concurrency: 8,
      answerDelayMs: 0,
      messages: smtp.messages.length,
      drainMs: done - started,
      requestsMs: answered - started,
      perSecond: count / ((done - started) / 1000),
      maxConnections: smtp.stats.maxConnections,
      maxInData: smtp.stats.maxInData,
      duplicates: duplicates(smtp),
    };
    log(
      `mail: burst answered in ${(run.requestsMs! / 1000).toFixed(1)} s, last mail after ${(run.drainMs / 1000).toFixed(1)} s`,
    );
    return run;
  } finally {
    await server.stop("SIGTERM");
    await smtp.close();
    removeDataDir(dataDir);
  }
}

export async function mailPart(options: { quick: boolean }): Promise<MailFigures> {
  ensureFreshBuild();
  const base = await seededDataDir(3_200);
  const count = options.quick ? 200 : 500;
  const distant = options.quick ? 80 : 200;
  const runs: MailRun[] = [];
  const queued = await queuedDataDir(base, count);
  try {
    runs.push(await queuedRun(queued, count, 8), await queuedRun(queued, count, 1));
  } finally {
    removeDataDir(queued);
  }
  const queuedDistant = await queuedDataDir(base, distant);
  try {
    runs.push(await queuedRun(queuedDistant, distant, 8, 100), await queuedRun(queuedDistant, distant, 1, 100));
  } finally {
    removeDataDir(queuedDistant);
  }
  runs.push(await burstRun(base, count, 20));
  return { runs, goalMs: GOAL_MS };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function mailTable(f: MailFigures): string {
  const lines = [
    "| Scenario | SMTP answers after | MAIL_CONCURRENCY | Messages received | Drain time | Messages/s | At once (max) | SMTP connections (max) | Same Message-ID twice |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const r of f.runs) {
    const scenario =
      r.scenario === "queued"
        ? `${r.messages} queued, server started`
        : `${r.messages} recoveries (answered in ${seconds(r.requestsMs ?? 0)})`;
    const goal =
      r.scenario === "queued" && r.concurrency === 8 && r.answerDelayMs === 0
        ? r.drainMs <= f.goalMs
          ? " ✓"
          : " ✗"
        : "";
    lines.push(
      `| ${scenario} | ${r.answerDelayMs} ms | ${r.concurrency} | ${r.messages} | **${seconds(r.drainMs)}**${goal} | ${r.perSecond.toFixed(0)} | ${r.maxInData} | ${r.maxConnections} | ${r.duplicates} |`,
    );
  }
  return lines.join("\n");
}
