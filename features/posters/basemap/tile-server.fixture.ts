/**
 * A local tile server for the basemap tests (no network): Terrarium and Mapbox terrain-RGB PNGs of
 * a synthetic mountain (encoded here from the formats' published definitions, PNG by sharp), and
 * vector tiles in the OpenMapTiles schema cut by @maplibre/geojson-vt and encoded by @maplibre/vt-pbf,
 * plus addresses that fail (500) or never answer. Counts the requests it gets.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { GeoJSONVT, type GeoJSONVTFeature } from "@maplibre/geojson-vt";
import { fromGeojsonVt } from "@maplibre/vt-pbf";
import sharp from "sharp";
import type { BasemapConfig } from "./basemap.server.ts";

/** The mountain: 2,400 m at (6.9, 45.9) over a 600 m plain, a Gaussian ≈ 3 km wide. */
export const PEAK = { lng: 6.9, lat: 45.9, top: 2400, base: 600, sigmaDeg: 0.03 };
export function elevationAt(lng: number, lat: number): number {
  const dx = (lng - PEAK.lng) * Math.cos((PEAK.lat * Math.PI) / 180);
  const dy = lat - PEAK.lat;
  return PEAK.base + (PEAK.top - PEAK.base) * Math.exp(-(dx * dx + dy * dy) / (2 * PEAK.sigmaDeg ** 2));
}

export function pixelLngLat(z: number, x: number, y: number, i: number, j: number, size: number): [number, number] {
  const n = 2 ** z;
  const lng = ((x + (i + 0.5) / size) / n) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * (y + (j + 0.5) / size)) / n))) * 180) / Math.PI;
  return [lng, lat];
}

/** Each tile is drawn once per process: the mountain never changes, and tests ask for the same tiles again. */
const demTiles = new Map<string, Promise<Buffer>>();
export function demTile(z: number, x: number, y: number, encoding: "terrarium" | "mapbox"): Promise<Buffer> {
  const key = `${encoding}/${z}/${x}/${y}`;
  let tile = demTiles.get(key);
  if (!tile) {
    tile = drawDemTile(z, x, y, encoding).catch((error: unknown) => {
      demTiles.delete(key);
      throw error;
    });
    demTiles.set(key, tile);
  }
  return tile;
}

async function drawDemTile(z: number, x: number, y: number, encoding: "terrarium" | "mapbox"): Promise<Buffer> {
  const size = 256;
  const raw = Buffer.alloc(size * size * 3);
  // A pixel's longitude depends on its column only, its latitude on its row only.
  const lngs = Array.from({ length: size }, (_, i) => pixelLngLat(z, x, y, i, 0, size)[0]);
  const lats = Array.from({ length: size }, (_, j) => pixelLngLat(z, x, y, 0, j, size)[1]);
  for (let j = 0; j < size; j++)
    for (let i = 0; i < size; i++) {
      const h = elevationAt(lngs[i], lats[j]);
      const o = (j * size + i) * 3;
      if (encoding === "terrarium") {
        // https://github.com/tilezen/joerd/blob/master/docs/formats.md#terrarium
        const v = h + 32768;
        raw[o] = Math.floor(v / 256);
        raw[o + 1] = Math.floor(v % 256);
        raw[o + 2] = Math.floor((v - Math.floor(v)) * 256);
      } else {
        // Mapbox terrain-RGB: height = -10000 + (R·65536 + G·256 + B) · 0.1
        const v = Math.round((h + 10000) * 10);
        raw[o] = Math.floor(v / 65536);
        raw[o + 1] = Math.floor(v / 256) % 256;
        raw[o + 2] = v % 256;
      }
    }
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer();
}

