/**
 * The posters' map data (decision 037) against a local tile server (tile-server.fixture.ts): tile
 * cover, elevation decoding, relief and contours from the elevation model, vector shapes, sources
 * that fail, which styles are available, and PNG exports drawn with a basemap.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { designFromCourse, MAP_STYLE_IDS, MAP_STYLES, type PosterDesign } from "../poster.contract.ts";
import { serverFonts } from "../render/fonts.server.ts";
import type { TrackPoint } from "../render/geo.ts";
import { sceneToPng } from "../render/png.server.ts";
import { renderPoster, styleAvailable } from "../render/render.ts";
import { BasemapUnavailableError, basemapSources, tileUrl } from "./basemap.server.ts";
import { decodeDemTile } from "./dem.server.ts";
import { type BBox, basemapBox, bboxToDegrees, degreesToBbox, Q, tileCover, zoomFor } from "./layer.ts";
import {
  testBasemapConfig as config,
  elevationAt,
  LAKE,
  PEAK,
  pixelLngLat,
  ROAD_PRIMARY,
  startTileServer,
  type TileServer,
} from "./tile-server.fixture.ts";

let server: TileServer;
beforeAll(async () => {
  server = await startTileServer();
});
afterAll(() => server.close());

/** The box around the mountain, degrees → Web Mercator. */
const AREA: BBox = degreesToBbox([6.85, 45.87, 6.95, 45.93]);

