import { Geodesic } from "geographiclib-geodesic";
import { describe, expect, it } from "vitest";
import { Rng } from "../../platform/prng.ts";
import { parseGpxTrack, processGpx } from "./track-processing.ts";

/**
 * Distances measured against an independent computation: Karney's geodesics on the WGS84
 * ellipsoid (geographiclib-geodesic, the reference algorithm behind gpxpy-class tools), summed over
 * each segment on its own: the gap between two segments or two tracks is not distance.
 */
type Line = [lat: number, lng: number, ele: number][];

function wander(rng: Rng, start: [number, number], points: number): Line {
  const line: Line = [];
  let [lat, lng] = start;
  let heading = rng.next() * Math.PI * 2;
  let ele = 600;
  for (let i = 0; i < points; i++) {
    line.push([lat, lng, Math.round(ele * 10) / 10]);
    heading += (rng.next() - 0.5) * 0.6;
    const step = 8 + rng.next() * 12; // metres
    lat += (step * Math.cos(heading)) / 111_320;
    lng += (step * Math.sin(heading)) / (111_320 * Math.cos((lat * Math.PI) / 180));
    ele += (rng.next() - 0.45) * 2;
  }
  return line;
}

const trkpts = (line: Line) =>
  line
    .map(([lat, lng, ele]) => `<trkpt lat="${lat.toFixed(7)}" lon="${lng.toFixed(7)}"><ele>${ele}</ele></trkpt>`)
    .join("");

/** Sum of the geodesic lengths of each line's consecutive points (WGS84). */
function reference(lines: Line[]): number {
  let total = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      total += Geodesic.WGS84.Inverse(line[i - 1][0], line[i - 1][1], line[i][0], line[i][1]).s12 ?? 0;
    }
  }
  return total;
}

describe("course distance across segments and tracks", () => {
  const rng = new Rng(2026);
  // A morning run near Annecy, a pause, a lift 9 km away, then the afternoon run.
  const morning = wander(rng, [45.8992, 6.1294], 600);
  const afternoon = wander(rng, [45.9, 6.24], 500);
  const evening = wander(rng, [45.95, 6.3], 300);

  it("leaves out the gap between two <trkseg>s of a track", () => {
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><name>Two parts</name><trkseg>${trkpts(morning)}</trkseg><trkseg>${trkpts(afternoon)}</trkseg></trk></gpx>`;
    const expected = reference([morning, afternoon]);
    const track = processGpx(gpx);
    expect(Math.abs(track.distance - expected) / expected).toBeLessThan(0.01);
    expect(parseGpxTrack(gpx)).toMatchObject({ segments: 2, breaks: [morning.length] });
  });

  it("leaves out the gaps between <trk>s too", () => {
    const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>${trkpts(morning)}</trkseg></trk><trk><trkseg>${trkpts(afternoon)}</trkseg><trkseg>${trkpts(evening)}</trkseg></trk></gpx>`;
    const expected = reference([morning, afternoon, evening]);
    expect(Math.abs(processGpx(gpx).distance - expected) / expected).toBeLessThan(0.01);
  });

  it("agrees with the reference on a single segment", () => {
    const gpx = `<gpx version="1.1" creator="test"><trk><trkseg>${trkpts(morning)}</trkseg></trk></gpx>`;
    const expected = reference([morning]);
    expect(Math.abs(processGpx(gpx).distance - expected) / expected).toBeLessThan(0.01);
  });
});
