import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import PostalMime from "postal-mime";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../platform/db/client.server.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../../tests/support/smtp-server.ts";
import { createJobQueue, retryDelayMs, STALE_AFTER_MS } from "../jobs/jobs.service.server.ts";
import {
  createMailService,
  DEFAULT_MAIL_CONCURRENCY,
  MAIL_MAX_ATTEMPTS,
  MAIL_QUEUE,
  type MailConfig,
  stableMessageId,
} from "./mail.service.server.ts";

let t: TestApp;
let db: Db;
let smtp: TestSmtpServer;
const tempDirs: string[] = [];
/** Mail services of the tests, whose pooled SMTP connections are closed after each test. */
const services: { close(): void }[] = [];

beforeAll(async () => {
  [t, smtp] = await Promise.all([createTestApp(), startTestSmtpServer()]);
  db = t.database.db;
});
afterAll(async () => {
  await Promise.all([t?.close(), smtp?.close()]);
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  for (const service of services.splice(0)) service.close();
});
beforeEach(async () => {
  smtp.release();
  // Pooled connections of the previous test are closing: the counts start from none.
  for (let i = 0; i < 200 && smtp.stats.connections > 0; i++) await new Promise((r) => setTimeout(r, 10));
  smtp.clear();
  smtp.failNext(0);
  // Each test drains its own messages only.
  await db.execute(sql`DELETE FROM jobs WHERE queue = ${MAIL_QUEUE}`);
});

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-mail-"));
  tempDirs.push(dir);
  return dir;
}

