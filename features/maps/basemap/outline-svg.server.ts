/**
 * The base map of an area as an SVG image, for the drawing shown without WebGL and while MapLibre
 * loads (StaticMap): the same tiles' land, borders and largest towns, in the same colours,
 * projected linearly from [west, south, east, north] onto width × height — the projection of
 * StaticMap, which is linear in longitude and in latitude.
 */
import { BASEMAP_COLORS, BASEMAP_MAX_ZOOM, COMMUNES_MIN_ZOOM } from "../basemap-style.ts";
import type { Basemap, Layers } from "./basemap.server.ts";
import { tileLat, tileLng } from "./basemap.server.ts";

type Bbox = [number, number, number, number];
type Town = { x: number; y: number; name: string; population: number };
const EXTENT = 4096;
const MAX_TILES = 16;
const MAX_LABELS = 24;

const lngToTileX = (lng: number, z: number) => ((lng + 180) / 360) * 2 ** z;
function latToTileY(lat: number, z: number): number {
  const r = (Math.max(-85, Math.min(85, lat)) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z;
}

function tilesFor([west, south, east, north]: Bbox, width: number): { z: number; tiles: [number, number][] } {
  // About one tile pixel per image unit, fewer tiles when the area is large.
  let z = Math.max(0, Math.min(BASEMAP_MAX_ZOOM, Math.floor(Math.log2((width * 360) / (256 * (east - west))))));
  for (;;) {
    const x0 = Math.floor(lngToTileX(west, z));
    const x1 = Math.floor(lngToTileX(east, z));
    const y0 = Math.floor(latToTileY(north, z));
    const y1 = Math.floor(latToTileY(south, z));
    if ((x1 - x0 + 1) * (y1 - y0 + 1) <= MAX_TILES || z === 0) {
      const tiles: [number, number][] = [];
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) tiles.push([x, y]);
      return { z, tiles };
    }
    z--;
  }
}

const escapeXml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export async function outlineSvg(basemap: Basemap, bbox: Bbox, width: number, height: number): Promise<string> {
  const [west, south, east, north] = bbox;
  const { z, tiles } = tilesFor(bbox, width);
  const loaded = await Promise.all(tiles.map(async ([x, y]) => ({ x, y, layers: await basemap.layersAt(z, x, y) })));

  const paths: Record<string, string[]> = {};
  const labels = new Map<string, Town>();
  for (const { x, y, layers } of loaded) {
    const point = (px: number, py: number) => {
      const lng = tileLng(x + px / EXTENT, z);
      const lat = tileLat(y + py / EXTENT, z);
      return [((lng - west) / (east - west)) * width, ((north - lat) / (north - south)) * height] as const;
    };
    const fmt = ([px, py]: readonly [number, number]) => `${px.toFixed(1)} ${py.toFixed(1)}`;
    for (const [layer, { features }] of Object.entries(layers as Layers)) {
      for (const f of features) {
        const tags = (f.tags ?? {}) as Record<string, string | number>;
        if (f.type === 1) {
          if (layer !== "places" || tags.kind !== "town") continue;
          const [px, py] = f.geometry[0];
          const [sx, sy] = point(px, py);
          if (sx < 0 || sy < 0 || sx > width || sy > height) continue;
          // The same town comes with each tile whose buffer holds it.
          labels.set(`${tags.name}|${Math.round(sx)}|${Math.round(sy)}`, {
            x: sx,
            y: sy,
            name: String(tags.name),
            population: Number(tags.population),
          });
          continue;
        }
        const key = layer === "boundaries" ? `boundaries-${tags.level}` : layer;
        let d = "";
        for (const ring of f.geometry) {
          d += ring.map((p, i) => `${i === 0 ? "M" : "L"}${fmt(point(p[0], p[1]))}`).join("");
          if (f.type === 3) d += "Z";
        }
        paths[key] ??= [];
        paths[key].push(d);
      }
    }
  }

  const c = BASEMAP_COLORS;
  const layer = (key: string, attributes: string) =>
    paths[key]?.length ? `<path ${attributes} d="${paths[key].join("")}"/>` : "";
  const stroke = (key: string, color: string, w: number, extra = "") =>
    layer(key, `fill="none" stroke="${color}" stroke-width="${w}" stroke-linejoin="round"${extra}`);
  const parts = [
    `<rect width="${width}" height="${height}" fill="${c.sea}"/>`,
    layer("countries", `fill="${c.neighbour}"`),
    // Natural Earth's frontier, 3 km wide, fills the slivers left by its coarse borders.
    stroke("frontier", c.neighbour, (3 / 111 / (north - south)) * height),
    stroke("country-borders", c.countryBorder, 1, ' stroke-dasharray="4 3"'),
    layer("land", `fill="${c.land}"`),
    z >= COMMUNES_MIN_ZOOM ? stroke("communes", c.communeBorder, 0.8) : "",
    stroke("boundaries-department", c.departmentBorder, 1.1),
    stroke("boundaries-region", c.regionBorder, 1.8),
    stroke("boundaries-border", c.countryBorder, 2),
    stroke("boundaries-outline", c.coast, 1),
    townLabels([...labels.values()], width, height),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${parts.join("")}</svg>`;
}

/** The largest towns' names beside a dot, skipping those that would overlap one already placed. */
function townLabels(towns: Town[], width: number, height: number) {
  const placed: [number, number, number, number][] = [];
  const out: string[] = [];
  for (const town of towns.sort((a, b) => b.population - a.population)) {
    if (out.length >= MAX_LABELS) break;
    const city = town.population >= 30_000;
    const size = city ? 12 : 10.5;
    const textWidth = town.name.length * size * 0.56;
    const box: [number, number, number, number] = [
      town.x - 4,
      town.y - size,
      town.x + 7 + textWidth,
      town.y + size * 0.6,
    ];
    if (box[2] > width || box[1] < 0 || box[3] > height) continue;
    if (placed.some((p) => p[0] < box[2] && box[0] < p[2] && p[1] < box[3] && box[1] < p[3])) continue;
    placed.push(box);
    const dot = city
      ? `<circle cx="${town.x.toFixed(1)}" cy="${town.y.toFixed(1)}" r="3.2" fill="${BASEMAP_COLORS.cityText}" stroke="#fff" stroke-width="1.2"/>`
      : `<circle cx="${town.x.toFixed(1)}" cy="${town.y.toFixed(1)}" r="2.4" fill="#fff" stroke="${BASEMAP_COLORS.townText}" stroke-width="1"/>`;
    out.push(
      `${dot}<text x="${(town.x + 6).toFixed(1)}" y="${(town.y + size * 0.35).toFixed(1)}" font-size="${size}"${city ? ' font-weight="600"' : ""} fill="${city ? BASEMAP_COLORS.cityText : BASEMAP_COLORS.townText}">${escapeXml(town.name)}</text>`,
    );
  }
  if (!out.length) return "";
  // The names' halo: a stroke drawn under the fill (paint-order).
  return `<g font-family="'Noto Sans',system-ui,sans-serif" paint-order="stroke" stroke="${BASEMAP_COLORS.halo}" stroke-width="2.5" stroke-linejoin="round">${out.join("")}</g>`;
}
