/**
 * One colour per sport for the pictures drawn by code (demo landscapes, the stand-in of events
 * without a photo). Each picture is shades of its sport's hue; the sport is always written beside
 * it too, so nothing is said by colour alone.
 */
import type { SportKey } from "../../shared/constants.ts";

/** Hue (degrees) of each sport: neighbours in the list get hues far apart. */
export const SPORT_HUES: Record<SportKey, number> = {
  running: 18,
  trail: 140,
  triathlon: 205,
  mtb: 30,
  swimrun: 182,
  cycling: 48,
  ironman: 352,
  marathon: 328,
  half_marathon: 282,
  short_trail: 100,
  ultra_trail: 250,
};

const hex2 = (x: number) =>
  Math.round(Math.min(255, Math.max(0, x * 255)))
    .toString(16)
    .padStart(2, "0");

/** `#rrggbb` of a hue (degrees), saturation and lightness (percent): every SVG renderer reads it. */
export function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = Math.min(100, Math.max(0, saturation)) / 100;
  const l = Math.min(100, Math.max(0, lightness)) / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return `#${hex2(channel(h + 1 / 3))}${hex2(channel(h))}${hex2(channel(h - 1 / 3))}`;
}
