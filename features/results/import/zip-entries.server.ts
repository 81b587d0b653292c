/**
 * The entries of a zip archive (an XLSX file is one) read within limits, before any library sees
 * them: a 207 KB XLSX can hold a 200 MB shared string (issue 25 §2), which the XLSX reader would
 * inflate, decode and parse whole.
 *
 * The central directory is read first: encrypted or ZIP64 archives, methods other than stored and
 * deflate, and declared sizes over the budget are refused before anything is inflated. Each entry
 * kept is then inflated by zlib with `maxOutputLength` set to its declared size, so an entry that
 * lies about its size stops there, and its CRC-32 is checked. `storedZip` makes them a new
 * archive whose entries are stored (not compressed): the XLSX reader then reads exactly what was
 * checked here, whatever else the original archive's local headers said.
 */
import zlib from "node:zlib";

/** Why an archive is refused: it is not a readable zip, or it unpacks to more than the budget. */
export class ZipRefusal extends Error {
  constructor(readonly reason: "damaged" | "tooLarge") {
    super(`zip archive refused: ${reason}`);
  }
}

export type ZipLimits = {
  /** The total of the kept entries' sizes once inflated. */
  maxUnpackedBytes: number;
  /** Entries in the central directory (kept or not). */
  maxEntries: number;
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The end of central directory record: searched backwards over its longest possible comment. */
function endOfCentralDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === EOCD) return at;
  }
  throw new ZipRefusal("damaged");
}

type Entry = { name: string; method: number; crc: number; packed: number; size: number; local: number };

function centralDirectory(zip: Buffer, limits: ZipLimits): Entry[] {
  const end = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  // ZIP64 (more than 65,535 entries or 4 GB) has no place in a results file.
  if (count === 0xffff || at === 0xffffffff) throw new ZipRefusal("damaged");
  if (count > limits.maxEntries) throw new ZipRefusal("tooLarge");
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL) throw new ZipRefusal("damaged");
    const nameLength = zip.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (next > zip.length) throw new ZipRefusal("damaged");
    // Bit 0: encrypted (a protected workbook).
    if (zip.readUInt16LE(at + 8) & 1) throw new ZipRefusal("damaged");
    entries.push({
      name: zip.toString("utf8", at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      packed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      local: zip.readUInt32LE(at + 42),
    });
    at = next;
  }
  return entries;
}

function inflated(zip: Buffer, entry: Entry): Buffer {
  const at = entry.local;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL) throw new ZipRefusal("damaged");
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.packed > zip.length) throw new ZipRefusal("damaged");
  const data = zip.subarray(start, start + entry.packed);
  let content: Buffer;
  if (entry.method === 0) content = data;
  else if (entry.method === 8) {
    try {
      // Never more than the size the directory declared (and counted against the budget).
      content = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
    } catch {
      throw new ZipRefusal("damaged");
    }
  } else throw new ZipRefusal("damaged");
  if (content.length !== entry.size || zlib.crc32(content) !== entry.crc) throw new ZipRefusal("damaged");
  return content;
}

/**
 * The entries `keep` selects, inflated within the limits, in the archive's order. Throws
 * ZipRefusal.
 */
export function unzipBounded(
  bytes: Uint8Array,
  keep: (name: string) => boolean,
  limits: ZipLimits,
): { name: string; content: Buffer }[] {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = centralDirectory(zip, limits).filter((entry) => keep(entry.name));
  if (new Set(entries.map((entry) => entry.name)).size !== entries.length) throw new ZipRefusal("damaged");
  // The declared sizes first: an honest bomb is refused without inflating a byte.
  const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > limits.maxUnpackedBytes) throw new ZipRefusal("tooLarge");
  return entries.map((entry) => ({ name: entry.name, content: inflated(zip, entry) }));
}

/** One entry of an archive to write: its bytes as stored (`method` 0) or deflated (8). */
export type ZipEntry = { name: string; data: Buffer; method: 0 | 8; crc: number; size: number };

/** A zip archive of the entries given, their sizes and checksums as given. */
export function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, method, crc, size } of entries) {
    const fileName = Buffer.from(name, "utf8");
    // The fields local headers and the central directory share, from "version needed" on.
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0); // version needed: 2.0
    common.writeUInt16LE(0x0800, 2); // names in UTF-8
    common.writeUInt16LE(method, 4);
    common.writeUInt32LE(crc, 10);
    common.writeUInt32LE(data.length, 14);
    common.writeUInt32LE(size, 18);
    common.writeUInt16LE(fileName.length, 22);
    const local = Buffer.alloc(4);
    local.writeUInt32LE(LOCAL, 0);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    common.copy(central, 6);
    central.writeUInt32LE(offset, 42);
    locals.push(local, common, fileName, data);
    centrals.push(central, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(EOCD, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A zip archive of stored entries (no compression), as every zip reader reads it. */
export function storedZip(files: { name: string; content: Buffer }[]): Buffer {
  return zipArchive(
    files.map(({ name, content }) => ({
      name,
      data: content,
      method: 0,
      crc: zlib.crc32(content),
      size: content.length,
    })),
  );
}
