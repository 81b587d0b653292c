/**
 * The server's log kept on disk: JSON lines appended to `<dir>/app.log`, rotated when the next
 * line would take it past `maxBytes` (app.log → app.1.log → … → app.<files-1>.log, the oldest
 * deleted), so at most `files` files of about `maxBytes` each.
 *
 * Every call is synchronous (open, append, rename): a line is on disk, in order, when write()
 * returns, and a rotation never interleaves with a write. A disk error (full, read-only, folder
 * removed) never reaches the caller: the line is dropped, the error told once to `onError`, and
 * writing is tried again after `retryMs`. The lines come already redacted (the logger's stream,
 * server/logging.server.ts); this file only stores them.
 */
import fs from "node:fs";
import path from "node:path";

export const LOG_FILE_NAME = "app";

/** `app.log` (index 0, the one written), `app.1.log` … the older ones. */
export function logFilePath(dir: string, index: number, name = LOG_FILE_NAME): string {
  return path.join(dir, index === 0 ? `${name}.log` : `${name}.${index}.log`);
}

/** The log files of a folder, newest first (app.log, app.1.log, app.2.log…); missing folder: none. */
export function logFiles(dir: string, name = LOG_FILE_NAME): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const pattern = new RegExp(`^${name}(?:\\.(\\d{1,4}))?\\.log$`);
  return entries
    .map((entry) => ({ entry, match: pattern.exec(entry) }))
    .filter((found): found is { entry: string; match: RegExpExecArray } => found.match !== null)
    .map(({ entry, match }) => ({ entry, index: match[1] === undefined ? 0 : Number(match[1]) }))
    .sort((a, b) => a.index - b.index)
    .map(({ entry }) => path.join(dir, entry));
}

export type LogFileOptions = {
  dir: string;
  /** A file is rotated before a line would take it past this size. */
  maxBytes: number;
  /** Files kept, the one being written included (at least 1: then it is emptied when full). */
  files: number;
  name?: string;
  /** Told once per failure (then once more after each recovery and new failure). */
  onError?: (error: unknown) => void;
  /** How long writing pauses after a failure. */
  retryMs?: number;
  now?: () => number;
};

export type LogFile = {
  /** Appends one line (a newline is added when missing); never throws. */
  write(line: string): void;
  /** Lines dropped since the start because the disk refused them. */
  readonly dropped: number;
  close(): void;
};

export function createLogFile(options: LogFileOptions): LogFile {
  const name = options.name ?? LOG_FILE_NAME;
  const files = Math.max(1, Math.floor(options.files));
  const maxBytes = Math.max(1024, Math.floor(options.maxBytes));
  const retryMs = options.retryMs ?? 30_000;
  const now = options.now ?? Date.now;
  const onError =
    options.onError ??
    ((error: unknown) => {
      // Not through the logger: its stream is what failed.
      process.stderr.write(`[dossard] log file ${options.dir}: ${(error as Error)?.message ?? String(error)}\n`);
    });
  let fd: number | null = null;
  let size = 0;
  let pausedUntil = 0;
  let failing = false;
  let dropped = 0;

  const current = () => logFilePath(options.dir, 0, name);

  function open() {
    fs.mkdirSync(options.dir, { recursive: true });
    fd = fs.openSync(current(), "a", 0o640);
    size = fs.fstatSync(fd).size;
  }

  function closeFile() {
    if (fd === null) return;
    const open = fd;
    fd = null;
    try {
      fs.closeSync(open);
    } catch {
      // Already gone: nothing to keep.
    }
  }

  function rotate() {
    closeFile();
    if (files === 1) {
      fs.rmSync(current(), { force: true });
    } else {
      fs.rmSync(logFilePath(options.dir, files - 1, name), { force: true });
      for (let index = files - 2; index >= 0; index--) {
        try {
          fs.renameSync(logFilePath(options.dir, index, name), logFilePath(options.dir, index + 1, name));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
      }
    }
    open();
  }

  function append(bytes: Buffer) {
    let written = 0;
    while (written < bytes.length) {
      written += fs.writeSync(fd as number, bytes, written, bytes.length - written);
    }
    size += bytes.length;
  }

  return {
    write(line: string) {
      if (pausedUntil > now()) {
        dropped++;
        return;
      }
      const bytes = Buffer.from(line.endsWith("\n") ? line : `${line}\n`, "utf8");
      try {
        if (fd === null) open();
        if (size > 0 && size + bytes.length > maxBytes) rotate();
        append(bytes);
        failing = false;
      } catch (error) {
        dropped++;
        closeFile();
        pausedUntil = now() + retryMs;
        if (!failing) {
          failing = true;
          try {
            onError(error);
          } catch {
            // Telling must not fail the caller either.
          }
        }
      }
    },
    get dropped() {
      return dropped;
    },
    close: closeFile,
  };
}
