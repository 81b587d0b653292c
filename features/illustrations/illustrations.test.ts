import fs from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { SPORT_KEYS } from "../../shared/constants.ts";
import { cardPicture, GENERATED_ROOT, generatedImagePath, headerPicture, parseGeneratedFile } from "./event-images.ts";
import { renderGeneratedFile } from "./generated-images.service.server.ts";
import { type LandscapeSpec, landscapeName, landscapeSvg, parseLandscapeName, profileLevels } from "./landscape.ts";
import { hsl } from "./palette.ts";
import { sportArtSvg } from "./sport-art.ts";

const spec: LandscapeSpec = {
  sport: "ultra_trail",
  terrain: "mountain",
  seed: 1234,
  profile: [0, 4, 12, 20, 29, 35, 30, 22, 14, 9, 12, 18, 25, 19, 8, 2],
};

describe("landscape names", () => {
  it("say everything the picture needs in 20 characters, and read back the same", () => {
    const name = landscapeName(spec);
    expect(name).toMatch(/^[0-9a-z]{20}$/);
    expect(parseLandscapeName(name)).toEqual(spec);
    for (const sport of SPORT_KEYS) {
      for (const terrain of ["mountain", "lake", "sea", "town", "country"] as const) {
        expect(parseLandscapeName(landscapeName({ ...spec, sport, terrain }))).toMatchObject({ sport, terrain });
      }
    }
  });

  it("refuse anything else", () => {
    for (const name of [
      "",
      "x",
      `${landscapeName(spec)}0`,
      landscapeName(spec).replace("m", "q"),
      "../../etc/passwd",
    ]) {
      expect(parseLandscapeName(name)).toBeNull();
    }
    expect(parseLandscapeName(`z${landscapeName(spec).slice(1)}`)).toBeNull();
  });

  it("name a picture's sizes: the large one and the two card crops, nothing else", () => {
    const path = generatedImagePath(spec);
    expect(path).toBe(`${GENERATED_ROOT}${landscapeName(spec)}.webp`);
    const file = path.slice(GENERATED_ROOT.length);
    expect(parseGeneratedFile(file)).toMatchObject({ spec, width: 1600, height: 900 });
    expect(parseGeneratedFile(file.replace(".webp", "-960x600.webp"))).toMatchObject({ width: 960, height: 600 });
    expect(parseGeneratedFile(file.replace(".webp", "-480x300.webp"))).toMatchObject({ width: 480, height: 300 });
    expect(parseGeneratedFile(file.replace(".webp", "-640x400.webp"))).toBeNull();
    expect(parseGeneratedFile(file.replace(".webp", ".png"))).toBeNull();
  });
});

describe("profiles", () => {
  it("keep a course's shape, lowest point at 0", () => {
    const levels = profileLevels([500, 900, 1400, 900, 500, 1100]);
    expect(levels).toHaveLength(16);
    expect(Math.min(...levels)).toBe(0);
    expect(Math.max(...levels)).toBe(35);
    expect(levels.indexOf(35)).toBeLessThan(8);
  });

  it("keep a flat road race flat", () => {
    expect(Math.max(...profileLevels([40, 52, 47, 60, 45, 41]))).toBeLessThanOrEqual(5);
    expect(profileLevels([])).toEqual(new Array(16).fill(0));
  });
});

describe("drawing", () => {
  it("gives the same SVG for the same landscape, another for another", () => {
    const svg = landscapeSvg(spec, 480, 300);
    expect(landscapeSvg(spec, 480, 300)).toBe(svg);
    expect(landscapeSvg({ ...spec, seed: 7 }, 480, 300)).not.toBe(svg);
    expect(landscapeSvg({ ...spec, sport: "swimrun", terrain: "lake" }, 480, 300)).not.toBe(svg);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="480" height="300"/);
  });

  it("is coloured by sport", () => {
    expect(hsl(0, 100, 50)).toBe("#ff0000");
    expect(hsl(120, 100, 25)).toBe("#008000");
    expect(hsl(240, 100, 50)).toBe("#0000ff");
    expect(hsl(0, 0, 100)).toBe("#ffffff");
  });

  it("rasterises to WebP at each size, the same bytes every time", async () => {
    const name = landscapeName(spec);
    const small = await renderGeneratedFile(`${name}-480x300.webp`);
    expect(await sharp(small!).metadata()).toMatchObject({ format: "webp", width: 480, height: 300 });
    expect(Buffer.compare(small!, (await renderGeneratedFile(`${name}-480x300.webp`))!)).toBe(0);
    expect(await renderGeneratedFile("nothing.webp")).toBeNull();
  });

  it("keeps the sports' stand-in files in step with the drawing", () => {
    for (const sport of SPORT_KEYS) {
      const file = new URL(`./art/${sport}.svg`, import.meta.url);
      // Out of step: run `npx tsx features/illustrations/write-sport-art.ts`.
      expect(fs.readFileSync(file, "utf8"), sport).toBe(sportArtSvg(sport));
      expect(fs.statSync(file).size).toBeLessThan(6_000);
    }
  });
});

describe("card and header pictures", () => {
  it("come in the card crops for uploads and landscapes, with their widths", () => {
    expect(cardPicture("0123456789abcdef0123.webp", 42)).toEqual({
      src: "/media/event/42/0123456789abcdef0123-480x300.webp",
      srcSet:
        "/media/event/42/0123456789abcdef0123-480x300.webp 480w, /media/event/42/0123456789abcdef0123-960x600.webp 960w",
    });
    const landscape = generatedImagePath(spec);
    expect(cardPicture(landscape, 42)?.srcSet).toBe(
      `${landscape.replace(".webp", "-480x300.webp")} 480w, ${landscape.replace(".webp", "-960x600.webp")} 960w`,
    );
    expect(headerPicture(landscape)).toEqual({
      src: landscape,
      srcSet: `${landscape.replace(".webp", "-960x600.webp")} 960w, ${landscape} 1600w`,
    });
  });

  it("show other files as they are, and nothing when there is none", () => {
    expect(cardPicture("flyer.jpg", 42)).toEqual({ src: "/media/event/42/flyer.jpg" });
    expect(headerPicture("/media/event/42/header.jpg")).toEqual({ src: "/media/event/42/header.jpg" });
    expect(cardPicture(null, 42)).toBeNull();
    expect(headerPicture(null)).toBeNull();
  });
});
