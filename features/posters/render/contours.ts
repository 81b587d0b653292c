/**
 * Contour lines and elevation bands computed from the track's own elevation (no outside data):
 * the elevations of up to MAX_SAMPLES points of the track are spread over a grid covering the map
 * by inverse-distance weighting, then d3-contour draws the iso-lines (marching squares).
 */
import { contours } from "d3-contour";
import type { Frame } from "./geo.ts";

const MAX_SAMPLES = 320;
const GRID_COLUMNS = 96;

/** d: the closed rings (for fills); line: the same without the stretches along the frame (for strokes). */
export type ContourBand = { value: number; d: string; line: string };

/** A round step giving about `count` bands over `span` metres. */
export function contourStep(span: number, count = 14): number {
  const raw = Math.max(span / count, 1);
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];
  return steps.find((s) => s >= raw) ?? 1000;
}

export function elevationContours(
  xy: readonly [number, number][],
  elevations: readonly (number | null)[],
  frame: Frame,
): { bands: ContourBand[]; step: number; min: number; max: number } | null {
  const idx: number[] = [];
  for (let i = 0; i < elevations.length; i++) if (elevations[i] != null) idx.push(i);
  if (idx.length < 2) return null;
  const stride = Math.max(1, Math.floor(idx.length / MAX_SAMPLES));
  const sx: number[] = [];
  const sy: number[] = [];
  const se: number[] = [];
  for (let k = 0; k < idx.length; k += stride) {
    const i = idx[k];
    sx.push(xy[i][0]);
    sy.push(xy[i][1]);
    se.push(elevations[i] as number);
  }
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const e of se) {
    if (e < min) min = e;
    if (e > max) max = e;
  }
  if (max - min < 2) return null;
  const nx = GRID_COLUMNS;
  const cell = frame.w / nx;
  const ny = Math.max(2, Math.round(frame.h / cell));
  const values = new Float64Array(nx * ny);
  const n = se.length;
  for (let j = 0; j < ny; j++) {
    const py = frame.y + (j + 0.5) * (frame.h / ny);
    for (let i = 0; i < nx; i++) {
      const px = frame.x + (i + 0.5) * cell;
      let wsum = 0;
      let vsum = 0;
      let exact = Number.NaN;
      for (let k = 0; k < n; k++) {
        const dx = sx[k] - px;
        const dy = sy[k] - py;
        const d2 = dx * dx + dy * dy;
        if (d2 < 1e-12) {
          exact = se[k];
          break;
        }
        const w = 1 / (d2 * d2);
        wsum += w;
        vsum += w * se[k];
      }
      values[j * nx + i] = Number.isNaN(exact) ? vsum / wsum : exact;
    }
  }
  const step = contourStep(max - min);
  const thresholds: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) thresholds.push(t);
  const sxScale = frame.w / nx;
  const syScale = frame.h / ny;
  const bands = contours()
    .size([nx, ny])
    .smooth(true)
    .thresholds(thresholds)(Array.from(values))
    .map((geometry) => {
      let d = "";
      let line = "";
      for (const polygon of geometry.coordinates) {
        for (const ring of polygon) {
          // Rings close along the grid's edges: those stretches are not contour lines, skip them.
          const onEdge = ([gx, gy]: number[]) => gx <= 0 || gy <= 0 || gx >= nx || gy >= ny;
          let pen = false;
          ring.forEach((pt, i) => {
            const edgeRun = i > 0 && onEdge(pt) && onEdge(ring[i - 1]);
            const cmd = !pen || edgeRun ? "M" : "L";
            const xy = `${(frame.x + pt[0] * sxScale).toFixed(2)} ${(frame.y + pt[1] * syScale).toFixed(2)}`;
            line += `${cmd}${xy}`;
            d += `${i === 0 ? "M" : "L"}${xy}`;
            pen = true;
          });
          d += "Z";
        }
      }
      return { value: geometry.value, d, line };
    })
    .filter((b) => b.d);
  return { bands, step, min, max };
}
