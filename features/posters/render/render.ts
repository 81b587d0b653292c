/**
 * The one poster renderer (issue 15): design object + track + fonts → a scene of plain shapes
 * (rectangles, paths, circles) in millimetres of paper. The same scene becomes the SVG of the
 * creator's live preview and of the SVG export (svg.ts), the PNG (resvg, from that SVG) and the
 * vector PDF (pdf.server.ts): the preview is exactly the export. Isomorphic, pure, no I/O.
 *
 * Layout: a margin all round; the text block (title, subtitle, figures) at the top or the bottom,
 * the elevation profile beside it, the map in the rest. Every text is fitted to its box with the
 * font's metrics (text.ts); `boxes` lists where each text went, for the layout tests.
 */
import enPosters from "../../../locales/en/posters.json";
import frPosters from "../../../locales/fr/posters.json";
import { formatNumber, formatPace, formatRaceTime } from "../../../shared/format.ts";
import { type BasemapLayer, basemapPrims, pageContours } from "../basemap/layer.ts";
import {
  MAP_STYLES,
  type PosterDataFlag,
  type PosterDesign,
  paperMm,
  RENDERED_MAP_STYLES,
} from "../poster.contract.ts";
import { elevationContours } from "./contours.ts";
import type { PosterFontSet } from "./fonts.ts";
import { cumulative, type Frame, fitTrack, type TrackPoint } from "./geo.ts";
import { borderPrims, landPrims, mix, type Rect, townLabels } from "./opendata.ts";
import { fitText, textPath } from "./text.ts";

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

const PRINT = { fr: frPosters.print, en: enPosters.print };

const HYPSO = ["#2b83ba", "#80bfac", "#c7e9ad", "#ffffbf", "#fec980", "#f17c4a", "#d7191c"];

function ramp(colors: readonly string[], t: number): string {
  const x = Math.max(0, Math.min(1, t)) * (colors.length - 1);
  const i = Math.min(Math.floor(x), colors.length - 2);
  return mix(colors[i], colors[i + 1], x - i);
}

const f2 = (n: number) => n.toFixed(2);

function polyline(xy: readonly [number, number][], from = 0, to = xy.length - 1, starts?: ReadonlySet<number>): string {
  let d = "";
  for (let i = from; i <= to; i++) d += `${i === from || starts?.has(i) ? "M" : "L"}${f2(xy[i][0])} ${f2(xy[i][1])}`;
  return d;
}

/**
 * Every point at least `minGap` page units from the last one kept; the first and last points of
 * each segment (`segment`: the segment of each point) are always kept.
 */
function thin(xy: readonly [number, number][], minGap: number, segment: ArrayLike<number>): number[] {
  const kept = [0];
  let [lx, ly] = xy[0];
  const last = xy.length - 1;
  for (let i = 1; i < last; i++) {
    const dx = xy[i][0] - lx;
    const dy = xy[i][1] - ly;
    const end = segment[i] !== segment[i - 1] || segment[i] !== segment[i + 1];
    if (end || dx * dx + dy * dy >= minGap * minGap) {
      kept.push(i);
      [lx, ly] = xy[i];
    }
  }
  if (xy.length > 1) kept.push(last);
  return kept;
}

/** Positions in `kept` (indexes of points) where a new segment starts. */
function keptStarts(kept: readonly number[], segment: ArrayLike<number>): Set<number> {
  const starts = new Set<number>();
  for (let k = 1; k < kept.length; k++) if (segment[kept[k]] !== segment[kept[k - 1]]) starts.add(k);
  return starts;
}

function ordinal(rank: number, lang: "fr" | "en"): string {
  if (lang === "fr") return rank === 1 ? "1er" : `${rank}e`;
  const tens = rank % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][rank % 10] ?? "th");
  return `${formatNumber(rank, "en")}${suffix}`;
}

