/**
 * The contour lines layer: from the elevation model when the basemap holds it, else from the
 * track's own elevation, drawn in the style's colours (every fifth line heavier). Isomorphic, pure.
 */
import { type BasemapLayer, pageContours } from "../basemap/layer.ts";
import type { PosterDesign } from "../poster.contract.ts";
import { elevationContours } from "./contours.ts";
import type { Frame } from "./geo.ts";
import { type Prim, ramp } from "./scene.ts";
import type { Geometry } from "./track-data.ts";

export function contourPrims(
  layer: BasemapLayer | null,
  drawnStyle: PosterDesign["mapStyle"],
  geometry: Geometry,
  track: { elevations: (number | null)[]; hasElevation: boolean },
  map: Frame,
  colors: PosterDesign["colors"],
  short: number,
): Prim[] {
  const prims: Prim[] = [];
  const { xy } = geometry;
  const { elevations, hasElevation } = track;
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
  return prims;
}
