/**
 * The golden-image check shared by the posters' golden tests: a rendered PNG against its committed
 * picture in render/golden/ (rewritten first when UPDATE_GOLDEN=1). Same size, and at most 0.5 % of
 * the pixels differing by more than 40 in a channel (anti-aliasing moves, drawings do not).
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { expect } from "vitest";

export const GOLDEN_DIR = path.join(import.meta.dirname, "golden");

async function raw(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export async function expectMatchesGolden(png: Buffer, name: string): Promise<void> {
  const file = path.join(GOLDEN_DIR, `${name}.png`);
  if (process.env.UPDATE_GOLDEN === "1") {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, png);
  }
  const actual = await raw(png);
  const expected = await raw(fs.readFileSync(file));
  expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
  let differing = 0;
  for (let i = 0; i < actual.data.length; i += 3) {
    if (
      Math.abs(actual.data[i] - expected.data[i]) > 40 ||
      Math.abs(actual.data[i + 1] - expected.data[i + 1]) > 40 ||
      Math.abs(actual.data[i + 2] - expected.data[i + 2]) > 40
    )
      differing++;
  }
  expect(differing / (actual.width * actual.height)).toBeLessThanOrEqual(0.005);
}
