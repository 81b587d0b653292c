/**
 * Text never overflows: for every paper size, orientation, font and text position, with short and
 * very long texts, every text's ink — measured by resvg (an independent SVG renderer) on the
 * outlines drawn — stays inside the margins and inside its own block, and no two texts overlap.
 */
import fs from "node:fs";
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { processGpx } from "../../tracks/track-processing.ts";
import { designFromCourse, POSTER_FONTS, POSTER_SIZE_IDS, type PosterDesign } from "../poster.contract.ts";
import { serverFonts } from "./fonts.server.ts";
import { type Prim, renderPoster, type Scene } from "./render.ts";
import { primToSvg } from "./svg.ts";

const track = processGpx(fs.readFileSync(path.join(import.meta.dirname, "../../tracks/fixtures/togeojson-trek.gpx")));
const fonts = serverFonts();
const LONG_TITLE = "Ultra-Trail International des Grandes Traversées du Massif des Aiguilles Rouges et du Mont-Blanc";
const LONG_SUBTITLE = "Grand parcours intégral de la traversée — Saint-Gervais-les-Bains, Haute-Savoie, France";

function design(patch: Partial<PosterDesign>): PosterDesign {
  const d = designFromCourse(
    {
      courseId: 1,
      eventName: "Trail",
      courseName: "Course",
      date: "2026-09-30",
      place: "Annecy",
      distanceM: 172_456,
      elevationGainM: 10_123,
    },
    { timeMs: 46 * 3600_000 + 59 * 60_000 + 59_000, rank: 10_234 },
  );
  return { ...d, ...patch, show: { ...d.show, kmMarkers: true } };
}

/** resvg's bounding box of the ink of some prims, in millimetres. */
function ink(scene: Scene, prims: Prim[]) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}">${prims.map(primToSvg).join("")}</svg>`;
  const box = new Resvg(svg).getBBox();
  if (!box) throw new Error("no ink");
  return { x: box.x, y: box.y, w: box.width, h: box.height };
}

const TOL = 0.05;

describe("poster layout", () => {
  const cases: [string, Partial<PosterDesign>][] = [];
  for (const size of POSTER_SIZE_IDS)
    for (const orientation of ["portrait", "landscape"] as const)
      for (const font of POSTER_FONTS)
        cases.push([
          `${size} ${orientation} ${font}`,
          {
            size,
            orientation,
            font,
            title: LONG_TITLE,
            subtitle: LONG_SUBTITLE,
            textPosition: size === "A2" ? "top" : "bottom",
          },
        ]);
  cases.push(["A4 short title, wide margins", { size: "A4", title: "10K", subtitle: "", marginMm: 60 }]);
  cases.push(["50x70 one-word title too long for one line", { size: "50x70", title: "W".repeat(80) }]);

  it.each(cases)("%s: every text stays inside the margins and its block, without overlap", (_name, patch) => {
    const d = design(patch);
    const scene = renderPoster(d, { points: track.points }, fonts);
    const texts = scene.prims.filter(
      (p) => p.t === "path" && (p.fill === d.colors.text || p.fill === d.colors.accent) && !p.stroke,
    );
    const all = ink(scene, texts);
    const { inner } = scene;
    expect(all.x).toBeGreaterThanOrEqual(inner.x - TOL);
    expect(all.y).toBeGreaterThanOrEqual(inner.y - TOL);
    expect(all.x + all.w).toBeLessThanOrEqual(inner.x + inner.w + TOL);
    expect(all.y + all.h).toBeLessThanOrEqual(inner.y + inner.h + TOL);

    // The title is always there, and every laid-out text box lies inside the margins.
    const title = scene.boxes.find((b) => b.name === "title");
    expect(title?.lines).toBeGreaterThanOrEqual(1);
    const blocks = scene.boxes.filter((b) => !b.name.startsWith("figure") && !b.name.startsWith("label"));
    for (const b of scene.boxes) {
      expect(b.x).toBeGreaterThanOrEqual(inner.x - TOL);
      expect(b.x + b.w).toBeLessThanOrEqual(inner.x + inner.w + TOL);
    }
    // Title, subtitle and the figures' row follow each other without overlapping.
    const rows = [...blocks, scene.boxes.find((b) => b.name.startsWith("figure"))].filter((b) => b != null);
    rows.sort((a, b) => a.y - b.y);
    for (let i = 1; i < rows.length; i++) expect(rows[i].y).toBeGreaterThanOrEqual(rows[i - 1].y + rows[i - 1].h - TOL);
    // Figures in neighbouring columns of a row do not touch; a second row starts below the first's labels.
    const figureBoxes = scene.boxes.filter((b) => b.name.startsWith("figure") || b.name.startsWith("label"));
    const rowTops = [...new Set(scene.boxes.filter((b) => b.name.startsWith("figure")).map((b) => b.y))].sort(
      (a, b) => a - b,
    );
    for (const [r, top] of rowTops.entries()) {
      const figures = scene.boxes.filter((b) => b.name.startsWith("figure") && b.y === top).sort((a, b) => a.x - b.x);
      for (let i = 1; i < figures.length; i++)
        expect(figures[i].x).toBeGreaterThan(figures[i - 1].x + figures[i - 1].w);
      const next = rowTops[r + 1];
      if (next == null) continue;
      const bottom = Math.max(...figureBoxes.filter((b) => b.y >= top && b.y < next).map((b) => b.y + b.h));
      expect(next).toBeGreaterThanOrEqual(bottom - TOL);
    }
    // The map keeps the poster's largest area: the text block never eats it.
    expect(scene.map.h).toBeGreaterThan(scene.height * 0.35);
  });

  it("a title too long for its box is shrunk, then wrapped, then shortened with an ellipsis", () => {
    const short = renderPoster(design({ title: "Marathon" }), { points: track.points }, fonts).boxes.find(
      (b) => b.name === "title",
    );
    const long = renderPoster(design({ title: LONG_TITLE }), { points: track.points }, fonts).boxes.find(
      (b) => b.name === "title",
    );
    expect(short?.lines).toBe(1);
    expect(long?.lines).toBe(2);
    expect(long?.size).toBeLessThan(short?.size ?? 0);
  });
});
