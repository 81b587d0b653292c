/**
 * The `poster-basemaps` part of `npm run bench` (issue 15, decisions 037 and 039): an A3 poster of a
 * marathon (a 20,000-point loop of 42.2 km around the tile fixture's synthetic mountain) with map
 * data, in this process:
 * - the basemap layer at print resolution (300 dpi across the map frame, as the export job asks):
 *   "relief" (hypsometric shaded relief from Terrarium elevation tiles) and "city" (streets, water,
 *   parks, buildings of a synthetic town from vector tiles), each read from a local XYZ tile server
 *   AND from a PMTiles file holding the same tiles; cold (new sources: every tile read and decoded)
 *   and warm (the second build of the same sources: tiles from the memory LRU);
 * - the A3 PNG at 300 dpi (resvg) and the vector PDF (pdfkit) drawn with each layer;
 * medians of `runs` (≥ 5) runs, and the process's peak resident memory. Goals: PNG ≤ 3 s, PDF ≤ 1 s.
 * The tiles are made before any timing (the server answers from memory), so the server's figures
 * are reading and decoding, not making tiles.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { GeoJSONVT, type GeoJSONVTFeature } from "@maplibre/geojson-vt";
import { fromGeojsonVt } from "@maplibre/vt-pbf";
import { type BasemapConfig, basemapSources } from "../features/posters/basemap/basemap.server.ts";
import { type BasemapLayer, basemapBox, bboxToDegrees, tileCover } from "../features/posters/basemap/layer.ts";
import { type ArchiveTile, writePmtiles } from "../features/posters/basemap/pmtiles.fixture.ts";
import { demTile, elevationAt, PEAK } from "../features/posters/basemap/tile-server.fixture.ts";
import { designFromCourse, type PosterDesign } from "../features/posters/poster.contract.ts";
import { serverFonts } from "../features/posters/render/fonts.server.ts";
import type { TrackPoint } from "../features/posters/render/geo.ts";
import { sceneToPdf } from "../features/posters/render/pdf.server.ts";
import { sceneToPng } from "../features/posters/render/png.server.ts";
import { renderPoster } from "../features/posters/render/render.ts";
import { median } from "./load.ts";
import { POSTER_GOALS } from "./posters.ts";

const POINTS = 20_000;
const STYLES = ["relief", "city"] as const;
type Style = (typeof STYLES)[number];
type Origin = "xyz" | "pmtiles";

export type PosterBasemapsFigures = {
  points: number;
  runs: number;
  /** West, south, east, north (degrees) of the layer asked for; pixels across. */
  box: [number, number, number, number];
  pixels: number;
  layers: Record<Style, Record<Origin, { cold: Timing; warm: Timing; tiles: number; layerBytes: number }>>;
  /**
   * The drawing alone (scene with its layer → file), and the export job's whole work from a PMTiles
   * file opened beforehand with nothing cached: first drawing, layer, drawing with it, file.
   */
  exports: Record<
    Style,
    { png: Timing; pngBytes: number; pdf: Timing; pdfBytes: number; jobPng: Timing; jobPdf: Timing }
  >;
  archiveBytes: Record<Style, number>;
  peakRssMb: number;
};

/**
 * Wall-clock ms, and the process's CPU ms over the same span (every thread: sharp and resvg use
 * several, so CPU can exceed wall). On 2 cores shared with other work, wall time grows with the
 * load and CPU time much less: both are kept.
 */
export type Timing = { wall: number; cpu: number };
async function timed(work: () => unknown): Promise<Timing> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}
const medianOf = (ts: Timing[]): Timing => ({ wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) });

/** A marathon: a wobbly loop of 42.2 km around the mountain, 20,000 points with the DEM's heights. */
export function marathonTrack(points = POINTS): TrackPoint[] {
  const out: TrackPoint[] = [];
  const radiusKm = 42.195 / (2 * Math.PI);
  const kmPerDegLat = 111.2;
  const kmPerDegLng = kmPerDegLat * Math.cos((PEAK.lat * Math.PI) / 180);
  for (let i = 0; i < points; i++) {
    const a = (i / points) * 2 * Math.PI;
    const r = radiusKm * (1 + 0.06 * Math.sin(7 * a));
    const lng = PEAK.lng + (r * Math.cos(a)) / kmPerDegLng;
    const lat = PEAK.lat + (r * Math.sin(a)) / kmPerDegLat;
    out.push([lng, lat, Math.round(elevationAt(lng, lat) * 10) / 10]);
  }
  return out;
}

