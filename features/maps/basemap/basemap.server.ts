/**
 * The offline base map's vector tiles (decision 016), made from open data when first asked and
 * kept in memory:
 *
 * - France (IGN Admin Express outlines, outlines.server.ts: shipped in features/maps/data, or a
 *   france-geojson folder named by MAP_DATA_DIR): the departments' polygons as the land, and their
 *   shared edges (topojson) as department, region and outline borders, so that each border is drawn
 *   once and the region borders lie exactly on the department ones;
 * - the borders between a department's communes, read only when a tile of zoom ≥ COMMUNES_MIN_ZOOM
 *   covers it (a few departments are kept);
 * - neighbouring countries from Natural Earth (npm world-atlas), which also stand in for France's
 *   outline when the folder is missing;
 * - towns (INSEE names and populations, La Poste coordinates: the communes table) as labelled
 *   points, fewer at low zooms (townMinPopulation).
 *
 * @maplibre/geojson-vt cuts them into tiles, @maplibre/vt-pbf encodes them. Building the national
 * index takes about half a second; each tile then takes milliseconds and is cached.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import zlib from "node:zlib";
import { GeoJSONVT, type GeoJSONVTFeature } from "@maplibre/geojson-vt";
import { fromGeojsonVt } from "@maplibre/vt-pbf";
import type { Feature, FeatureCollection, Geometry, MultiLineString, Position } from "geojson";
import { mesh, feature as topoFeature } from "topojson-client";
import type { GeometryCollection, GeometryObject, Topology } from "topojson-specification";
import { etagOf } from "../../../platform/http/page-cache.server.ts";
import type { MapReference } from "../../geo/geo.contract.ts";
import { BASEMAP_MAX_ZOOM, COMMUNES_MIN_ZOOM, townMinPopulation } from "../basemap-style.ts";
import { COMMUNES_OBJECT, DEPARTMENTS_OBJECT, type Outlines } from "./outlines.server.ts";

/** Bumped when the tiles' content or layout changes: it is part of the versioned URLs. */
const GENERATOR = "basemap-2";
const EXTENT = 4096;
const FRANCE_ISO_NUMERIC = "250";

export type Layers = Record<string, { features: GeoJSONVTFeature[] }>;
export type EncodedTile = { body: Buffer; gzip: Buffer; etag: string };

/** A body with its gzip form and ETag, as the base map's binary answers are kept. */
export function packed(body: Buffer): EncodedTile {
  return { body, gzip: zlib.gzipSync(body, { level: 6 }), etag: etagOf(body) };
}
type Bbox = [number, number, number, number];

/** Labels of the neighbours (positions chosen to show on a view of France) and of the seas. */
const COUNTRY_LABELS: [code: string, lng: number, lat: number][] = [
  ["ES", -3.6, 41.6],
  ["IT", 10.2, 44.6],
  ["CH", 7.9, 46.8],
  ["DE", 8.7, 49.6],
  ["BE", 4.6, 50.6],
  ["LU", 6.1, 49.75],
  ["GB", -1.8, 51.6],
  ["AD", 1.58, 42.55],
  ["NL", 5.4, 52.2],
];
const SEA_LABELS: [key: string, lng: number, lat: number][] = [
  ["atlantic", -4.8, 45.8],
  ["channel", -1.8, 50.1],
  ["mediterranean", 5.4, 42.2],
];

/** Names of the labelled countries (ISO code) and seas, in each language. */
export type Names = {
  country: (code: string, locale: "fr" | "en") => string;
  sea: (key: string, locale: "fr" | "en") => string;
};

export type BasemapOptions = {
  /** France's outlines, or null when there are none (Natural Earth's outlines only). */
  outlines: Outlines | null;
  reference: () => Promise<MapReference>;
  names: Names;
  /** Tiles kept encoded in memory (bytes). */
  cacheBytes?: number;
  /** What else the versioned URLs serve (the glyphs' version), so that they change with it. */
  salt?: string;
};

