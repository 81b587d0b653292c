/**
 * Where uploaded files live. Local disk under DATA_DIR/uploads by default, served at /media (see
 * shared/image-url.ts); an S3-compatible store can implement the same interface later.
 */
import fs from "node:fs/promises";
import path from "node:path";

export interface FileStorage {
  /** Stores bytes under a key such as "user/12-ab3f.webp". */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Keys are folder/name pairs of safe characters only: nothing can escape the root. */
export function isSafeKey(key: string): boolean {
  return /^[a-z]+\/[A-Za-z0-9._-]+$/.test(key) && !key.includes("..");
}

export function localStorage(root: string): FileStorage & { root: string } {
  return {
    root,
    async put(key, data) {
      if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
      const file = path.join(root, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, data);
      await fs.rename(temporary, file);
    },
    async delete(key) {
      if (!isSafeKey(key)) return;
      await fs.rm(path.join(root, key), { force: true });
    },
  };
}