/** Slippy-map tile numbers as the OpenStreetMap wiki defines them. */
function osmTile(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const r = (lat * Math.PI) / 180;
  return [Math.floor(((lng + 180) / 360) * n), Math.floor(((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * n)];
}

describe("tile cover", () => {
  it("lists exactly the tiles between the box's corners, and lowers the zoom to stay under the cap", () => {
    for (const z of [8, 11, 13]) {
      const [x0, y0] = osmTile(6.85, 45.93, z);
      const [x1, y1] = osmTile(6.95, 45.87, z);
      const cover = tileCover(AREA, z);
      expect(cover.length).toBe((x1 - x0 + 1) * (y1 - y0 + 1));
      expect(cover[0]).toEqual({ x: x0, y: y0 });
      expect(cover.at(-1)).toEqual({ x: x1, y: y1 });
    }
    // 2,000 px across a box 0.1° wide: zoom 14 would need more than 9 tiles of 256 px.
    const z = zoomFor(AREA, 2000, 256, 14, 9);
    expect(tileCover(AREA, z).length).toBeLessThanOrEqual(9);
    expect(tileCover(AREA, z + 1).length).toBeGreaterThan(9);
  });

  it("turns degrees into the renderer's box and back", () => {
    const back = bboxToDegrees(AREA);
    for (const [i, v] of [6.85, 45.87, 6.95, 45.93].entries()) expect(back[i]).toBeCloseTo(v, 9);
    const grown = basemapBox(AREA, 0.1);
    expect(grown[0]).toBeLessThan(AREA[0]);
    expect(grown[3]).toBeGreaterThan(AREA[3]);
  });
});

describe("elevation tiles", () => {
  it.each([
    ["terrarium", 1 / 256],
    ["mapbox", 0.05],
  ] as const)("decodes %s pixels to the metres they were made from", async (encoding, precision) => {
    const [x, y] = osmTile(PEAK.lng, PEAK.lat, 12);
    const response = await fetch(`${server.origin}/${encoding}/12/${x}/${y}.png`);
    const tile = await decodeDemTile(Buffer.from(await response.arrayBuffer()), encoding);
    expect(tile.size).toBe(256);
    let worst = 0;
    for (let j = 0; j < 256; j += 17)
      for (let i = 0; i < 256; i += 13) {
        const expected = elevationAt(...pixelLngLat(12, x, y, i, j, 256));
        worst = Math.max(worst, Math.abs(tile.heights[j * 256 + i] - expected));
      }
    expect(worst).toBeLessThanOrEqual(precision + 1e-3);
  });

  it("draws contour rings lying on their level of the real surface, and a relief lit from the north-west", async () => {
    const sources = basemapSources(config({ POSTER_DEM_URL: `${server.origin}/terrarium/{z}/{x}/{y}.png` }));
    const layer = await sources.build("relief-detailed", AREA, 800);
    if (!layer?.contours || !layer.image) throw new Error("no relief");
    expect(layer.credits).toEqual(["Relief: test DEM"]);
    const { step, levels } = layer.contours;
    expect(levels.length).toBeGreaterThan(8);
    const [w, , e] = bboxToDegrees(AREA);
    const toLngLat = (u: number, v: number): [number, number] => {
      const mx = AREA[0] + ((AREA[2] - AREA[0]) * u) / Q;
      const my = AREA[3] - ((AREA[3] - AREA[1]) * v) / Q;
      return [(mx * 180) / Math.PI, (Math.atan(Math.sinh(my)) * 180) / Math.PI];
    };
    let checked = 0;
    let worst = 0;
    for (const level of levels) {
      expect(level.value % step).toBe(0);
      for (const ring of level.rings)
        for (let k = 0; k < ring.length; k += 10) {
          const u = ring[k];
          const v = ring[k + 1];
          if (u <= 0 || v <= 0 || u >= Q || v >= Q) continue; // the box's edge, not a contour
          const [lng, lat] = toLngLat(u, v);
          worst = Math.max(worst, Math.abs(elevationAt(lng, lat) - level.value));
          checked++;
        }
    }
    expect(checked).toBeGreaterThan(100);
    // The grid is ~25 m a cell on slopes up to ~40 %: a contour is within a few metres of its level.
    expect(worst).toBeLessThan(step / 4);

    // The shaded relief: the north-western slope is lit (white veil), the south-eastern one in shade.
    const png = Buffer.from(layer.image.href.replace(/^data:image\/png;base64,/, ""), "base64");
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([layer.image.width, layer.image.height]);
    const at = (lng: number, lat: number) => {
      const i = Math.floor(((lng - w) / (e - w)) * info.width);
      const mercY = degreesToBbox([0, lat, 1, lat + 1e-9])[1];
      const j = Math.floor(((AREA[3] - mercY) / (AREA[3] - AREA[1])) * info.height);
      const o = (j * info.width + i) * 4;
      return { grey: data[o], alpha: data[o + 3] };
    };
    const nw = at(PEAK.lng - 0.03, PEAK.lat + 0.02);
    const se = at(PEAK.lng + 0.03, PEAK.lat - 0.02);
    expect(nw.grey).toBe(255);
    expect(se.grey).toBe(0);
    expect(se.alpha).toBeGreaterThan(60);
  });
});

describe("vector tiles", () => {
  it("puts the roads, water and buildings of the tiles on the layer's grid, by kind", async () => {
    const sources = basemapSources(config({ POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf` }));
    const roads = await sources.build("roads", AREA, 1200);
    if (!roads) throw new Error("no layer");
    expect(roads.credits).toEqual(["© OpenStreetMap contributors"]);
    const kinds = new Set(roads.shapes.map((s) => s.kind));
    expect(kinds).toEqual(new Set(["road-major", "road-minor", "water"]));
    // Every point of the primary road lies on the line the tiles were cut from (within a metre or so).
    const grid = (lng: number, lat: number) => {
      const m = degreesToBbox([lng, lat, lng + 1, lat + 1e-9]);
      return [((m[0] - AREA[0]) / (AREA[2] - AREA[0])) * Q, ((AREA[3] - m[1]) / (AREA[3] - AREA[1])) * Q];
    };
    const line = ROAD_PRIMARY.map(([lng, lat]) => grid(lng, lat));
    const distanceToLine = (x: number, y: number) =>
      Math.min(
        ...line.slice(1).map(([bx, by], i) => {
          const [ax, ay] = line[i];
          const t = Math.max(
            0,
            Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
          );
          return Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay)));
        }),
      );
    const major = roads.shapes.filter((s) => s.kind === "road-major").flatMap((s) => s.rings);
    let points = 0;
    for (const ring of major)
      for (let k = 0; k < ring.length; k += 2) {
        expect(distanceToLine(ring[k], ring[k + 1])).toBeLessThan(8); // 8/20000 of ~8 km ≈ 3 m
        points++;
      }
    expect(points).toBeGreaterThanOrEqual(3);
    // The lake is closed and covers its corners.
    const lake = roads.shapes.find((s) => s.kind === "water");
    expect(lake?.closed).toBe(true);
    const xs = lake?.rings.flatMap((r) => r.filter((_, i) => i % 2 === 0)) ?? [];
    const [lx0] = grid(LAKE[0][0], LAKE[0][1]);
    const [lx1] = grid(LAKE[1][0], LAKE[1][1]);
    expect(Math.min(...xs)).toBeCloseTo(lx0, -1);
    expect(Math.max(...xs)).toBeCloseTo(lx1, -1);

    const city = await sources.build("city", AREA, 1200);
    expect(new Set(city?.shapes.map((s) => s.kind))).toContain("building");
  });
});

describe("aerial imagery", () => {
  it("lays the tiles side by side and cuts the box out of them", async () => {
    const sources = basemapSources(
      config({
        POSTER_SATELLITE_URL: `${server.origin}/sat/{z}/{x}/{y}.jpg`,
        POSTER_SATELLITE_CREDIT: "Imagery: test",
      }),
    );
    const layer = await sources.build("satellite", AREA, 1000);
    if (!layer?.image) throw new Error("no image");
    expect(layer.image.href).toMatch(/^data:image\/jpeg;base64,/);
    expect(layer.credits).toEqual(["Imagery: test"]);
    const z = zoomFor(AREA, 1000, 256, 17, 64);
    const jpeg = Buffer.from(layer.image.href.split(",")[1], "base64");
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const [w, s, e, n] = bboxToDegrees(AREA);
    let checked = 0;
    for (let k = 1; k < 20; k++) {
      const lng = w + ((e - w) * k) / 20;
      const lat = s + ((n - s) * ((k * 7) % 20)) / 20;
      const [tx, ty] = osmTile(lng, lat, z);
      // Skip points within 2 % of a tile edge (resampling blurs the seam).
      const fx = (((lng + 180) / 360) * 2 ** z) % 1;
      const r = (lat * Math.PI) / 180;
      const fy = (((1 - Math.asinh(Math.tan(r)) / Math.PI) / 2) * 2 ** z) % 1;
      if (Math.min(fx, 1 - fx, fy, 1 - fy) < 0.02) continue;
      const i = Math.floor(((lng - w) / (e - w)) * info.width);
      const my = degreesToBbox([0, lat, 1, lat + 1e-9])[1];
      const j = Math.floor(((AREA[3] - my) / (AREA[3] - AREA[1])) * info.height);
      const o = (j * info.width + i) * info.channels;
      const red = data[o] > data[o + 2];
      expect(red, `${lng} ${lat}`).toBe((tx + ty) % 2 === 0);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe("sources", () => {
  it("enables a style exactly when its source is configured", () => {
    for (const tiles of [false, true])
      for (const dem of [false, true])
        for (const satellite of [false, true])
          for (const id of MAP_STYLE_IDS) {
            const needs = MAP_STYLES[id].needs;
            const expected = needs == null || { tiles, dem, satellite }[needs];
            expect(styleAvailable(id, { tiles, dem, satellite }), `${id} ${tiles} ${dem} ${satellite}`).toBe(expected);
          }
    expect(MAP_STYLE_IDS.filter((id) => MAP_STYLES[id].needs == null)).toEqual([
      "trace",
      "colour",
      "contours-light",
      "contours-blue",
      "contours-green",
    ]);
    expect(basemapSources(config({})).sources).toEqual({ tiles: false, dem: false, satellite: false });
    expect(basemapSources(config({ POSTER_DEM_URL: "http://x/{z}/{x}/{y}.png" })).sources).toEqual({
      tiles: false,
      dem: true,
      satellite: false,
    });
  });

  it("fails the whole layer when a source answers 500 or does not answer in time", async () => {
    const failing = basemapSources(
      config({
        POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf`,
        POSTER_DEM_URL: `${server.origin}/fail/{z}/{x}/{y}.png`,
      }),
    );
    await expect(failing.build("relief", AREA, 400)).rejects.toThrow(/HTTP 500/);
    await expect(failing.build("relief", AREA, 400)).rejects.toBeInstanceOf(BasemapUnavailableError);
    const slow = basemapSources(config({ POSTER_TILES_URL: `${server.origin}/slow/{z}/{x}/{y}.pbf` }), {
      timeoutMs: 300,
    });
    const started = Date.now();
    await expect(slow.build("roads", AREA, 400)).rejects.toBeInstanceOf(BasemapUnavailableError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("fetches a tile once and answers the second build from its cache", async () => {
    const sources = basemapSources(config({ POSTER_DEM_URL: `${server.origin}/mapbox/{z}/{x}/{y}.png` }));
    const before = server.requests.length;
    await sources.build("relief-simple", AREA, 500);
    const fetched = server.requests.length - before;
    expect(fetched).toBeGreaterThan(0);
    await sources.build("relief-dark", AREA, 500);
    expect(server.requests.length - before).toBe(fetched);
    expect(tileUrl("https://t/{z}/{x}/{y}.png", 3, 4, 5)).toBe("https://t/3/4/5.png");
  });
});

describe("posters with a basemap", () => {
  const points: TrackPoint[] = Array.from({ length: 200 }, (_, i) => {
    const lng = 6.87 + (0.06 * i) / 199;
    const lat = 45.89 + 0.02 * Math.sin((i / 199) * Math.PI);
    return [lng, lat, elevationAt(lng, lat)];
  });
  const design = (mapStyle: PosterDesign["mapStyle"]): PosterDesign => ({
    ...designFromCourse({
      courseId: 1,
      eventName: "Trail du Mont",
      courseName: "Boucle",
      date: "2026-06-14",
      place: "Chamonix",
      distanceM: 6500,
      elevationGainM: 900,
    }),
    mapStyle,
  });

  async function mapPixels(style: PosterDesign["mapStyle"], sources: ReturnType<typeof basemapSources>) {
    const fonts = serverFonts();
    const first = renderPoster(design(style), { points }, fonts);
    if (!first.view) throw new Error("no view");
    const layer = await sources.build(style, basemapBox(first.view, 0.02), 600);
    const scene = renderPoster(design(style), { points }, fonts, layer);
    const png = sceneToPng(scene, 72);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const k = info.width / scene.width;
    // Distinct colours inside the map frame, sampled on a grid.
    const colours = new Set<string>();
    for (let y = scene.map.y + 2; y < scene.map.y + scene.map.h - 2; y += 3)
      for (let x = scene.map.x + 2; x < scene.map.x + scene.map.w - 2; x += 3) {
        const o = (Math.floor(y * k) * info.width + Math.floor(x * k)) * 3;
        colours.add(`${data[o] >> 4},${data[o + 1] >> 4},${data[o + 2] >> 4}`);
      }
    return { scene, png, colours };
  }

  it("exports a relief poster (PNG) with the shaded relief under the track and the credit printed", async () => {
    const sources = basemapSources(config({ POSTER_DEM_URL: `${server.origin}/terrarium/{z}/{x}/{y}.png` }));
    const plain = await mapPixels("trace", sources);
    const relief = await mapPixels("relief", sources);
    expect(relief.scene.drawnStyle).toBe("relief");
    expect(relief.scene.prims.some((p) => p.t === "image")).toBe(true);
    expect(relief.scene.boxes.find((b) => b.name === "credits")).toBeTruthy();
    // The hypsometric relief fills the map with many more colours than a lone track on paper.
    expect(relief.colours.size).toBeGreaterThan(plain.colours.size * 4);
    // Nothing is drawn outside the map frame but the texts: the PNG's corner is the background.
    const { data } = await sharp(relief.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const bg = design("relief").colors.background;
    expect([data[0], data[1], data[2]]).toEqual([1, 3, 5].map((i) => Number.parseInt(bg.slice(i, i + 2), 16)));
  });

  it("exports a roads poster (PNG) with the roads drawn, and draws 'trace' while a style's data is missing", async () => {
    const sources = basemapSources(config({ POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf` }));
    const roads = await mapPixels("roads", sources);
    expect(roads.scene.drawnStyle).toBe("roads");
    const roadPaths = roads.scene.prims.filter((p) => p.t === "path" && p.stroke === design("roads").colors.text);
    expect(roadPaths.length).toBeGreaterThanOrEqual(2);
    // Every road point drawn is inside the map frame.
    for (const p of roadPaths)
      if (p.t === "path")
        for (const [, x, y] of p.d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) {
          expect(Number(x)).toBeGreaterThanOrEqual(roads.scene.map.x - 0.01);
          expect(Number(x)).toBeLessThanOrEqual(roads.scene.map.x + roads.scene.map.w + 0.01);
          expect(Number(y)).toBeGreaterThanOrEqual(roads.scene.map.y - 0.01);
          expect(Number(y)).toBeLessThanOrEqual(roads.scene.map.y + roads.scene.map.h + 0.01);
        }
    const none = renderPoster(design("roads"), { points }, serverFonts(), null);
    expect(none.drawnStyle).toBe("trace");
  });
});