// Tile coordinates ↔ longitude and latitude (Web Mercator).
export const tileLng = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
export function tileLat(y: number, z: number): number {
  const n = Math.PI - (2 * Math.PI * y) / 2 ** z;
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
}
export function tileBbox(z: number, x: number, y: number): Bbox {
  return [tileLng(x, z), tileLat(y + 1, z), tileLng(x + 1, z), tileLat(y, z)];
}
const intersects = (a: Bbox, b: Bbox) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
const expand = (b: Bbox, by: number): Bbox => [b[0] - by, b[1] - by, b[2] + by, b[3] + by];

function bboxOf(geometry: Geometry): Bbox {
  const box: Bbox = [180, 90, -180, -90];
  const visit = (value: unknown) => {
    if (typeof (value as Position)[0] === "number") {
      const [lng, lat] = value as Position;
      box[0] = Math.min(box[0], lng);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lng);
      box[3] = Math.max(box[3], lat);
    } else for (const child of value as unknown[]) visit(child);
  };
  if ("coordinates" in geometry) visit(geometry.coordinates);
  return box;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;
const codeOf = (g: GeometryObject) => String((g.properties as { code?: string } | undefined)?.code ?? "");

function lineFeature(layer: string, props: Record<string, string>, geometry: MultiLineString): Feature {
  return { type: "Feature", properties: { layer, ...props }, geometry };
}

type Overview = { index: GeoJSONVT; departments: { code: string; bbox: Bbox }[] };