function design(mapStyle: Style): PosterDesign {
  const d = designFromCourse({
    courseId: 1,
    eventName: "Marathon du Mont",
    courseName: "Marathon",
    date: "2026-10-04",
    place: "Chamonix",
    distanceM: 42_195,
    elevationGainM: 1_200,
  });
  d.size = "A3";
  d.mapStyle = mapStyle;
  d.show.kmMarkers = true;
  return d;
}

/**
 * A synthetic town over the box (OpenMapTiles layers and classes): a street grid of every class
 * every ~150 m, a building on most blocks, parks and a lake here and there, a river across.
 */
function townFeatures(box: [number, number, number, number]) {
  const [w, s, e, n] = box;
  const features: { type: "Feature"; properties: Record<string, string>; geometry: unknown }[] = [];
  const step = 0.002;
  let k = 0;
  const classes = ["motorway", "primary", "secondary", "tertiary", "minor", "minor", "service", "path"];
  for (let lng = w; lng <= e; lng += step, k++)
    features.push({
      type: "Feature",
      properties: { layer: "transportation", class: classes[k % classes.length] },
      geometry: {
        type: "LineString",
        coordinates: Array.from({ length: 24 }, (_, i) => [lng + 0.0003 * Math.sin(i), s + ((n - s) * i) / 23]),
      },
    });
  for (let lat = s; lat <= n; lat += step, k++)
    features.push({
      type: "Feature",
      properties: { layer: "transportation", class: classes[(k * 3) % classes.length] },
      geometry: {
        type: "LineString",
        coordinates: Array.from({ length: 24 }, (_, i) => [w + ((e - w) * i) / 23, lat + 0.0003 * Math.cos(i)]),
      },
    });
  const square = (lng: number, lat: number, size: number) => [
    [
      [lng, lat],
      [lng + size, lat],
      [lng + size, lat + size * 0.7],
      [lng, lat + size * 0.7],
      [lng, lat],
    ],
  ];
  let b = 0;
  for (let lng = w + step / 4; lng < e; lng += step / 2)
    for (let lat = s + step / 4; lat < n; lat += step / 2, b++) {
      const kind = b % 23 === 0 ? "park" : b % 41 === 0 ? "water" : b % 5 === 0 ? null : "building";
      if (!kind) continue;
      features.push({
        type: "Feature",
        properties: kind === "park" ? { layer: "park", class: "park" } : { layer: kind },
        geometry: { type: "Polygon", coordinates: square(lng, lat, kind === "building" ? step / 5 : step / 2.5) },
      });
    }
  features.push({
    type: "Feature",
    properties: { layer: "waterway", class: "river" },
    geometry: {
      type: "LineString",
      coordinates: Array.from({ length: 200 }, (_, i) => [
        w + ((e - w) * i) / 199,
        (s + n) / 2 + 0.01 * Math.sin(i / 9),
      ]),
    },
  });
  return features;
}

const EXTENT = 4096;

/** Every tile both sources hold: Terrarium PNGs and the town's vector tiles, zooms 0–14 over the box. */
async function makeTiles(box: [number, number, number, number]) {
  const index = new GeoJSONVT({ type: "FeatureCollection", features: townFeatures(box) } as never, {
    maxZoom: 14,
    indexMaxZoom: 5,
    tolerance: 3,
    extent: EXTENT,
    buffer: 64,
  });
  const mvt = (z: number, x: number, y: number) => {
    const layers: Record<string, { features: GeoJSONVTFeature[] }> = {};
    for (const f of index.getTile(z, x, y)?.features ?? []) {
      const { layer, ...tags } = f.tags as Record<string, string>;
      layers[layer] ??= { features: [] };
      layers[layer].features.push({ ...f, tags } as GeoJSONVTFeature);
    }
    return Object.keys(layers).length
      ? Buffer.from(fromGeojsonVt(layers as never, { version: 2, extent: EXTENT }))
      : null;
  };
  const merc = (lng: number, lat: number) => [
    (lng * Math.PI) / 180,
    Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)),
  ];
  const [w, s] = merc(box[0], box[1]);
  const [e, n] = merc(box[2], box[3]);
  const tiles: Record<Style, ArchiveTile[]> = { relief: [], city: [] };
  for (let z = 0; z <= 14; z++)
    for (const { x, y } of tileCover([w, s, e, n], z)) {
      tiles.relief.push({ z, x, y, data: await demTile(z, x, y, "terrarium") });
      const v = mvt(z, x, y);
      if (v) tiles.city.push({ z, x, y, data: v });
    }
  return tiles;
}

