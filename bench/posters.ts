/**
 * The `posters` part of `npm run bench` (issue 15): the poster renderer and its exports on a
 * 20,000-point track (deterministic, a seeded wander with elevations), in this process:
 * - scene: design + track → shapes (what the creator's preview redraws on every change; the
 *   browser runs the same code);
 * - SVG text of the scene; A3 PNG at 300 dpi (resvg, 3508 × 4961 px); A3 vector PDF (pdfkit);
 * each a median of a few runs, with the process's peak resident memory after the PNG;
 * - in Chromium: the creator's preview (renderer + PosterSvg, bench/poster-preview.harness.tsx,
 *   bundled by Vite) updated after a change of title, colour, margin (the map moves: a new
 *   projection and contours) and map style, timed until the next frame is painted.
 * - France's towns and borders (decision 038) over the same track: the open-data layer built from
 *   the site's offline base map at the print's resolution (the first one with the national index
 *   and the towns' reference, then warm), the scene with it and the A3 PNG at 300 dpi with it.
 * Goals: PNG ≤ 3 s, PDF ≤ 1 s, preview update in the browser ≤ 50 ms.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium } from "playwright-core";
import { build } from "vite";
import { basemapBox } from "../features/posters/basemap/layer.ts";
import { realOpenData } from "../features/posters/basemap/opendata.fixture.ts";
import { withOpenData } from "../features/posters/basemap/opendata.server.ts";
import { designFromCourse, type PosterDesign } from "../features/posters/poster.contract.ts";
import { serverFonts } from "../features/posters/render/fonts.server.ts";
import { FONT_FILES } from "../features/posters/render/fonts.ts";
import type { TrackPoint } from "../features/posters/render/geo.ts";
import { sceneToPdf } from "../features/posters/render/pdf.server.ts";
import { sceneToPng } from "../features/posters/render/png.server.ts";
import { renderPoster } from "../features/posters/render/render.ts";
import { sceneToSvg } from "../features/posters/render/svg.ts";
import { CHROME_PATH } from "./lighthouse.ts";
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
  /** Median ms, in Chromium, per kind of change: rendering it (script) and until the next painted frame. */
  browser?: Record<PreviewChange, { script: number; frame: number }>;
  /** Towns and borders (decision 038); null when France's outlines are not there. */
  openData?: OpenDataFigures | null;
};

export type OpenDataFigures = {
  /** The first layer: the site base map's national index and towns' reference, read once. */
  coldMs: number;
  layerMs: number;
  layerBytes: number;
  places: number;
  sceneMs: number;
  pngMs: number;
  pngBytes: number;
};

export const PREVIEW_CHANGES = ["title", "colour", "margin", "style"] as const;
export type PreviewChange = (typeof PREVIEW_CHANGES)[number];

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

function benchDesign(): PosterDesign {
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
  return design;
}

export async function postersPart(options: { quick: boolean }): Promise<PostersFigures> {
  const fonts = serverFonts();
  const track = { points: benchTrack() };
  const design = benchDesign();
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
    openData: await openDataPart(options),
    browser: await previewInBrowser(options.quick ? 5 : 15),
  };
}

/** The towns-and-borders layer of the bench's poster at 300 dpi, its scene and its A3 PNG. */
export async function openDataPart(options: { quick: boolean }): Promise<OpenDataFigures | null> {
  let source: ReturnType<typeof realOpenData>["openData"];
  try {
    source = realOpenData().openData;
  } catch (error) {
    console.warn(`posters: no towns and borders measured (${(error as Error).message})`);
    return null;
  }
  const fonts = serverFonts();
  const track = { points: benchTrack() };
  const design = { ...benchDesign(), towns: true };
  const first = renderPoster(design, track, fonts);
  if (!first.view) return null;
  const bbox = basemapBox(first.view, 0.02);
  const pixels = Math.round((first.map.w / 25.4) * 300);
  const runs = options.quick ? 2 : 5;
  const cold = await timedRuns(1, () => source.build(bbox, pixels));
  const warm = await timedRuns(runs, () => source.build(bbox, pixels));
  const layer = withOpenData(null, design.mapStyle, bbox, warm.value);
  const scene = await timedRuns(runs, () => renderPoster(design, { points: track.points.slice() }, fonts, layer));
  const png = await timedRuns(options.quick ? 1 : 3, () => sceneToPng(scene.value, 300));
  return {
    coldMs: cold.ms,
    layerMs: warm.ms,
    layerBytes: Buffer.byteLength(JSON.stringify(layer)),
    places: scene.value.boxes.filter((b) => b.name.startsWith("place:")).length,
    sceneMs: scene.ms,
    pngMs: png.ms,
    pngBytes: png.value.length,
  };
}

/** The preview harness bundled for the browser (production React, minified), as one ES module. */
async function harnessBundle(): Promise<string> {
  const root = path.resolve(import.meta.dirname, "..");
  const output = await build({
    configFile: false,
    root,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: {
      write: false,
      minify: true,
      target: "es2022",
      rollupOptions: {
        input: path.join(import.meta.dirname, "poster-preview.harness.tsx"),
        output: { format: "es", codeSplitting: false },
      },
    },
  });
  const outputs = (Array.isArray(output) ? output : [output]) as { output: { type: string; code?: string }[] }[];
  const chunk = outputs[0]?.output.find((o) => o.type === "chunk");
  if (!chunk?.code) throw new Error("no bundle for the preview harness");
  return chunk.code;
}

