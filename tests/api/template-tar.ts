/**
 * The API tests' template database is a PGlite data directory dumped as a tar (global-setup.ts),
 * which every test file loads (about a second each, most of it copying bytes into PGlite's memory
 * file system). After a checkpoint, PostgreSQL needs only the WAL segment holding it: the others in
 * pg_wal are spare segments kept for reuse (16 MB each, 64 MB of the 119 MB tar), which it makes
 * again when it needs them. This drops them from the tar.
 */

const BLOCK = 512;
const SEGMENT = /^(?:\.\/|\/)?pg_wal\/([0-9A-F]{24})$/;

function text(block: Uint8Array, start: number, length: number): string {
  const bytes = block.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/** A ustar archive without the WAL segments other than `keep` (a 24-hex-digit segment name). */
export function withoutSpareWalSegments(tar: Uint8Array, keep: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const prefix = text(header, 345, 155);
    const name = prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100);
    const size = Number.parseInt(text(header, 124, 12).trim() || "0", 8);
    const span = BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const segment = SEGMENT.exec(name)?.[1];
    if (!segment || segment === keep) parts.push(tar.subarray(offset, offset + span));
    offset += span;
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
