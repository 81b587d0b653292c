/**
 * A poster's layout: a margin all round; the text block at the top or the bottom, the elevation
 * profile (when shown and the track has elevations) beside the map, the map in the rest.
 * Isomorphic, pure.
 */
import { type PosterDesign, paperMm } from "../poster.contract.ts";
import type { Frame } from "./geo.ts";

export type PosterLayout = {
  /** Paper size in millimetres, and its shorter side (what line widths and sizes scale with). */
  W: number;
  H: number;
  short: number;
  inner: Frame;
  text: Frame;
  map: Frame;
  profile: Frame | null;
};

export function posterLayout(design: PosterDesign, hasElevation: boolean): PosterLayout {
  const [W, H] = paperMm(design);
  const short = Math.min(W, H);
  const m = Math.min(design.marginMm, short * 0.2);
  const inner: Frame = { x: m, y: m, w: W - 2 * m, h: H - 2 * m };
  // Vertical layout.
  const landscape = W > H;
  const textH = inner.h * (landscape ? 0.3 : 0.24);
  const showProfile = design.show.elevationProfile && hasElevation;
  const profileH = showProfile ? inner.h * (landscape ? 0.1 : 0.08) : 0;
  const gap = inner.h * 0.025;
  const mapH = inner.h - textH - gap - (showProfile ? profileH + gap : 0);
  let text: Frame;
  let map: Frame;
  let profile: Frame | null = null;
  if (design.textPosition === "bottom") {
    map = { x: inner.x, y: inner.y, w: inner.w, h: mapH };
    if (showProfile) profile = { x: inner.x, y: map.y + mapH + gap, w: inner.w, h: profileH };
    text = { x: inner.x, y: inner.y + inner.h - textH, w: inner.w, h: textH };
  } else {
    text = { x: inner.x, y: inner.y, w: inner.w, h: textH };
    map = { x: inner.x, y: inner.y + textH + gap, w: inner.w, h: mapH };
    if (showProfile) profile = { x: inner.x, y: map.y + mapH + gap, w: inner.w, h: profileH };
  }
  return { W, H, short, inner, text, map, profile };
}