/** An XYZ tile server answering from memory: /relief/z/x/y.png and /city/z/x/y.pbf. */
async function serveTiles(tiles: Record<Style, ArchiveTile[]>) {
  const byPath = new Map<string, Uint8Array>();
  for (const style of STYLES) for (const t of tiles[style]) byPath.set(`/${style}/${t.z}/${t.x}/${t.y}`, t.data);
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const data = byPath.get((req.url ?? "").replace(/\.\w+$/, ""));
    if (!data) return void res.writeHead(204).end();
    res.writeHead(200, { "content-length": data.length }).end(data);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function posterBasemapsPart(options: { quick: boolean }): Promise<PosterBasemapsFigures> {
  const runs = options.quick ? 2 : 5;
  const fonts = serverFonts();
  const points = marathonTrack();
  // The box the export job asks for: the map frame's, grown by 2 %, at 300 dpi across the frame.
  const first = renderPoster(design("relief"), { points }, fonts);
  if (!first.view) throw new Error("no map view");
  const bbox = basemapBox(first.view, 0.02);
  const pixels = Math.round((first.map.w / 25.4) * 300);
  const deg = bboxToDegrees(bbox) as [number, number, number, number];
  const margin = 0.01;
  const tiles = await makeTiles([deg[0] - margin, deg[1] - margin, deg[2] + margin, deg[3] + margin]);
  const dir = await mkdtemp(path.join(tmpdir(), "dossard-bench-pmtiles-"));
  const archiveBytes = {} as Record<Style, number>;
  for (const style of STYLES) {
    const bytes = writePmtiles(tiles[style], {
      tileType: style === "city" ? 1 : 2,
      tileCompression: style === "city" ? 2 : 1,
      internalCompression: 2,
      minZoom: 0,
      maxZoom: 14,
      bounds: deg,
      metadata: { name: `bench ${style}` },
      leafSize: 256,
    });
    archiveBytes[style] = bytes.length;
    await writeFile(path.join(dir, `${style}.pmtiles`), bytes);
  }
  const server = await serveTiles(tiles);
  const base: BasemapConfig = {
    POSTER_TILES_URL: "",
    POSTER_TILES_CREDIT: "© OpenStreetMap contributors",
    POSTER_DEM_URL: "",
    POSTER_DEM_ENCODING: "terrarium",
    POSTER_DEM_CREDIT: "Relief: synthetic",
  };
  const configOf = (origin: Origin): BasemapConfig =>
    origin === "xyz"
      ? {
          ...base,
          POSTER_TILES_URL: `${server.origin}/city/{z}/{x}/{y}.pbf`,
          POSTER_DEM_URL: `${server.origin}/relief/{z}/{x}/{y}.png`,
        }
      : { ...base, POSTER_TILES_URL: path.join(dir, "city.pmtiles"), POSTER_DEM_URL: path.join(dir, "relief.pmtiles") };

  try {
    const layers = {} as PosterBasemapsFigures["layers"];
    const layerOf = {} as Record<Style, BasemapLayer>;
    for (const style of STYLES) {
      layers[style] = {} as PosterBasemapsFigures["layers"][Style];
      for (const origin of ["xyz", "pmtiles"] as const) {
        const cold: Timing[] = [];
        const warm: Timing[] = [];
        let layer: BasemapLayer | null = null;
        let read = 0;
        for (let i = 0; i < runs; i++) {
          const sources = basemapSources(configOf(origin));
          await sources.ready;
          const before = server.requests();
          cold.push(
            await timed(async () => {
              layer = await sources.build(style, bbox, pixels);
            }),
          );
          read = server.requests() - before;
          warm.push(await timed(() => sources.build(style, bbox, pixels)));
          await sources.close();
        }
        if (!layer) throw new Error(`no ${style} layer`);
        layerOf[style] = layer;
        layers[style][origin] = {
          cold: medianOf(cold),
          warm: medianOf(warm),
          // Tiles read: the server's requests (the archive's reads are not counted).
          tiles: origin === "xyz" ? read : Number.NaN,
          layerBytes: Buffer.byteLength(JSON.stringify(layer)),
        };
      }
    }
    const exportsFigures = {} as PosterBasemapsFigures["exports"];
    /** What the export job does (posters.service.server.ts runExport), timed from a cold cache. */
    const job = async (style: Style, write: (scene: ReturnType<typeof renderPoster>) => unknown) => {
      const sources = basemapSources(configOf("pmtiles"));
      await sources.ready;
      const timing = await timed(async () => {
        const plain = renderPoster(design(style), { points }, fonts);
        if (!plain.view) throw new Error("no map view");
        const box = basemapBox(plain.view, 0.02);
        const layer = await sources.build(style, box, Math.round((plain.map.w / 25.4) * 300));
        await write(renderPoster(design(style), { points }, fonts, layer));
      });
      await sources.close();
      return timing;
    };
    for (const style of STYLES) {
      const scene = renderPoster(design(style), { points }, fonts, layerOf[style]);
      if (scene.drawnStyle !== style) throw new Error(`${style} drawn as ${scene.drawnStyle}`);
      const png: Timing[] = [];
      const pdf: Timing[] = [];
      const jobPng: Timing[] = [];
      const jobPdf: Timing[] = [];
      let pngBytes = 0;
      let pdfBytes = 0;
      for (let i = 0; i < runs; i++) {
        png.push(
          await timed(() => {
            pngBytes = sceneToPng(scene, 300).length;
          }),
        );
        pdf.push(
          await timed(async () => {
            pdfBytes = (await sceneToPdf(scene)).length;
          }),
        );
        jobPng.push(await job(style, (s) => sceneToPng(s, 300)));
        jobPdf.push(await job(style, (s) => sceneToPdf(s)));
      }
      exportsFigures[style] = {
        png: medianOf(png),
        pngBytes,
        pdf: medianOf(pdf),
        pdfBytes,
        jobPng: medianOf(jobPng),
        jobPdf: medianOf(jobPdf),
      };
    }
    return {
      points: points.length,
      runs,
      box: deg,
      pixels,
      layers,
      exports: exportsFigures,
      archiveBytes,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function posterBasemapsTable(f: PosterBasemapsFigures): string {
  const ms = (t: Timing) => `${Math.round(t.wall)} ms (${Math.round(t.cpu)})`;
  const kb = (v: number) => `${Math.round(v / 1024)} KB`;
  const goal = (t: Timing, limit: number) => `≤ ${limit} ms: ${t.wall <= limit ? "met" : "**missed**"}`;
  const rows = [
    `| Step (A3, marathon of ${f.points.toLocaleString("en")} points, layer ${f.pixels} px across, medians of ${f.runs}) | Wall (CPU) | Size | Goal |`,
    "| --- | ---: | ---: | --- |",
  ];
  for (const style of STYLES)
    for (const origin of ["xyz", "pmtiles"] as const) {
      const l = f.layers[style][origin];
      const what = origin === "xyz" ? "local XYZ tile server" : "PMTiles file";
      const tiles = Number.isFinite(l.tiles) ? `, ${l.tiles} tiles` : "";
      rows.push(
        `| Basemap layer "${style}" from the ${what}${tiles}: cold / warm (tiles cached) | ${ms(l.cold)} / ${ms(l.warm)} | ${kb(l.layerBytes)} JSON | |`,
      );
    }
  for (const style of STYLES) {
    const x = f.exports[style];
    rows.push(
      `| PNG 300 dpi with the "${style}" basemap: drawing alone | ${ms(x.png)} | ${kb(x.pngBytes)} | ${goal(x.png, POSTER_GOALS.pngMs)} |`,
      `| … the whole export job (PMTiles, cold cache: layer + drawing + PNG) | ${ms(x.jobPng)} | | ${goal(x.jobPng, POSTER_GOALS.pngMs)} |`,
      `| Vector PDF with the "${style}" basemap: drawing alone | ${ms(x.pdf)} | ${kb(x.pdfBytes)} | ${goal(x.pdf, POSTER_GOALS.pdfMs)} |`,
      `| … the whole export job (PMTiles, cold cache: layer + drawing + PDF) | ${ms(x.jobPdf)} | | ${goal(x.jobPdf, POSTER_GOALS.pdfMs)} |`,
    );
  }
  rows.push(`| Peak resident memory of the process | ${Math.round(f.peakRssMb)} MB | | |`);
  return rows.join("\n");
}
