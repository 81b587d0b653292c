/**
 * Vector tiles (Mapbox Vector Tile, OpenMapTiles or Protomaps schema; decision 037) → the layer's
 * shapes: decoded with @mapbox/vector-tile + pbf, sorted into a few kinds (roads by class, water,
 * green and farm land, built-up land, buildings), put on the layer's 0…Q grid and clipped to it.
 */
import { gunzipSync } from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import { PbfReader } from "pbf";
import { type BasemapLayer, type BBox, clipLine, clipRing, Q, type ShapeKind } from "./layer.ts";

type Props = Record<string, number | string | boolean>;

const GREEN = new Set([
  "wood",
  "forest",
  "grass",
  "grassland",
  "meadow",
  "park",
  "scrub",
  "heath",
  "wetland",
  "nature_reserve",
  "garden",
  "recreation_ground",
  "village_green",
  "cemetery",
]);
const FARM = new Set(["farmland", "farm", "farmyard", "orchard", "vineyard", "allotments"]);
const URBAN = new Set(["residential", "commercial", "industrial", "retail", "urban_area", "suburb", "neighbourhood"]);

/** The kind of a feature of layer `layer`, or null when no poster draws it. */
export function classify(layer: string, type: number, p: Props): ShapeKind | null {
  const cls = String(p.class ?? p.kind ?? p.subclass ?? "");
  switch (layer) {
    case "water":
      return type === 3 ? "water" : type === 2 ? "waterway" : null;
    case "waterway":
      return type === 2 ? "waterway" : null;
    case "building":
    case "buildings":
      return type === 3 ? "building" : null;
    case "park":
      return type === 3 ? "green" : null;
    case "landcover":
    case "landuse":
      if (type !== 3) return null;
      if (GREEN.has(cls)) return "green";
      if (FARM.has(cls)) return "farmland";
      if (URBAN.has(cls)) return "urban";
      return null;
    case "transportation":
    case "roads": {
      if (type !== 2) return null;
      if (cls === "rail" || cls === "transit") return "rail";
      if (["motorway", "trunk", "primary", "highway"].includes(cls)) return "road-major";
      if (["secondary", "tertiary", "major_road", "medium_road"].includes(cls)) return "road-medium";
      if (["path", "track", "footway", "cycleway", "bridleway", "steps"].includes(cls)) return "path";
      if (cls === "ferry" || cls === "aerialway") return null;
      return "road-minor";
    }
    default:
      return null;
  }
}

/**
 * The shapes of one tile (x, y at zoom z) that are of `kinds`, on the grid of `bbox`, clipped to it
 * and thinned so that points closer than `tolerance` grid units are merged.
 */
export function tileShapes(
  bytes: Uint8Array,
  tile: { x: number; y: number; z: number },
  bbox: BBox,
  kinds: ReadonlySet<ShapeKind>,
  tolerance: number,
): BasemapLayer["shapes"] {
  const data = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const vt = new VectorTile(new PbfReader(data));
  const n = 2 ** tile.z;
  const spanX = bbox[2] - bbox[0];
  const spanY = bbox[3] - bbox[1];
  const rect = { x0: 0, y0: 0, x1: Q, y1: Q };
  const out: BasemapLayer["shapes"] = [];
  for (const name of Object.keys(vt.layers)) {
    const layer = vt.layers[name];
    for (let i = 0; i < layer.length; i++) {
      const feature = layer.feature(i);
      const kind = classify(name, feature.type, feature.properties);
      if (!kind || !kinds.has(kind)) continue;
      const extent = feature.extent;
      const rings: number[][] = [];
      for (const ring of feature.loadGeometry()) {
        const pts: number[] = [];
        let lx = Number.NaN;
        let ly = Number.NaN;
        for (const p of ring) {
          const mx = ((tile.x + p.x / extent) / n) * 2 * Math.PI - Math.PI;
          const my = Math.PI - ((tile.y + p.y / extent) / n) * 2 * Math.PI;
          const u = ((mx - bbox[0]) / spanX) * Q;
          const v = ((bbox[3] - my) / spanY) * Q;
          if (Math.abs(u - lx) < tolerance && Math.abs(v - ly) < tolerance) continue;
          pts.push(u, v);
          lx = u;
          ly = v;
        }
        const closed = feature.type === 3;
        const pieces = closed ? [clipRing(pts, rect)] : clipLine(pts, rect);
        for (const piece of pieces) {
          if (piece.length < (closed ? 6 : 4)) continue;
          rings.push(piece.map(Math.round));
        }
      }
      if (rings.length) out.push({ kind, closed: feature.type === 3, rings });
    }
  }
  return out;
}
