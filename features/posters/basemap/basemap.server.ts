/**
 * The posters' map data sources (decisions 037, 039): vector tiles (POSTER_TILES_URL), elevation
 * tiles (POSTER_DEM_URL, Terrarium or Mapbox terrain-RGB) and aerial imagery (POSTER_SATELLITE_URL),
 * each an XYZ template read over HTTP or a PMTiles archive (a local file or an http(s) URL read with
 * Range requests, pmtiles.server.ts). `build` reads the tiles over a box at a zoom giving about the
 * pixels asked for (a bounded number of tiles, within the archive's zooms), keeps them in a memory
 * LRU, and returns the basemap layer the renderer draws. A source that fails, answers an error or
 * does not answer in time makes the whole build fail with BasemapUnavailableError: nothing
 * half-drawn. An archive that can never serve its source (not PMTiles v3, cut short, wrong tile
 * type) is refused when opened (`ready`): logged, and its styles disabled.
 */
import sharp from "sharp";
import { MAP_STYLES, type MapStyle } from "../poster.contract.ts";
import {
  type DemEncoding,
  type DemTile,
  decodeDemTile,
  demContours,
  demEncodingOf,
  type ReliefLook,
  reliefImage,
  sampleGrid,
} from "./dem.server.ts";
import { type BasemapLayer, type BBox, type ShapeKind, tileCover, zoomFor } from "./layer.ts";
import {
  type ArchiveUse,
  isPmtilesLocation,
  openPmtiles,
  type PmtilesArchive,
  PmtilesFormatError,
  sourceLabel,
} from "./pmtiles.server.ts";
import { tileShapes } from "./vector.server.ts";

export type BasemapConfig = {
  POSTER_TILES_URL: string;
  POSTER_TILES_CREDIT: string;
  POSTER_DEM_URL: string;
  POSTER_DEM_ENCODING: string;
  POSTER_DEM_CREDIT: string;
  POSTER_SATELLITE_URL?: string;
  POSTER_SATELLITE_CREDIT?: string;
};

export class BasemapUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BasemapUnavailableError";
  }
}

/** Elevation tiles of most providers stop at zoom 15 (Terrarium) or 14; vector tiles at 14 (then overzoomed). */
const DEM_MAX_ZOOM = 14;
const TILES_MAX_ZOOM = 14;
/** Aerial imagery: most sources go to 18–19; a poster never needs more than 17. */
const SATELLITE_MAX_ZOOM = 17;
/** The most tiles fetched for one layer: a 50×70 cm poster of a marathon stays under it at zoom 12–13. */
export const MAX_TILES = 64;
/** The widest relief image made (pixels); more would not add detail to elevation data of 30 m or so. */
const MAX_IMAGE_PX = 2400;
const CONTOUR_COLUMNS = 360;
const PARALLEL = 6;

/** Vector kinds each tile style draws (layer.ts shapeStyles). */
const STYLE_KINDS: Partial<Record<MapStyle, ShapeKind[]>> = {
  roads: ["water", "waterway", "road-major", "road-medium", "road-minor", "path", "rail"],
  city: ["green", "water", "waterway", "building", "road-major", "road-medium", "road-minor", "path", "rail"],
  terrain: [
    "farmland",
    "green",
    "urban",
    "water",
    "waterway",
    "road-major",
    "road-medium",
    "road-minor",
    "path",
    "rail",
  ],
};
const RELIEF_LOOK: Partial<Record<MapStyle, ReliefLook>> = {
  relief: "relief",
  "relief-simple": "simple",
  "relief-detailed": "detailed",
  "relief-dark": "dark",
  terrain: "terrain",
};

export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template.replace("{z}", String(z)).replace("{x}", String(x)).replace("{y}", String(y));
}

/** A small LRU of fetched bytes (by URL), bounded in bytes. */
class ByteCache {
  private map = new Map<string, Uint8Array | null>();
  private bytes = 0;
  constructor(private readonly budget: number) {}
  get(key: string): Uint8Array | null | undefined {
    const found = this.map.get(key);
    if (found === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, found);
    return found;
  }
  set(key: string, value: Uint8Array | null) {
    if (this.map.has(key)) return;
    this.map.set(key, value);
    this.bytes += value?.length ?? 0;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.budget) break;
      this.map.delete(k);
      this.bytes -= v?.length ?? 0;
    }
  }
}

async function pool<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

