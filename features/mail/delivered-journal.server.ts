/**
 * A local record of the messages the SMTP server accepted, written synchronously the moment its
 * answer is read: the one window where a mail could go out twice — the server accepted it, then
 * the process died before the database said "sent" — is as long as the wait for the database,
 * tens of milliseconds when it is busy (PGlite shares one connection with every request). A job
 * taken over after a crash looks here first: a message found is marked sent, not sent again. The
 * window left is the time between the SMTP answer reaching the socket and this line being written.
 *
 * One line per message, "<message row id> <Message-ID>", in DATA_DIR/mail-delivered.log; the file
 * is cut back to its last lines when it grows past MAX_BYTES (only recent deliveries matter: a job
 * is taken over 30 s after its process died). Local to the process's data folder: with several
 * instances on one PostgreSQL, a takeover by another instance does not see it, and delivery stays
 * at least once (with the same Message-ID, see mail.service.server.ts).
 */
import fs from "node:fs";
import path from "node:path";

const MAX_BYTES = 1 << 20;
const KEEP_LINES = 5_000;

export type DeliveredJournal = {
  /** Records that the message of row `id` was accepted with this Message-ID. Synchronous. */
  add(id: number, messageId: string): void;
  /** The Message-ID the message of row `id` was accepted with, if recorded. */
  find(id: number): string | undefined;
};

export function deliveredJournal(dataDir: string): DeliveredJournal {
  const file = path.join(dataDir, "mail-delivered.log");
  let size = -1;
  const compact = () => {
    const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    fs.writeFileSync(file, `${lines.slice(-KEEP_LINES).join("\n")}\n`);
    size = fs.statSync(file).size;
  };
  return {
    add(id, messageId) {
      if (size < 0) {
        fs.mkdirSync(dataDir, { recursive: true });
        size = fs.existsSync(file) ? fs.statSync(file).size : 0;
      }
      const line = `${id} ${messageId.replace(/\s/g, "")}\n`;
      fs.appendFileSync(file, line);
      size += Buffer.byteLength(line);
      if (size > MAX_BYTES) compact();
    },
    find(id) {
      if (!fs.existsSync(file)) return undefined;
      const prefix = `${id} `;
      const lines = fs.readFileSync(file, "utf8").split("\n");
      for (let i = lines.length - 1; i >= 0; i--) {
        if (lines[i].startsWith(prefix)) return lines[i].slice(prefix.length);
      }
      return undefined;
    },
  };
}
