/**
 * Posters' map data through the API (decision 037), with the sources configured to a local tile
 * server (tile-server.fixture.ts): which styles are offered, the preview's basemap route, PNG
 * exports of a relief and a roads poster, and a source that goes down.
 */
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../../tests/api/harness.ts";
import { BASEMAP_LIMIT } from "../posters.service.server.ts";
import { posterExports } from "../posters.tables.ts";
import type { BasemapLayer } from "./layer.ts";
import { exportPng, posterNear } from "./poster-api.fixture.ts";
import { startTileServer, type TileServer } from "./tile-server.fixture.ts";

let t: TestApp;
let tiles: TileServer;

beforeAll(async () => {
  tiles = await startTileServer();
  t = await createTestApp({
    env: {
      POSTER_TILES_URL: `${tiles.origin}/mvt/{z}/{x}/{y}.pbf`,
      POSTER_DEM_URL: `${tiles.origin}/switch/{z}/{x}/{y}.png`,
      POSTER_DEM_CREDIT: "Relief : données de test",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await tiles?.close();
});

const get = (url: string, cookie?: string, locale = "fr") =>
  t.app.inject({
    method: "GET",
    url,
    headers: { ...accessHeaders, "x-locale": locale, ...(cookie ? { cookie } : {}) },
  });

/** Distinct colours (4 bits a channel) in the middle of the picture, where the map is. */
async function mapColours(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png)
    .resize({ width: 400 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const seen = new Set<number>();
  for (let y = Math.floor(info.height * 0.3); y < info.height * 0.6; y += 2)
    for (let x = Math.floor(info.width * 0.1); x < info.width * 0.9; x += 2) {
      const o = (y * info.width + x) * 3;
      seen.add(((data[o] >> 4) << 8) | ((data[o + 1] >> 4) << 4) | (data[o + 2] >> 4));
    }
  return seen.size;
}

describe("posters' map data from configured sources", () => {
  it("offers every style but satellite when tiles and elevation are configured", async () => {
    const r = await get("/api/poster/products");
    const styles = (r.json() as { styles: { id: string; available: boolean }[] }).styles;
    expect(styles.filter((s) => !s.available).map((s) => s.id)).toEqual(["satellite"]);
  });

  it("answers the preview's basemap for a style and a box, and refuses what it cannot draw", async () => {
    const box = "6.85,45.87,6.95,45.93";
    const relief = await get(`/api/poster/basemap?style=relief-detailed&bbox=${box}&px=400`);
    expect(relief.statusCode, relief.body).toBe(200);
    const layer = (relief.json() as { layer: BasemapLayer }).layer;
    expect(layer.image?.href).toMatch(/^data:image\/png;base64,/);
    expect(layer.contours?.levels.length).toBeGreaterThan(5);
    expect(layer.credits).toEqual(["Relief : données de test"]);
    expect(relief.headers["cache-control"]).toContain("max-age");

    const roads = (await get(`/api/poster/basemap?style=roads&bbox=${box}&px=400`)).json() as { layer: BasemapLayer };
    expect(roads.layer.shapes.map((s) => s.kind)).toContain("road-major");
    expect(roads.layer.credits).toEqual(["© OpenStreetMap contributors"]);
    expect(((await get(`/api/poster/basemap?style=trace&bbox=${box}`)).json() as { layer: null }).layer).toBeNull();

    const satellite = await get(`/api/poster/basemap?style=satellite&bbox=${box}`);
    expect(satellite.statusCode).toBe(400);
    expect((satellite.json() as { error: { field: string } }).error.field).toBe("style");
    for (const bad of ["6.95,45.87,6.85,45.93", "1,2,3", "0,40,10,50", "a,b,c,d"]) {
      const r = await get(`/api/poster/basemap?style=roads&bbox=${bad}`);
      expect(r.statusCode, bad).toBe(400);
    }
  });

  it("exports a relief poster and a roads poster as PNG drawn over their map data", async () => {
    const one = await testMember(t);
    const relief = await posterNear(
      t,
      one.cookie,
      { lng: 6.87, lat: 45.89, name: "Boucle du Mont" },
      { mapStyle: "relief" },
    );
    const png = await exportPng(t, one.cookie, relief.id as number);
    expect(png.statusCode, png.body.slice(0, 200)).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");

    const two = await testMember(t);
    const trace = await posterNear(
      t,
      two.cookie,
      { lng: 6.87, lat: 45.89, name: "Boucle du Mont" },
      { mapStyle: "trace" },
    );
    const plain = await exportPng(t, two.cookie, trace.id as number);
    // The hypsometric relief fills the map with colours a lone line on paper does not have.
    expect(await mapColours(png.rawPayload)).toBeGreaterThan((await mapColours(plain.rawPayload)) * 3);

    const three = await testMember(t);
    const roads = await posterNear(
      t,
      three.cookie,
      { lng: 6.87, lat: 45.89, name: "Boucle du Mont" },
      { mapStyle: "roads" },
    );
    const roadsPng = await exportPng(t, three.cookie, roads.id as number);
    expect(roadsPng.statusCode).toBe(200);
    // The same track and design as the "trace" poster: what differs is the roads, water and credit
    // (the credit alone is under 0.1 % of the paper).
    const raw = (png: Buffer) => sharp(png).resize({ width: 600 }).removeAlpha().raw().toBuffer();
    const [a, b] = await Promise.all([raw(roadsPng.rawPayload), raw(plain.rawPayload)]);
    expect(a.length).toBe(b.length);
    let differing = 0;
    for (let i = 0; i < a.length; i += 3) if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) > 30) differing++;
    expect(differing / (a.length / 3)).toBeGreaterThan(0.002);
    // Three A-size PNG exports at 300 dpi, two of them over map data: over 30 s when the machine
    // also runs the journeys (a time budget, not a speed check: speed is bench/'s).
  }, 120_000);

  it("stops one address asking for too many layers, not another", async () => {
    const from = (ip: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/poster/basemap?style=trace&bbox=6.85,45.87,6.95,45.93",
        remoteAddress: ip,
        headers: { ...accessHeaders },
      });
    const codes: number[] = [];
    for (let i = 0; i < BASEMAP_LIMIT.max + 1; i++) codes.push((await from("10.77.0.1")).statusCode);
    expect(codes.slice(0, BASEMAP_LIMIT.max).every((c) => c === 200)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    expect((await from("10.77.0.2")).statusCode).toBe(200);
  });

  it("says in the caller's language that the map data is unavailable when the source is down, and writes no file", async () => {
    tiles.down = true;
    try {
      const box = "2.30,48.80,2.40,48.90";
      const fr = await get(`/api/poster/basemap?style=relief&bbox=${box}&px=300`);
      expect(fr.statusCode).toBe(503);
      expect(fr.json()).toMatchObject({ error: { code: "POSTER_MAP_UNAVAILABLE" } });
      expect((fr.json() as { error: { message: string } }).error.message).toMatch(/données de la carte/);
      const en = await get(`/api/poster/basemap?style=relief&bbox=${box}&px=300`, undefined, "en");
      expect((en.json() as { error: { message: string } }).error.message).toMatch(/map data could not be loaded/);

      const member = await testMember(t);
      const poster = await posterNear(
        t,
        member.cookie,
        { lng: 2.35, lat: 48.85, name: "Boucle du Mont" },
        { mapStyle: "relief-simple" },
      );
      const failed = await exportPng(t, member.cookie, poster.id as number);
      expect(failed.statusCode).toBe(503);
      expect(failed.json()).toMatchObject({ error: { code: "POSTER_MAP_UNAVAILABLE" } });
      const rows = await t.database.db
        .select()
        .from(posterExports)
        .where(eq(posterExports.posterId, poster.id as number));
      expect(rows.map((r) => [r.status, r.file])).toEqual([["failed", null]]);
    } finally {
      tiles.down = false;
    }
  });
});
