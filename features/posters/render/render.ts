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
import { type BasemapLayer, basemapPrims } from "../basemap/layer.ts";
import { MAP_STYLES, type PosterDesign, RENDERED_MAP_STYLES } from "../poster.contract.ts";
import { PRINT } from "./figures.ts";
import type { PosterFontSet } from "./fonts.ts";
import { contourPrims } from "./layer-contours.ts";
import { creditLayout, creditPrims } from "./layer-credits.ts";
import { profilePrims } from "./layer-profile.ts";
import { textBlockPrims } from "./layer-text.ts";
import { kmMarkerPrims, startFinishPrims, trackLinePrims } from "./layer-track.ts";
import { borderPrims, landPrims, type Rect, townLabels } from "./opendata.ts";
import { posterLayout } from "./render-layout.ts";
import type { PosterTrack, Prim, Scene, TextBox } from "./scene.ts";
import { geometryOf, trackData } from "./track-data.ts";

export { posterFigures } from "./figures.ts";
export type { PosterTrack, Prim, Scene, TextBox } from "./scene.ts";

/**
 * `basemap`: the map data of the design's style (features/posters/basemap), when its source is
 * configured; a style that needs one is drawn as "trace" until it comes.
 *
 * The layers, bottom to top: the background, France's open data (land), the basemap, contours,
 * borders, the track (halo and line), kilometre marks, start and finish, town names, the
 * elevation profile, the text block, the credits.
 */
export function renderPoster(
  design: PosterDesign,
  track: PosterTrack,
  fonts: PosterFontSet,
  basemap: BasemapLayer | null = null,
): Scene {
  const data = trackData(track.points, track.breaks);
  const { points, hasElevation, dist } = data;
  const totalM = points.length > 1 ? dist[dist.length - 1] : null;
  const { W, H, short, inner, text, map, profile } = posterLayout(design, hasElevation);
  const colors = design.colors;
  const font = fonts[design.font];
  const prims: Prim[] = [{ t: "rect", x: 0, y: 0, w: W, h: H, fill: colors.background }];
  const boxes: TextBox[] = [];

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
    const geometry = geometryOf(track.points, points, map, short * 0.03, data.key);
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

    prims.push(...contourPrims(layer, drawnStyle, geometry, data, map, colors, short));

    if (openData && layer) {
      const borders = borderPrims(layer, colors, short, geometry.fit.toPage, map);
      openDataDrawn ||= borders.length > 0;
      prims.push(...borders);
    }
    const line = trackLinePrims(geometry, data, drawnStyle, colors, strokeW);
    prims.push(...line.prims);
    const kept = line.kept;

    if (design.show.kmMarkers && totalM && totalM > 0)
      prims.push(...kmMarkerPrims(xy, dist, totalM, font.bold, colors, short, strokeW));

    if (design.show.startFinish) prims.push(...startFinishPrims(xy, drawnStyle, colors, short, strokeW));

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
    if (profile && totalM) prims.push(...profilePrims(profile, totalM, data, drawnStyle, colors, strokeW));
  }

  const block = textBlockPrims(design, text, font, short, totalM);
  prims.push(...block.prims);
  boxes.push(...block.boxes);

  // The map data's credits, small in the map's lower right corner on a veil of the background.
  if (openData && !openDataDrawn) credit = creditFor(false);
  if (credit) {
    const drawn = creditPrims(credit, font.regular, colors);
    prims.push(...drawn.prims);
    boxes.push(drawn.box);
  }

  return { width: W, height: H, prims, boxes, inner, map, drawnStyle, view };
}

/** Whether a style can be drawn with the configured sources (and this renderer). */
export function styleAvailable(
  style: PosterDesign["mapStyle"],
  sources: { tiles: boolean; dem: boolean; satellite?: boolean },
): boolean {
  const needs = MAP_STYLES[style].needs;
  return RENDERED_MAP_STYLES.includes(style) && (needs == null || Boolean(sources[needs]));
}