export function createBasemap(options: BasemapOptions) {
  const { outlines } = options;
  const cacheBytes = options.cacheBytes ?? 48 * 1024 * 1024;

  let reference: Promise<MapReference> | undefined;
  const loadReference = () => {
    reference ??= options.reference();
    reference.catch(() => {
      reference = undefined;
    });
    return reference;
  };

  let overview: Promise<Overview> | undefined;
  const loadOverview = () => {
    overview ??= loadReference().then(buildOverview);
    overview.catch(() => {
      overview = undefined;
    });
    return overview;
  };

  function buildOverview(ref: MapReference): Overview {
    const features: Feature[] = [];
    const departments: Overview["departments"] = [];
    const topo = outlines?.departments() ?? null;
    const object = topo?.objects[DEPARTMENTS_OBJECT] as GeometryCollection | undefined;
    let collection: FeatureCollection | null = null;
    let franceBoxes: Bbox[] = [[-5.5, 41.3, 9.6, 51.1]];
    if (topo && object) {
      collection = topoFeature(topo, object) as FeatureCollection;
      franceBoxes = [];
      for (const f of collection.features) {
        const code = String(f.properties?.code ?? "");
        const bbox = bboxOf(f.geometry);
        departments.push({ code, bbox });
        franceBoxes.push(bbox);
        features.push({ type: "Feature", properties: { layer: "land", code }, geometry: f.geometry });
      }
    }
    const around = neighbours(franceBoxes, !collection);
    features.push(...around.features);
    if (topo && object) {
      const region = (g: GeometryObject) => ref.departmentRegions[codeOf(g)] ?? "";
      const outline = splitByFrontier(
        mesh(topo, object, (a, b) => a === b),
        around.frontier,
      );
      features.push(
        // Under France's land: Natural Earth's frontier, wide in the neighbours' colour, fills the
        // gaps between its coarse borders and IGN's.
        lineFeature("frontier", {}, around.frontier),
        lineFeature("boundaries", { level: "outline" }, outline.coast),
        lineFeature("boundaries", { level: "border" }, outline.border),
        lineFeature(
          "boundaries",
          { level: "region" },
          mesh(topo, object, (a, b) => a !== b && region(a) !== region(b)),
        ),
        lineFeature(
          "boundaries",
          { level: "department" },
          mesh(topo, object, (a, b) => a !== b && region(a) === region(b)),
        ),
      );
    }
    for (const [code, lng, lat] of COUNTRY_LABELS) {
      features.push(pointFeature({ kind: "country", ...localised(options.names.country, code) }, lng, lat));
    }
    for (const [key, lng, lat] of SEA_LABELS) {
      features.push(pointFeature({ kind: "sea", ...localised(options.names.sea, key) }, lng, lat));
    }
    for (const town of ref.towns) {
      features.push(pointFeature({ kind: "town", name: town.name, population: town.population }, town.lng, town.lat));
    }
    const index = new GeoJSONVT(
      { type: "FeatureCollection", features },
      { maxZoom: BASEMAP_MAX_ZOOM, indexMaxZoom: 4, tolerance: 3, extent: EXTENT, buffer: 64 },
    );
    return { index, departments };
  }

  /**
   * Natural Earth's countries near France's parts (France itself only when IGN's outlines are
   * missing), and Natural Earth's land borders of France.
   */
  function neighbours(franceBoxes: Bbox[], withFrance: boolean): { features: Feature[]; frontier: MultiLineString } {
    const require = createRequire(import.meta.url);
    const world = readJson<Topology>(require.resolve("world-atlas/countries-10m.json"));
    const countries = world.objects.countries as GeometryCollection;
    const near = franceBoxes.map((b) => expand(b, 6));
    const boxes = arcBoxes(world);
    const kept = countries.geometries.filter((g) => {
      if (g.id === FRANCE_ISO_NUMERIC) return withFrance;
      const bbox = geometryBox(g, boxes);
      return near.some((b) => intersects(b, bbox));
    });
    const out: Feature[] = [];
    for (const g of kept) {
      const f = topoFeature(world, g as GeometryObject & { type: "Polygon" });
      const layer = g.id === FRANCE_ISO_NUMERIC ? "land" : "countries";
      out.push({ type: "Feature", properties: { layer }, geometry: f.geometry });
    }
    const collection: GeometryCollection = { type: "GeometryCollection", geometries: kept };
    out.push(
      lineFeature(
        "country-borders",
        {},
        mesh(world, collection, (a, b) => a !== b),
      ),
    );
    const france = countries.geometries.filter((g) => g.id === FRANCE_ISO_NUMERIC);
    if (withFrance) {
      const outline = mesh(world, { type: "GeometryCollection", geometries: france }, (a, b) => a === b);
      out.push(lineFeature("boundaries", { level: "outline" }, outline));
    }
    const isFrance = (g: GeometryObject) => g.id === FRANCE_ISO_NUMERIC;
    const around: GeometryCollection = { type: "GeometryCollection", geometries: [...new Set([...kept, ...france])] };
    const frontier = mesh(world, around, (a, b) => isFrance(a) !== isFrance(b));
    return { features: out, frontier };
  }

  // Commune borders by department, the most recently used kept.
  const communeIndexes = new Map<string, Promise<GeoJSONVT | null>>();
  function communes(code: string): Promise<GeoJSONVT | null> {
    const cached = communeIndexes.get(code);
    if (cached) {
      communeIndexes.delete(code);
      communeIndexes.set(code, cached);
      return cached;
    }
    const promise = (outlines ? outlines.communes(code) : Promise.resolve(null)).then((topo) => {
      const object = topo?.objects[COMMUNES_OBJECT] as GeometryCollection | undefined;
      if (!topo || !object) return null;
      // Between two communes, not between the former communes a merger made one (same code).
      const borders = mesh(topo, object, (a, b) => a !== b && codeOf(a) !== codeOf(b));
      return new GeoJSONVT(
        { type: "Feature", properties: {}, geometry: borders },
        { maxZoom: BASEMAP_MAX_ZOOM, indexMaxZoom: 0, tolerance: 3, extent: EXTENT, buffer: 64 },
      );
    });
    promise.catch(() => communeIndexes.delete(code));
    communeIndexes.set(code, promise);
    while (communeIndexes.size > 12) communeIndexes.delete(communeIndexes.keys().next().value as string);
    return promise;
  }

  /** The features of one tile, by layer (empty layers left out). */
  async function layersAt(z: number, x: number, y: number): Promise<Layers> {
    const { index, departments } = await loadOverview();
    const layers: Layers = {};
    const add = (layer: string, f: GeoJSONVTFeature) => {
      layers[layer] ??= { features: [] };
      layers[layer].features.push(f);
    };
    const minPopulation = townMinPopulation(z);
    for (const f of index.getTile(z, x, y)?.features ?? []) {
      const { layer, ...tags } = f.tags as Record<string, string | number>;
      if (tags.kind === "town" && (tags.population as number) < minPopulation) continue;
      add(String(layer), { ...f, tags } as GeoJSONVTFeature);
    }
    if (z >= COMMUNES_MIN_ZOOM) {
      const box = tileBbox(z, x, y);
      const covering = departments.filter((d) => intersects(d.bbox, box));
      for (const d of await Promise.all(covering.map((d) => communes(d.code.toUpperCase())))) {
        for (const f of d?.getTile(z, x, y)?.features ?? []) add("communes", f);
      }
    }
    return layers;
  }

  // Encoded tiles, the most recently used kept within cacheBytes.
  const tiles = new Map<string, Promise<EncodedTile | null>>();
  let cachedBytes = 0;
  const sizes = new Map<string, number>();

  /** The encoded tile, or null when it holds nothing (the sea far from France). */
  function tile(z: number, x: number, y: number): Promise<EncodedTile | null> {
    const key = `${z}/${x}/${y}`;
    const cached = tiles.get(key);
    if (cached) {
      tiles.delete(key);
      tiles.set(key, cached);
      return cached;
    }
    const promise = layersAt(z, x, y).then((layers) => {
      if (Object.keys(layers).length === 0) return null;
      // vt-pbf reads only the features of each geojson-vt tile.
      const tiles = layers as unknown as Parameters<typeof fromGeojsonVt>[0];
      return packed(Buffer.from(fromGeojsonVt(tiles, { version: 2, extent: EXTENT })));
    });
    tiles.set(key, promise);
    promise.then(
      (encoded) => {
        const size = encoded ? encoded.body.length + encoded.gzip.length : 64;
        sizes.set(key, size);
        cachedBytes += size;
        for (const old of tiles.keys()) {
          if (cachedBytes <= cacheBytes) break;
          if (!sizes.has(old)) continue;
          cachedBytes -= sizes.get(old) ?? 0;
          sizes.delete(old);
          tiles.delete(old);
        }
      },
      () => tiles.delete(key),
    );
    return promise;
  }

  let version: Promise<string> | undefined;
  /** A short hash of the generator, the sources and the towns: the versioned URLs' segment. */
  function currentVersion(): Promise<string> {
    version ??= loadReference().then((ref) => {
      const hash = createHash("sha1")
        .update(GENERATOR)
        .update(options.salt ?? "");
      const require = createRequire(import.meta.url);
      hash.update(readJson<{ version: string }>(require.resolve("world-atlas/package.json")).version);
      hash.update(outlines?.version ?? "no outlines");
      hash.update(`${ref.towns.length}:${ref.towns.reduce((sum, t) => sum + t.population, 0)}`);
      return hash.digest("hex").slice(0, 10);
    });
    version.catch(() => {
      version = undefined;
    });
    return version;
  }

  return { outlines, tile, layersAt, version: currentVersion };
}