function formatDay(iso: string, lang: "fr" | "en"): string {
  const date = new Date(`${iso}T12:00:00Z`);
  return new Intl.DateTimeFormat(lang === "fr" ? "fr-FR" : "en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);
}

/** The figures printed under the title, in order, with the design's flags and available data. */
export function posterFigures(
  design: PosterDesign,
  trackDistanceM: number | null,
): { key: PosterDataFlag; label: string; value: string }[] {
  const { data, show, lang } = design;
  const labels = PRINT[lang];
  const distanceM = data.distanceM ?? trackDistanceM;
  const out: { key: PosterDataFlag; label: string; value: string }[] = [];
  if (show.distance && distanceM != null && distanceM > 0) {
    out.push({
      key: "distance",
      label: labels.distance,
      value: `${formatNumber(distanceM / 1000, lang, { maximumFractionDigits: 1 })} km`,
    });
  }
  if (show.elevationGain && data.elevationGainM != null) {
    out.push({
      key: "elevationGain",
      label: labels.elevationGain,
      value: `${formatNumber(data.elevationGainM, lang, { maximumFractionDigits: 0 })} m`,
    });
  }
  if (show.time && data.timeMs != null) {
    out.push({ key: "time", label: labels.time, value: formatRaceTime(data.timeMs / 1000) });
  }
  if (show.pace && data.timeMs != null && distanceM != null && distanceM > 0) {
    out.push({ key: "pace", label: labels.pace, value: formatPace(data.timeMs / distanceM) });
  }
  if (show.rank && data.rank != null) out.push({ key: "rank", label: labels.rank, value: ordinal(data.rank, lang) });
  if (show.date && data.date) out.push({ key: "date", label: labels.date, value: formatDay(data.date, lang) });
  return out;
}

type Geometry = {
  key: string;
  xy: [number, number][];
  fit: ReturnType<typeof fitTrack>;
  contours?: ReturnType<typeof elevationContours>;
  /** Indexes of the points drawn (thinned to the line's width). */
  kept?: number[];
  /** The thinned line as path data, and the "colour" style's pieces (path data, ramp position). */
  line?: string;
  colourPieces?: { d: string; t: number }[];
};
/** What the renderer reads of a track, whatever the design: computed once per track. */
type TrackData = {
  /** The breaks it was computed with. */
  key: string;
  points: TrackPoint[];
  elevations: (number | null)[];
  hasElevation: boolean;
  /** Lowest and highest known elevation. */
  lo: number;
  hi: number;
  /** Distance from the start at each point, without the gaps between segments. */
  dist: Float64Array;
  /** The segment of each point (0 for the first). */
  segment: Int32Array;
};
const trackCache = new WeakMap<readonly TrackPoint[], TrackData>();

function trackData(source: readonly TrackPoint[], breaks: readonly number[] | null | undefined): TrackData {
  const key = breaks?.length ? breaks.join(",") : "";
  let found = trackCache.get(source);
  if (found?.key !== key) {
    const cuts = new Set(breaks ?? []);
    const segmentOfSource = new Int32Array(source.length);
    for (let i = 1; i < source.length; i++) segmentOfSource[i] = segmentOfSource[i - 1] + (cuts.has(i) ? 1 : 0);
    const kept = source.flatMap((p, i) => (Number.isFinite(p[0]) && Number.isFinite(p[1]) ? [i] : []));
    const points = kept.map((i) => source[i]);
    const segment = Int32Array.from(kept, (i) => segmentOfSource[i]);
    const elevations = points.map((p) => (p[2] == null || !Number.isFinite(p[2]) ? null : p[2]));
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    let known = 0;
    for (const e of elevations) {
      if (e == null) continue;
      known++;
      if (e < lo) lo = e;
      if (e > hi) hi = e;
    }
    const dist = cumulative(points);
    // No distance across a gap: every later point moves back by the gap's length.
    let gaps = 0;
    for (let i = 1; i < points.length; i++) {
      if (segment[i] !== segment[i - 1]) gaps += dist[i] - dist[i - 1];
      dist[i] -= gaps;
    }
    found = { key, points, elevations, hasElevation: known >= 2, lo, hi, dist, segment };
    trackCache.set(source, found);
  }
  return found;
}
/**
 * The projected line and its contours for the last frame a track was drawn in: the creator redraws
 * on every keystroke, and most changes (texts, colours, toggles) leave the map's frame as it was.
 */
const geometryCache = new WeakMap<readonly TrackPoint[], Geometry>();

function geometryOf(
  source: readonly TrackPoint[],
  points: readonly TrackPoint[],
  map: Frame,
  padding: number,
  breaks: string,
): Geometry {
  const key = `${[map.x, map.y, map.w, map.h, padding].map((v) => v.toFixed(4)).join(",")}|${breaks}`;
  const cached = geometryCache.get(source);
  if (cached?.key === key) return cached;
  const fit = fitTrack(points, map, padding);
  const geometry: Geometry = { key, xy: fit.xy, fit };
  geometryCache.set(source, geometry);
  return geometry;
}

/** The line cut where its elevation moves to another of 48 steps of the colour ramp. */
function colourPieces(
  kept: [number, number][],
  idx: number[],
  elevations: (number | null)[],
  hasElevation: boolean,
  starts: ReadonlySet<number>,
): { d: string; t: number }[] {
  const keptEle = idx.map((i) => elevations[i]);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const e of keptEle) {
    if (e == null) continue;
    if (e < lo) lo = e;
    if (e > hi) hi = e;
  }
  const value = (k: number) => {
    const e = keptEle[k];
    return hasElevation && e != null && hi > lo ? (e - lo) / (hi - lo) : k / Math.max(kept.length - 1, 1);
  };
  const BUCKETS = 48;
  const pieces: { d: string; t: number }[] = [];
  let start = 0;
  let bucket = Math.round(value(0) * BUCKETS);
  for (let k = 1; k < kept.length; k++) {
    if (starts.has(k)) {
      // A gap: the piece ends with its segment, the next starts with the next segment.
      if (k - 1 > start) pieces.push({ d: polyline(kept, start, k - 1), t: bucket / BUCKETS });
      start = k;
      bucket = Math.round(value(k) * BUCKETS);
      continue;
    }
    const b = Math.round(value(k) * BUCKETS);
    if (b !== bucket || k === kept.length - 1) {
      pieces.push({ d: polyline(kept, start, k), t: bucket / BUCKETS });
      start = k;
      bucket = b;
    }
  }
  return pieces;
}

