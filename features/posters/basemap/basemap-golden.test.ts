import { Resvg } from "@resvg/resvg-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { designFromCourse, POSTER_PALETTES, type PosterDesign } from "../poster.contract.ts";
import { serverFonts } from "../render/fonts.server.ts";
import type { TrackPoint } from "../render/geo.ts";
import { expectMatchesGolden } from "../render/golden-compare.ts";
import { renderPoster } from "../render/render.ts";
import { sceneToSvg } from "../render/svg.ts";
import { basemapSources } from "./basemap.server.ts";
import { basemapBox } from "./layer.ts";
import { elevationAt, startTileServer, type TileServer } from "./tile-server.fixture.ts";

const WIDTH = 360;

let server: TileServer;
beforeAll(async () => {
  server = await startTileServer();
});
afterAll(() => server.close());

const points: TrackPoint[] = Array.from({ length: 240 }, (_, i) => {
  const a = (i / 239) * Math.PI * 1.6;
  const lng = 6.9 + 0.022 * Math.cos(a) - 0.004;
  const lat = 45.9 + 0.014 * Math.sin(a);
  return [lng, lat, elevationAt(lng, lat)];
});

const base = designFromCourse({
  courseId: 1,
  eventName: "Tour du Mont",
  courseName: "Boucle des crêtes",
  date: "2026-07-05",
  place: "Chamonix",
  distanceM: 9800,
  elevationGainM: 1200,
});
const cases: Record<string, Partial<PosterDesign>> = {
  "relief-detailed-paper": { mapStyle: "relief-detailed" },
  "roads-mono": { mapStyle: "roads", palette: "mono", colors: { ...POSTER_PALETTES.mono }, font: "noto-sans" },
};

async function draw(name: string): Promise<Buffer> {
  const design = { ...base, ...cases[name] };
  const sources = basemapSources({
    POSTER_TILES_URL: `${server.origin}/mvt/{z}/{x}/{y}.pbf`,
    POSTER_TILES_CREDIT: "",
    POSTER_DEM_URL: `${server.origin}/terrarium/{z}/{x}/{y}.png`,
    POSTER_DEM_ENCODING: "terrarium",
    POSTER_DEM_CREDIT: "Relief: synthetic",
  });
  const fonts = serverFonts();
  const first = renderPoster(design, { points }, fonts);
  if (!first.view) throw new Error("no view");
  const layer = await sources.build(design.mapStyle, basemapBox(first.view, 0.02), 800);
  const scene = renderPoster(design, { points }, fonts, layer);
  expect(scene.drawnStyle).toBe(design.mapStyle);
  return new Resvg(sceneToSvg(scene), { fitTo: { mode: "width", value: WIDTH }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
}

describe("golden posters over map data", () => {
  it.each(Object.keys(cases))("%s matches its committed picture", async (name) => {
    const png = await draw(name);
    await expectMatchesGolden(png, name);
  });
});
