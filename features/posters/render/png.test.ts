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
import { dpiOf, pngChunks, pngPhysicalSize } from "./png-chunks.fixture.ts";
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

  it("says its resolution in a pHYs chunk: 300 dpi is 11811 pixels per metre, an A3 prints 29.7 × 42 cm", async () => {
    const scene = renderPoster({ ...design, size: "A3" }, { points: track.points }, serverFonts());
    const png = sceneToPng(scene);
    const chunks = pngChunks(png);
    // Right after the header, before the pixels, checksums right (viewers ignore a bad chunk).
    expect(chunks.map((c) => c.type).slice(0, 2)).toEqual(["IHDR", "pHYs"]);
    expect(chunks.filter((c) => c.type === "pHYs")).toHaveLength(1);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    expect(pngPhysicalSize(png)).toEqual({ x: 11811, y: 11811, unit: 1 });
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, meta.density]).toEqual([3508, 4961, 300]);
    // 3508 px at 11811 px/m: 29.7 cm.
    expect(Math.round((3508 / 11811) * 1000)).toBe(297);
    // Any other resolution says its own.
    const low = pngPhysicalSize(sceneToPng(scene, 40));
    expect(low && [dpiOf(low.x), dpiOf(low.y), low.unit]).toEqual([40, 40, 1]);
  });
});
