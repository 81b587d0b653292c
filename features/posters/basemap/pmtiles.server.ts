/**
 * PMTiles v3 archives as poster map sources (decision 039): a local file (`/data/france.pmtiles`,
 * `file:///…`) read through one file handle, or an http(s) URL read with HTTP Range requests. The
 * format (header, directories, tile ids, compression) is the maintained `pmtiles` package's
 * (protomaps, BSD-3); this file gives it the two byte sources it reads from and checks, once when
 * the archive is opened, what the package leaves to its callers: the magic and spec version, the
 * archive's length against its header, the compressions Node can undo, and the tile type a source
 * needs. An archive that fails those checks is refused with a PmtilesFormatError (its style is then
 * disabled); a read that fails later (network, timeout, a file cut short) throws a plain Error.
 */
import { type FileHandle, open } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliDecompress, gunzip } from "node:zlib";
import {
  Compression,
  type DecompressFunc,
  EtagMismatch,
  type Header,
  PMTiles,
  type RangeResponse,
  ResolvedValueCache,
  type Source,
  TileType,
} from "pmtiles";

const gunzipAsync = promisify(gunzip);
const brotliAsync = promisify(brotliDecompress);

/** What a source is for, and so which tile types it takes. */
export type ArchiveUse = "vector" | "dem" | "imagery";
const ACCEPTED: Record<ArchiveUse, TileType[]> = {
  vector: [TileType.Mvt],
  // Elevation must be lossless (a JPEG's artefacts are metres of error).
  dem: [TileType.Png, TileType.Webp],
  imagery: [TileType.Png, TileType.Jpeg, TileType.Webp],
};
const TYPE_NAMES: Record<number, string> = {
  [TileType.Unknown]: "unknown",
  [TileType.Mvt]: "MVT (vector)",
  [TileType.Png]: "PNG",
  [TileType.Jpeg]: "JPEG",
  [TileType.Webp]: "WebP",
  [TileType.Avif]: "AVIF",
  [TileType.Mlt]: "MLT (vector)",
};
const COMPRESSIONS = new Set<number>([Compression.Unknown, Compression.None, Compression.Gzip, Compression.Brotli]);
const HEADER_BYTES = 127;

/** The archive can never be read as configured (not PMTiles v3, cut short, wrong tile type…). */
export class PmtilesFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PmtilesFormatError";
  }
}

