/**
 * Three very different posters drawn by the export's own code (render → resvg at 300 dpi), to look
 * at them at print size: a half marathon in "colour", portrait, with the runner's result; a
 * mountain trail in blue contours, landscape, night palette; a short race in town, "trace" only,
 * black and white; a trail above Annecy with France's towns and borders (decision 038: the open
 * data shipped in features/maps/data, or MAP_DATA_DIR), forest palette. The full-size PNGs go to OUT (default /tmp/poster-samples); docs/posters/ keeps
 * them scaled down (1,000 px wide at most).
 *
 *   node --import tsx scripts/poster-samples.ts [OUT]
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { basemapBox } from "../features/posters/basemap/layer.ts";
import { realOpenData } from "../features/posters/basemap/opendata.fixture.ts";
import { withOpenData } from "../features/posters/basemap/opendata.server.ts";
import { designFromCourse, POSTER_PALETTES, type PosterDesign } from "../features/posters/poster.contract.ts";
import { serverFonts } from "../features/posters/render/fonts.server.ts";
import type { TrackPoint } from "../features/posters/render/geo.ts";
import { sceneToPng } from "../features/posters/render/png.server.ts";
import { renderPoster } from "../features/posters/render/render.ts";
import { processGpx } from "../features/tracks/track-processing.ts";
import { Rng } from "../platform/prng.ts";
import { synthesizeTrack } from "../seed/demo/track.ts";

const out = process.argv[2] ?? "/tmp/poster-samples";
const fixtures = path.join(import.meta.dirname, "../features/tracks/fixtures");
const gpx = (file: string) => processGpx(fs.readFileSync(path.join(fixtures, file)));

type Sample = { design: PosterDesign; points: TrackPoint[]; openData?: boolean };

function halfMarathon(): Sample {
  const track = gpx("gpx-parse-route-1.1.gpx");
  const design = designFromCourse(
    {
      courseId: 1,
      eventName: "Semi-marathon de Canterbury",
      courseName: "21,1 km",
      date: "2026-03-22",
      place: "Canterbury",
      distanceM: track.distance,
      elevationGainM: track.elevationGain,
    },
    { timeMs: 1 * 3600_000 + 38 * 60_000 + 12_000, rank: 214 },
  );
  return {
    design: { ...design, mapStyle: "colour", palette: "sunset", colors: { ...POSTER_PALETTES.sunset }, size: "A3" },
    points: track.points,
  };
}

function mountainTrail(): Sample {
  const track = gpx("togeojson-multitrack.gpx");
  const design = designFromCourse(
    {
      courseId: 2,
      eventName: "Traversée de la Forêt-Noire",
      courseName: "Trois jours, 82 km",
      date: "2026-07-11",
      place: "Fribourg-en-Brisgau",
      distanceM: track.distance,
      elevationGainM: track.elevationGain,
    },
    null,
    "en",
  );
  return {
    design: {
      ...design,
      lang: "en",
      title: "Black Forest Traverse",
      subtitle: "Three days · Freiburg im Breisgau",
      mapStyle: "contours-blue",
      palette: "night",
      colors: { ...POSTER_PALETTES.night },
      orientation: "landscape",
      size: "50x70",
      font: "playfair-display",
      show: { ...design.show, kmMarkers: true },
    },
    points: track.points,
  };
}

function cityRace(): Sample {
  const synthetic = synthesizeTrack(new Rng(75011), {
    lat: 48.8566,
    lng: 2.3522,
    distance: 10_000,
    elevationGain: 45,
    baseElevation: 35,
    loop: true,
    style: "road",
  });
  const design = designFromCourse(
    {
      courseId: 3,
      eventName: "10 km du Marais",
      courseName: "10 km",
      date: "2026-10-04",
      place: "Paris",
      distanceM: synthetic.stats.distance,
      elevationGainM: synthetic.stats.elevationGain,
    },
    { timeMs: 41 * 60_000 + 7_000, rank: 58 },
  );
  return {
    design: {
      ...design,
      mapStyle: "trace",
      palette: "mono",
      colors: { ...POSTER_PALETTES.mono },
      size: "30x40",
      font: "noto-sans",
      textPosition: "top",
      marginMm: 25,
      show: { ...design.show, elevationProfile: false },
    },
    points: synthetic.points as TrackPoint[],
  };
}

function trailTowns(): Sample {
  const synthetic = synthesizeTrack(new Rng(6 * 977), {
    lat: 45.9,
    lng: 6.12,
    distance: 37_000,
    elevationGain: 1200,
    baseElevation: 450,
    loop: true,
    style: "trail",
  });
  const design = designFromCourse(
    {
      courseId: 4,
      eventName: "Trail des Sources",
      courseName: "37 km",
      date: "2026-06-14",
      place: "Annecy",
      distanceM: synthetic.stats.distance,
      elevationGainM: synthetic.stats.elevationGain,
    },
    { timeMs: 4 * 3600_000 + 12 * 60_000, rank: 87 },
  );
  return {
    design: {
      ...design,
      mapStyle: "contours-light",
      palette: "forest",
      colors: { ...POSTER_PALETTES.forest },
      towns: true,
    },
    points: synthetic.points as TrackPoint[],
    openData: true,
  };
}

const samples = {
  "half-marathon-colour": halfMarathon(),
  "trail-contours-night": mountainTrail(),
  "city-trace-mono": cityRace(),
  "trail-towns-forest": trailTowns(),
};
const openData = realOpenData().openData;

fs.mkdirSync(out, { recursive: true });
const docs = path.join(import.meta.dirname, "../docs/posters");
fs.mkdirSync(docs, { recursive: true });
for (const [name, sample] of Object.entries(samples)) {
  let scene = renderPoster(sample.design, { points: sample.points }, serverFonts());
  if (sample.openData && scene.view) {
    // As the export job does: the layer of the map's box at the print's resolution.
    const bbox = basemapBox(scene.view, 0.02);
    const data = await openData.build(bbox, Math.round((scene.map.w / 25.4) * 300));
    const layer = withOpenData(null, sample.design.mapStyle, bbox, data);
    scene = renderPoster(sample.design, { points: sample.points }, serverFonts(), layer);
  }
  const png = sceneToPng(scene, 300);
  fs.writeFileSync(path.join(out, `${name}.png`), png);
  const small = await sharp(png)
    .resize({ width: 1000, height: 1000, fit: "inside" })
    .png({ palette: true, quality: 90, compressionLevel: 9 })
    .toBuffer();
  fs.writeFileSync(path.join(docs, `${name}.png`), small);
  const meta = await sharp(png).metadata();
  console.log(
    `${name}: ${meta.width} × ${meta.height} px, ${Math.round(png.length / 1024)} KB; docs ${Math.round(small.length / 1024)} KB`,
  );
}
