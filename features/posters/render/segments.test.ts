/**
 * A track of several segments (issue 26 item 4): the poster draws no line across the gap between
 * two, in the map as in the profile, whatever the style.
 */
import { describe, expect, it } from "vitest";
import { blankDesign, type PosterDesign } from "../poster.contract.ts";
import { serverFonts } from "./fonts.server.ts";
import type { TrackPoint } from "./geo.ts";
import { type Prim, renderPoster } from "./render.ts";

const METRES_PER_DEGREE = 111_195;
/** 1 km north at `ele`, from (lng, 45°N), a point every 10 m. */
const stretch = (lng: number, ele: (d: number) => number): TrackPoint[] =>
  Array.from({ length: 101 }, (_, i) => [lng, 45 + (i * 10) / METRES_PER_DEGREE, ele(i * 10)]);
const first = stretch(6, () => 500);
const second = stretch(6.03, (d) => 800 + d / 20);
const track = { points: [...first, ...second], breaks: [first.length] };

function design(mapStyle: PosterDesign["mapStyle"]): PosterDesign {
  const d = blankDesign({ type: "track", id: 1 }, "Deux morceaux");
  return { ...d, mapStyle, show: { ...d.show, elevationProfile: true, kmMarkers: true } };
}

const paths = (prims: Prim[], width: (w: number) => boolean) =>
  prims.filter(
    (p): p is Extract<Prim, { t: "path" }> => p.t === "path" && p.stroke !== undefined && width(p.width ?? 0),
  );

describe("a poster of a track of two segments", () => {
  it("draws the line as two pieces and the profile as two, nothing across the gap", () => {
    const d = design("trace");
    const scene = renderPoster(d, track, serverFonts());
    const lines = paths(scene.prims, () => true).filter((p) => p.stroke === d.colors.track && p.round);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // The map's line (and its halo) and the profile's line: each two subpaths.
    for (const line of lines) expect(line.d.match(/M/g)).toHaveLength(2);
    const halo = paths(scene.prims, () => true).find((p) => p.stroke === d.colors.background && p.round)!;
    expect(halo.d.match(/M/g)).toHaveLength(2);
  });

  it("in colour, no piece of the line crosses the gap", () => {
    const d = design("colour");
    const scene = renderPoster(d, track, serverFonts());
    const pieces = paths(scene.prims, () => true).filter(
      (p) => p.round && p.stroke !== d.colors.background && p.d.match(/M/g)?.length === 1,
    );
    expect(pieces.length).toBeGreaterThan(2);
    const gapX = (x: string) => Number(x);
    // Every piece stays on one side: its x coordinates all west or all east of the gap's middle.
    const xs = pieces.map((p) => [...p.d.matchAll(/[ML]([\d.]+) /g)].map((m) => gapX(m[1])));
    const all = xs.flat();
    const middle = (Math.min(...all) + Math.max(...all)) / 2;
    for (const piece of xs) {
      const sides = new Set(piece.map((x) => x < middle));
      expect(sides.size).toBe(1);
    }
  });
});