/** The mail service over its own job queue, both on a clock the test moves by hand. */
function setup(overrides: Partial<MailConfig> = {}) {
  let now = new Date("2026-03-02T08:00:00Z");
  const clock = () => now;
  const jobs = createJobQueue(db, { clock });
  const config: MailConfig = {
    SMTP_URL: smtp.url,
    MAIL_FROM: "Dossard <no-reply@dossard.test>",
    PUBLIC_URL: "https://dossard.test",
    dataDir: tempDataDir(),
    ...overrides,
  };
  const mail = createMailService({ db, jobs, config, clock });
  mail.register();
  services.push(mail);
  return {
    jobs,
    mail,
    config,
    clock,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}

type MessageRow = {
  status: string;
  attempts: number;
  params: unknown;
  subject: string;
  error: string | null;
  message_id: string | null;
  sent_at: Date | null;
  recipient: string;
  locale: string;
};

async function messageRow(id: number): Promise<MessageRow> {
  const result = (await db.execute(
    sql`SELECT status, attempts, params, subject, error, message_id, sent_at, recipient, locale
        FROM mail_messages WHERE id = ${id}`,
  )) as unknown as { rows: MessageRow[] };
  return result.rows[0];
}

type JobRow = { status: string; attempts: number; payload: unknown };

/** The id of a message's delivery job (found by its payload, so before it is wiped). */
async function jobIdOf(messageId: number): Promise<number> {
  const result = (await db.execute(
    sql`SELECT id FROM jobs WHERE queue = ${MAIL_QUEUE} AND (payload->>'messageId')::bigint = ${messageId}`,
  )) as unknown as { rows: { id: number }[] };
  return Number(result.rows[0].id);
}

async function jobRow(id: number): Promise<JobRow> {
  const result = (await db.execute(sql`SELECT status, attempts, payload FROM jobs WHERE id = ${id}`)) as unknown as {
    rows: JobRow[];
  };
  return result.rows[0];
}

const to = (address: string) => (mail: { to: string[] }) => mail.to.includes(address);

describe("mail over SMTP", () => {
  it("queues the message, then the job delivers the code in French and in English", async () => {
    const { jobs, mail } = setup();
    const frId = await mail.send({
      to: "lea@example.com",
      userId: null,
      template: "verifyEmail",
      locale: "fr",
      params: { firstName: "Léa" },
      secrets: { code: "40317" },
    });
    const enId = await mail.send({
      to: "sam@example.com",
      template: "verifyEmail",
      locale: "en",
      params: { firstName: "Sam" },
      secrets: { code: "99012" },
    });

    // Nothing left yet: the request path only writes rows.
    expect(smtp.messages).toHaveLength(0);
    const queued = await messageRow(frId);
    expect(queued).toMatchObject({
      status: "queued",
      attempts: 0,
      recipient: "lea@example.com",
      locale: "fr",
      subject: "Votre code de vérification Dossard",
      params: { firstName: "Léa" },
    });
    expect(JSON.stringify(queued)).not.toContain("40317");
    const frJob = await jobIdOf(frId);
    expect((await jobRow(frJob)).payload).toEqual({ messageId: frId, secrets: { code: "40317" } });

    expect(await jobs.drain()).toBe(2);

    const fr = await smtp.waitFor(to("lea@example.com"));
    expect(fr.subject).toBe("Votre code de vérification Dossard");
    expect(fr.from).toBe("no-reply@dossard.test");
    expect(fr.envelope).toEqual({ from: "no-reply@dossard.test", to: ["lea@example.com"] });
    expect(fr.text).toContain("Bonjour Léa,");
    expect(fr.text).toContain("40317");
    expect(fr.html).toContain("40317");
    expect(fr.html).toContain("https://dossard.test/");
    expect(fr.headers["auto-submitted"]).toBe("auto-generated");

    const en = await smtp.waitFor(to("sam@example.com"));
    expect(en.subject).toBe("Your Dossard verification code");
    expect(en.text).toContain("Hi Sam,");
    expect(en.text).toContain("99012");
    expect(en.html).toContain("99012");

    const sent = await messageRow(frId);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, error: null, message_id: fr.messageId });
    expect(sent.sent_at).not.toBeNull();
    expect(await messageRow(enId)).toMatchObject({ status: "sent", message_id: en.messageId });
    // The code is gone from the job once delivered.
    expect(await jobRow(frJob)).toMatchObject({ status: "done", payload: {} });
  });

  it("retries while the server refuses, then delivers", async () => {
    const { jobs, mail, advance } = setup();
    smtp.failNext(2);
    const id = await mail.send({
      to: "retry@example.com",
      template: "resetPassword",
      locale: "en",
      params: { firstName: "Ana" },
      secrets: { link: "https://dossard.test/en/reset-password?token=t0k3n" },
    });
    const jobId = await jobIdOf(id);

    await jobs.drain();
    let row = await messageRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 1, sent_at: null });
    expect(row.error).toMatch(/451/);
    expect(await jobs.drain()).toBe(0); // not due before its backoff

    advance(retryDelayMs(1));
    await jobs.drain();
    row = await messageRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 2 });

    advance(retryDelayMs(2));
    await jobs.drain();
    row = await messageRow(id);
    expect(row).toMatchObject({ status: "sent", attempts: 3, error: null });
    const received = await smtp.waitFor(to("retry@example.com"));
    expect(received.text).toContain("https://dossard.test/en/reset-password?token=t0k3n");
    expect(smtp.messages).toHaveLength(1);
    expect(await jobRow(jobId)).toMatchObject({ status: "done", attempts: 3, payload: {} });
  });

  it("marks the message failed when the last attempt fails", async () => {
    const { jobs, mail, advance } = setup();
    smtp.failNext(100, { code: 550, message: "Mailbox unavailable" });
    const id = await mail.send({
      to: "nobody@example.com",
      template: "welcome",
      locale: "fr",
      params: { firstName: "Noé" },
    });
    const jobId = await jobIdOf(id);
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS + 1; attempt++) {
      await jobs.drain();
      advance(3_600_000);
    }
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS, sent_at: null });
    expect(row.error).toContain("Mailbox unavailable");
    expect((await jobRow(jobId)).status).toBe("failed");
    expect(smtp.messages).toHaveLength(0);
  });

  it("does no network I/O in send(): an unreachable server only fails the job", async () => {
    const dead = await startTestSmtpServer();
    await dead.close();
    const { jobs, mail } = setup({ SMTP_URL: dead.url });
    const started = Date.now();
    const id = await mail.send({ to: "x@example.com", template: "passwordChanged", locale: "fr", params: {} });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await messageRow(id)).status).toBe("queued");

    await jobs.drain();
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 1 });
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it("escapes parameters in the delivered HTML", async () => {
    const { jobs, mail } = setup();
    await mail.send({
      to: "xss@example.com",
      template: "welcome",
      locale: "en",
      params: { firstName: `<script>alert("hi")</script>` },
    });
    await jobs.drain();
    const received = await smtp.waitFor(to("xss@example.com"));
    expect(received.html).not.toContain("<script>");
    expect(received.html).toContain("&lt;script&gt;");
    expect(received.text).toContain(`Hi <script>alert("hi")</script>,`);
  });
});