/**
 * `basemap`: the map data of the design's style (features/posters/basemap), when its source is
 * configured; a style that needs one is drawn as "trace" until it comes.
 */
export function renderPoster(
  design: PosterDesign,
  track: PosterTrack,
  fonts: PosterFontSet,
  basemap: BasemapLayer | null = null,
): Scene {
  const [W, H] = paperMm(design);
  const short = Math.min(W, H);
  const m = Math.min(design.marginMm, short * 0.2);
  const inner: Frame = { x: m, y: m, w: W - 2 * m, h: H - 2 * m };
  const colors = design.colors;
  const font = fonts[design.font];
  const prims: Prim[] = [{ t: "rect", x: 0, y: 0, w: W, h: H, fill: colors.background }];
  const boxes: TextBox[] = [];

  const { points, elevations, hasElevation, dist, segment } = trackData(track.points, track.breaks);
  const totalM = points.length > 1 ? dist[dist.length - 1] : null;

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

  const layer = basemap?.style === design.mapStyle ? basemap : null;
  const drawnStyle =
    RENDERED_MAP_STYLES.includes(design.mapStyle) && (MAP_STYLES[design.mapStyle].needs == null || layer)
      ? design.mapStyle
      : "trace";
  const strokeW = short * 0.0042;
  let view: Scene["view"] = null;
  // France's open data (decision 038): drawn when the design asks and the layer holds it.
  const openData = design.towns && layer != null && Boolean(layer.borders?.length || layer.places?.length);
  const creditFor = (withOpenData: boolean) => {
    const all = [...(layer?.credits ?? []), ...(withOpenData ? [PRINT[design.lang].openDataCredit] : [])].join(" · ");
    return all ? creditLayout(all, font.regular, short, map) : null;
  };
  // Names keep clear of the longest credits; the open data's is printed when something of it was drawn.
  let credit = creditFor(openData);
  let openDataDrawn = false;

  if (points.length >= 2) {
    const geometry = geometryOf(track.points, points, map, short * 0.03, trackData(track.points, track.breaks).key);
    const xy = geometry.xy;
    const [vx0, vy1] = geometry.fit.fromPage(map.x, map.y);
    const [vx1, vy0] = geometry.fit.fromPage(map.x + map.w, map.y + map.h);
    view = [vx0, vy0, vx1, vy1];
    if (openData && layer && !layer.image) {
      const land = landPrims(layer, colors, geometry.fit.toPage, map);
      openDataDrawn ||= land.length > 0;
      prims.push(...land);
    }
    if (layer) prims.push(...basemapPrims(layer, drawnStyle, colors, short, geometry.fit.toPage, map));

    // Contours from the elevation model when configured, else from the track's own elevation.
    if (layer?.contours || (drawnStyle.startsWith("contours") && hasElevation)) {
      if (!layer?.contours) geometry.contours ??= elevationContours(xy, elevations, map);
      const result = layer?.contours ? pageContours(layer, geometry.fit.toPage, map) : geometry.contours;
      if (result) {
        const n = result.bands.length;
        result.bands.forEach((band, i) => {
          const t = n > 1 ? i / (n - 1) : 0;
          const major = Math.round(band.value / result.step) % 5 === 0;
          if (drawnStyle === "contours-green") {
            prims.push({ t: "path", d: band.d, fill: ramp(["#dfe9cf", "#9fbf7f", "#4f7a45"], t), opacity: 0.12 });
            prims.push({
              t: "path",
              d: band.line,
              stroke: "#3f6b3a",
              width: short * (major ? 0.0011 : 0.0005),
              opacity: 0.55,
            });
          } else if (drawnStyle === "contours-blue") {
            prims.push({ t: "path", d: band.d, fill: "#1d4ed8", opacity: 0.035 });
            prims.push({
              t: "path",
              d: band.line,
              stroke: "#2563eb",
              width: short * (major ? 0.0011 : 0.0005),
              opacity: 0.6,
            });
          } else if (drawnStyle === "relief-detailed") {
            prims.push({
              t: "path",
              d: band.line,
              stroke: colors.text,
              width: short * (major ? 0.0007 : 0.00035),
              opacity: major ? 0.45 : 0.3,
            });
          } else {
            prims.push({
              t: "path",
              d: band.line,
              stroke: colors.accent,
              width: short * (major ? 0.0012 : 0.0006),
              opacity: 0.8,
            });
          }
        });
      }
    }

    if (openData && layer) {
      const borders = borderPrims(layer, colors, short, geometry.fit.toPage, map);
      openDataDrawn ||= borders.length > 0;
      prims.push(...borders);
    }

    // Points closer than half the line's width apart cannot be seen at print size.
    geometry.kept ??= thin(xy, strokeW * 0.5, segment);
    const idx = geometry.kept;
    const kept = idx.map((i) => xy[i]);
    const starts = keptStarts(idx, segment);
    // A halo in the background colour keeps the line readable over contours.
    // The same strings from one redraw to the next: the preview's React diff sees them unchanged.
    geometry.line ??= polyline(kept, 0, kept.length - 1, starts);
    prims.push({ t: "path", d: geometry.line, stroke: colors.background, width: strokeW * 2.6, round: true });
    if (drawnStyle === "colour") {
      geometry.colourPieces ??= colourPieces(kept, idx, elevations, hasElevation, starts);
      for (const piece of geometry.colourPieces)
        prims.push({ t: "path", d: piece.d, stroke: ramp(HYPSO, piece.t), width: strokeW * 1.3, round: true });
    } else {
      prims.push({ t: "path", d: geometry.line, stroke: colors.track, width: strokeW, round: true });
    }

    if (design.show.kmMarkers && totalM && totalM > 0) {
      const steps = [1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];
      const step = steps.find((s) => totalM / s <= 30) ?? 100_000;
      const r = short * 0.011;
      let next = step;
      for (let i = 1; i < points.length && next < totalM - step * 0.3; i++) {
        if (dist[i] < next) continue;
        const [x, y] = xy[i];
        prims.push({
          t: "circle",
          cx: x,
          cy: y,
          r,
          fill: colors.background,
          stroke: colors.track,
          width: strokeW * 0.5,
        });
        const label = String(next / 1000);
        const fit = fitText(font.bold, label, {
          maxWidth: r * 1.5,
          maxHeight: r * 1.1,
          maxSize: r * 1.05,
          minSize: r * 0.4,
        });
        if (fit.lines[0]) {
          const size = fit.size;
          prims.push({
            t: "path",
            d: textPath(font.bold, fit.lines[0], x - fit.widths[0] / 2, y + size * 0.36, size),
            fill: colors.text,
          });
        }
        next += step;
      }
    }

    if (design.show.startFinish) {
      const r = short * 0.009;
      const [sx, sy] = xy[0];
      const [ex, ey] = xy[xy.length - 1];
      prims.push({
        t: "circle",
        cx: ex,
        cy: ey,
        r,
        fill: colors.background,
        stroke: colors.text,
        width: strokeW * 0.8,
      });
      prims.push({ t: "circle", cx: ex, cy: ey, r: r * 0.45, fill: colors.text });
      prims.push({
        t: "circle",
        cx: sx,
        cy: sy,
        r: r * 0.8,
        fill: drawnStyle === "colour" ? HYPSO[0] : colors.track,
        stroke: colors.background,
        width: strokeW * 0.6,
      });
    }

    if (openData && layer) {
      const r = short * 0.014;
      const ends = [xy[0], xy[xy.length - 1]].map(([x, y]) => ({ x: x - r, y: y - r, w: 2 * r, h: 2 * r }));
      const avoid: Rect[] = [...ends, ...(credit ? [credit.box] : [])];
      const towns = townLabels(layer, font.regular, colors, short, geometry.fit.toPage, map, kept, avoid);
      prims.push(...towns.prims);
      openDataDrawn ||= towns.labels.length > 0;
      for (const l of towns.labels)
        boxes.push({ name: `place:${l.name}`, x: l.x, y: l.y, w: l.w, h: l.h, lines: 1, size: l.size });
    }

    if (profile && totalM) {
      const { lo, hi } = trackData(track.points, track.breaks);
      const span = Math.max(hi - lo, 1);
      const samples = Math.min(400, points.length);
      const base = f2(profile.y + profile.h);
      // One area and one line per segment: the profile breaks where the track does.
      let d = "";
      let line = "";
      let j = 0;
      let lastEle = elevations.find((e) => e != null) ?? lo;
      let run: string[] = [];
      let runSegment = segment[0];
      const close = () => {
        if (run.length === 0) return;
        const first = run[0];
        const lastX = run[run.length - 1].split(" ")[0];
        d += `M${first.split(" ")[0]} ${base}L${run.join("L")}L${lastX} ${base}Z`;
        line += `M${run.join("L")}`;
        run = [];
      };
      for (let s = 0; s < samples; s++) {
        const target = (totalM * s) / (samples - 1);
        while (j < points.length - 1 && dist[j] < target) j++;
        // Past a gap the sample belongs to the next segment, whose first point is at the same distance.
        while (j < points.length - 1 && segment[j + 1] !== segment[j] && dist[j + 1] <= target) j++;
        const e = elevations[j] ?? lastEle;
        lastEle = e;
        const x = profile.x + (profile.w * s) / (samples - 1);
        const y = profile.y + profile.h - ((e - lo) / span) * profile.h * 0.92;
        if (segment[j] !== runSegment) {
          close();
          runSegment = segment[j];
        }
        run.push(`${f2(x)} ${f2(y)}`);
      }
      close();
      prims.push({ t: "path", d, fill: drawnStyle === "colour" ? HYPSO[5] : colors.track, opacity: 0.22 });
      prims.push({
        t: "path",
        d: line,
        stroke: drawnStyle === "colour" ? HYPSO[5] : colors.track,
        width: strokeW * 0.45,
        round: true,
      });
    }
  }

  // Text block: title, subtitle, then the figures in columns.
  const rule = design.textPosition === "bottom" ? text.y : text.y + text.h;
  prims.push({ t: "rect", x: text.x, y: rule - short * 0.0004, w: text.w, h: short * 0.0008, fill: colors.accent });
  const pad = text.h * 0.06;
  /** A text fitted to a box (its size, lines and widths), laid out later. */
  const fitIn = (face: typeof font.bold, value: string, w: number, h: number, maxLines: number) =>
    fitText(face, value, { maxWidth: w, maxHeight: h, maxSize: h, minSize: h * 0.2, maxLines });
  /** Draws a fitted text centred in [x, x + w], its first line's top at `top`; returns its height. */
  const draw = (
    name: string,
    face: typeof font.bold,
    fit: ReturnType<typeof fitText>,
    x: number,
    w: number,
    top: number,
    color: string,
  ) => {
    if (!fit.lines.length) return 0;
    const ascent = (face.ascender / face.unitsPerEm) * fit.size * 0.92;
    fit.lines.forEach((line, i) => {
      prims.push({
        t: "path",
        d: textPath(face, line, x + (w - (fit.widths[i] as number)) / 2, top + i * fit.lineHeight + ascent, fit.size),
        fill: color,
      });
    });
    const widest = Math.max(...fit.widths);
    const block = fit.lines.length * fit.lineHeight;
    boxes.push({ name, x: x + (w - widest) / 2, y: top, w: widest, h: block, lines: fit.lines.length, size: fit.size });
    return block;
  };
  const blockHeight = (fit: ReturnType<typeof fitText>) => fit.lines.length * fit.lineHeight;

  // Title, subtitle, then the figures in columns (value over label): each fitted to its share of
  // the block, then stacked with gaps in proportion to their sizes and centred in the block, so a
  // title shrunk to fit its width leaves no hole.
  const title = fitIn(font.bold, design.title, text.w, text.h * 0.38, 2);
  const subtitle = fitIn(font.regular, design.subtitle, text.w, text.h * 0.12, 1);
  const figures = posterFigures(design, totalM);
  // One row; on a portrait poster, five or six figures go in two rows of three (larger than six in
  // one narrow row). A landscape text block is wide and low: one row keeps them larger there.
  const twoRows = figures.length > 4 && design.orientation === "portrait";
  const rows = twoRows ? [figures.slice(0, 3), figures.slice(3)] : figures.length ? [figures] : [];
  const colW = (row: typeof figures) => text.w / row.length;
  // All values share one size (the smallest that fits each column), and so do the labels, which
  // stay a readable fraction of the values.
  const sharedSize = (strings: [string, number][], face: typeof font.bold, h: number) =>
    Math.min(...strings.map(([v, w]) => fitIn(face, v, w * 0.9, h, 1).size));
  const cells = rows.flatMap((row) => row.map((f) => ({ f, w: colW(row) })));
  const valueSize = cells.length
    ? sharedSize(
        cells.map((c) => [c.f.value, c.w]),
        font.bold,
        text.h * (rows.length > 1 ? 0.1 : 0.16),
      )
    : 0;
  const labelSize = cells.length
    ? Math.min(
        valueSize * 0.42,
        sharedSize(
          cells.map((c) => [c.f.label.toUpperCase(), c.w]),
          font.regular,
          valueSize * 0.5 * 1.15,
        ),
      )
    : 0;
  const rowH = valueSize * 1.15 + labelSize * 0.35 + labelSize * 1.15;
  const titleH = blockHeight(title);
  const subtitleH = blockHeight(subtitle);
  const figuresH = rows.length * rowH;
  const gaps = [
    subtitleH ? Math.max(subtitle.size * 0.3, text.h * 0.015) : 0,
    figuresH ? Math.max(valueSize * 0.7, text.h * 0.04) : 0,
    rows.length > 1 ? valueSize * 0.45 : 0,
  ];
  const room = text.h - 2 * pad;
  const content = titleH + subtitleH + figuresH;
  const gapSum = gaps[0] + gaps[1] + gaps[2];
  // Gaps shrink if the texts at their largest leave less room than that.
  const gapScale = Math.min(1, Math.max(0, room - content) / Math.max(1e-9, gapSum));
  let cursor = text.y + pad + Math.max(0, (room - content - gapSum * gapScale) / 2);
  cursor += draw("title", font.bold, title, text.x, text.w, cursor, colors.text);
  if (subtitleH) cursor += gaps[0] * gapScale;
  cursor += draw("subtitle", font.regular, subtitle, text.x, text.w, cursor, colors.text);
  if (figuresH) cursor += gaps[1] * gapScale;
  for (const row of rows) {
    const w = colW(row);
    row.forEach((f, i) => {
      const x = text.x + w * i + w * 0.05;
      const value = fitIn(font.bold, f.value, w * 0.9, valueSize * 1.15, 1);
      draw(`figure-${f.key}`, font.bold, value, x, w * 0.9, cursor, colors.text);
      const label = fitIn(font.regular, f.label.toUpperCase(), w * 0.9, labelSize * 1.15, 1);
      const labelTop = cursor + valueSize * 1.15 + labelSize * 0.35;
      draw(`label-${f.key}`, font.regular, label, x, w * 0.9, labelTop, colors.accent);
    });
    cursor += rowH + gaps[2] * gapScale;
  }

  // The map data's credits, small in the map's lower right corner on a veil of the background.
  if (openData && !openDataDrawn) credit = creditFor(false);
  if (credit) {
    const { fit, x, y, w, box } = credit;
    prims.push({ t: "rect", ...box, fill: colors.background, opacity: 0.75 });
    prims.push({
      t: "path",
      d: textPath(font.regular, fit.lines[0], x, y - fit.size * 0.2, fit.size),
      fill: colors.text,
    });
    boxes.push({ name: "credits", x, y: y - fit.size, w, h: fit.size, lines: 1, size: fit.size });
  }

  return { width: W, height: H, prims, boxes, inner, map, drawnStyle, view };
}

/** Where the credits go: small, in the map's lower right corner; `box` is their veil. */
function creditLayout(credit: string, face: PosterFontSet[keyof PosterFontSet]["regular"], short: number, map: Frame) {
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

/** Whether a style can be drawn with the configured sources (and this renderer). */
export function styleAvailable(
  style: PosterDesign["mapStyle"],
  sources: { tiles: boolean; dem: boolean; satellite?: boolean },
): boolean {
  const needs = MAP_STYLES[style].needs;
  return RENDERED_MAP_STYLES.includes(style) && (needs == null || Boolean(sources[needs]));
}
