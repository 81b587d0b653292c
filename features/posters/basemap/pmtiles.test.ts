/**
 * PMTiles archives as poster map sources (decision 039). The archives are written by a test-only
 * writer made from the specification (pmtiles.fixture.ts) and first read back with the `pmtiles`
 * package's own reader; then a basemap built from an archive (a local file, and over HTTP with
 * Range requests) must equal the one built from the XYZ tile server holding the same tiles.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PMTiles, type Source } from "pmtiles";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BasemapUnavailableError, basemapSources } from "./basemap.server.ts";
import { type BBox, degreesToBbox } from "./layer.ts";
import { type ArchiveTile, fixtureArchive, type RangeServer, startRangeServer } from "./pmtiles.fixture.ts";
import { isPmtilesLocation } from "./pmtiles.server.ts";
import { testBasemapConfig as config, startTileServer, type TileServer } from "./tile-server.fixture.ts";

const AREA: BBox = degreesToBbox([6.85, 45.87, 6.95, 45.93]);

let server: TileServer;
let range: RangeServer;
let dir: string;
const archives: Record<string, { bytes: Buffer; tiles: ArchiveTile[] }> = {};
const file = (name: string) => path.join(dir, `${name}.pmtiles`);

beforeAll(async () => {
  server = await startTileServer();
  dir = await mkdtemp(path.join(tmpdir(), "dossard-pmtiles-"));
  archives.mvt = await fixtureArchive("mvt");
  // The elevation archive keeps its entries in leaf directories of 16, to read those too.
  archives.dem = await fixtureArchive("terrarium", { leafSize: 16 });
  archives.sat = await fixtureArchive("sat", { minZoom: 8, maxZoom: 15 });
  archives.dem10 = await fixtureArchive("terrarium", { maxZoom: 10 });
  archives.dem13 = await fixtureArchive("terrarium", { minZoom: 13, maxZoom: 14 });
  // Brotli for the tiles, directories and metadata (the package's own reader has no brotli: ours, Node's zlib).
  archives.brotli = await fixtureArchive("mvt", { tileCompression: 3, internalCompression: 3 });
  archives.rgb = await fixtureArchive("mapbox", {
    minZoom: 10,
    maxZoom: 14,
    metadata: { encoding: "mapbox", attribution: '<a href="https://example.org">&copy; Test terrain</a>' },
  });
  /** A copy of the vector archive with one byte changed (or cut short). */
  const bad = (at: number, value: number) => {
    const bytes = Buffer.from(archives.mvt.bytes);
    bytes.writeUInt8(value, at);
    return { bytes, tiles: [] };
  };
  archives["wrong-magic"] = bad(6, "z".charCodeAt(0)); // "PMTilez"
  archives["wrong-version"] = bad(7, 2);
  archives.zstd = bad(98, 4); // tile compression 4: Zstd
  archives.truncated = { bytes: archives.mvt.bytes.subarray(0, Math.floor(archives.mvt.bytes.length / 2)), tiles: [] };
  for (const [name, { bytes }] of Object.entries(archives)) await writeFile(file(name), bytes);
  range = await startRangeServer(Object.fromEntries(Object.entries(archives).map(([k, v]) => [k, v.bytes])));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await range?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The package's reader over the bytes in memory: nothing of ours between it and the archive. */
const memory = (bytes: Buffer): Source => ({
  getKey: () => "memory",
  getBytes: async (offset, length) => ({
    data: new Uint8Array(bytes.subarray(offset, Math.min(bytes.length, offset + length))).buffer,
  }),
});

describe("the test archives", () => {
  it.each([
    ["mvt", 1, 0, 14],
    ["dem", 2, 0, 14],
    ["sat", 3, 8, 15],
  ] as const)("the pmtiles package reads the %s archive back, tile for tile", async (name, type, minZoom, maxZoom) => {
    const { bytes, tiles } = archives[name];
    const reader = new PMTiles(memory(bytes));
    const header = await reader.getHeader();
    expect(header).toMatchObject({ specVersion: 3, tileType: type, minZoom, maxZoom, numAddressedTiles: tiles.length });
    expect(tiles.length).toBeGreaterThan(20);
    for (const t of tiles) {
      const found = await reader.getZxy(t.z, t.x, t.y);
      expect(found, `${t.z}/${t.x}/${t.y}`).toBeDefined();
      expect(Buffer.from(found?.data ?? new ArrayBuffer(0)).equals(Buffer.from(t.data))).toBe(true);
    }
    // A tile outside the box is in no directory.
    expect(await reader.getZxy(14, 0, 0)).toBeUndefined();
  });

  it("stores the vector tiles gzipped and the elevation tiles as they are, as the headers say", async () => {
    for (const [name, compression, magic] of [
      ["mvt", 2, [0x1f, 0x8b]],
      ["dem", 1, [0x89, 0x50, 0x4e, 0x47]],
    ] as const) {
      const { bytes } = archives[name];
      const header = await new PMTiles(memory(bytes)).getHeader();
      expect(header.tileCompression).toBe(compression);
      expect([...bytes.subarray(header.tileDataOffset, header.tileDataOffset + magic.length)]).toEqual(magic);
    }
  });
});