/** The vector features (OpenMapTiles layers and classes). */
export const ROAD_PRIMARY: [number, number][] = [
  [6.86, 45.885],
  [6.9, 45.9],
  [6.94, 45.915],
];
export const LAKE: [number, number][] = [
  [6.875, 45.905],
  [6.885, 45.905],
  [6.885, 45.912],
  [6.875, 45.912],
  [6.875, 45.905],
];
const features = [
  {
    type: "Feature" as const,
    properties: { layer: "transportation", class: "primary" },
    geometry: { type: "LineString" as const, coordinates: ROAD_PRIMARY },
  },
  {
    type: "Feature" as const,
    properties: { layer: "transportation", class: "minor" },
    geometry: {
      type: "LineString" as const,
      coordinates: [
        [6.9, 45.88],
        [6.9, 45.92],
      ],
    },
  },
  {
    type: "Feature" as const,
    properties: { layer: "water", class: "lake" },
    geometry: { type: "Polygon" as const, coordinates: [LAKE] },
  },
  {
    type: "Feature" as const,
    properties: { layer: "building" },
    geometry: {
      type: "Polygon" as const,
      coordinates: [
        [
          [6.91, 45.895],
          [6.912, 45.895],
          [6.912, 45.897],
          [6.91, 45.897],
          [6.91, 45.895],
        ],
      ],
    },
  },
];

const EXTENT = 4096;
let vtIndex: GeoJSONVT | null = null;
export function mvtTile(z: number, x: number, y: number): Buffer | null {
  vtIndex ??= new GeoJSONVT(
    { type: "FeatureCollection", features },
    { maxZoom: 14, indexMaxZoom: 4, tolerance: 1, extent: EXTENT, buffer: 64 },
  );
  const layers: Record<string, { features: GeoJSONVTFeature[] }> = {};
  for (const f of vtIndex.getTile(z, x, y)?.features ?? []) {
    const { layer, ...tags } = f.tags as Record<string, string>;
    layers[layer] ??= { features: [] };
    layers[layer].features.push({ ...f, tags } as GeoJSONVTFeature);
  }
  if (!Object.keys(layers).length) return null;
  return Buffer.from(fromGeojsonVt(layers as never, { version: 2, extent: EXTENT }));
}

/** Imagery: a checkerboard of whole tiles, red where x + y is even, blue where odd (JPEG). */
export function satTile(x: number, y: number): Promise<Buffer> {
  const background = (x + y) % 2 === 0 ? "#d02020" : "#2040d0";
  return sharp({ create: { width: 256, height: 256, channels: 3, background } })
    .jpeg()
    .toBuffer();
}

export type TileServer = {
  origin: string;
  requests: string[];
  /** While true, /switch/… answers 500 instead of Terrarium tiles (a source that goes down). */
  down: boolean;
  close: () => Promise<void>;
};

export async function startTileServer(): Promise<TileServer> {
  const requests: string[] = [];
  const hung: http.ServerResponse[] = [];
  const state = { down: false };
  const server = http.createServer(async (req, res) => {
    const url = req.url ?? "";
    requests.push(url);
    const m = url.match(/^\/(\w+)\/(\d+)\/(\d+)\/(\d+)\.\w+$/);
    if (!m) return void res.writeHead(404).end();
    const [, kind, zs, xs, ys] = m;
    const [z, x, y] = [Number(zs), Number(xs), Number(ys)];
    if (kind === "fail" || (kind === "switch" && state.down)) return void res.writeHead(500).end("down");
    if (kind === "slow") return void hung.push(res);
    if (kind === "terrarium" || kind === "mapbox" || kind === "switch") {
      const png = await demTile(z, x, y, kind === "mapbox" ? "mapbox" : "terrarium");
      return void res.writeHead(200, { "content-type": "image/png" }).end(png);
    }
    if (kind === "sat") return void res.writeHead(200, { "content-type": "image/jpeg" }).end(await satTile(x, y));
    if (kind === "mvt") {
      const tile = mvtTile(z, x, y);
      if (!tile) return void res.writeHead(204).end();
      return void res.writeHead(200, { "content-type": "application/x-protobuf" }).end(tile);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The posters' map settings the tests start from: no source configured, fixed credits. */
export const testBasemapConfig = (patch: Partial<BasemapConfig>): BasemapConfig => ({
  POSTER_TILES_URL: "",
  POSTER_TILES_CREDIT: "© OpenStreetMap contributors",
  POSTER_DEM_URL: "",
  POSTER_DEM_ENCODING: "",
  POSTER_DEM_CREDIT: "Relief: test DEM",
  POSTER_SATELLITE_CREDIT: "Imagery: test",
  ...patch,
});
