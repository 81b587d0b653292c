/**
 * The PNG export's pixels: both sides are the paper's millimetres at the asked resolution
 * (rounded), for every size and orientation, and the poster fills them to the last pixel.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { processGpx } from "../../tracks/track-processing.ts";
import { designFromCourse, POSTER_SIZE_IDS, POSTER_SIZES } from "../poster.contract.ts";
import { serverFonts } from "./fonts.server.ts";
import { sceneToPng } from "./png.server.ts";
import { renderPoster } from "./render.ts";

const track = processGpx(
  fs.readFileSync(path.join(import.meta.dirname, "../../tracks/fixtures/gpx-parse-route-1.1.gpx")),
);
const design = designFromCourse(
  {
    courseId: 1,
    eventName: "Trail des Crêtes",
    courseName: "Grand parcours",
    date: "2026-06-14",
    place: "Annecy",
    distanceM: track.distance,
    elevationGainM: track.elevationGain,
  },
  null,
);
const px = (mm: number, dpi: number) => Math.round((mm / 25.4) * dpi);

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)];
  return { width: info.width, height: info.height, at };
}

describe("PNG export size", () => {
  for (const size of POSTER_SIZE_IDS) {
    for (const orientation of ["portrait", "landscape"] as const) {
      it(`${size} ${orientation} at 40 dpi: both sides from the paper`, async () => {
        const scene = renderPoster({ ...design, size, orientation }, { points: track.points }, serverFonts());
        const [w, h] = orientation === "portrait" ? POSTER_SIZES[size] : [...POSTER_SIZES[size]].reverse();
        const image = await pixels(sceneToPng(scene, 40));
        expect([image.width, image.height]).toEqual([px(w as number, 40), px(h as number, 40)]);
      });
    }
  }

  it("A4 portrait at 300 dpi is 2480 × 3508 px, the background to its last row and column", async () => {
    const scene = renderPoster({ ...design, size: "A4" }, { points: track.points }, serverFonts());
    const image = await pixels(sceneToPng(scene));
    expect([image.width, image.height]).toEqual([2480, 3508]);
    const background = [...Buffer.from(design.colors.background.slice(1), "hex"), 255];
    expect(image.at(image.width - 1, image.height - 1)).toEqual(background);
    expect(image.at(0, 0)).toEqual(background);
  });
});