/**
 * Median ms per kind of change, in Chromium (desktop viewport, the poster 80 % of its height as in
 * the creator), `runs` changes of each kind after two warm-up rounds.
 */
export async function previewInBrowser(
  runs: number,
): Promise<Record<PreviewChange, { script: number; frame: number }>> {
  const code = await harnessBundle();
  const require = createRequire(import.meta.url);
  const fontFile = (file: string) => {
    const entry = Object.values(FONT_FILES).find((f) => f.regular === file || f.bold === file);
    if (!entry) return null;
    return fs.readFileSync(path.join(path.dirname(require.resolve(`${entry.pkg}/package.json`)), "files", file));
  };
  const browser = await chromium.launch({ executablePath: CHROME_PATH, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.route("http://bench.local/**", async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === "/")
        return route.fulfill({
          contentType: "text/html",
          body: '<!doctype html><html><body style="margin:0"><style>.poster{height:80vh;display:block;margin:auto}</style><div id="root"></div><script type="module" src="/harness.js"></script></body></html>',
        });
      if (url.pathname === "/harness.js") return route.fulfill({ contentType: "text/javascript", body: code });
      const font = url.pathname.startsWith("/fonts/") ? fontFile(url.pathname.slice(7)) : null;
      if (font) return route.fulfill({ contentType: "font/woff", body: font });
      return route.fulfill({ status: 404, body: "" });
    });
    await page.goto("http://bench.local/");
    await page.waitForFunction(() => "posterBench" in window);
    await page.evaluate((setup) => window.posterBench.start(setup), {
      design: benchDesign(),
      points: benchTrack(),
    });
    const patches: Record<PreviewChange, (i: number) => Partial<PosterDesign>> = {
      title: (i) => ({ title: `Ultra-Trail des Aiguilles ${i}` }),
      colour: (i) => ({ colors: { ...benchDesign().colors, track: i % 2 ? "#1d4ed8" : "#c2410c" } }),
      margin: (i) => ({ marginMm: 15 + (i % 2) * 2 }),
      style: (i) => ({ mapStyle: i % 2 ? "trace" : "contours-light" }),
    };
    const times = Object.fromEntries(
      PREVIEW_CHANGES.map((c) => [c, { script: [] as number[], frame: [] as number[] }]),
    ) as Record<PreviewChange, { script: number[]; frame: number[] }>;
    for (let round = 0; round < runs + 2; round++) {
      for (const change of PREVIEW_CHANGES) {
        const ms = await page.evaluate((patch) => window.posterBench.change(patch), patches[change](round));
        if (round < 2) continue;
        times[change].script.push(ms.script);
        times[change].frame.push(ms.frame);
      }
    }
    return Object.fromEntries(
      PREVIEW_CHANGES.map((c) => [c, { script: median(times[c].script), frame: median(times[c].frame) }]),
    ) as Record<PreviewChange, { script: number; frame: number }>;
  } finally {
    await browser.close();
  }
}

export function postersTable(f: PostersFigures): string {
  const ms = (v: number) => `${Math.round(v)} ms`;
  const kb = (v: number) => `${Math.round(v / 1024)} KB`;
  return [
    "| Step (A3, 20,000-point track, contours, km markers) | Median | Size | Goal |",
    "| --- | ---: | ---: | --- |",
    `| Scene, first drawing of the track (projection, contours) | ${ms(f.sceneMs)} | | |`,
    `| Scene, redrawn after a text change (in Node) | ${ms(f.redrawMs)} | | |`,
    `| SVG text | ${ms(f.svgMs)} | ${kb(f.svgBytes)} | |`,
    `| PNG 300 dpi (3508 × 4961, resvg) | ${ms(f.pngMs)} | ${kb(f.pngBytes)} | ≤ ${POSTER_GOALS.pngMs} ms |`,
    `| Vector PDF (pdfkit) | ${ms(f.pdfMs)} | ${kb(f.pdfBytes)} | ≤ ${POSTER_GOALS.pdfMs} ms |`,
    `| Peak resident memory of the process | ${Math.round(f.peakRssMb)} MB | | |`,
    ...(f.openData
      ? [
          `| Towns and borders layer, first (national index, towns' reference) | ${ms(f.openData.coldMs)} | | |`,
          `| Towns and borders layer at 300 dpi | ${ms(f.openData.layerMs)} | ${kb(f.openData.layerBytes)} (JSON) | |`,
          `| Scene with towns and borders (${f.openData.places} names) | ${ms(f.openData.sceneMs)} | | |`,
          `| PNG 300 dpi with towns and borders | ${ms(f.openData.pngMs)} | ${kb(f.openData.pngBytes)} | ≤ ${POSTER_GOALS.pngMs} ms |`,
        ]
      : []),
    ...(f.browser
      ? PREVIEW_CHANGES.map(
          (c) =>
            `| Preview in Chromium, change of ${c}: rendered (scene + React) / next frame painted | ${ms(f.browser?.[c].script ?? 0)} / ${ms(f.browser?.[c].frame ?? 0)} | | ≤ ${POSTER_GOALS.previewMs} ms |`,
        )
      : []),
  ].join("\n");
}
