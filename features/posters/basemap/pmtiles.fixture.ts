/**
 * Test-only PMTiles v3 writer (no npm package writes the format; decision 039), written from the
 * specification (github.com/protomaps/PMTiles, spec/v3/spec.md) and NOT from the reader we use:
 * the Hilbert tile ids, varints and columnar directories are coded here again. The tests check its
 * archives with the `pmtiles` package's own reader before anything else reads them.
 * Also: archives of the tiles tile-server.fixture.ts serves, and a local HTTP server that honours
 * Range requests (or, on demand, ignores them or goes down).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { demTile, mvtTile, satTile } from "./tile-server.fixture.ts";

type Codec = 1 | 2 | 3;
const compress = (data: Uint8Array, codec: Codec): Buffer =>
  codec === 2 ? gzipSync(data) : codec === 3 ? brotliCompressSync(data) : Buffer.from(data);

export type ArchiveTile = { z: number; x: number; y: number; data: Uint8Array };
export type WriteOptions = {
  /** Spec: 1 MVT, 2 PNG, 3 JPEG, 4 WebP. */
  tileType: number;
  /** Spec: 1 none, 2 gzip, 3 brotli (the tiles and, for internal, the directories and metadata). */
  tileCompression: Codec;
  internalCompression: Codec;
  minZoom: number;
  maxZoom: number;
  /** West, south, east, north in degrees. */
  bounds: [number, number, number, number];
  metadata: Record<string, unknown>;
  /** Entries per leaf directory; unset: every entry in the root. */
  leafSize?: number;
};

/** The spec's tile id: tiles of lower zooms first, then the position on zoom z's Hilbert curve. */
export function hilbertTileId(z: number, x: number, y: number): number {
  let base = 0;
  for (let k = 0; k < z; k++) base += 4 ** k;
  const n = 2 ** z;
  let d = 0;
  let px = x;
  let py = y;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (px & s) > 0 ? 1 : 0;
    const ry = (py & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        px = n - 1 - px;
        py = n - 1 - py;
      }
      [px, py] = [py, px];
    }
  }
  return base + d;
}

