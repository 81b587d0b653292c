/**
 * Where uploaded files live. Local disk under DATA_DIR/uploads by default, served at /media (see
 * shared/image-url.ts); an S3-compatible store can implement the same interface later.
 */
import fs from "node:fs/promises";
import path from "node:path";

export type StoredFileInfo = { size: number; modifiedAt: Date };

export interface FileStorage {
  /** Stores bytes under a key such as "user/12-ab3f.webp" or "event/123/ab3f.webp". */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Removes a file; a missing file or an unsafe key is not an error. */
  delete(key: string): Promise<void>;
  /** The bytes of a file, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** Size and last write of a file, or null when there is none. */
  stat(key: string): Promise<StoredFileInfo | null>;
}

/** Most folders a key may have below its kind's folder ("event/123/thumbs/x.webp" has two). */
const MAX_SUBFOLDERS = 2;

/**
 * Keys are a lowercase kind folder, at most two sub-folders, then a file name, every part made of
 * safe characters and none starting with a dot: nothing can escape the root or hide a file.
 */
export function isSafeKey(key: string): boolean {
  if (key.length > 300 || key.includes("..")) return false;
  const parts = key.split("/");
  const [folder, ...rest] = parts;
  if (!folder || !/^[a-z]+$/.test(folder)) return false;
  if (rest.length < 1 || rest.length > MAX_SUBFOLDERS + 1) return false;
  return rest.every((part) => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(part));
}

function missing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

export function localStorage(root: string): FileStorage & { root: string } {
  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    root,
    async put(key, data) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        await fs.writeFile(temporary, data);
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    async delete(key) {
      if (!isSafeKey(key)) return;
      await fs.rm(path.join(root, key), { force: true });
    },
    async read(key) {
      if (!isSafeKey(key)) return null;
      try {
        return await fs.readFile(path.join(root, key));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      if (!isSafeKey(key)) return null;
      try {
        const info = await fs.stat(path.join(root, key));
        return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
  };
}
