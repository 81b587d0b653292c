/**
 * Outgoing mail. `send()` records the message in `mail_messages` and enqueues a `mail.send` job in
 * the same transaction; the job renders and delivers it — over SMTP when SMTP_URL is set, else into
 * the outbox folder DATA_DIR/mail — so no request ever waits on a mail server. Up to
 * MAIL_CONCURRENCY messages are delivered at once, over as many pooled SMTP connections.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { count, desc, eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db } from "../../platform/db/client.server.ts";
import type { Locale } from "../../shared/constants.ts";
import type { JobInfo, JobQueue, Tx } from "../jobs/jobs.service.server.ts";
import { deliveredJournal } from "./delivered-journal.server.ts";
import { mailMessages } from "./mail.tables.ts";
import { type MailTemplate, type RenderedMail, renderMail, SECRET_PARAMS } from "./templates.server.ts";

export const MAIL_QUEUE = "mail.send";
/** Tries before a message is marked failed: retries after 5 s, 20 s, 80 s and 320 s. */
export const MAIL_MAX_ATTEMPTS = 5;
/** An SMTP server that does not answer must not hold a job (or the worker) for long. */
const SMTP_TIMEOUT_MS = 10_000;
/** Messages delivered side by side by one process when MAIL_CONCURRENCY is not given. */
export const DEFAULT_MAIL_CONCURRENCY = 8;

export type MailConfig = {
  /** smtp(s)://user:pass@host:port; unset: messages go to the outbox folder. */
  SMTP_URL?: string;
  MAIL_FROM: string;
  /** Messages delivered at once by this process, and pooled SMTP connections (default 8). */
  MAIL_CONCURRENCY?: number;
  PUBLIC_URL: string;
  /** The outbox is `dataDir/mail`. */
  dataDir: string;
};

export type SendMailInput = {
  to: string;
  userId?: number | null;
  /** One of MAIL_TEMPLATES; an unknown name throws (checked at run time, callers may hold a string). */
  template: MailTemplate | (string & {});
  locale: Locale;
  /** Template parameters, stored with the message for the admin's sent-mail list. */
  params: Record<string, unknown>;
  /** Codes and links: merged into the parameters at send time, kept only in the job's payload. */
  secrets?: Record<string, string>;
  /** The caller's transaction: the message exists, and leaves, only if it commits. */
  tx?: Db | Tx;
};

export type MailJobPayload = { messageId: number; secrets: Record<string, string> };

export type MailMessage = typeof mailMessages.$inferSelect;

/** What a delivery needs: the rendered message, its row id, recipient and stable Message-ID. */
type Outgoing = RenderedMail & { id: number; to: string; template: string; messageId: string };
/** Delivers one rendered message; returns the SMTP Message-ID or the outbox file name. */
type Deliver = ((message: Outgoing) => Promise<string>) & { close?: () => void };

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * The Message-ID of a message, the same on every delivery attempt: should a worker die between
 * the SMTP server's acceptance and our "sent" mark, the second copy carries the same Message-ID,
 * which mail servers and clients use to recognise (and drop) duplicates.
 */
export function stableMessageId(message: { id: number; createdAt: Date }, publicUrl: string): string {
  const host = new URL(publicUrl).hostname || "dossard.invalid";
  return `<mail-${message.id}.${message.createdAt.getTime().toString(36)}@${host}>`;
}

function smtpDelivery(smtpUrl: string, from: string, connections: number): Deliver {
  const local = LOCAL_HOSTS.has(new URL(smtpUrl).hostname);
  // One pool of connections reused from message to message (no connection set-up, no TLS
  // handshake per message), as many as messages in flight.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: 3 * SMTP_TIMEOUT_MS,
    // Development and test servers on this machine use self-signed certificates, or none.
    ...(local ? { tls: { rejectUnauthorized: false } } : {}),
  });
  const deliver: Deliver = async ({ to, subject, html, text, replyTo, messageId, headers }) => {
    const info = await transport.sendMail({
      from,
      to,
      replyTo,
      subject,
      html,
      text,
      messageId,
      headers: { ...AUTOMATIC, ...headers },
    });
    return info.messageId;
  };
  deliver.close = () => transport.close();
  return deliver;
}

/** Without SMTP: the raw message as an .eml file and the HTML beside it, to open in a browser. */
function outboxDelivery(dataDir: string, from: string, clock: () => Date): Deliver {
  const outbox = path.join(dataDir, "mail");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return async ({ id, template, to, subject, html, text, replyTo, messageId, headers }) => {
    const info = await transport.sendMail({
      from,
      to,
      replyTo,
      subject,
      html,
      text,
      messageId,
      headers: { ...AUTOMATIC, ...headers },
    });
    // Colons are not allowed in Windows file names.
    const base = `${clock().toISOString().replaceAll(":", "-")}-${id}-${template}`;
    await fs.mkdir(outbox, { recursive: true });
    await fs.writeFile(path.join(outbox, `${base}.eml`), info.message as Buffer);
    await fs.writeFile(path.join(outbox, `${base}.html`), html);
    return `${base}.eml`;
  };
}

/** Tells auto-responders (holiday replies) not to answer. */
const AUTOMATIC = { "Auto-Submitted": "auto-generated" };

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

/** Moves any secret found among the parameters to the secrets, so it is never stored. */
function splitSecrets(params: Record<string, unknown>, secrets: Record<string, string> = {}) {
  const stored: Record<string, unknown> = {};
  const hidden: Record<string, string> = { ...secrets };
  for (const [name, value] of Object.entries(params)) {
    if ((SECRET_PARAMS as readonly string[]).includes(name)) hidden[name] = String(value);
    else stored[name] = value;
  }
  for (const name of Object.keys(secrets)) delete stored[name];
  return { stored, hidden };
}

