/**
 * France's open map data on posters (decision 038): the borders and town names of the site's own
 * offline base map (features/maps/basemap/basemap.server.ts, IGN Admin Express outlines, INSEE
 * names and populations, La Poste coordinates), read from its vector tiles in-process — no second
 * reading of the GeoJSON — and turned into the poster's basemap layer (layer.ts `borders`,
 * `places`): clipped to the box, on the layer's 0…Q grid, thinned to the print's resolution.
 * Works offline with no configuration; null where the data does not cover the box (outside France,
 * or no outlines).
 */
import type { GeoJSONVTFeature } from "@maplibre/geojson-vt";
import type { Basemap } from "../../maps/basemap/basemap.server.ts";
import { BASEMAP_MAX_ZOOM, COMMUNES_MIN_ZOOM } from "../../maps/basemap-style.ts";
import type { MapStyle } from "../poster.contract.ts";
import { type BasemapLayer, type BBox, type BorderLevel, clipLine, clipRing, Q, tileCover, zoomFor } from "./layer.ts";

const EXTENT = 4096;
/** The most site tiles read for one layer (each is built once and cached by the site's base map). */
const MAX_TILES = 64;
/** Town names offered to the renderer, largest first (it places a dozen at most). */
const MAX_PLACES = 300;

export type OpenData = {
  borders: NonNullable<BasemapLayer["borders"]>;
  land: NonNullable<BasemapLayer["land"]>;
  places: NonNullable<BasemapLayer["places"]>;
};

const LEVEL_OF: Record<string, BorderLevel> = {
  outline: "coast",
  border: "frontier",
  region: "region",
  department: "department",
};

/** Drops the points closer than `tolerance` (grid units) to the last one kept; ends always kept. */
export function thinLine(line: readonly number[], tolerance: number): number[] {
  const n = line.length / 2;
  if (n < 2) return [];
  const out = [Math.round(line[0]), Math.round(line[1])];
  for (let i = 1; i < n; i++) {
    const x = Math.round(line[i * 2]);
    const y = Math.round(line[i * 2 + 1]);
    const lx = out[out.length - 2];
    const ly = out[out.length - 1];
    const last = i === n - 1;
    if ((x === lx && y === ly) || (!last && Math.hypot(x - lx, y - ly) < tolerance)) continue;
    out.push(x, y);
  }
  return out.length >= 4 ? out : [];
}

export function openDataSource(basemap: Basemap | null) {
  const available = Boolean(basemap?.outlines);

  /**
   * Borders and towns over `bbox` (Web Mercator), detailed for about `pixels` across; null when
   * the site's base map has no French outlines there.
   */
  async function build(bbox: BBox, pixels: number): Promise<OpenData | null> {
    if (!basemap?.outlines) return null;
    // Tiles of EXTENT units drawn at 512 px: the site's simplification (3 units) is under half a pixel.
    const z = zoomFor(bbox, pixels, 512, BASEMAP_MAX_ZOOM, MAX_TILES);
    const cover = tileCover(bbox, z);
    const spanX = bbox[2] - bbox[0];
    const spanY = bbox[3] - bbox[1];
    const world = 2 ** z;
    const tolerance = Math.max(1, (Q / Math.max(pixels, 1)) * 0.5);
    const lines = new Map<BorderLevel, number[][]>();
    const places = new Map<string, OpenData["places"][number]>();
    const land: number[][] = [];
    let france = false;
    const tiles = await Promise.all(cover.map(async ({ x, y }) => ({ x, y, layers: await basemap.layersAt(z, x, y) })));
    for (const { x, y, layers } of tiles) {
      const gx = (px: number) => ((((x + px / EXTENT) / world) * 2 * Math.PI - Math.PI - bbox[0]) / spanX) * Q;
      const gy = (py: number) => ((bbox[3] - (Math.PI - ((y + py / EXTENT) / world) * 2 * Math.PI)) / spanY) * Q;
      const addLines = (level: BorderLevel, f: GeoJSONVTFeature) => {
        if (f.type !== 2 && f.type !== 3) return;
        for (const ring of f.geometry as [number, number][][]) {
          // Each tile's own square only: the buffer's copy belongs to the neighbour.
          for (const own of clipLine(ring.flat(), { x0: 0, y0: 0, x1: EXTENT, y1: EXTENT })) {
            const grid = new Array<number>(own.length);
            for (let i = 0; i < own.length; i += 2) {
              grid[i] = gx(own[i]);
              grid[i + 1] = gy(own[i + 1]);
            }
            for (const piece of clipLine(grid, { x0: 0, y0: 0, x1: Q, y1: Q })) {
              const thinned = thinLine(piece, tolerance);
              if (!thinned.length) continue;
              const list = lines.get(level);
              if (list) list.push(thinned);
              else lines.set(level, [thinned]);
            }
          }
        }
      };
      for (const f of layers.land?.features ?? []) {
        if (!(f.tags as { code?: string })?.code || f.type !== 3) continue;
        france = true;
        // With the tile's buffer: neighbouring tiles' pieces overlap instead of leaving a seam.
        for (const ring of f.geometry as [number, number][][]) {
          const grid: number[] = [];
          for (const [px, py] of ring) grid.push(gx(px), gy(py));
          const clipped = thinLine(clipRing(grid, { x0: 0, y0: 0, x1: Q, y1: Q }), tolerance);
          if (clipped.length >= 6) land.push(clipped);
        }
      }
      for (const f of layers.boundaries?.features ?? []) {
        const level = LEVEL_OF[String((f.tags as { level?: string }).level)];
        if (level) addLines(level, f);
      }
      if (z >= COMMUNES_MIN_ZOOM) for (const f of layers.communes?.features ?? []) addLines("commune", f);
      for (const f of layers.places?.features ?? []) {
        const tags = f.tags as { kind?: string; name?: string; population?: number };
        if (f.type !== 1 || tags.kind !== "town" || !tags.name) continue;
        const [px, py] = (f.geometry as [number, number][])[0];
        const u = Math.round(gx(px));
        const v = Math.round(gy(py));
        if (u < 0 || v < 0 || u > Q || v > Q) continue;
        places.set(`${tags.name}|${Math.round(u / 10)}|${Math.round(v / 10)}`, {
          name: tags.name.slice(0, 80),
          population: Math.max(0, Math.round(tags.population ?? 0)),
          x: u,
          y: v,
        });
      }
    }
    const borders = [...lines].map(([level, l]) => ({ level, lines: l }));
    const towns = [...places.values()].sort((a, b) => b.population - a.population).slice(0, MAX_PLACES);
    if (!france || (!borders.length && !towns.length)) return null;
    // Land over the whole box says nothing: only a coast's box keeps it.
    const coast = borders.some((b) => b.level === "coast");
    return { borders, land: coast ? land : [], places: towns };
  }

  return { available, build };
}
export type OpenDataSource = ReturnType<typeof openDataSource>;

/**
 * The poster's layer with the open data added (a layer of its own for the styles that draw
 * nothing else): what the route answers and the export job draws. Both were built over the same
 * `bbox` (posters.service `mapLayer`), so they share the layer's grid.
 */
export function withOpenData(
  layer: BasemapLayer | null,
  style: MapStyle,
  bbox: BBox,
  data: OpenData | null,
): BasemapLayer | null {
  if (!data) return layer;
  const base = layer ?? { style, bbox, image: null, contours: null, shapes: [], credits: [] };
  return { ...base, borders: data.borders, land: data.land, places: data.places };
}