describe("a basemap from a PMTiles archive", () => {
  it("tells an archive from an XYZ template", () => {
    expect(isPmtilesLocation("/data/france.pmtiles")).toBe(true);
    expect(isPmtilesLocation("file:///data/france.pmtiles")).toBe(true);
    expect(isPmtilesLocation("https://cdn.example/fr.pmtiles?v=2")).toBe(true);
    expect(isPmtilesLocation("https://t.example/{z}/{x}/{y}.pbf")).toBe(false);
    expect(isPmtilesLocation("")).toBe(false);
  });

  const xyz = () =>
    basemapSources(
      config({
        POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf`,
        POSTER_DEM_URL: `${server.origin}/terrarium/{z}/{x}/{y}.png`,
        POSTER_SATELLITE_URL: `${server.origin}/sat/{z}/{x}/{y}.jpg`,
      }),
    );

  it("equals the one built from the tile server, over a local file and over HTTP with Range", async () => {
    const reference = xyz();
    const fromFile = basemapSources(
      config({
        POSTER_TILES_URL: file("mvt"),
        POSTER_DEM_URL: pathToFileURL(file("dem")).href,
        POSTER_SATELLITE_URL: file("sat"),
      }),
    );
    const before = range.requests.length;
    const fromHttp = basemapSources(
      config({
        POSTER_TILES_URL: range.url("mvt"),
        POSTER_DEM_URL: range.url("dem"),
        POSTER_SATELLITE_URL: range.url("sat"),
      }),
    );
    await Promise.all([fromFile.ready, fromHttp.ready]);
    expect(fromFile.sources).toEqual({ tiles: true, dem: true, satellite: true });
    expect(fromHttp.sources).toEqual({ tiles: true, dem: true, satellite: true });
    for (const [style, px] of [
      ["relief-detailed", 800],
      ["relief", 1500],
      ["roads", 1200],
      ["city", 3000],
      ["terrain", 900],
      ["satellite", 1000],
    ] as const) {
      const expected = await reference.build(style, AREA, px);
      expect(expected?.image || expected?.shapes.length, style).toBeTruthy();
      expect(await fromFile.build(style, AREA, px), style).toEqual(expected);
      expect(await fromHttp.build(style, AREA, px), style).toEqual(expected);
    }
    // Every read over HTTP was a Range request answered 206, and far fewer bytes than the archives were read.
    const asked = range.requests.slice(before);
    expect(asked.length).toBeGreaterThan(10);
    expect(asked.every((r) => r.range?.startsWith("bytes=") && r.status === 206)).toBe(true);
    await Promise.all([fromFile.close(), fromHttp.close(), reference.close()]);
  });

  it("takes the elevation's encoding and credit from the archive's metadata when the settings are empty", async () => {
    const reference = basemapSources(config({ POSTER_DEM_URL: `${server.origin}/mapbox/{z}/{x}/{y}.png` }));
    const fromArchive = basemapSources(config({ POSTER_DEM_URL: file("rgb"), POSTER_DEM_CREDIT: "" }));
    const expected = await reference.build("relief-detailed", AREA, 600);
    const layer = await fromArchive.build("relief-detailed", AREA, 600);
    expect(layer?.credits).toEqual(["© Test terrain"]);
    expect({ ...layer, credits: expected?.credits }).toEqual(expected);
  });

  it("reads brotli-compressed tiles and directories", async () => {
    const reference = basemapSources(config({ POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf` }));
    const sources = basemapSources(config({ POSTER_TILES_URL: file("brotli") }));
    expect(archives.brotli.bytes[98]).toBe(3);
    expect(await sources.build("city", AREA, 1200)).toEqual(await reference.build("city", AREA, 1200));
  });

  it("reads an archive's tiles from the cache on the next build", async () => {
    const sources = basemapSources(config({ POSTER_DEM_URL: range.url("dem") }));
    await sources.build("relief-simple", AREA, 500);
    const after = range.requests.length;
    await sources.build("relief-dark", AREA, 500);
    expect(range.requests.length).toBe(after);
  });

  it("draws past the archive's last zoom with its last tiles, and reads from its first zoom up", async () => {
    // Up to zoom 10 only: the relief is made of zoom-10 tiles (no finer than 1.5× their pixels).
    const coarse = basemapSources(config({ POSTER_DEM_URL: file("dem10") }));
    const layer = await coarse.build("relief-detailed", AREA, 800);
    const native = ((AREA[2] - AREA[0]) / (2 * Math.PI)) * 2 ** 10 * 256;
    expect(layer?.image?.width).toBe(Math.round(native * 1.5));
    expect(layer?.contours?.levels.length).toBeGreaterThan(3);
    // From zoom 13: a small preview that would read zoom 9 reads zoom 13, and finds the mountain.
    const fine = basemapSources(config({ POSTER_DEM_URL: file("dem13") }));
    const small = await fine.build("relief-detailed", AREA, 100);
    expect(small?.contours?.max).toBeGreaterThan(2000);
    expect(small?.contours?.min).toBeLessThan(1300); // the box's corners, ≈ 1,160 m
  });

  it.each([
    ["wrong-magic", "dem", /not a PMTiles archive/],
    ["wrong-version", "tiles", /spec version 2: only version 3/],
    ["truncated", "tiles", /cut short/],
    ["zstd", "tiles", /tile compression Zstd is not read/],
    ["mvt", "dem", /holds MVT \(vector\) tiles, PNG or WebP needed/],
    ["dem", "tiles", /holds PNG tiles, MVT \(vector\) needed/],
    ["missing", "satellite", /cannot open .*ENOENT/],
  ] as const)(
    "refuses the %s archive as %s source: logged, its styles disabled, never a crash",
    async (name, source, message) => {
      const setting = { tiles: "POSTER_TILES_URL", dem: "POSTER_DEM_URL", satellite: "POSTER_SATELLITE_URL" }[source];
      for (const location of [file(name), range.url(name)]) {
        if (name === "missing" && location.startsWith("http")) continue;
        const logged: string[] = [];
        const sources = basemapSources(config({ [setting]: location }), { log: (m) => logged.push(m) });
        expect(sources.sources[source]).toBe(true);
        await sources.ready;
        expect(sources.sources[source], location).toBe(false);
        expect(logged, location).toHaveLength(1);
        expect(logged[0]).toContain(setting);
        expect(logged[0]).toMatch(message);
        expect(logged[0]).toMatch(/styles that need it are disabled/);
        const style = { tiles: "roads", dem: "relief", satellite: "satellite" }[source] as "roads";
        // Its styles draw nothing from it (the routes refuse them, the renderer draws "trace").
        await expect(sources.build(style, AREA, 400)).resolves.toBeNull();
      }
    },
  );

  it("reads a remote archive replaced under it (a new ETag) afresh, not new bytes at old offsets", async () => {
    const files = { live: archives.mvt.bytes };
    const live = await startRangeServer(files);
    try {
      const reference = basemapSources(config({ POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf` }));
      const sources = basemapSources(config({ POSTER_TILES_URL: live.url("live") }));
      expect(await sources.build("roads", AREA, 400)).toEqual(await reference.build("roads", AREA, 400));
      // The same tiles laid out otherwise (leaf directories of 8): every offset moves.
      files.live = (await fixtureArchive("mvt", { leafSize: 8 })).bytes;
      expect(files.live.equals(archives.mvt.bytes)).toBe(false);
      expect(await sources.build("roads", AREA, 1200)).toEqual(await reference.build("roads", AREA, 1200));
    } finally {
      await live.close();
    }
  });

  it("refuses a server that answers the whole file to a Range request", async () => {
    range.ignoreRange = true;
    try {
      const logged: string[] = [];
      const sources = basemapSources(config({ POSTER_TILES_URL: range.url("mvt") }), { log: (m) => logged.push(m) });
      await sources.ready;
      expect(sources.sources.tiles).toBe(false);
      expect(logged[0]).toMatch(/must honour HTTP Range/);
    } finally {
      range.ignoreRange = false;
    }
  });

  it("keeps a remote archive it could not reach at start-up, fails the layer cleanly, and reads it once it answers", async () => {
    range.down = true;
    const logged: string[] = [];
    const sources = basemapSources(config({ POSTER_TILES_URL: range.url("mvt") }), { log: (m) => logged.push(m) });
    try {
      await sources.ready;
      expect(sources.sources.tiles).toBe(true);
      expect(logged[0]).toMatch(/could not be read: HTTP 500. Tried again when asked/);
      await expect(sources.build("roads", AREA, 400)).rejects.toBeInstanceOf(BasemapUnavailableError);
    } finally {
      range.down = false;
    }
    const layer = await sources.build("roads", AREA, 400);
    expect(layer?.shapes.map((s) => s.kind)).toContain("road-major");
  });
});
