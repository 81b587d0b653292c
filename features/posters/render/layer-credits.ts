/**
 * The map data's credits, small in the map's lower right corner on a veil of the background.
 * Isomorphic, pure.
 */
import type { PosterDesign } from "../poster.contract.ts";
import type { PosterFontSet } from "./fonts.ts";
import type { Frame } from "./geo.ts";
import type { Prim, TextBox } from "./scene.ts";
import { fitText, textPath } from "./text.ts";

export type CreditLayout = NonNullable<ReturnType<typeof creditLayout>>;

/** Where the credits go: small, in the map's lower right corner; `box` is their veil. */
export function creditLayout(
  credit: string,
  face: PosterFontSet[keyof PosterFontSet]["regular"],
  short: number,
  map: Frame,
) {
  const size = short * 0.0085;
  const fit = fitText(face, credit, {
    maxWidth: map.w * 0.7,
    maxHeight: size * 1.3,
    maxSize: size,
    minSize: size * 0.5,
  });
  if (!fit.lines[0]) return null;
  const w = fit.widths[0];
  const pad = fit.size * 0.4;
  const x = map.x + map.w - w - pad;
  const y = map.y + map.h - pad;
  const box = { x: x - pad, y: y - fit.size - pad * 0.5, w: w + pad * 2, h: fit.size + pad * 1.5 };
  return { fit, x, y, w, box };
}

/** The veil and the credits' line; their box goes in `boxes`. */
export function creditPrims(
  credit: CreditLayout,
  regular: PosterFontSet[keyof PosterFontSet]["regular"],
  colors: PosterDesign["colors"],
): { prims: Prim[]; box: TextBox } {
  const { fit, x, y, w, box } = credit;
  const prims: Prim[] = [{ t: "rect", ...box, fill: colors.background, opacity: 0.75 }];
  prims.push({
    t: "path",
    d: textPath(regular, fit.lines[0], x, y - fit.size * 0.2, fit.size),
    fill: colors.text,
  });
  return { prims, box: { name: "credits", x, y: y - fit.size, w, h: fit.size, lines: 1, size: fit.size } };
}
