/**
 * The `posters` part of `npm run bench` (issue 15): the poster renderer and its exports on a
 * 20,000-point track (deterministic, a seeded wander with elevations), in this process:
 * - scene: design + track → shapes (what the creator's preview redraws on every change; the
 *   browser runs the same code);
 * - SVG text of the scene; A3 PNG at 300 dpi (resvg, 3508 × 4961 px); A3 vector PDF (pdfkit);
 * each a median of a few runs, with the process's peak resident memory after the PNG.
 * Goals: PNG ≤ 3 s, PDF ≤ 1 s, preview (scene + SVG) ≤ 50 ms.
 */
import { designFromCourse } from "../features/posters/poster.contract.ts";
import { serverFonts } from "../features/posters/render/fonts.server.ts";
import type { TrackPoint } from "../features/posters/render/geo.ts";
import { sceneToPdf } from "../features/posters/render/pdf.server.ts";
import { sceneToPng } from "../features/posters/render/png.server.ts";
import { renderPoster } from "../features/posters/render/render.ts";
import { sceneToSvg } from "../features/posters/render/svg.ts";
import { median } from "./load.ts";

export const POSTER_GOALS = { pngMs: 3000, pdfMs: 1000, previewMs: 50 };
const POINTS = 20_000;

export type PostersFigures = {
  points: number;
  sceneMs: number;
  redrawMs: number;
  svgMs: number;
  svgBytes: number;
  pngMs: number;
  pngBytes: number;
  pdfMs: number;
  pdfBytes: number;
  peakRssMb: number;
};

export function benchTrack(points = POINTS): TrackPoint[] {
  let seed = 2026;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const out: TrackPoint[] = [];
  let lat = 45.9;
  let lng = 6.8;
  let ele = 1000;
  let heading = 0;
  for (let i = 0; i < points; i++) {
    heading += (random() - 0.5) * 0.5;
    lat += Math.cos(heading) * 0.00004;
    lng += Math.sin(heading) * 0.00006;
    ele = Math.max(300, Math.min(4000, ele + (random() - 0.48) * 4));
    out.push([lng, lat, Math.round(ele * 10) / 10]);
  }
  return out;
}

async function timedRuns<T>(n: number, work: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const times: number[] = [];
  let value: T | undefined;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    value = await work();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), value: value as T };
}

export async function postersPart(options: { quick: boolean }): Promise<PostersFigures> {
  const fonts = serverFonts();
  const track = { points: benchTrack() };
  const design = designFromCourse(
    {
      courseId: 1,
      eventName: "Ultra-Trail des Aiguilles",
      courseName: "Le grand tour",
      date: "2026-08-29",
      place: "Chamonix",
      distanceM: 171_000,
      elevationGainM: 10_000,
    },
    { timeMs: 40 * 3600_000, rank: 321 },
  );
  design.size = "A3";
  design.mapStyle = "contours-light";
  design.show.kmMarkers = true;
  const runs = options.quick ? 2 : 5;
  renderPoster(design, track, fonts); // warm-up
  // Cold: a track never drawn before (projection and contours computed); redraw: the same track
  // after a change of text, what the creator does on each keystroke.
  const scene = await timedRuns(runs, () => renderPoster(design, { points: track.points.slice() }, fonts));
  let n = 0;
  const redraw = await timedRuns(runs, () =>
    renderPoster({ ...design, title: `${design.title} ${++n}` }, track, fonts),
  );
  const svg = await timedRuns(runs, () => sceneToSvg(scene.value));
  const png = await timedRuns(options.quick ? 1 : 3, () => sceneToPng(scene.value, 300));
  const pdf = await timedRuns(runs, () => sceneToPdf(scene.value));
  return {
    points: track.points.length,
    sceneMs: scene.ms,
    redrawMs: redraw.ms,
    svgMs: svg.ms,
    svgBytes: Buffer.byteLength(svg.value),
    pngMs: png.ms,
    pngBytes: png.value.length,
    pdfMs: pdf.ms,
    pdfBytes: pdf.value.length,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

export function postersTable(f: PostersFigures): string {
  const ms = (v: number) => `${Math.round(v)} ms`;
  const kb = (v: number) => `${Math.round(v / 1024)} KB`;
  return [
    "| Step (A3, 20,000-point track, contours, km markers) | Median | Size | Goal |",
    "| --- | ---: | ---: | --- |",
    `| Scene, first drawing of the track (projection, contours) | ${ms(f.sceneMs)} | | |`,
    `| Scene, redrawn after a text change (the preview's work per change) | ${ms(f.redrawMs)} | | ≤ ${POSTER_GOALS.previewMs} ms |`,
    `| SVG text | ${ms(f.svgMs)} | ${kb(f.svgBytes)} | |`,
    `| PNG 300 dpi (3508 × 4961, resvg) | ${ms(f.pngMs)} | ${kb(f.pngBytes)} | ≤ ${POSTER_GOALS.pngMs} ms |`,
    `| Vector PDF (pdfkit) | ${ms(f.pdfMs)} | ${kb(f.pdfBytes)} | ≤ ${POSTER_GOALS.pdfMs} ms |`,
    `| Peak resident memory of the process | ${Math.round(f.peakRssMb)} MB | | |`,
  ].join("\n");
}
