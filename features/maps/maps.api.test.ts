import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { VectorTile } from "@mapbox/vector-tile";
import type { StyleSpecification, VectorSourceSpecification } from "maplibre-gl";
import { PbfReader } from "pbf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { findProjectRoot } from "../geo/laposte.server.ts";
import { createBasemap, tileLng } from "./basemap/basemap.server.ts";
import { resolveOutlines } from "./basemap/outlines.server.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers: { host: "maps.test", ...headers } });

async function style(lang = "fr"): Promise<StyleSpecification> {
  const res = await get(`/basemap/style.json?lang=${lang}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The tile URL template's path and version, from the served style. */
async function tilePath(z: number, x: number, y: number): Promise<string> {
  const source = (await style()).sources.basemap as VectorSourceSpecification;
  const template = new URL(source.tiles?.[0] ?? "").pathname;
  return decodeURI(template).replace("{z}", String(z)).replace("{x}", String(x)).replace("{y}", String(y));
}

function decode(body: Buffer): VectorTile {
  return new VectorTile(new PbfReader(body));
}

function names(tile: VectorTile, layer: string, property: string): string[] {
  const found = tile.layers[layer];
  if (!found) return [];
  return Array.from({ length: found.length }, (_, i) => String(found.feature(i).properties[property]));
}

// Metropolitan France at zoom 5 (Paris: x 16, y 11), Paris and its suburbs at zoom 10.
const FRANCE_Z5 = [5, 16, 11] as const;
const PARIS_Z10 = [10, 518, 352] as const;

describe("GET /basemap/style.json", () => {
  it("serves a MapLibre style whose tiles, glyphs and sprite are on this server", async () => {
    const res = await get("/basemap/style.json");
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.headers["cache-control"]).toBe("public, max-age=300");
    const body = res.json() as StyleSpecification;
    expect(body.version).toBe(8);
    expect(body.glyphs).toMatch(/^http:\/\/maps\.test\/basemap\/[0-9a-f]+\/fonts\/\{fontstack\}\/\{range\}\.pbf$/);
    expect(body.sprite).toMatch(/^http:\/\/maps\.test\/basemap\/[0-9a-f]+\/sprite$/);
    const source = body.sources.basemap as VectorSourceSpecification;
    expect(source.tiles?.[0]).toMatch(/^http:\/\/maps\.test\/basemap\/[0-9a-f]+\/tiles\/\{z\}\/\{x\}\/\{y\}\.pbf$/);
    expect(source.attribution).toBe("Source : IGN – Admin Express ; INSEE");
    // Every font a layer asks for is one the glyph route serves.
    const fonts = new Set(
      body.layers.flatMap((l) => ("layout" in l && (l.layout as { "text-font"?: string[] })?.["text-font"]) || []),
    );
    for (const font of fonts) {
      const url = new URL(
        (body.glyphs ?? "").replace("{fontstack}", encodeURIComponent(font)).replace("{range}", "0-255"),
      );
      expect((await get(url.pathname)).statusCode, font).toBe(200);
    }
  });

  it("names the sources in the visitor's language and answers 304 to a known ETag", async () => {
    const en = await style("en");
    expect((en.sources.basemap as VectorSourceSpecification).attribution).toBe("Source: IGN – Admin Express; INSEE");
    const first = await get("/basemap/style.json?lang=en");
    const again = await get("/basemap/style.json?lang=en", { "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
  });
});

describe("GET /basemap/<version>/tiles/<z>/<x>/<y>.pbf", () => {
  it("draws France's land, borders and largest towns at a national zoom", async () => {
    const res = await get(await tilePath(...FRANCE_Z5));
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-protobuf");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const tile = decode(res.rawPayload);
    expect(Object.keys(tile.layers)).toEqual(expect.arrayContaining(["land", "boundaries", "countries", "places"]));
    expect(new Set(names(tile, "boundaries", "level"))).toEqual(new Set(["outline", "border", "region", "department"]));
    const towns = names(tile, "places", "name");
    expect(towns).toContain("Paris");
    // Only large towns at this zoom.
    expect(towns).not.toContain("Vincennes");
  });

  it("adds the communes' borders and smaller towns when zoomed in", async () => {
    const res = await get(await tilePath(...PARIS_Z10));
    const tile = decode(res.rawPayload);
    expect(tile.layers.communes?.length).toBeGreaterThan(0);
    expect(names(tile, "places", "name")).toContain("Vincennes");
  });

  it("answers 304 to a known ETag, and gzip to those who accept it", async () => {
    const url = await tilePath(...FRANCE_Z5);
    const first = await get(url);
    expect(first.headers.etag).toBeTruthy();
    expect((await get(url, { "if-none-match": String(first.headers.etag) })).statusCode).toBe(304);
    const zipped = await get(url, { "accept-encoding": "gzip, deflate, br" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(zipped.rawPayload).equals(first.rawPayload)).toBe(true);
  });

  it("answers 204 where there is nothing to draw, as MapLibre expects of an empty tile", async () => {
    // The South Pacific.
    const res = await get(await tilePath(5, 3, 20));
    expect(res.statusCode).toBe(204);
    expect(res.rawPayload.length).toBe(0);
  });

  it("serves an old version's tile with the current content, cached briefly", async () => {
    const res = await get("/basemap/0ld/tiles/5/16/11.pbf");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
  });

  it("refuses bad coordinates with a translated 400, and has no tile beyond the source's zoom", async () => {
    const version = (await tilePath(0, 0, 0)).split("/")[2];
    const cases: [string, number][] = [
      ["5/32/11.pbf", 400],
      ["5/16/32.pbf", 400],
      ["-1/0/0.pbf", 400],
      ["99/0/0.pbf", 400],
      ["a/b/c.pbf", 400],
      ["5/16/11.png", 400],
      ["5/1.5/11.pbf", 400],
      ["13/4100/2900.pbf", 404],
    ];
    for (const [path, status] of cases) {
      const res = await get(`/basemap/${version}/tiles/${path}`, { "accept-language": "en" });
      expect(res.statusCode, path).toBe(status);
      const body = res.json();
      expect(body.error.code, path).toBeTruthy();
      expect(body.error.message, path).toMatch(/[a-z]/);
    }
    const french = await get(`/basemap/${version}/tiles/5/32/11.pbf`);
    expect(french.json().error).toMatchObject({ field: "x" });
    expect(french.json().error.message).not.toBe(
      (await get(`/basemap/${version}/tiles/5/32/11.pbf`, { "accept-language": "en" })).json().error.message,
    );
  });

  it("answers hostile paths and queries on every base map route with a 4xx, never a 5xx", async () => {
    const hostile = ["%00", "%uD800", "..%2F..%2Fetc%2Fpasswd", "9".repeat(300), "%E2%80%AE"];
    const urls = hostile.flatMap((bad) => [
      `/basemap/${bad}/tiles/1/0/0.pbf`,
      `/basemap/v1/tiles/${bad}/0/0.pbf`,
      `/basemap/v1/tiles/1/0/${bad}`,
      `/basemap/v1/fonts/${bad}/0-255.pbf`,
      `/basemap/v1/fonts/Noto%20Sans%20Regular/${bad}`,
      `/basemap/v1/${bad}`,
      `/basemap/style.json?lang=${bad}`,
      `/basemap/outline.svg?bbox=${bad}&size=960x600`,
      `/basemap/outline.svg?bbox=1,48,2,49&size=${bad}`,
    ]);
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});

describe("glyphs and sprite", () => {
  it("serves glyph ranges of Noto Sans as MapLibre's protobuf, and refuses other ranges and fonts", async () => {
    const glyphs = (await style()).glyphs ?? "";
    const url = (font: string, range: string) =>
      new URL(glyphs.replace("{fontstack}", encodeURIComponent(font)).replace("{range}", range)).pathname;
    const res = await get(url("Noto Sans Regular", "0-255"));
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const stack = readGlyphs(res.rawPayload);
    expect(stack.name).toBe("Noto Sans Regular");
    expect(stack.range).toBe("0-255");
    const a = stack.glyphs.get(65);
    expect(a).toMatchObject({ width: expect.any(Number), advance: expect.any(Number) });
    expect(a!.width).toBeGreaterThan(8);
    expect(a!.bitmapLength).toBe((a!.width + 6) * (a!.height + 6));
    // Œ and the typographic apostrophe of French names.
    expect(readGlyphs((await get(url("Noto Sans SemiBold", "256-511"))).rawPayload).glyphs.has(0x152)).toBe(true);
    expect(readGlyphs((await get(url("Noto Sans Regular", "8192-8447"))).rawPayload).glyphs.has(0x2019)).toBe(true);
    expect((await get(url("Noto Sans Regular", "1-256"))).statusCode).toBe(400);
    expect((await get(url("Noto Sans Regular", "65536-65791"))).statusCode).toBe(400);
    expect((await get(url("Comic Sans", "0-255"))).statusCode).toBe(404);
  });

  it("serves the sprite in both pixel ratios", async () => {
    const sprite = new URL((await style()).sprite as string).pathname;
    for (const suffix of ["", "@2x"]) {
      const json = await get(`${sprite}${suffix}.json`);
      expect(json.statusCode).toBe(200);
      expect(json.json()).toMatchObject({ town: { pixelRatio: suffix ? 2 : 1 }, city: {} });
      const png = await get(`${sprite}${suffix}.png`);
      expect(png.headers["content-type"]).toBe("image/png");
      expect(png.rawPayload.subarray(1, 4).toString()).toBe("PNG");
    }
  });
});

describe("GET /basemap/outline.svg", () => {
  it("draws an area's outlines and towns as SVG, and refuses a bad area", async () => {
    const res = await get("/basemap/outline.svg?bbox=1.8,48.5,2.9,49.1&size=960x600");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.body).toMatch(/^<svg [^>]*viewBox="0 0 960 600"/);
    expect(res.body).toContain(">Paris</text>");
    expect(res.body).toMatch(/<path [^>]*d="M/);
    for (const query of ["bbox=3,48,2,49&size=960x600", "bbox=a,b,c,d&size=960x600", "bbox=1,48,2,49&size=9x9"]) {
      expect((await get(`/basemap/outline.svg?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe("without France's outlines", () => {
  it("finds nothing at a missing folder, so the map falls back to Natural Earth", () => {
    expect(resolveOutlines("/nowhere/france-geojson")).toEqual({ outlines: null, tried: "/nowhere/france-geojson" });
    // Unset: the outlines the repository ships, wherever the clone is.
    const shipped = resolveOutlines(undefined);
    expect(shipped.tried).toBe(path.join(findProjectRoot(), "features/maps/data"));
    expect(shipped.outlines?.version).toMatch(/^shipped:[0-9a-f]{12}$/);
  });

  it("still serves land and towns", async () => {
    const basemap = createBasemap({
      outlines: null,
      reference: async () => ({
        towns: [{ code: "75056", name: "Paris", lat: 48.8589, lng: 2.347, population: 2_113_705 }],
        departmentRegions: {},
      }),
      names: { country: (code) => code, sea: (key) => key },
    });
    const tile = decode((await basemap.tile(...FRANCE_Z5))?.body ?? Buffer.alloc(0));
    expect(tile.layers.land?.length).toBeGreaterThan(0);
    expect(names(tile, "places", "name")).toContain("Paris");
    expect(tile.layers.communes).toBeUndefined();
  });
});

/** The one font stack of a glyphs protobuf: its name, range and glyphs' metrics. */
function readGlyphs(body: Buffer) {
  const stack = { name: "", range: "", glyphs: new Map<number, Record<string, number>>() };
  new PbfReader(body).readFields((tag, _result, pbf) => {
    if (tag !== 1) return;
    pbf.readMessage((field, _s, p) => {
      if (field === 1) stack.name = p.readString();
      else if (field === 2) stack.range = p.readString();
      else if (field === 3) {
        const glyph: Record<string, number> = { bitmapLength: 0 };
        p.readMessage((g, _o, q) => {
          if (g === 1) glyph.id = q.readVarint();
          else if (g === 2) glyph.bitmapLength = q.readBytes().length;
          else if (g === 3) glyph.width = q.readVarint();
          else if (g === 4) glyph.height = q.readVarint();
          else if (g === 5) glyph.left = q.readSVarint();
          else if (g === 6) glyph.top = q.readSVarint();
          else if (g === 7) glyph.advance = q.readVarint();
        }, glyph);
        stack.glyphs.set(glyph.id, glyph);
      }
    }, stack);
  }, stack);
  return stack;
}

describe("France's outlines from a france-geojson folder (MAP_DATA_DIR)", () => {
  // Three communes in a row, 0.05° wide; the last two are the former communes of one commune
  // (the same code), so the only border between communes is the one at 5.05° E.
  const square = (west: number, code: string) => ({
    type: "Feature",
    properties: { code, nom: code },
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [west, 46],
          [west + 0.05, 46],
          [west + 0.05, 46.05],
          [west, 46.05],
          [west, 46],
        ],
      ],
    },
  });
  const collection = (...features: unknown[]) => JSON.stringify({ type: "FeatureCollection", features });
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-france-geojson-"));
    const department = square(5, "01");
    department.geometry.coordinates[0] = [
      [5, 46],
      [5.15, 46],
      [5.15, 46.05],
      [5, 46.05],
      [5, 46],
    ];
    fs.writeFileSync(path.join(dir, "departements-avec-outre-mer.geojson"), collection(department));
    fs.mkdirSync(path.join(dir, "communes"));
    fs.writeFileSync(
      path.join(dir, "communes", "communes-01-test.geojson"),
      collection(square(5, "01001"), square(5.05, "01002"), square(5.1, "01002")),
    );
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("reads the folder instead of the shipped outlines, and draws borders between communes only", async () => {
    const { outlines } = resolveOutlines(dir);
    expect(outlines?.version).toMatch(/^geojson:/);
    const basemap = createBasemap({
      outlines,
      reference: async () => ({ towns: [], departmentRegions: { "01": "84" } }),
      names: { country: (code) => code, sea: (key) => key },
    });
    const z = 10;
    const x = Math.floor(((5.07 + 180) / 360) * 2 ** z);
    const lat = (46.025 * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * 2 ** z);
    const layers = await basemap.layersAt(z, x, y);
    expect(layers.land?.features.length).toBeGreaterThan(0);
    const lines = layers.communes?.features ?? [];
    expect(lines.length).toBeGreaterThan(0);
    const longitudes = lines.flatMap((f) =>
      (f.geometry as [number, number][][]).flat().map(([px]) => tileLng(x + px / 4096, z)),
    );
    for (const lng of longitudes) expect(lng).toBeCloseTo(5.05, 3);
  });
});