/** The bounding box of each arc of a quantized topology (without making GeoJSON of it all). */
function arcBoxes(topo: Topology): Bbox[] {
  const [sx, sy] = topo.transform?.scale ?? [1, 1];
  const [tx, ty] = topo.transform?.translate ?? [0, 0];
  return topo.arcs.map((arc) => {
    const box: Bbox = [180, 90, -180, -90];
    let x = 0;
    let y = 0;
    for (const [dx, dy] of arc) {
      x += dx;
      y += dy;
      const lng = x * sx + tx;
      const lat = y * sy + ty;
      box[0] = Math.min(box[0], lng);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lng);
      box[3] = Math.max(box[3], lat);
    }
    return box;
  });
}

function geometryBox(geometry: GeometryObject, boxes: Bbox[]): Bbox {
  const box: Bbox = [180, 90, -180, -90];
  const visit = (value: unknown) => {
    if (typeof value === "number") {
      const arc = boxes[value < 0 ? ~value : value];
      box[0] = Math.min(box[0], arc[0]);
      box[1] = Math.min(box[1], arc[1]);
      box[2] = Math.max(box[2], arc[2]);
      box[3] = Math.max(box[3], arc[3]);
    } else if (Array.isArray(value)) for (const child of value) visit(child);
  };
  visit((geometry as { arcs?: unknown }).arcs);
  return box;
}

