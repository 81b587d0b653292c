import http from "node:http";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import { type ReceivedMail, startTestSmtpServer } from "../support/smtp-server.ts";

/**
 * The journeys' mail: one real SMTP server (tests/support/smtp-server.ts) that the shared journey
 * server sends through, started by the global setup, and a small HTTP window on what it received
 * so that the journeys — which run in other processes — can read it.
 *
 *   const before = await mailbox.count();
 *   … the page sends a mail …
 *   const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.index >= before);
 *
 * Journeys share the server and its mailbox: give `waitFor` a predicate on the recipient (each
 * journey registers its own addresses) and, for a second mail to the same address, on `index`.
 */
export type Mail = ReceivedMail & {
  /** Position among every message the journeys' SMTP server accepted, from 0. */
  index: number;
};

/** Global setup side: the SMTP server and its HTTP window. */
export async function startMailbox(): Promise<{ smtpUrl: string; mailboxUrl: string; close(): Promise<void> }> {
  const smtp = await startTestSmtpServer();
  const window = http.createServer((request, response) => {
    const from = Number(new URL(request.url ?? "/", "http://mailbox").searchParams.get("from") ?? 0);
    const mails = smtp.messages.slice(from).map((mail, offset) => ({ ...mail, index: from + offset }));
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ count: smtp.messages.length, mails }));
  });
  await new Promise<void>((resolve) => window.listen(0, "127.0.0.1", resolve));
  const { port } = window.address() as AddressInfo;
  return {
    smtpUrl: smtp.url,
    mailboxUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise((resolve) => window.close(resolve));
      await smtp.close();
    },
  };
}

async function read(from: number): Promise<{ count: number; mails: Mail[] }> {
  const response = await fetch(`${inject("mailboxUrl")}/?from=${from}`);
  if (!response.ok) throw new Error(`mailbox answered ${response.status}`);
  return (await response.json()) as { count: number; mails: Mail[] };
}

/** Journey side: what the shared server's SMTP server received. */
export const mailbox = {
  /** How many messages were received so far (a mark for `index >= mark`). */
  async count(): Promise<number> {
    return (await read(Number.MAX_SAFE_INTEGER)).count;
  },
  /** Every message received so far, oldest first. */
  async messages(): Promise<Mail[]> {
    return (await read(0)).mails;
  },
  /** The first message (received already or still to come) that matches; rejects after timeoutMs. */
  async waitFor(predicate: (mail: Mail) => boolean, timeoutMs = 15_000): Promise<Mail> {
    const deadline = Date.now() + timeoutMs;
    let from = 0;
    for (;;) {
      const { mails } = await read(from);
      const found = mails.find(predicate);
      if (found) return found;
      from += mails.length;
      if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  },
};
