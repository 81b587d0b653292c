import type { TrackPoint } from "../../../features/events/events.tables.ts";
import type { TrackStats } from "../../../features/tracks/track-stats.ts";
import { elevationProfile, trackStats } from "../../../features/tracks/track-stats.ts";
import type { Rng } from "./prng.ts";
import { haversine } from "./terrain.ts";

export type SynthesizeOptions = {
  lat: number;
  lng: number;
  /** Target length, metres. */
  distance: number;
  /** Target positive elevation, metres. */
  elevationGain: number;
  /** Elevation at the start, metres. */
  baseElevation: number;
  /** A loop back to the start, or a point-to-point line. */
  loop: boolean;
};

export type SyntheticTrack = { points: TrackPoint[]; stats: TrackStats; profile: [number, number][] };

const METRES_PER_DEGREE = 111_320;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * A plausible course line around the start: a wobbly loop or a meandering point-to-point line, with a
 * smooth elevation profile of a few climbs. Length and positive elevation are scaled on the final
 * points so that `trackStats` gives the targets within a fraction of a percent.
 */
export function synthesizeTrack(rng: Rng, options: SynthesizeOptions): SyntheticTrack {
  const n = Math.min(400, Math.max(120, Math.round(options.distance / 50)));
  const cosLat = Math.cos((options.lat * Math.PI) / 180);

  // Horizontal shape in metres, for a unit scale; the start is at (0, 0).
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const rotation = rng.range(0, 2 * Math.PI);
  if (options.loop) {
    const lobes = [2, 3, 4].map((k) => ({ k, a: rng.range(0.04, 0.14), p: rng.range(0, 2 * Math.PI) }));
    const wiggles = [0, 1, 2].map(() => ({
      k: rng.int(9, 17),
      a: rng.range(0.008, 0.02),
      p: rng.range(0, 2 * Math.PI),
    }));
    const radius = (theta: number) =>
      1 + [...lobes, ...wiggles].reduce((r, { k, a, p }) => r + a * Math.sin(k * theta + p), 0);
    const r0 = radius(0);
    for (let i = 0; i < n; i++) {
      const theta = (2 * Math.PI * i) / (n - 1);
      const r = radius(theta);
      xs[i] = r * Math.cos(theta + rotation) - r0 * Math.cos(rotation);
      ys[i] = r * Math.sin(theta + rotation) - r0 * Math.sin(rotation);
    }
  } else {
    const bends = [1, 2, 3].map((k) => ({ k, a: rng.range(0.15, 0.6), p: rng.range(0, 2 * Math.PI) }));
    const wiggles = [0, 1].map(() => ({ k: rng.int(10, 24), a: rng.range(0.05, 0.15), p: rng.range(0, 2 * Math.PI) }));
    let x = 0;
    let y = 0;
    for (let i = 0; i < n; i++) {
      xs[i] = x;
      ys[i] = y;
      const t = i / (n - 1);
      const heading = [...bends, ...wiggles].reduce(
        (h, { k, a, p }) => h + a * Math.sin(2 * Math.PI * k * t + p),
        rotation,
      );
      x += Math.cos(heading);
      y += Math.sin(heading);
    }
  }

  // Vertical shape: a few climbs, plus a net rise or fall for point-to-point lines.
  const climbs =
    options.elevationGain >= 300
      ? Math.min(14, Math.max(1, Math.round(options.elevationGain / rng.range(350, 900))))
      : rng.int(2, 6);
  const harmonics = [
    { f: climbs, a: 1, p: rng.range(0, 2 * Math.PI) },
    { f: rng.int(1, Math.max(1, climbs)), a: rng.range(0.2, 0.5), p: rng.range(0, 2 * Math.PI) },
    { f: climbs * 3 + rng.int(1, 3), a: rng.range(0.04, 0.1), p: rng.range(0, 2 * Math.PI) },
  ];
  const trend = options.loop ? 0 : rng.range(-0.6, 0.6);
  const shape = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    shape[i] = harmonics.reduce((e, { f, a, p }) => e + a * Math.sin(2 * Math.PI * f * t + p), trend * t);
  }

  const build = (scale: number, lift: number): TrackPoint[] => {
    const points: TrackPoint[] = new Array(n);
    for (let i = 0; i < n; i++) {
      points[i] = [
        round6(options.lng + (xs[i] * scale) / (METRES_PER_DEGREE * cosLat)),
        round6(options.lat + (ys[i] * scale) / METRES_PER_DEGREE),
        Math.round((options.baseElevation + lift * (shape[i] - shape[0])) * 10) / 10,
      ];
    }
    return points;
  };

  // Scale both axes from a unit build (stats are linear in each scale), then refine once.
  let gainOfShape = 0;
  for (let i = 1; i < n; i++) gainOfShape += Math.max(0, shape[i] - shape[i - 1]);
  let lift = gainOfShape > 0 ? options.elevationGain / gainOfShape : 0;
  let scale = 1000;
  let points = build(scale, lift);
  for (let pass = 0; pass < 2; pass++) {
    const stats = trackStats(points);
    if (stats.distance > 0) scale *= options.distance / stats.distance;
    if (stats.elevationGain > 0) lift *= options.elevationGain / stats.elevationGain;
    points = build(scale, lift);
  }
  // Keep the line above sea level (coastal courses start near 0 m).
  let minEle = Number.POSITIVE_INFINITY;
  for (const p of points) minEle = Math.min(minEle, p[2] ?? 0);
  if (minEle < 2) for (const p of points) p[2] = Math.round(((p[2] ?? 0) + 2 - minEle) * 10) / 10;

  return { points, stats: trackStats(points), profile: elevationProfile(points) };
}
