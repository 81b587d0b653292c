/**
 * Reading the log files newest first: each file from its end, by chunks, so a search holds one
 * chunk and the lines it needs — never a whole file — and stops as soon as its page is full (or
 * its time range is behind it).
 */
import fs from "node:fs/promises";

export const READ_CHUNK_BYTES = 64 * 1024;

/**
 * The lines of a file, last first, as they were when reading began (lines appended meanwhile are
 * left for the next read). Splits on the newline byte, which never occurs inside a UTF-8
 * character, so a character cut between two chunks is joined again before decoding.
 */
export async function* linesBackwards(
  file: string,
  chunkBytes = READ_CHUNK_BYTES,
  /** Counts the bytes read from disk (tests check that a search reads only what it needs). */
  counter?: { bytes: number },
): AsyncGenerator<string> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (error) {
    // Rotated away between listing and opening: nothing left to read there.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    let position = (await handle.stat()).size;
    let carry: Buffer = Buffer.alloc(0);
    const buffer = Buffer.alloc(chunkBytes);
    while (position > 0) {
      const length = Math.min(chunkBytes, position);
      position -= length;
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (counter) counter.bytes += bytesRead;
      const block = Buffer.concat([buffer.subarray(0, bytesRead), carry]);
      let end = block.length;
      while (end > 0) {
        const at = block.lastIndexOf(0x0a, end - 1);
        if (at === -1) break;
        if (end - at > 1) yield block.toString("utf8", at + 1, end);
        end = at;
      }
      // The start of a line whose beginning is in the chunk before (a copy: the buffer is reused).
      carry = Buffer.from(block.subarray(0, end));
    }
    if (carry.length > 0) yield carry.toString("utf8");
  } finally {
    await handle.close();
  }
}

/** The lines of several files, newest first: each file from its end, the files in the order given. */
export async function* linesOfFilesBackwards(
  files: readonly string[],
  options: { chunkBytes?: number; skipFile?: (file: string) => Promise<boolean>; counter?: { bytes: number } } = {},
): AsyncGenerator<string> {
  for (const file of files) {
    if (await options.skipFile?.(file)) continue;
    yield* linesBackwards(file, options.chunkBytes, options.counter);
  }
}
