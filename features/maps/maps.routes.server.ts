/**
 * The offline base map, served by Dossard itself (decision 016):
 *
 * - GET /basemap/style.json?lang=fr|en: the MapLibre style, its tile, glyph and sprite URLs on
 *   this server (absolute, as MapLibre wants them) under a version segment;
 * - GET /basemap/<version>/tiles/<z>/<x>/<y>.pbf: vector tiles, 204 where there is nothing;
 * - GET /basemap/<version>/fonts/<fontstack>/<start>-<end>.pbf: glyph ranges;
 * - GET /basemap/<version>/sprite[@2x].json|png: the town dots;
 * - GET /basemap/outline.svg?bbox=w,s,e,n&size=WxH: the same map drawn as SVG for the drawing
 *   shown without WebGL and while MapLibre loads (StaticMap).
 *
 * Versioned answers are immutable for a year; an old version still gets the current content,
 * for a minute only. Bad coordinates answer 400 with the translated error, never 500.
 */
import path from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { etagOf, matchesEtag } from "../../platform/http/page-cache.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { resources } from "../../shared/i18n/resources.ts";
import type { MapReference } from "../geo/geo.contract.ts";
import { access } from "../identity/access.server.ts";
import { type Basemap, createBasemap, type EncodedTile, packed } from "./basemap/basemap.server.ts";
import { createGlyphs, glyphsVersion, isFontStack } from "./basemap/glyphs.server.ts";
import { outlineSvg } from "./basemap/outline-svg.server.ts";
import { resolveOutlines } from "./basemap/outlines.server.ts";
import { sprite } from "./basemap/sprite.server.ts";
import { BASEMAP_MAX_ZOOM, basemapStyle } from "./basemap-style.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const SHORT = "public, max-age=60";
/** MapLibre never asks beyond the source's maxzoom; these zooms are valid but have no tiles. */
const MAX_REQUEST_ZOOM = 24;

const mapNames = (locale: Locale) => resources[locale].event.map.baseMap;

const tileParams = z.object({
  version: z.string().regex(/^[0-9a-z.-]{1,40}$/),
  z: z.coerce.number().int().min(0).max(MAX_REQUEST_ZOOM),
  x: z.coerce.number().int().min(0),
  y: z
    .string()
    .regex(/^\d{1,8}(\.pbf)?$/)
    .transform((s) => Number.parseInt(s, 10)),
});

const glyphParams = z.object({
  version: z.string().regex(/^[0-9a-z.-]{1,40}$/),
  fontstack: z.string().max(200),
  range: z.string().regex(/^\d{1,5}-\d{1,5}\.pbf$/),
});

const spriteParams = z.object({
  version: z.string().regex(/^[0-9a-z.-]{1,40}$/),
  file: z.enum(["sprite.json", "sprite.png", "sprite@2x.json", "sprite@2x.png"]),
});

const NUMBER = /^-?\d{1,3}(\.\d{1,8})?$/;
const outlineQuery = z.object({
  bbox: z
    .string()
    .max(80)
    .transform((s) => s.split(","))
    .pipe(z.tuple([z.string(), z.string(), z.string(), z.string()]))
    .refine((parts) => parts.every((p) => NUMBER.test(p)))
    .transform((parts) => parts.map(Number) as [number, number, number, number])
    .refine(([w, s, e, n]) => w < e && s < n && w >= -180 && e <= 180 && s >= -85 && n <= 85),
  size: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/)
    .transform((s) => s.split("x").map(Number) as [number, number])
    .refine(([w, h]) => w <= 2000 && h <= 2000),
});

/** Sends a body with its ETag (304 when the caller has it) and, when offered, its gzip form. */
function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  body: { body: Buffer; gzip?: Buffer; etag: string; type: string; cacheControl: string },
) {
  reply.header("content-type", body.type);
  reply.header("cache-control", body.cacheControl);
  reply.header("etag", body.etag);
  if (body.gzip) reply.header("vary", "Accept-Encoding");
  if (matchesEtag(request.headers["if-none-match"], body.etag)) return reply.status(304).send();
  // Gzip is what binary answers are kept in (protobuf is not compressed on the fly).
  if (body.gzip && /\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) {
    reply.header("content-encoding", "gzip");
    return reply.send(body.gzip);
  }
  return reply.send(body.body);
}

/**
 * The site's one offline base map: served here as tiles, and read in-process by the posters'
 * open-data layer (features/posters/basemap/opendata.server.ts, decision 038).
 */
export function siteBasemap(
  mapDataDir: string | undefined,
  reference: () => Promise<MapReference>,
  log: { warn: (message: string) => void },
): Basemap {
  const { outlines, tried } = resolveOutlines(mapDataDir);
  if (!outlines) {
    log.warn(
      `Base map: France's outlines not found at ${tried} (MAP_DATA_DIR names a france-geojson folder; unset, ` +
        "the outlines shipped in features/maps/data are used); maps show Natural Earth's coarse outlines and " +
        "the towns only, posters have no towns and borders.",
    );
  }
  return createBasemap({
    outlines,
    reference,
    names: {
      country: (code, locale) => (mapNames(locale).countries as Record<string, string>)[code] ?? code,
      sea: (key, locale) => (mapNames(locale).seas as Record<string, string>)[key] ?? key,
    },
    salt: glyphsVersion(),
  });
}

