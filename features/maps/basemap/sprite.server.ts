/**
 * The base map's sprite (sprite.json / sprite.png, and @2x): the town dots drawn beside the names,
 * in one symbol with them so that a dot never shows without its label. Drawn by sharp from SVG
 * once per process (milliseconds).
 */
import sharp from "sharp";
import { BASEMAP_COLORS } from "../basemap-style.ts";

type Icon = { name: string; size: number; svg: (size: number) => string };

const ICONS: Icon[] = [
  {
    name: "town",
    size: 7,
    svg: (s) =>
      `<circle cx="${s / 2}" cy="${s / 2}" r="${s / 2 - s / 7}" fill="#fff" stroke="${BASEMAP_COLORS.townText}" stroke-width="${s / 7}"/>`,
  },
  {
    name: "city",
    size: 10,
    svg: (s) =>
      `<circle cx="${s / 2}" cy="${s / 2}" r="${s / 2 - s / 8}" fill="${BASEMAP_COLORS.cityText}" stroke="#fff" stroke-width="${s / 5}"/>`,
  },
];

export type Sprite = { json: Buffer; png: Buffer };

async function draw(ratio: 1 | 2): Promise<Sprite> {
  const json: Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }> = {};
  let x = 0;
  let height = 0;
  const parts: string[] = [];
  for (const icon of ICONS) {
    const size = icon.size * ratio;
    json[icon.name] = { x, y: 0, width: size, height: size, pixelRatio: ratio };
    parts.push(`<g transform="translate(${x} 0)">${icon.svg(size)}</g>`);
    x += size + 2 * ratio;
    height = Math.max(height, size);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${x}" height="${height}">${parts.join("")}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return { json: Buffer.from(JSON.stringify(json)), png };
}

const sprites = new Map<1 | 2, Promise<Sprite>>();
export function sprite(ratio: 1 | 2): Promise<Sprite> {
  let promise = sprites.get(ratio);
  if (!promise) {
    promise = draw(ratio);
    promise.catch(() => sprites.delete(ratio));
    sprites.set(ratio, promise);
  }
  return promise;
}