function varint(out: number[], value: number) {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

type Entry = { tileId: number; offset: number; length: number; runLength: number };

/** Spec "Directory Serialization": count, delta ids, run lengths, lengths, zeroed offsets. */
function serializeDirectory(entries: Entry[], compression: Codec): Buffer {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    varint(out, i > 0 && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  const raw = Buffer.from(out);
  return compress(raw, compression);
}

export function writePmtiles(tiles: ArchiveTile[], o: WriteOptions): Buffer {
  const sorted = tiles
    .map((t) => ({ id: hilbertTileId(t.z, t.x, t.y), data: compress(t.data, o.tileCompression) }))
    .sort((a, b) => a.id - b.id);
  // Identical contents stored once; consecutive ids of one content make one run.
  const blobs: Buffer[] = [];
  const byHash = new Map<string, { offset: number; length: number }>();
  let dataLength = 0;
  const entries: Entry[] = [];
  for (const t of sorted) {
    const hash = createHash("sha256").update(t.data).digest("hex");
    let blob = byHash.get(hash);
    if (!blob) {
      blob = { offset: dataLength, length: t.data.length };
      byHash.set(hash, blob);
      blobs.push(Buffer.from(t.data));
      dataLength += t.data.length;
    }
    const prev = entries.at(-1);
    if (prev && prev.offset === blob.offset && prev.tileId + prev.runLength === t.id) prev.runLength++;
    else entries.push({ tileId: t.id, offset: blob.offset, length: blob.length, runLength: 1 });
  }
  let root: Buffer;
  let leaves = Buffer.alloc(0);
  if (o.leafSize && entries.length > o.leafSize) {
    const leafBuffers: Buffer[] = [];
    const rootEntries: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += o.leafSize) {
      const chunk = entries.slice(i, i + o.leafSize);
      const leaf = serializeDirectory(chunk, o.internalCompression);
      rootEntries.push({ tileId: chunk[0].tileId, offset, length: leaf.length, runLength: 0 });
      leafBuffers.push(leaf);
      offset += leaf.length;
    }
    root = serializeDirectory(rootEntries, o.internalCompression);
    leaves = Buffer.concat(leafBuffers);
  } else root = serializeDirectory(entries, o.internalCompression);
  const json = Buffer.from(JSON.stringify(o.metadata));
  const metadata = compress(json, o.internalCompression);

  const header = Buffer.alloc(127);
  header.write("PMTiles", 0, "ascii");
  header.writeUInt8(3, 7);
  const rootOffset = 127;
  const metadataOffset = rootOffset + root.length;
  const leafOffset = metadataOffset + metadata.length;
  const dataOffset = leafOffset + leaves.length;
  const u64 = (at: number, value: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, leafOffset);
  u64(48, leaves.length);
  u64(56, dataOffset);
  u64(64, dataLength);
  u64(72, sorted.length);
  u64(80, entries.length);
  u64(88, blobs.length);
  header.writeUInt8(1, 96); // clustered: blobs in tile id order
  header.writeUInt8(o.internalCompression, 97);
  header.writeUInt8(o.tileCompression, 98);
  header.writeUInt8(o.tileType, 99);
  header.writeUInt8(o.minZoom, 100);
  header.writeUInt8(o.maxZoom, 101);
  const e7 = (at: number, deg: number) => header.writeInt32LE(Math.round(deg * 1e7), at);
  e7(102, o.bounds[0]);
  e7(106, o.bounds[1]);
  e7(110, o.bounds[2]);
  e7(114, o.bounds[3]);
  header.writeUInt8(o.minZoom, 118);
  e7(119, (o.bounds[0] + o.bounds[2]) / 2);
  e7(123, (o.bounds[1] + o.bounds[3]) / 2);
  if (127 + root.length > 16_384) throw new Error("root directory over 16 KiB: set leafSize");
  return Buffer.concat([header, root, metadata, leaves, ...blobs]);
}

/** Slippy-map tile numbers (OpenStreetMap wiki). */
function tileAt(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return [Math.floor(((lng + 180) / 360) * n), Math.floor(((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * n)];
}

export type FixtureKind = "mvt" | "terrarium" | "mapbox" | "sat";

/** The tiles tile-server.fixture.ts serves for `kind`, at every zoom of the range over the box. */
export async function fixtureTiles(
  kind: FixtureKind,
  bounds: [number, number, number, number],
  minZoom: number,
  maxZoom: number,
): Promise<ArchiveTile[]> {
  const out: ArchiveTile[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const [x0, y0] = tileAt(bounds[0], bounds[3], z);
    const [x1, y1] = tileAt(bounds[2], bounds[1], z);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const data =
          kind === "mvt" ? mvtTile(z, x, y) : kind === "sat" ? await satTile(x, y) : await demTile(z, x, y, kind);
        if (data) out.push({ z, x, y, data });
      }
  }
  return out;
}

export const FIXTURE_BOUNDS: [number, number, number, number] = [6.8, 45.84, 7.0, 45.96];
const TYPE: Record<FixtureKind, number> = { mvt: 1, terrarium: 2, mapbox: 2, sat: 3 };

/** A whole archive of the fixture's tiles of `kind` (zooms 0–14 by default, vector tiles gzipped). */
export async function fixtureArchive(
  kind: FixtureKind,
  options: Partial<WriteOptions> = {},
): Promise<{ bytes: Buffer; tiles: ArchiveTile[] }> {
  const minZoom = options.minZoom ?? 0;
  const maxZoom = options.maxZoom ?? 14;
  const tiles = await fixtureTiles(kind, FIXTURE_BOUNDS, minZoom, maxZoom);
  const bytes = writePmtiles(tiles, {
    tileType: TYPE[kind],
    tileCompression: kind === "mvt" ? 2 : 1,
    internalCompression: 2,
    bounds: FIXTURE_BOUNDS,
    metadata:
      kind === "terrarium" || kind === "mapbox" ? { name: "test DEM", encoding: kind } : { name: `test ${kind}` },
    ...options,
    minZoom,
    maxZoom,
  });
  return { bytes, tiles };
}

export type RangeServer = {
  url: (name: string) => string;
  /** Every request: its Range header and the status answered. */
  requests: { range: string | undefined; status: number }[];
  /** While true, every request answers 500. */
  down: boolean;
  /** While true, Range headers are ignored (200 with the whole file). */
  ignoreRange: boolean;
  close: () => Promise<void>;
};

/**
 * Serves `files` by name (/name.pmtiles), honouring single byte ranges as RFC 9110 says, with a
 * strong ETag of the content; `files` is read on each request (a test may replace an archive).
 */
export async function startRangeServer(files: Record<string, Buffer>): Promise<RangeServer> {
  const state = { down: false, ignoreRange: false };
  const requests: RangeServer["requests"] = [];
  const server = http.createServer((req, res) => {
    const answer = (status: number, headers: Record<string, string | number> = {}, body?: Buffer) => {
      requests.push({ range: req.headers.range, status });
      res.writeHead(status, headers).end(body);
    };
    const file = files[(req.url ?? "").replace(/^\//, "").replace(/\.pmtiles$/, "")];
    if (state.down) return answer(500);
    if (!file) return answer(404);
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    const etag = `"${createHash("sha1").update(file).digest("hex")}"`;
    if (!m || state.ignoreRange) return answer(200, { "content-length": file.length, etag }, file);
    const start = Number(m[1]);
    const end = Math.min(file.length - 1, m[2] ? Number(m[2]) : file.length - 1);
    if (start >= file.length) return answer(416, { "content-range": `bytes */${file.length}` });
    return answer(
      206,
      { "content-range": `bytes ${start}-${end}/${file.length}`, "content-length": end - start + 1, etag },
      file.subarray(start, end + 1),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}.pmtiles`,
    requests,
    get down() {
      return state.down;
    },
    set down(v: boolean) {
      state.down = v;
    },
    get ignoreRange() {
      return state.ignoreRange;
    },
    set ignoreRange(v: boolean) {
      state.ignoreRange = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