export function createMailService(options: { db: Db; jobs: JobQueue; config: MailConfig; clock?: () => Date }) {
  const { db, jobs, config } = options;
  const clock = options.clock ?? (() => new Date());
  const context = { publicUrl: config.PUBLIC_URL };
  const concurrency = Math.max(1, config.MAIL_CONCURRENCY ?? DEFAULT_MAIL_CONCURRENCY);
  const journal = deliveredJournal(config.dataDir);
  let deliverer: Deliver | undefined;
  // Created on first use: building an SMTP transport opens nothing, but keeps start-up lean.
  const deliver = (message: Outgoing) => {
    deliverer ??= config.SMTP_URL
      ? smtpDelivery(config.SMTP_URL, config.MAIL_FROM, concurrency)
      : outboxDelivery(config.dataDir, config.MAIL_FROM, clock);
    return deliverer(message);
  };

  /**
   * Records a message and queues its delivery; returns the message id. No network I/O: the
   * rendering is checked here (a missing parameter fails the caller at once), delivery is a job.
   */
  async function send(input: SendMailInput): Promise<number> {
    if (!/^[^\s@]+@[^\s@]+$/.test(input.to)) throw new Error(`Invalid mail recipient "${input.to}"`);
    const { stored, hidden } = splitSecrets(input.params, input.secrets);
    const { subject } = renderMail(input.template, input.locale, { ...stored, ...hidden }, context);
    const record = async (tx: Db | Tx) => {
      const [row] = await tx
        .insert(mailMessages)
        .values({
          recipient: input.to,
          userId: input.userId ?? null,
          template: input.template,
          locale: input.locale,
          subject,
          params: stored,
          createdAt: clock(),
        })
        .returning({ id: mailMessages.id });
      const payload: MailJobPayload = { messageId: row.id, secrets: hidden };
      await jobs.enqueue(MAIL_QUEUE, payload, { tx, maxAttempts: MAIL_MAX_ATTEMPTS });
      return row.id;
    };
    return input.tx ? record(input.tx) : db.transaction(record);
  }

  /** The `mail.send` job: renders the stored message with its secrets and delivers it. */
  async function deliverJob(payload: MailJobPayload, job: JobInfo): Promise<void> {
    const [message] = await db.select().from(mailMessages).where(eq(mailMessages.id, payload.messageId));
    // Gone, or already sent by a run whose process died before marking the job done.
    if (!message || message.status === "sent") return;
    // Another worker took the job over (this one was frozen past the stale delay): it sends.
    if (job.signal.aborted) throw new Error("lease lost before delivery");
    const markSent = (messageId: string) =>
      db
        .update(mailMessages)
        .set({ status: "sent", sentAt: clock(), messageId, error: null, attempts: sql`${mailMessages.attempts} + 1` })
        .where(eq(mailMessages.id, message.id));
    // A run after the first: the process that ran it may have died after the SMTP server accepted
    // the message, before the database heard of it.
    const accepted = job.attempts > 1 ? journal.find(message.id) : undefined;
    if (accepted) {
      await markSent(accepted);
      return;
    }
    try {
      const rendered = renderMail(
        message.template,
        message.locale,
        { ...(message.params as Record<string, unknown>), ...payload.secrets },
        context,
      );
      const messageId = await deliver({
        ...rendered,
        id: message.id,
        to: message.recipient,
        template: message.template,
        messageId: stableMessageId(message, config.PUBLIC_URL),
      });
      // Written in the same tick as the SMTP answer is read, before waiting for the database.
      try {
        journal.add(message.id, messageId);
      } catch {
        // Only a shortcut for takeovers: the database mark below is what counts.
      }
      await markSent(messageId);
    } catch (error) {
      const lastAttempt = job.attempts >= job.maxAttempts;
      await db
        .update(mailMessages)
        .set({
          status: lastAttempt ? "failed" : "queued",
          error: errorText(error),
          attempts: sql`${mailMessages.attempts} + 1`,
        })
        .where(eq(mailMessages.id, message.id));
      throw error;
    }
  }

  /** Hooks delivery into the job queue; call once at start-up. */
  function register(): void {
    jobs.register<MailJobPayload>(MAIL_QUEUE, deliverJob, { concurrency });
  }

  /** Closes the pooled SMTP connections (after the job queue has stopped). */
  function close(): void {
    deliverer?.close?.();
    deliverer = undefined;
  }

  /** Sent and queued messages, newest first, for the admin's sent-mail screen. */
  async function listMessages(page: {
    limit: number;
    offset: number;
  }): Promise<{ items: MailMessage[]; total: number }> {
    const items = await db
      .select()
      .from(mailMessages)
      .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id))
      .limit(page.limit)
      .offset(page.offset);
    const [{ total }] = await db.select({ total: count() }).from(mailMessages);
    return { items, total };
  }

  /** The mail at a glance (the admin dashboard): waiting, and sent or failed in the last day. */
  async function counts(): Promise<{ queued: number; sent24h: number; failed24h: number }> {
    const since = new Date(clock().getTime() - 86_400_000).toISOString();
    const [row] = (
      (await db.execute(
        sql`SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
                   count(*) FILTER (WHERE status = 'sent' AND sent_at >= ${since}::timestamptz)::int AS sent,
                   count(*) FILTER (WHERE status = 'failed' AND created_at >= ${since}::timestamptz)::int AS failed
            FROM mail_messages`,
      )) as unknown as { rows: { queued: number; sent: number; failed: number }[] }
    ).rows;
    return { queued: Number(row?.queued ?? 0), sent24h: Number(row?.sent ?? 0), failed24h: Number(row?.failed ?? 0) };
  }

  return { send, register, listMessages, counts, close };
}

export type MailService = ReturnType<typeof createMailService>;