describe("delivery at scale and after a crash", () => {
  it("delivers a mail whose worker died exactly once, 30 s after its last heartbeat", async () => {
    const { jobs, mail, advance, clock } = setup();
    const id = await mail.send({
      to: "crash@example.com",
      template: "verifyEmail",
      locale: "fr",
      params: { firstName: "Ana" },
      secrets: { code: "31415" },
    });
    const jobId = await jobIdOf(id);
    // The dying worker: it claims the job, then neither renews its lease nor finishes (a process
    // killed right after the claim; a heartbeat that never fires is the same for the database).
    const dying = createJobQueue(db, { clock, heartbeatMs: 1_000_000_000 });
    let claimed!: () => void;
    const claimedJob = new Promise<void>((resolve) => {
      claimed = resolve;
    });
    dying.register(MAIL_QUEUE, () => {
      claimed();
      return new Promise<void>(() => {});
    });
    void dying.drain();
    await claimedJob;
    expect(await jobRow(jobId)).toMatchObject({ status: "running", attempts: 1 });

    advance(STALE_AFTER_MS - 1000);
    expect(await jobs.drain()).toBe(0);
    expect(smtp.messages).toHaveLength(0);

    advance(2000);
    expect(await jobs.drain()).toBe(1);
    const received = await smtp.waitFor(to("crash@example.com"));
    expect(received.text).toContain("31415");
    expect(await jobs.drain()).toBe(0);
    expect(smtp.messages.filter(to("crash@example.com"))).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(await jobRow(jobId)).toMatchObject({ status: "done", attempts: 2, payload: {} });
  });

  it("does not send again a mail the SMTP server accepted just before its worker died", async () => {
    const { jobs, mail, advance, clock, config } = setup();
    const journalFile = path.join(config.dataDir, "mail-delivered.log");
    // Every acceptance is recorded in DATA_DIR/mail-delivered.log as the SMTP answer is read.
    const other = await mail.send({ to: "journal@example.com", template: "welcome", locale: "fr", params: {} });
    expect(await jobs.drain()).toBe(1);
    expect(fs.readFileSync(journalFile, "utf8")).toContain(`${other} <mail-${other}.`);

    // The state a crash right after the SMTP server's "250 accepted" leaves: the job running, its
    // worker gone, the acceptance in the journal, the database not told.
    const id = await mail.send({ to: "accepted@example.com", template: "welcome", locale: "fr", params: {} });
    const jobId = await jobIdOf(id);
    await db.execute(
      sql`UPDATE jobs SET status = 'running', attempts = 1, locked_at = ${clock().toISOString()}::timestamptz
          WHERE id = ${jobId}`,
    );
    fs.appendFileSync(journalFile, `${id} <mail-${id}.accepted@dossard.test>\n`);
    smtp.clear();

    advance(STALE_AFTER_MS + 1000);
    expect(await jobs.drain()).toBe(1);
    expect(smtp.messages).toHaveLength(0);
    expect(await messageRow(id)).toMatchObject({ status: "sent", message_id: `<mail-${id}.accepted@dossard.test>` });
    expect(await jobRow(jobId)).toMatchObject({ status: "done", attempts: 2 });
  });

  it("gives each message one Message-ID for all its attempts, so a duplicate is recognisable", async () => {
    const { jobs, mail, advance } = setup();
    smtp.failNext(1);
    const id = await mail.send({ to: "mid@example.com", template: "welcome", locale: "fr", params: {} });
    await jobs.drain();
    advance(retryDelayMs(1));
    await jobs.drain();
    const received = await smtp.waitFor(to("mid@example.com"));
    const [row] = (
      (await db.execute(sql`SELECT created_at FROM mail_messages WHERE id = ${id}`)) as unknown as {
        rows: { created_at: string }[];
      }
    ).rows;
    const expected = stableMessageId({ id, createdAt: new Date(row.created_at) }, "https://dossard.test");
    expect(received.messageId).toBe(expected);
    expect((await messageRow(id)).message_id).toBe(expected);
  });

  it("has several mails in flight at once, up to MAIL_CONCURRENCY, over pooled connections", async () => {
    expect(DEFAULT_MAIL_CONCURRENCY).toBe(8);
    const { jobs, mail } = setup();
    const addresses = Array.from({ length: 20 }, (_, n) => `burst-${n}@example.com`);
    for (const address of addresses) {
      await mail.send({ to: address, template: "welcome", locale: "fr", params: { firstName: "B" } });
    }
    smtp.hold();
    const draining = jobs.drain();
    // Eight messages reach the server and wait there for its answer, all at the same time.
    await smtp.waitForHeld(DEFAULT_MAIL_CONCURRENCY);
    smtp.release();
    expect(await draining).toBe(20);
    expect(smtp.stats.maxInData).toBe(DEFAULT_MAIL_CONCURRENCY);
    expect(smtp.stats.maxConnections).toBeLessThanOrEqual(DEFAULT_MAIL_CONCURRENCY);
    const received = smtp.messages.map((m) => m.to[0]).sort();
    expect(received).toEqual([...addresses].sort());
  });

  it("keeps to a smaller bound when MAIL_CONCURRENCY says so", async () => {
    const { jobs, mail } = setup({ MAIL_CONCURRENCY: 3 });
    for (let n = 0; n < 7; n++) {
      await mail.send({ to: `small-${n}@example.com`, template: "welcome", locale: "en", params: {} });
    }
    smtp.hold();
    const draining = jobs.drain();
    await smtp.waitForHeld(3);
    smtp.release();
    expect(await draining).toBe(7);
    expect(smtp.stats.maxInData).toBe(3);
    expect(smtp.stats.maxConnections).toBeLessThanOrEqual(3);
    expect(smtp.messages).toHaveLength(7);
  });
});

