/**
 * The elevation profile layer under the map: an area and a line per segment of the track (the
 * profile breaks where the track does), 400 samples at most. Isomorphic, pure.
 */
import type { PosterDesign } from "../poster.contract.ts";
import type { Frame } from "./geo.ts";
import { f2, HYPSO, type Prim } from "./scene.ts";
import type { TrackData } from "./track-data.ts";

export function profilePrims(
  profile: Frame,
  totalM: number,
  track: TrackData,
  drawnStyle: PosterDesign["mapStyle"],
  colors: PosterDesign["colors"],
  strokeW: number,
): Prim[] {
  const prims: Prim[] = [];
  const { points, elevations, dist, segment, lo, hi } = track;
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
  return prims;
}
