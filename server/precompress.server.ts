import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { compress } from "../platform/http/page-cache.server.ts";

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|html|webmanifest|map)$/i;
const MIN_BYTES = 1024;

const ENCODINGS = [
  [".br", "br"],
  [".gz", "gzip"],
] as const;

/** Every file below `root`, depth first (the build's folders are small). */
export function* filesBelow(root: string): Generator<string> {
  if (!fs.existsSync(root)) return;
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const file = path.join(root, entry.name);
    if (entry.isDirectory()) yield* filesBelow(file);
    else yield file;
  }
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip -9) beside every compressible file of
 * the client build, once: later starts find them newer than their source and do nothing. The
 * static files (static-files.server.ts) are then sent as they are, instead of compressing each
 * asset again on every request. Returns how many files were compressed.
 */
export function precompressAssets(root: string): number {
  let written = 0;
  for (const file of filesBelow(root)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const source = fs.statSync(file);
    if (source.size < MIN_BYTES) continue;
    let body: Buffer | undefined;
    for (const [extension, encoding] of ENCODINGS) {
      const target = file + extension;
      const existing = fs.statSync(target, { throwIfNoEntry: false });
      if (existing && existing.mtimeMs >= source.mtimeMs) continue;
      body ??= fs.readFileSync(file);
      // Written beside, then renamed: a concurrent start never serves half a file.
      const temporary = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, compress(body, encoding, zlib.constants.BROTLI_MAX_QUALITY));
      fs.renameSync(temporary, target);
      written++;
    }
  }
  return written;
}