export const mapsRoutes: FastifyPluginAsyncZod<{ basemap?: Basemap }> = async (app, options) => {
  const basemap =
    options.basemap ?? siteBasemap(app.config.MAP_DATA_DIR, () => app.services.geo.mapReference(), app.log);
  const glyphs = createGlyphs({ cacheDir: path.join(app.config.dataDir, "cache", "glyphs") });
  const glyphRanges = new Map<string, EncodedTile>();
  const outlines = new Map<string, EncodedTile>();
  const cacheFor = async (version: string) => ((await basemap.version()) === version ? IMMUTABLE : SHORT);

  app.get(
    "/basemap/style.json",
    {
      config: { access: access.anyone },
      schema: { hide: true, querystring: z.object({ lang: z.enum(["fr", "en"]).default("fr") }) },
    },
    async (request, reply) => {
      const version = await basemap.version();
      const origin = `${request.protocol}://${request.host}`;
      const base = `${origin}/basemap/${version}`;
      const style = basemapStyle({
        tiles: `${base}/tiles/{z}/{x}/{y}.pbf`,
        glyphs: `${base}/fonts/{fontstack}/{range}.pbf`,
        sprite: `${base}/sprite`,
        attribution: mapNames(request.query.lang).attribution,
        locale: request.query.lang,
      });
      const body = Buffer.from(JSON.stringify(style));
      return sendCached(request, reply, {
        body,
        etag: etagOf(body),
        type: "application/json; charset=utf-8",
        cacheControl: "public, max-age=300",
      });
    },
  );

  app.get(
    "/basemap/:version/tiles/:z/:x/:y",
    { config: { access: access.anyone }, schema: { hide: true, params: tileParams } },
    async (request, reply) => {
      const { version, z: zoom, x, y } = request.params;
      const count = 2 ** zoom;
      if (x >= count) throw new ApiError("INVALID_FIELD", { field: "x" });
      if (y >= count) throw new ApiError("INVALID_FIELD", { field: "y" });
      if (zoom > BASEMAP_MAX_ZOOM) throw new ApiError("NOT_FOUND");
      const tile = await basemap.tile(zoom, x, y);
      const cacheControl = await cacheFor(version);
      if (!tile) {
        reply.header("cache-control", cacheControl);
        return reply.status(204).send();
      }
      return sendCached(request, reply, {
        ...tile,
        type: "application/x-protobuf",
        cacheControl,
      });
    },
  );

  app.get(
    "/basemap/:version/fonts/:fontstack/:range",
    { config: { access: access.anyone }, schema: { hide: true, params: glyphParams } },
    async (request, reply) => {
      const { version, fontstack, range } = request.params;
      const [start, end] = range.replace(".pbf", "").split("-").map(Number);
      if (start % 256 !== 0 || end !== start + 255 || end > 65535) {
        throw new ApiError("INVALID_FIELD", { field: "range" });
      }
      // A stack of several fonts ("Noto Sans Regular,Other"): the first one this server has.
      const font = fontstack
        .split(",")
        .map((s) => s.trim())
        .find(isFontStack);
      if (!font) throw new ApiError("NOT_FOUND");
      const key = `${font}/${start}`;
      let encoded = glyphRanges.get(key);
      if (!encoded) {
        encoded = packed(await glyphs.range(font, start));
        glyphRanges.set(key, encoded);
      }
      return sendCached(request, reply, {
        ...encoded,
        type: "application/x-protobuf",
        cacheControl: version === (await basemap.version()) ? IMMUTABLE : SHORT,
      });
    },
  );

  app.get(
    "/basemap/:version/:file",
    { config: { access: access.anyone }, schema: { hide: true, params: spriteParams } },
    async (request, reply) => {
      const { version, file } = request.params;
      const drawn = await sprite(file.includes("@2x") ? 2 : 1);
      const json = file.endsWith(".json");
      const body = json ? drawn.json : drawn.png;
      return sendCached(request, reply, {
        body,
        etag: `"${version}-${file}"`,
        type: json ? "application/json; charset=utf-8" : "image/png",
        cacheControl: await cacheFor(version),
      });
    },
  );

  app.get(
    "/basemap/outline.svg",
    { config: { access: access.anyone }, schema: { hide: true, querystring: outlineQuery } },
    async (request, reply) => {
      const { bbox, size } = request.query;
      // Every visitor of a place's page asks for the same drawing: the last few are kept.
      const key = `${bbox.join(",")}/${size.join("x")}`;
      let drawn = outlines.get(key);
      if (drawn) outlines.delete(key);
      else drawn = packed(Buffer.from(await outlineSvg(basemap, bbox, size[0], size[1])));
      outlines.set(key, drawn);
      if (outlines.size > 256) outlines.delete(outlines.keys().next().value as string);
      return sendCached(request, reply, {
        ...drawn,
        type: "image/svg+xml",
        cacheControl: "public, max-age=86400",
      });
    },
  );
};
