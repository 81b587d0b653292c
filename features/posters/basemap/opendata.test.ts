/**
 * France's open data on posters (decision 038), over the real data: the site's base map read from
 * the outlines the repository ships (or MAP_DATA_DIR's folder; missing outlines fail, never skip) and
 * the shipped towns. A lap of the lake of Annecy: its communes come, far ones do not;
 * the labels fit (inside the map, not over each other, the text or the credits); the layer stays
 * small; the golden picture of a poster with towns and borders.
 */
import { Resvg } from "@resvg/resvg-js";
import { beforeAll, describe, expect, it } from "vitest";
import {
  blankDesign,
  designFromCourse,
  POSTER_PALETTES,
  type PosterDesign,
  posterDesignSchema,
} from "../poster.contract.ts";
import { serverFonts } from "../render/fonts.server.ts";
import type { TrackPoint } from "../render/geo.ts";
import { expectMatchesGolden } from "../render/golden-compare.ts";
import { renderPoster, type Scene } from "../render/render.ts";
import { sceneToSvg } from "../render/svg.ts";
import { type BasemapLayer, basemapBox, basemapLayerSchema, degreesToBbox } from "./layer.ts";
import { realOpenData } from "./opendata.fixture.ts";
import { type OpenDataSource, withOpenData } from "./opendata.server.ts";

let openData: OpenDataSource;
beforeAll(async () => {
  openData = realOpenData().openData;
  // The first build reads the towns' reference (the shipped communes): not part of what is measured.
  await openData.build(degreesToBbox([6.1, 45.85, 6.15, 45.9]), 200);
}, 60_000);

/** Around the lake of Annecy by its shores (Annecy, Sévrier, Duingt, Talloires, Menthon), 40 km. */
const LAKE: [number, number][] = [
  [6.129, 45.899],
  [6.114, 45.866],
  [6.145, 45.823],
  [6.2, 45.79],
  [6.236, 45.783],
  [6.209, 45.823],
  [6.197, 45.857],
  [6.158, 45.893],
  [6.129, 45.899],
];
const lake: TrackPoint[] = LAKE.flatMap(([lng, lat], i) => {
  if (i === 0) return [];
  const [plng, plat] = LAKE[i - 1];
  return Array.from(
    { length: 30 },
    (_, k): TrackPoint => [
      plng + ((lng - plng) * k) / 30,
      plat + ((lat - plat) * k) / 30,
      450 + 20 * Math.sin(i + k / 10),
    ],
  );
});

const design: PosterDesign = {
  ...designFromCourse({
    courseId: 1,
    eventName: "Tour du lac d'Annecy",
    courseName: "40 km",
    date: "2026-05-10",
    place: "Annecy",
    distanceM: 40_000,
    elevationGainM: 320,
  }),
  mapStyle: "trace",
};

/** The poster drawn as the export job draws it: once for the box, then with the layer of the print. */
async function draw(
  d: PosterDesign,
  points: TrackPoint[],
  px?: number,
): Promise<{ scene: Scene; layer: BasemapLayer | null }> {
  const fonts = serverFonts();
  const first = renderPoster(d, { points }, fonts);
  if (!first.view) throw new Error("no view");
  const bbox = basemapBox(first.view, 0.02);
  const pixels = px ?? Math.round((first.map.w / 25.4) * 300);
  const layer = withOpenData(null, d.mapStyle, bbox, await openData.build(bbox, pixels));
  return { scene: renderPoster(d, { points }, fonts, layer), layer };
}

