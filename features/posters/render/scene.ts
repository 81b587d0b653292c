/**
 * What the renderer produces (issue 15): a scene of plain shapes (rectangles, paths, circles,
 * images) in millimetres of paper, the boxes the texts went in, and the path data helpers every
 * layer writes its shapes with. Isomorphic, pure, no I/O.
 */
import type { PosterDesign } from "../poster.contract.ts";
import type { Frame, TrackPoint } from "./geo.ts";
import { mix } from "./opendata.ts";

export type Prim =
  | { t: "rect"; x: number; y: number; w: number; h: number; fill: string; opacity?: number }
  | {
      t: "path";
      d: string;
      fill?: string;
      stroke?: string;
      width?: number;
      opacity?: number;
      /** Round caps and joins (tracks). */
      round?: boolean;
      /** Text outlines and contour rings use the non-zero rule; bands use even-odd. */
      evenOdd?: boolean;
    }
  | { t: "circle"; cx: number; cy: number; r: number; fill?: string; stroke?: string; width?: number }
  /** A raster (shaded relief, decision 037) drawn at x, y, w, h and cut to `clip`. */
  | { t: "image"; x: number; y: number; w: number; h: number; href: string; clip: Frame; opacity?: number };

export type TextBox = Frame & { name: string; lines: number; size: number };

export type Scene = {
  /** Paper size in millimetres. */
  width: number;
  height: number;
  prims: Prim[];
  /** Where each text went (its ink box: the widest line × the lines' height). */
  boxes: TextBox[];
  /** The area texts must stay in (inside the margins). */
  inner: Frame;
  map: Frame;
  /** The style actually drawn (a style whose data source is missing falls back to "trace"). */
  drawnStyle: PosterDesign["mapStyle"];
  /** The map frame's box in Web Mercator units (minX, minY, maxX, maxY): what a basemap must cover. */
  view: [number, number, number, number] | null;
};

/**
 * The line to draw and, when it has several segments (a GPX file's <trkseg>s), the indexes in
 * `points` where each but the first starts: no line is drawn across the gap, and the distance
 * (figures, kilometre marks, profile) leaves it out.
 */
export type PosterTrack = { points: readonly TrackPoint[]; breaks?: readonly number[] | null };

/** Two decimals: path data stays short and the same from one redraw to the next. */
export const f2 = (n: number) => n.toFixed(2);

/** Path data of the line through `xy` from `from` to `to`; a new subpath at each of `starts`. */
export function polyline(
  xy: readonly [number, number][],
  from = 0,
  to = xy.length - 1,
  starts?: ReadonlySet<number>,
): string {
  let d = "";
  for (let i = from; i <= to; i++) d += `${i === from || starts?.has(i) ? "M" : "L"}${f2(xy[i][0])} ${f2(xy[i][1])}`;
  return d;
}

/** The hypsometric colours (low to high) of the "colour" style, its profile and its start marker. */
export const HYPSO = ["#2b83ba", "#80bfac", "#c7e9ad", "#ffffbf", "#fec980", "#f17c4a", "#d7191c"];

/** The colour at `t` (0–1) along a ramp of colours. */
export function ramp(colors: readonly string[], t: number): string {
  const x = Math.max(0, Math.min(1, t)) * (colors.length - 1);
  const i = Math.min(Math.floor(x), colors.length - 2);
  return mix(colors[i], colors[i + 1], x - i);
}
