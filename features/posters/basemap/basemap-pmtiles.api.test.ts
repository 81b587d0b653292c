/**
 * Posters' map data from PMTiles archives through the API (decision 039): the elevation from a
 * local archive file, the vector tiles from an archive served over HTTP with Range requests, and
 * the imagery setting pointing at an archive cut short. The preview's basemap equals the one the
 * XYZ tile server holding the same tiles gives; the refused archive's style is unavailable (400,
 * never a 500); a remote archive that goes down answers 503 in the caller's language.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp } from "../../../tests/api/harness.ts";
import { basemapSources } from "./basemap.server.ts";
import { type BasemapLayer, basemapLayerSchema, degreesToBbox } from "./layer.ts";
import { fixtureArchive, type RangeServer, startRangeServer } from "./pmtiles.fixture.ts";
import { startTileServer, type TileServer } from "./tile-server.fixture.ts";

let t: TestApp;
let tiles: TileServer;
let range: RangeServer;
let dir: string;

beforeAll(async () => {
  tiles = await startTileServer();
  dir = await mkdtemp(path.join(tmpdir(), "dossard-pmtiles-api-"));
  const dem = await fixtureArchive("terrarium", { minZoom: 6, maxZoom: 14 });
  const mvt = await fixtureArchive("mvt");
  const sat = await fixtureArchive("sat", { minZoom: 10, maxZoom: 12 });
  await writeFile(path.join(dir, "dem.pmtiles"), dem.bytes);
  await writeFile(path.join(dir, "sat.pmtiles"), sat.bytes.subarray(0, sat.bytes.length - 100));
  range = await startRangeServer({ mvt: mvt.bytes });
  t = await createTestApp({
    env: {
      POSTER_TILES_URL: range.url("mvt"),
      POSTER_DEM_URL: path.join(dir, "dem.pmtiles"),
      POSTER_DEM_CREDIT: "Relief : données de test",
      POSTER_SATELLITE_URL: `file://${path.join(dir, "sat.pmtiles")}`,
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await tiles?.close();
  await range?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const get = (url: string, locale = "fr") =>
  t.app.inject({ method: "GET", url, headers: { ...accessHeaders, "x-locale": locale } });

describe("posters' map data from PMTiles archives", () => {
  it("offers the styles of the archives it could open, not the one cut short", async () => {
    const r = await get("/api/poster/products");
    const styles = (r.json() as { styles: { id: string; available: boolean }[] }).styles;
    expect(styles.filter((s) => !s.available).map((s) => s.id)).toEqual(["satellite"]);
    const satellite = await get("/api/poster/basemap?style=satellite&bbox=6.85,45.87,6.95,45.93");
    expect(satellite.statusCode).toBe(400);
    expect((satellite.json() as { error: { field: string } }).error.field).toBe("style");
  });

  it("answers the same basemap as the tile server holding the same tiles", async () => {
    const reference = basemapSources({
      POSTER_TILES_URL: `${tiles.origin}/mvt/{z}/{x}/{y}.pbf`,
      POSTER_TILES_CREDIT: "© OpenStreetMap contributors",
      POSTER_DEM_URL: `${tiles.origin}/terrarium/{z}/{x}/{y}.png`,
      POSTER_DEM_ENCODING: "",
      POSTER_DEM_CREDIT: "Relief : données de test",
    });
    const box = "6.85,45.87,6.95,45.93";
    for (const style of ["relief-detailed", "city", "terrain"] as const) {
      const r = await get(`/api/poster/basemap?style=${style}&bbox=${box}&px=600`);
      expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
      const layer = (r.json() as { layer: BasemapLayer }).layer;
      const expected = await reference.build(style, degreesToBbox([6.85, 45.87, 6.95, 45.93]), 600);
      expect(layer.shapes.length + (layer.image ? 1 : 0), style).toBeGreaterThan(0);
      // The route answers the layer as its schema reads it (decision 038's empty towns and borders).
      expect(layer, style).toEqual(basemapLayerSchema.parse(JSON.parse(JSON.stringify(expected))));
    }
  });

  it("says in the caller's language that the map data is unavailable when the remote archive is down", async () => {
    range.down = true;
    try {
      // Tiles not read yet (another zoom than above: nothing cached), where the archive has some.
      const box = "6.86,45.88,6.94,45.92";
      const fr = await get(`/api/poster/basemap?style=roads&bbox=${box}&px=1600`);
      expect(fr.statusCode).toBe(503);
      expect((fr.json() as { error: { code: string; message: string } }).error).toMatchObject({
        code: "POSTER_MAP_UNAVAILABLE",
        message: expect.stringMatching(/données de la carte/),
      });
      const en = await get(`/api/poster/basemap?style=roads&bbox=${box}&px=1600`, "en");
      expect((en.json() as { error: { message: string } }).error.message).toMatch(/map data could not be loaded/);
    } finally {
      range.down = false;
    }
    const back = await get("/api/poster/basemap?style=roads&bbox=6.86,45.88,6.94,45.92&px=1600");
    expect(back.statusCode).toBe(200);
  });
});