const overlap = (a: Scene["boxes"][number], b: Scene["boxes"][number]) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("France's towns and borders on a poster", () => {
  it("names the lake's communes, not far ones, in labels that fit the map and leave the texts alone", async () => {
    const { scene, layer } = await draw(design, lake);
    const names = layer?.places?.map((p) => p.name) ?? [];
    for (const near of ["Annecy", "Sevrier", "Duingt", "Talloires-Montmin", "Menthon-Saint-Bernard"])
      expect(names).toContain(near);
    for (const far of ["Chamonix-Mont-Blanc", "Paris", "Genève", "Chambéry", "Aix-les-Bains"])
      expect(names).not.toContain(far);
    expect(layer?.borders?.map((b) => b.level)).toContain("commune");

    const labels = scene.boxes.filter((b) => b.name.startsWith("place:"));
    expect(labels.length).toBeGreaterThanOrEqual(5);
    expect(labels.length).toBeLessThanOrEqual(12);
    // The largest town by the course is named.
    expect(labels.map((l) => l.name)).toContain("place:Annecy");
    const others = scene.boxes.filter((b) => !b.name.startsWith("place:"));
    expect(others.map((b) => b.name)).toContain("credits");
    for (const l of labels) {
      expect(l.x).toBeGreaterThanOrEqual(scene.map.x);
      expect(l.y).toBeGreaterThanOrEqual(scene.map.y);
      expect(l.x + l.w).toBeLessThanOrEqual(scene.map.x + scene.map.w);
      expect(l.y + l.h).toBeLessThanOrEqual(scene.map.y + scene.map.h);
      for (const o of others) expect(overlap(l, o), `${l.name} over ${o.name}`).toBe(false);
      for (const m of labels) if (m !== l) expect(overlap(l, m), `${l.name} over ${m.name}`).toBe(false);
    }
    // The credits name the open data.
    const svg = sceneToSvg(scene);
    expect(scene.boxes.find((b) => b.name === "credits")?.w).toBeGreaterThan(0);
    expect(svg.length).toBeGreaterThan(0);
  });

  it("keeps the layer small: clipped to the box and thinned to the print's resolution", async () => {
    const { layer } = await draw({ ...design, size: "50x70" }, lake);
    const json = JSON.stringify(layer);
    expect(json.length).toBeLessThan(120_000);
    // Every coordinate is on the layer's grid, inside the box.
    const parsed = basemapLayerSchema.parse(layer);
    for (const b of parsed.borders)
      for (const line of b.lines) for (const v of line) expect(v >= 0 && v <= 20_000).toBe(true);
    // A preview's layer is coarser than the print's.
    const preview = await draw({ ...design, size: "50x70" }, lake, 400);
    expect(JSON.stringify(preview.layer).length).toBeLessThan(json.length);
  });

  it("draws nothing of it when the design says no, and has nothing outside France", async () => {
    const off = await draw({ ...design, towns: false }, lake);
    expect(off.scene.boxes.some((b) => b.name.startsWith("place:"))).toBe(false);
    expect(off.scene.boxes.some((b) => b.name === "credits")).toBe(false);
    // Lake Geneva's Swiss shore, and the Atlantic.
    expect(await openData.build(degreesToBbox([6.55, 46.5, 6.7, 46.56]), 1000)).toBeNull();
    expect(await openData.build(degreesToBbox([-20, 40, -19, 41]), 1000)).toBeNull();
  });

  it("prints the open data's credit only when something of it is on the map", () => {
    const fonts = serverFonts();
    const first = renderPoster(design, { points: lake }, fonts);
    if (!first.view) throw new Error("no view");
    const bbox = basemapBox(first.view, 0.2);
    // A town in the layer's corner, outside the map's frame, and no borders.
    const layer = withOpenData(null, "trace", bbox, {
      borders: [],
      land: [],
      places: [{ name: "Ailleurs", population: 1000, x: 10, y: 10 }],
    });
    const scene = renderPoster(design, { points: lake }, fonts, layer);
    expect(scene.boxes.some((b) => b.name.startsWith("place:"))).toBe(false);
    expect(scene.boxes.some((b) => b.name === "credits")).toBe(false);
  });

  it("adds the borders and names on top of a tile style's own layer, with both credits", async () => {
    const fonts = serverFonts();
    const roads = { ...design, mapStyle: "roads" as const };
    const first = renderPoster(roads, { points: lake }, fonts);
    if (!first.view) throw new Error("no view");
    const bbox = basemapBox(first.view, 0.02);
    const street = [0, 10_000, 20_000, 10_000];
    const tiles: BasemapLayer = {
      style: "roads",
      bbox,
      image: null,
      contours: null,
      shapes: [{ kind: "road-major", closed: false, rings: [street] }],
      credits: ["© OpenStreetMap contributors"],
    };
    const layer = withOpenData(tiles, "roads", bbox, await openData.build(bbox, 1200));
    expect(layer?.shapes).toEqual(tiles.shapes);
    expect(layer?.borders?.length).toBeGreaterThan(0);
    const scene = renderPoster(roads, { points: lake }, fonts, layer);
    expect(scene.drawnStyle).toBe("roads");
    expect(scene.boxes.some((b) => b.name.startsWith("place:"))).toBe(true);
    const credits = scene.boxes.find((b) => b.name === "credits");
    // Both sources credited: wider than the tiles' credit alone.
    const alone = renderPoster(roads, { points: lake }, fonts, tiles).boxes.find((b) => b.name === "credits");
    expect(credits && alone && credits.w > alone.w * 1.5).toBe(true);
  });

  it("tints the sea of a coast's box and keeps the land in the background colour", async () => {
    const coast: TrackPoint[] = Array.from({ length: 120 }, (_, i) => [-2.39 - i * 0.001, 47.284 - i * 0.0002, 5]);
    const { layer, scene } = await draw(design, coast);
    expect(layer?.borders?.map((b) => b.level)).toContain("coast");
    expect(layer?.land?.length).toBeGreaterThan(0);
    expect(scene.prims.some((p) => p.t === "rect" && p.fill !== design.colors.background && p.w === scene.map.w)).toBe(
      true,
    );
  });
});

describe("the design's towns and borders", () => {
  it("is on for a new design, and off for a design saved before it (which keeps its look)", () => {
    expect(blankDesign({ type: "course", id: 1 }).towns).toBe(true);
    const { towns: _, ...saved } = blankDesign({ type: "course", id: 1 });
    const parsed = posterDesignSchema.parse(saved);
    expect(parsed.towns).toBe(false);
    expect(posterDesignSchema.safeParse({ ...saved, towns: "yes" }).success).toBe(false);
  });
});

describe("golden poster with towns and borders", () => {
  it("matches its committed picture (night palette, the lake of Annecy)", async () => {
    const night = { ...design, palette: "night" as const, colors: { ...POSTER_PALETTES.night }, size: "A4" as const };
    const { scene } = await draw(night, lake, 1200);
    const png = new Resvg(sceneToSvg(scene), { fitTo: { mode: "width", value: 360 }, font: { loadSystemFonts: false } })
      .render()
      .asPng();
    await expectMatchesGolden(png, "towns-night");
  });
});
