/**
 * Golden images: three posters of different style families drawn to PNG by resvg and compared
 * pixel by pixel (sharp's raw pixels) with the committed pictures in golden/. A pixel differs when
 * a channel moves by more than 40/255; at most 0.5 % may differ (anti-aliasing across versions).
 * After a deliberate change of the drawing: `UPDATE_GOLDEN=1 npx vitest run --project unit
 * features/posters/render/golden.test.ts`, then look at the pictures before committing them.
 */
import fs from "node:fs";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { describe, it } from "vitest";
import { processGpx } from "../../tracks/track-processing.ts";
import { designFromCourse, POSTER_PALETTES, type PosterDesign } from "../poster.contract.ts";
import { serverFonts } from "./fonts.server.ts";
import { expectMatchesGolden } from "./golden-compare.ts";
import { renderPoster } from "./render.ts";
import { sceneToSvg } from "./svg.ts";

const fixtures = path.join(import.meta.dirname, "../../tracks/fixtures");
const WIDTH = 360;

function base(file: string, patch: Partial<PosterDesign>): { design: PosterDesign; file: string } {
  const track = processGpx(fs.readFileSync(path.join(fixtures, file)));
  const design = designFromCourse(
    {
      courseId: 1,
      eventName: "Trail des Crêtes",
      courseName: "Grand parcours",
      date: "2026-06-14",
      place: "Freiburg",
      distanceM: track.distance,
      elevationGainM: track.elevationGain,
    },
    { timeMs: 3 * 3600_000 + 42 * 60_000 + 17_000, rank: 12 },
  );
  return { design: { ...design, ...patch }, file };
}

const cases = {
  "contours-paper": base("togeojson-multitrack.gpx", { mapStyle: "contours-light" }),
  "colour-night": base("gpx-parse-route-1.1.gpx", {
    mapStyle: "colour",
    palette: "night",
    colors: { ...POSTER_PALETTES.night },
    font: "noto-sans",
    title: "Semi-marathon du Kent",
    lang: "en",
  }),
  "trace-mono-landscape": base("togeojson-trek.gpx", {
    mapStyle: "trace",
    palette: "mono",
    colors: { ...POSTER_PALETTES.mono },
    orientation: "landscape",
    font: "playfair-display",
    textPosition: "top",
  }),
};

async function draw(name: keyof typeof cases): Promise<Buffer> {
  const { design, file } = cases[name];
  const track = processGpx(fs.readFileSync(path.join(fixtures, file)));
  const svg = sceneToSvg(renderPoster(design, { points: track.points }, serverFonts()));
  return new Resvg(svg, { fitTo: { mode: "width", value: WIDTH } }).render().asPng();
}

describe("golden posters", () => {
  it.each(Object.keys(cases) as (keyof typeof cases)[])("%s matches its committed picture", async (name) => {
    const png = await draw(name);
    await expectMatchesGolden(png, name);
  });
});
