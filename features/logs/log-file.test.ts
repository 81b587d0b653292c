import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { searchAppLogs } from "./app-logs.server.ts";
import { createLogFile, logFiles } from "./log-file.server.ts";
import { linesBackwards, linesOfFilesBackwards } from "./log-reader.server.ts";
import { appLogsQuerySchema } from "./logs.contract.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-logs-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** A record as pino writes it, padded to a known length. */
const record = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level: 30, time: Date.UTC(2026, 2, 14, 8, 0, 0) + n * 1000, msg: `line ${n}`, ...extra });

describe("the rotating log file", () => {
  it("rotates before a line would pass the size, keeps the number of files asked and drops the oldest", async () => {
    const dir = tempDir();
    const file = createLogFile({ dir, maxBytes: 1024, files: 3 });
    for (let n = 1; n <= 100; n++) file.write(record(n));
    file.close();
    const files = logFiles(dir);
    expect(files.map((f) => path.basename(f))).toEqual(["app.log", "app.1.log", "app.2.log"]);
    for (const f of files) expect(fs.statSync(f).size).toBeLessThanOrEqual(1024);
    // Newest first across the files, without a gap: the oldest lines went with the deleted file.
    const numbers = (await collect(linesOfFilesBackwards(files))).map((line) => JSON.parse(line).time);
    expect(numbers[0]).toBe(Date.UTC(2026, 2, 14, 8, 0, 0) + 100_000);
    for (let i = 1; i < numbers.length; i++) expect(numbers[i - 1] - numbers[i]).toBe(1000);
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers.length).toBeLessThan(100);
  });

  it("appends to the file it finds, and rotates it first when it is already full", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "app.log"), `${"x".repeat(2000)}\n`);
    const file = createLogFile({ dir, maxBytes: 1024, files: 2 });
    file.write(record(1));
    file.close();
    expect(fs.readFileSync(path.join(dir, "app.log"), "utf8")).toBe(`${record(1)}\n`);
    expect(fs.statSync(path.join(dir, "app.1.log")).size).toBe(2001);
  });

  it("never throws on a disk error: drops the line, says so once, and writes again after a pause", () => {
    const dir = tempDir();
    const blocked = path.join(dir, "not-a-folder");
    fs.writeFileSync(blocked, "");
    let now = 0;
    const errors: unknown[] = [];
    const file = createLogFile({
      dir: path.join(blocked, "logs"),
      maxBytes: 4096,
      files: 2,
      retryMs: 1000,
      now: () => now,
      onError: (error) => errors.push(error),
    });
    expect(() => {
      file.write(record(1));
      file.write(record(2));
    }).not.toThrow();
    expect(file.dropped).toBe(2);
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toMatch(/ENOTDIR|EEXIST/);
    // The disk is fixed; after the pause the next line is written.
    fs.rmSync(blocked);
    now = 999;
    file.write(record(3));
    expect(file.dropped).toBe(3);
    now = 1000;
    file.write(record(4));
    file.close();
    expect(fs.readFileSync(path.join(blocked, "logs", "app.log"), "utf8")).toBe(`${record(4)}\n`);
  });
});

describe("reading a log file backwards", () => {
  it("gives the lines last first across chunk boundaries, accented and long lines whole", async () => {
    const dir = tempDir();
    const file = path.join(dir, "app.log");
    const lines = ["premier", "", "éléphant 🐘 très long ".repeat(20), "à", "dernière ligne sans saut"];
    fs.writeFileSync(file, lines.join("\n"));
    for (const chunk of [1, 3, 7, 64, 65_536]) {
      expect(await collect(linesBackwards(file, chunk))).toEqual(lines.filter(Boolean).reverse());
    }
  });

  it("reads a 50 MB file by chunks from its end: the newest page costs a chunk or two, not the file", async () => {
    const dir = tempDir();
    const file = path.join(dir, "app.log");
    const block = `${Array.from({ length: 400 }, (_, n) => record(n, { request: { path: "/course/x" } })).join("\n")}\n`;
    const fd = fs.openSync(file, "w");
    let size = 0;
    while (size < 50 * 1024 * 1024) size += fs.writeSync(fd, block);
    fs.writeSync(fd, `${record(100_000, { level: 50, msg: "the newest error" })}\n`);
    fs.closeSync(fd);

    const counter = { bytes: 0 };
    const first = await searchAppLogs(dir, appLogsQuerySchema.parse({}), { counter });
    expect(first.records).toHaveLength(50);
    expect(first.records[0]?.message).toBe("the newest error");
    expect(first.hasMore).toBe(true);
    expect(first.kept.bytes).toBeGreaterThan(50 * 1024 * 1024);
    expect(counter.bytes).toBeLessThanOrEqual(2 * 64 * 1024);

    // A filter that matches one line: found at the end, within a chunk.
    counter.bytes = 0;
    const errors = await searchAppLogs(dir, appLogsQuerySchema.parse({ level: "error" }), { counter });
    expect(errors.records.map((r) => r.message)).toEqual(["the newest error"]);
    expect(errors.hasMore).toBe(false);
    // …but knowing there is nothing older means reading the whole file, one chunk at a time.
    expect(counter.bytes).toBeGreaterThan(50 * 1024 * 1024);
  });
});