type SourceName = "tiles" | "dem" | "satellite";
const SETTING: Record<SourceName, string> = {
  tiles: "POSTER_TILES_URL",
  dem: "POSTER_DEM_URL",
  satellite: "POSTER_SATELLITE_URL",
};
const USE: Record<SourceName, ArchiveUse> = { tiles: "vector", dem: "dem", satellite: "imagery" };
const CAP: Record<SourceName, number> = { tiles: TILES_MAX_ZOOM, dem: DEM_MAX_ZOOM, satellite: SATELLITE_MAX_ZOOM };

/** An archive's attribution (often HTML) as plain text for the poster's credits. */
function plainCredit(value: unknown): string {
  if (typeof value !== "string") return "";
  return value
    .replace(/<[^>]*>/g, "")
    .replace(/&copy;/g, "©")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

export function basemapSources(
  config: BasemapConfig,
  options: { timeoutMs?: number; cacheBytes?: number; log?: (message: string) => void } = {},
) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const log = options.log ?? (() => undefined);
  const cache = new ByteCache(options.cacheBytes ?? 96 * 1024 * 1024);
  const demCache = new Map<string, DemTile | null>();
  let encoding: DemEncoding = demEncodingOf(config.POSTER_DEM_URL, config.POSTER_DEM_ENCODING);
  const satelliteUrl = config.POSTER_SATELLITE_URL ?? "";
  const location: Record<SourceName, string> = {
    tiles: config.POSTER_TILES_URL,
    dem: config.POSTER_DEM_URL,
    satellite: satelliteUrl,
  };
  const names = Object.keys(location) as SourceName[];
  const pmtiles = names.filter((name) => isPmtilesLocation(location[name]));
  const label = (name: SourceName) => sourceLabel(location[name]);
  const tilesCredit = config.POSTER_TILES_CREDIT || "© OpenStreetMap contributors";
  let demCredit = config.POSTER_DEM_CREDIT || label("dem");
  let satelliteCredit = config.POSTER_SATELLITE_CREDIT || label("satellite");
  /** Configured and usable; a PMTiles archive refused when opened turns its flag off. */
  const sources = {
    tiles: Boolean(config.POSTER_TILES_URL),
    dem: Boolean(config.POSTER_DEM_URL),
    satellite: Boolean(satelliteUrl),
  };

  // --- PMTiles archives: each opened once, shared by every build; retried after a failed reach. ---
  const archives: Partial<Record<SourceName, PmtilesArchive>> = {};
  const opening: Partial<Record<SourceName, Promise<PmtilesArchive>>> = {};
  function archive(name: SourceName): Promise<PmtilesArchive> {
    const open = archives[name];
    if (open) return Promise.resolve(open);
    opening[name] ??= openPmtiles(location[name], USE[name], { timeoutMs }).then(
      (opened) => {
        archives[name] = opened;
        useMetadata(name, opened.metadata);
        return opened;
      },
      (error: Error) => {
        delete opening[name];
        if (error instanceof PmtilesFormatError) {
          sources[name] = false;
          log(
            `Posters: ${SETTING[name]} (${label(name)}) refused: ${error.message}. The styles that need it are disabled.`,
          );
          throw new BasemapUnavailableError(`${label(name)}: ${error.message}`);
        }
        log(`Posters: ${SETTING[name]} (${label(name)}) could not be read: ${error.message}. Tried again when asked.`);
        throw new BasemapUnavailableError(`${label(name)}: ${error.name} ${error.message}`);
      },
    );
    return opening[name];
  }
  /** What an archive's metadata says fills the settings left empty: the elevation's encoding, the credits. */
  function useMetadata(name: SourceName, metadata: Record<string, unknown>) {
    const credit = plainCredit(metadata.attribution);
    if (name === "dem") {
      const declared = String(metadata.encoding ?? "");
      if (!config.POSTER_DEM_ENCODING && (declared === "terrarium" || declared === "mapbox")) encoding = declared;
      if (!config.POSTER_DEM_CREDIT && credit) demCredit = credit;
    }
    if (name === "satellite" && !config.POSTER_SATELLITE_CREDIT && credit) satelliteCredit = credit;
  }
  /** Opens and checks the configured archives (awaited at start-up); one that failed is retried when asked. */
  const ready = Promise.all(pmtiles.map((name) => archive(name).catch(() => null))).then(() => undefined);

  /** The zoom to read `name` at: about `pixels` across, within the source's zooms and MAX_TILES. */
  async function zoomOf(name: SourceName, bbox: BBox, pixels: number, tileSize: number): Promise<number> {
    let min = 0;
    let max = CAP[name];
    if (pmtiles.includes(name)) {
      const { header } = await archive(name);
      min = header.minZoom;
      // Past the archive's last zoom its tiles are drawn larger (overzoom), as with XYZ sources.
      max = Math.max(min, Math.min(max, header.maxZoom));
    }
    let z = zoomFor(bbox, pixels, tileSize, max, MAX_TILES);
    if (z < min) {
      z = min;
      if (tileCover(bbox, z).length > MAX_TILES)
        throw new BasemapUnavailableError(`${label(name)}: the box is too wide for its tiles (from zoom ${min})`);
    }
    return z;
  }

  /**
   * One tile's bytes, from the memory LRU or its source; null where the source has none (404, 204,
   * not in the archive).
   */
  async function readTile(name: SourceName, z: number, x: number, y: number): Promise<Uint8Array | null> {
    const archived = pmtiles.includes(name);
    const key = archived ? `${location[name]}#${z}/${x}/${y}` : tileUrl(location[name], z, x, y);
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const bytes = archived ? await archiveTile(name, z, x, y) : await fetchTile(key);
    cache.set(key, bytes);
    return bytes;
  }

  async function archiveTile(name: SourceName, z: number, x: number, y: number): Promise<Uint8Array | null> {
    const opened = await archive(name);
    try {
      return await opened.tile(z, x, y);
    } catch (error) {
      throw new BasemapUnavailableError(`${opened.label}: ${(error as Error).name} ${(error as Error).message}`);
    }
  }

  /** One tile's bytes over HTTP; null when the server has none there (404, 204). */
  async function fetchTile(url: string): Promise<Uint8Array | null> {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new BasemapUnavailableError(`${sourceLabel(url)}: ${(error as Error).name} ${(error as Error).message}`);
    }
    if (response.status === 404 || response.status === 204) return null;
    if (!response.ok) throw new BasemapUnavailableError(`${sourceLabel(url)}: HTTP ${response.status}`);
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      throw new BasemapUnavailableError(`${sourceLabel(url)}: ${(error as Error).message}`);
    }
  }

  async function demTiles(bbox: BBox, pixels: number) {
    const z = await zoomOf("dem", bbox, pixels, 256);
    const cover = tileCover(bbox, z);
    const tiles = new Map<string, DemTile | null>();
    await pool(cover, PARALLEL, async ({ x, y }) => {
      const id = `${z}/${x}/${y}`;
      let tile = demCache.get(id);
      if (tile === undefined) {
        const bytes = await readTile("dem", z, x, y);
        try {
          tile = bytes ? await decodeDemTile(Buffer.from(bytes), encoding) : null;
        } catch (error) {
          throw new BasemapUnavailableError(`${label("dem")}: ${(error as Error).message}`);
        }
        demCache.set(id, tile);
        if (demCache.size > 160) demCache.delete(demCache.keys().next().value as string);
      }
      tiles.set(`${x}/${y}`, tile);
    });
    return { z, tiles };
  }

  /**
   * Aerial imagery over the box: the tiles decoded (sharp), laid side by side, the box cut out of
   * the mosaic and scaled to at most MAX_IMAGE_PX across, as a JPEG data URL.
   */
  async function satelliteImage(bbox: BBox, pixels: number): Promise<NonNullable<BasemapLayer["image"]>> {
    const z = await zoomOf("satellite", bbox, Math.min(pixels, MAX_IMAGE_PX), 256);
    const cover = tileCover(bbox, z);
    const x0 = Math.min(...cover.map((c) => c.x));
    const y0 = Math.min(...cover.map((c) => c.y));
    const size = 256;
    const decoded = await pool(cover, PARALLEL, async ({ x, y }) => {
      const bytes = await readTile("satellite", z, x, y);
      if (!bytes) return null;
      try {
        const input = await sharp(bytes).resize(size, size, { fit: "fill" }).removeAlpha().png().toBuffer();
        return { input, left: (x - x0) * size, top: (y - y0) * size };
      } catch (error) {
        throw new BasemapUnavailableError(`${label("satellite")}: ${(error as Error).message}`);
      }
    });
    const cols = Math.max(...cover.map((c) => c.x)) - x0 + 1;
    const rows = Math.max(...cover.map((c) => c.y)) - y0 + 1;
    const world = 2 ** z * size;
    const gx = (mx: number) => ((mx + Math.PI) / (2 * Math.PI)) * world - x0 * size;
    const gy = (my: number) => ((Math.PI - my) / (2 * Math.PI)) * world - y0 * size;
    const left = Math.max(0, Math.floor(gx(bbox[0])));
    const top = Math.max(0, Math.floor(gy(bbox[3])));
    const width = Math.min(cols * size - left, Math.max(1, Math.ceil(gx(bbox[2])) - left));
    const height = Math.min(rows * size - top, Math.max(1, Math.ceil(gy(bbox[1])) - top));
    const mosaic = await sharp({
      create: { width: cols * size, height: rows * size, channels: 3, background: "#808080" },
    })
      .composite(decoded.filter((d) => d != null))
      .png()
      .toBuffer();
    const outW = Math.min(width, MAX_IMAGE_PX);
    const outH = Math.max(1, Math.round((height * outW) / width));
    const jpeg = await sharp(mosaic)
      .extract({ left, top, width, height })
      .resize(outW, outH, { fit: "fill" })
      .jpeg({ quality: 82 })
      .toBuffer();
    return { href: `data:image/jpeg;base64,${jpeg.toString("base64")}`, width: outW, height: outH };
  }

  /**
   * The basemap layer of `style` over `bbox` (Web Mercator), detailed for about `pixels` across;
   * null when the style draws nothing from outside data (or its source is not configured).
   */
  async function build(style: MapStyle, bbox: BBox, pixels: number): Promise<BasemapLayer | null> {
    await ready;
    const needs = MAP_STYLES[style].needs;
    const contourStyle = style.startsWith("contours");
    const useDem = sources.dem && (needs === "dem" || contourStyle || style === "terrain");
    const useTiles = sources.tiles && needs === "tiles" && STYLE_KINDS[style] != null;
    const useSatellite = sources.satellite && needs === "satellite";
    if (!useDem && !useTiles && !useSatellite) return null;
    const credits: string[] = [];
    const layer: BasemapLayer = { style, bbox, image: null, contours: null, shapes: [], credits };
    const spanX = bbox[2] - bbox[0];
    const spanY = bbox[3] - bbox[1];
    const jobs: Promise<void>[] = [];
    if (useDem) {
      credits.push(demCredit);
      jobs.push(
        (async () => {
          const { z, tiles } = await demTiles(bbox, Math.min(pixels, MAX_IMAGE_PX));
          const look = RELIEF_LOOK[style];
          if (look) {
            // No finer than the tiles' own pixels, no wider than MAX_IMAGE_PX.
            const native = (spanX / (2 * Math.PI)) * 2 ** z * 256;
            const cols = Math.max(16, Math.round(Math.min(pixels, MAX_IMAGE_PX, native * 1.5)));
            const rows = Math.max(16, Math.round((cols * spanY) / spanX));
            const grid = sampleGrid(tiles, z, bbox, cols, rows);
            const href = await reliefImage(grid, look);
            layer.image = { href, width: cols, height: rows };
          }
          if (contourStyle || style === "relief-detailed") {
            const cols = CONTOUR_COLUMNS;
            const rows = Math.max(16, Math.round((cols * spanY) / spanX));
            layer.contours = demContours(sampleGrid(tiles, z, bbox, cols, rows), style === "relief-detailed" ? 24 : 18);
          }
        })(),
      );
    }
    if (useTiles) {
      credits.unshift(tilesCredit);
      const kinds = new Set(STYLE_KINDS[style]);
      jobs.push(
        (async () => {
          const z = await zoomOf("tiles", bbox, pixels / 2, 512);
          const cover = tileCover(bbox, z);
          const tolerance = Math.max(1, (20_000 / Math.max(pixels, 1)) * 0.5);
          const parts = await pool(cover, PARALLEL, async ({ x, y }) => {
            const bytes = await readTile("tiles", z, x, y);
            if (!bytes) return [];
            try {
              return tileShapes(bytes, { x, y, z }, bbox, kinds, tolerance);
            } catch (error) {
              throw new BasemapUnavailableError(`${label("tiles")}: ${(error as Error).message}`);
            }
          });
          layer.shapes = parts.flat();
        })(),
      );
    }
    if (useSatellite) {
      credits.push(satelliteCredit);
      jobs.push(
        (async () => {
          layer.image = await satelliteImage(bbox, pixels);
        })(),
      );
    }
    // Every job settles before the answer: a failed one fails the whole layer.
    const settled = await Promise.allSettled(jobs);
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return layer;
  }

  /** Closes the archives' file handles (the server's close). */
  async function close() {
    await ready;
    await Promise.all(Object.values(archives).map((a) => a.close()));
  }

  return { sources, ready, build, close };
}
export type BasemapSources = ReturnType<typeof basemapSources>;