describe("mail without SMTP", () => {
  it("writes an .eml and an .html file to DATA_DIR/mail", async () => {
    const { jobs, mail, config } = setup({ SMTP_URL: undefined });
    const id = await mail.send({
      to: "outbox@example.com",
      template: "changeEmail",
      locale: "fr",
      params: { firstName: "Léa", newEmail: "outbox@example.com" },
      secrets: { code: "55555" },
    });
    await jobs.drain();

    const outbox = path.join(config.dataDir, "mail");
    const files = fs.readdirSync(outbox).sort();
    const base = `2026-03-02T08-00-00.000Z-${id}-changeEmail`;
    expect(files).toEqual([`${base}.eml`, `${base}.html`]);
    expect(await messageRow(id)).toMatchObject({ status: "sent", message_id: `${base}.eml` });

    const parsed = await PostalMime.parse(fs.readFileSync(path.join(outbox, `${base}.eml`)));
    expect(parsed.subject).toBe("Confirmez votre nouvelle adresse e-mail");
    expect(parsed.to?.[0]).toMatchObject({ address: "outbox@example.com" });
    expect(parsed.text).toContain("55555");
    const html = fs.readFileSync(path.join(outbox, `${base}.html`), "utf8");
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("55555");
  });
});

describe("sending", () => {
  it("keeps secrets given among the parameters out of the stored row", async () => {
    const { mail } = setup();
    const id = await mail.send({
      to: "p@example.com",
      template: "verifyEmail",
      locale: "fr",
      params: { firstName: "P", code: "12121" },
    });
    expect((await messageRow(id)).params).toEqual({ firstName: "P" });
    expect((await jobRow(await jobIdOf(id))).payload).toEqual({ messageId: id, secrets: { code: "12121" } });
  });

  it("refuses unknown templates, missing parameters and bad recipients before writing anything", async () => {
    const { mail } = setup();
    const before = await mail.listMessages({ limit: 1, offset: 0 });
    await expect(
      mail.send({ to: "a@example.com", template: "nope", locale: "fr", params: { firstName: "A" } }),
    ).rejects.toThrow(/Unknown mail template/);
    await expect(
      mail.send({ to: "a@example.com", template: "verifyEmail", locale: "fr", params: { firstName: "A" } }),
    ).rejects.toThrow(/"code"/);
    await expect(
      mail.send({ to: "a@example.com\r\nBcc: b@example.com", template: "welcome", locale: "fr", params: {} }),
    ).rejects.toThrow(/recipient/);
    expect((await mail.listMessages({ limit: 1, offset: 0 })).total).toBe(before.total);
  });

  it("joins the caller's transaction: a rollback leaves neither message nor job", async () => {
    const { mail } = setup();
    const before = await mail.listMessages({ limit: 1, offset: 0 });
    await expect(
      db.transaction(async (tx) => {
        await mail.send({ to: "tx@example.com", template: "welcome", locale: "fr", params: { firstName: "T" }, tx });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await mail.listMessages({ limit: 1, offset: 0 })).total).toBe(before.total);
    const jobsLeft = (await db.execute(
      sql`SELECT count(*)::int AS n FROM jobs WHERE queue = ${MAIL_QUEUE}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(jobsLeft.rows[0].n).toBe(0);
  });

  it("lists messages newest first, with the total", async () => {
    const { mail, advance } = setup();
    const first = await mail.send({ to: "l1@example.com", template: "welcome", locale: "fr", params: {} });
    advance(1000);
    const second = await mail.send({ to: "l2@example.com", template: "accountDisabled", locale: "en", params: {} });
    const page = await mail.listMessages({ limit: 2, offset: 0 });
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.items.map((m) => m.id)).toEqual([second, first]);
    expect(page.items[0]).toMatchObject({
      recipient: "l2@example.com",
      template: "accountDisabled",
      status: "queued",
      subject: "Your Dossard account has been disabled",
    });
    const next = await mail.listMessages({ limit: 1, offset: 1 });
    expect(next.items[0].id).toBe(first);
  });
});
