/**
 * A real SMTP server for tests, on 127.0.0.1 and a free port, that keeps every message it accepts.
 *
 *   const smtp = await startTestSmtpServer();
 *   const config = loadConfig({ …, SMTP_URL: smtp.url });
 *   … something sends mail through the job queue …
 *   const mail = await smtp.waitFor((m) => m.to.includes("ana@example.com"));
 *   expect(mail.text).toContain("12345");
 *   await smtp.close();
 *
 * Plain SMTP (no TLS, no STARTTLS); any AUTH login is accepted, so SMTP URLs with or without
 * credentials both work. `failNext(n)` makes the next n messages fail with a temporary error
 * (451) after their data was sent, as a busy server would. When several tests share one server,
 * give `waitFor` a predicate on the recipient.
 *
 * Concurrency is observable: `stats` counts connections and messages being received at the same
 * moment (and their maximum since the last `clear()`), and `hold()` keeps every message's final
 * answer back until `release()`, so that a test can see how many clients pile up at once.
 */
import type { AddressInfo } from "node:net";
import PostalMime, { type Address } from "postal-mime";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** SMTP envelope: MAIL FROM and RCPT TO addresses. */
  envelope: { from: string; to: string[] };
  /** Address of the From header. */
  from: string;
  /** Addresses of the To header. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Header values by lower-case name (the first one when a header repeats). */
  headers: Record<string, string>;
  /** The message as received. */
  raw: string;
  /** User name given with AUTH, if any. */
  user?: string;
};

export type TestSmtpServer = {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  /** Messages received so far, oldest first. */
  messages: ReceivedMail[];
  /** The first message (already received or still to come) that matches; rejects after timeoutMs. */
  waitFor(predicate?: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Rejects the next `count` messages: 451 (temporary) by default, or the code given (e.g. 550). */
  failNext(count: number, options?: { code?: number; message?: string }): void;
  /** Open connections and messages being received now, and the most at once since `clear()`. */
  stats: { connections: number; maxConnections: number; inData: number; maxInData: number; held: number };
  /** From now on each message waits, after its data, for `release()` before it is accepted. */
  hold(): void;
  /** Answers every held message and stops holding. */
  release(): void;
  /** Resolves once `count` messages are held at the same time; rejects after timeoutMs. */
  waitForHeld(count: number, timeoutMs?: number): Promise<void>;
  /** Forgets the messages received so far and the maxima of `stats`. */
  clear(): void;
  close(): Promise<void>;
};

const TEMPORARY_FAILURE = "Temporary failure, try again later (test server)";

type Waiter = { predicate: (mail: ReceivedMail) => boolean; resolve(mail: ReceivedMail): void };

const mailboxAddresses = (addresses: Address[] | Address | undefined): string[] =>
  (Array.isArray(addresses) ? addresses : addresses ? [addresses] : []).flatMap((entry) =>
    entry.group ? entry.group.map((member) => member.address) : [entry.address],
  );

export type TestSmtpServerOptions = {
  /** Answers each message this long after its data, as a distant mail relay would (default 0). */
  answerDelayMs?: number;
};

export async function startTestSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let waiters: Waiter[] = [];
  let failures = 0;
  let failure = { code: 451, message: TEMPORARY_FAILURE };
  const stats = { connections: 0, maxConnections: 0, inData: 0, maxInData: 0, held: 0 };
  let holding = false;
  let heldAnswers: (() => void)[] = [];
  let heldWatchers: (() => void)[] = [];

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    banner: "Dossard test SMTP server",
    // Connections left open by pooled clients must not hold close() for the default 30 s.
    closeTimeout: 500,
    onConnect(_session, callback) {
      stats.connections++;
      stats.maxConnections = Math.max(stats.maxConnections, stats.connections);
      callback();
    },
    onClose() {
      stats.connections--;
    },
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "test" });
    },
    onData(stream, session, done) {
      stats.inData++;
      stats.maxInData = Math.max(stats.maxInData, stats.inData);
      const callback = (error?: Error | null) => {
        stats.inData--;
        done(error);
      };
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", callback);
      stream.on("end", async () => {
        if (options.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, options.answerDelayMs));
        if (holding) {
          await new Promise<void>((resolve) => {
            heldAnswers.push(resolve);
            stats.held++;
            for (const watcher of heldWatchers) watcher();
          });
          stats.held--;
        }
        if (failures > 0) {
          failures--;
          callback(Object.assign(new Error(failure.message), { responseCode: failure.code }));
          return;
        }
        try {
          const raw = Buffer.concat(chunks);
          const parsed = await PostalMime.parse(raw);
          const headers: Record<string, string> = {};
          for (const header of parsed.headers) headers[header.key] ??= header.value;
          const mail: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            from: mailboxAddresses(parsed.from)[0] ?? "",
            to: mailboxAddresses(parsed.to),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: parsed.html ?? "",
            messageId: parsed.messageId ?? "",
            headers,
            raw: raw.toString("utf8"),
            user: session.user,
          };
          messages.push(mail);
          const matched = waiters.filter((waiter) => waiter.predicate(mail));
          waiters = waiters.filter((waiter) => !matched.includes(waiter));
          for (const waiter of matched) waiter.resolve(mail);
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // A client that vanishes mid-session (a killed server: bench/fault.ts) is not this server's
  // failure; without a listener the 'error' event would end the process.
  server.on("error", () => {});
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(predicate = () => true, timeoutMs = 15_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          const seen = messages.map((m) => `"${m.subject}" to ${m.to.join(", ")}`).join("; ") || "none";
          reject(new Error(`No matching mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    failNext(count, options = {}) {
      failures = count;
      failure = { code: options.code ?? 451, message: options.message ?? TEMPORARY_FAILURE };
    },
    stats,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      const answers = heldAnswers;
      heldAnswers = [];
      for (const answer of answers) answer();
    },
    waitForHeld(count, timeoutMs = 15_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (stats.held < count) return;
          clearTimeout(timer);
          heldWatchers = heldWatchers.filter((w) => w !== check);
          resolve();
        };
        const timer = setTimeout(() => {
          heldWatchers = heldWatchers.filter((w) => w !== check);
          reject(new Error(`${stats.held} messages held after ${timeoutMs} ms, expected ${count}`));
        }, timeoutMs);
        heldWatchers.push(check);
        check();
      });
    },
    clear() {
      messages.length = 0;
      stats.maxConnections = stats.connections;
      stats.maxInData = stats.inData;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