/** A configured location names a PMTiles archive rather than an XYZ template. */
export function isPmtilesLocation(location: string): boolean {
  if (!location || location.includes("{z}")) return false;
  return (
    location.startsWith("file://") || location.startsWith("/") || /\.pmtiles$/i.test(location.replace(/[?#].*$/, ""))
  );
}

/**
 * How a map source is named in messages and default credits: its URL's host (an XYZ template's
 * placeholders, even in the host, left out), or an archive's file name.
 */
export function sourceLabel(location: string): string {
  if (/^https?:\/\//i.test(location)) {
    try {
      return new URL(location.replace(/[{}]/g, "")).host;
    } catch {
      return location;
    }
  }
  return path.basename(location.startsWith("file://") ? fileURLToPath(location) : location);
}

const decompress: DecompressFunc = async (buf, compression) => {
  if (compression === Compression.None || compression === Compression.Unknown) return buf;
  const input = new Uint8Array(buf);
  const out =
    compression === Compression.Gzip
      ? await gunzipAsync(input)
      : compression === Compression.Brotli
        ? await brotliAsync(input)
        : null;
  if (!out) throw new PmtilesFormatError(`compression ${compression} is not supported`);
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
};

/** Bytes of a local archive through one open file handle. */
class FileRangeSource implements Source {
  constructor(
    private readonly handle: FileHandle,
    private readonly key: string,
    readonly size: number,
  ) {}
  getKey() {
    return this.key;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const n = Math.max(0, Math.min(length, this.size - offset));
    const data = new Uint8Array(n);
    const { bytesRead } = n ? await this.handle.read(data, 0, n, offset) : { bytesRead: 0 };
    // The first read asks for 16 KiB whatever the archive's length; any other must be whole.
    if (offset > 0 && bytesRead < length)
      throw new PmtilesFormatError(
        `cut short: bytes ${offset}–${offset + length - 1} asked, the file has ${this.size}`,
      );
    return { data: data.buffer.slice(0, bytesRead) };
  }
}

/** Bytes of a remote archive, one HTTP Range request each, each bounded by the timeout. */
class HttpRangeSource implements Source {
  size: number | null = null;
  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}
  getKey() {
    return this.url;
  }
  async getBytes(offset: number, length: number, signal?: AbortSignal, etag?: string): Promise<RangeResponse> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const response = await fetch(this.url, {
      headers: { range: `bytes=${offset}-${offset + length - 1}` },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (response.status === 200) {
      await response.body?.cancel();
      throw new PmtilesFormatError("the server answers the whole file to a Range request: it must honour HTTP Range");
    }
    if (response.status === 416) throw new PmtilesFormatError(`cut short: nothing at byte ${offset}`);
    if (response.status !== 206) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    // A strong ETag other than the header's: the archive was replaced. The package then reads the
    // header and directories again and retries once (its EtagMismatch), instead of reading new
    // bytes at old offsets.
    const tag = response.headers.get("etag");
    const strong = tag && !tag.startsWith("W/") ? tag : undefined;
    if (etag && strong && strong !== etag) {
      await response.body?.cancel();
      throw new EtagMismatch(`the archive changed (ETag ${etag} → ${strong})`);
    }
    const total = /\/(\d+)\s*$/.exec(response.headers.get("content-range") ?? "");
    if (total) this.size = Number(total[1]);
    const data = await response.arrayBuffer();
    if (offset > 0 && data.byteLength < length)
      throw new PmtilesFormatError(`cut short: ${data.byteLength} bytes at ${offset}, ${length} asked`);
    return { data, etag: strong };
  }
}

export type PmtilesArchive = {
  label: string;
  header: Header;
  /** The archive's JSON metadata (attribution, vector_layers, encoding…); {} when it has none. */
  metadata: Record<string, unknown>;
  /** One tile's bytes, decompressed; null where the archive has none (or outside its zooms). */
  tile: (z: number, x: number, y: number) => Promise<Uint8Array | null>;
  close: () => Promise<void>;
};

/**
 * Opens the archive at `location` for `use`: reads and checks its header, root directory and
 * metadata. Throws PmtilesFormatError for an archive that can never serve this use, a plain Error
 * when it could not be reached (a later open may succeed).
 */
export async function openPmtiles(
  location: string,
  use: ArchiveUse,
  options: { timeoutMs: number },
): Promise<PmtilesArchive> {
  const label = sourceLabel(location);
  let handle: FileHandle | null = null;
  let source: FileRangeSource | HttpRangeSource;
  if (/^https?:\/\//i.test(location)) source = new HttpRangeSource(location, options.timeoutMs);
  else {
    const file = location.startsWith("file://") ? fileURLToPath(location) : location;
    try {
      handle = await open(file, "r");
    } catch (error) {
      throw new PmtilesFormatError(`cannot open ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
    }
    source = new FileRangeSource(handle, file, (await handle.stat()).size);
  }
  try {
    const first = new Uint8Array((await source.getBytes(0, HEADER_BYTES)).data);
    const size = source.size;
    if (first.length < HEADER_BYTES)
      throw new PmtilesFormatError(`cut short: ${first.length} bytes, less than a PMTiles header`);
    const magic = new TextDecoder().decode(first.subarray(0, 7));
    if (magic !== "PMTiles") throw new PmtilesFormatError("not a PMTiles archive (wrong magic number)");
    if (first[7] !== 3) throw new PmtilesFormatError(`PMTiles spec version ${first[7]}: only version 3 is read`);

    const archive = new PMTiles(source, new ResolvedValueCache(400, false, decompress), decompress);
    let header: Header;
    try {
      header = await archive.getHeader();
    } catch (error) {
      if (error instanceof PmtilesFormatError) throw error;
      throw new PmtilesFormatError(`unreadable root directory: ${(error as Error).message}`);
    }
    const end = Math.max(
      header.rootDirectoryOffset + header.rootDirectoryLength,
      header.jsonMetadataOffset + header.jsonMetadataLength,
      header.leafDirectoryOffset + (header.leafDirectoryLength ?? 0),
      header.tileDataOffset + (header.tileDataLength ?? 0),
    );
    if (size != null && size < end)
      throw new PmtilesFormatError(`cut short: ${size} bytes, its header describes ${end}`);
    for (const [what, c] of [
      ["tile", header.tileCompression],
      ["directory", header.internalCompression],
    ] as const)
      if (!COMPRESSIONS.has(c)) throw new PmtilesFormatError(`${what} compression ${Compression[c] ?? c} is not read`);
    if (!ACCEPTED[use].includes(header.tileType)) {
      const wanted = ACCEPTED[use].map((t) => TYPE_NAMES[t]).join(" or ");
      throw new PmtilesFormatError(`holds ${TYPE_NAMES[header.tileType] ?? header.tileType} tiles, ${wanted} needed`);
    }
    let metadata: Record<string, unknown> = {};
    if (header.jsonMetadataLength > 0) {
      try {
        const parsed = await archive.getMetadata();
        if (parsed && typeof parsed === "object") metadata = parsed as Record<string, unknown>;
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        throw new PmtilesFormatError(`unreadable metadata: ${error.message}`);
      }
    }
    return {
      label,
      header,
      metadata,
      tile: async (z, x, y) => {
        if (z < header.minZoom || z > header.maxZoom) return null;
        const found = await archive.getZxy(z, x, y);
        return found ? new Uint8Array(found.data) : null;
      },
      close: async () => {
        await handle?.close();
        handle = null;
      },
    };
  } catch (error) {
    await handle?.close();
    throw error;
  }
}