/** How far (degrees of latitude, about 4 km) IGN's land border may lie from Natural Earth's. */
const FRONTIER_TOLERANCE = 0.036;

/**
 * IGN's outline of France split into the coast and the land borders: a vertex is on a land
 * border when Natural Earth's frontier (coarser) passes within FRONTIER_TOLERANCE of it.
 */
function splitByFrontier(outline: MultiLineString, frontier: MultiLineString) {
  const cell = 0.1;
  const grid = new Map<string, [Position, Position][]>();
  for (const line of frontier.coordinates) {
    for (let i = 1; i < line.length; i++) {
      const a = line[i - 1];
      const b = line[i];
      const x0 = Math.floor((Math.min(a[0], b[0]) - FRONTIER_TOLERANCE * 2) / cell);
      const x1 = Math.floor((Math.max(a[0], b[0]) + FRONTIER_TOLERANCE * 2) / cell);
      const y0 = Math.floor((Math.min(a[1], b[1]) - FRONTIER_TOLERANCE) / cell);
      const y1 = Math.floor((Math.max(a[1], b[1]) + FRONTIER_TOLERANCE) / cell);
      for (let x = x0; x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          const key = `${x}:${y}`;
          grid.set(key, [...(grid.get(key) ?? []), [a, b]]);
        }
      }
    }
  }
  const near = ([lng, lat]: Position) => {
    const kx = Math.cos((lat * Math.PI) / 180);
    for (const [a, b] of grid.get(`${Math.floor(lng / cell)}:${Math.floor(lat / cell)}`) ?? []) {
      const ax = (a[0] - lng) * kx;
      const ay = a[1] - lat;
      const dx = (b[0] - a[0]) * kx;
      const dy = b[1] - a[1];
      const length = dx * dx + dy * dy;
      const t = length > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length)) : 0;
      if (Math.hypot(ax + t * dx, ay + t * dy) < FRONTIER_TOLERANCE) return true;
    }
    return false;
  };
  const coast: Position[][] = [];
  const border: Position[][] = [];
  for (const line of outline.coordinates) {
    let run: Position[] = [];
    let onBorder = near(line[0]);
    for (const point of line) {
      const here = near(point);
      if (here !== onBorder && run.length) {
        run.push(point);
        (onBorder ? border : coast).push(run);
        run = [];
        onBorder = here;
      }
      run.push(point);
    }
    if (run.length > 1) (onBorder ? border : coast).push(run);
  }
  return {
    coast: { type: "MultiLineString", coordinates: coast } as MultiLineString,
    border: { type: "MultiLineString", coordinates: border } as MultiLineString,
  };
}

function pointFeature(properties: Record<string, string | number>, lng: number, lat: number): Feature {
  return {
    type: "Feature",
    properties: { layer: "places", ...properties },
    geometry: { type: "Point", coordinates: [lng, lat] },
  };
}

function localised(name: (key: string, locale: "fr" | "en") => string, key: string) {
  return { name_fr: name(key, "fr"), name_en: name(key, "en") };
}

export type Basemap = ReturnType<typeof createBasemap>;
