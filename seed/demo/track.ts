import type { TrackPoint } from "../../features/events/events.tables.ts";
import type { TrackStats } from "../../features/tracks/track-stats.ts";
import { elevationProfile, trackStats } from "../../features/tracks/track-stats.ts";
import type { Rng } from "../../platform/prng.ts";

export type SynthesizeOptions = {
  lat: number;
  lng: number;
  /** Target length, metres. */
  distance: number;
  /** Target positive elevation, metres. */
  elevationGain: number;
  /** Elevation at the start, metres. */
  baseElevation: number;
  /** Lowest altitude the course may go down to (default: 0). */
  floor?: number;
  /** Highest altitude the course may reach (default: 2,000 m above the start). */
  ceiling?: number;
  /** A loop back to the start, or a point-to-point line. */
  loop: boolean;
  /** Paths and tracks that wind through the country (default), or streets of a town. */
  style?: "trail" | "road";
};

export type SyntheticTrack = { points: TrackPoint[]; stats: TrackStats; profile: [number, number][] };

const METRES_PER_DEGREE = 111_320;
/** About one point every this many metres, as a GPX simplified for the web. */
const POINT_SPACING = 50;
const MIN_POINTS = 150;
const MAX_POINTS = 800;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const wrapAngle = (a: number) => Math.atan2(Math.sin(a), Math.cos(a));

/**
 * A plausible course around the start. The profile is a sequence of climbs and descents of uneven
 * heights and lengths, with steeper and easier stretches, flats and small undulations, kept between
 * the place's floor and ceiling (a loop ends at its start's altitude). The line is a meandering walk
 * through a few waypoints (or blocks of streets, for a road race in town) with switchbacks where the
 * course is steep; a loop ends exactly at its start. Length and positive elevation are scaled on the
 * final points so that `trackStats` gives the targets within a fraction of a percent.
 */
export function synthesizeTrack(rng: Rng, options: SynthesizeOptions): SyntheticTrack {
  const n = clamp(Math.round(options.distance / POINT_SPACING), MIN_POINTS, MAX_POINTS);
  const spacing = options.distance / (n - 1);
  const style = options.style ?? "trail";
  const base = options.baseElevation;
  const floor = Math.min(base, options.floor ?? 0);
  const ceiling = Math.max(base + 30, options.ceiling ?? base + 2_000);

  // Vertical: a shape in metres, then its deviations from the start scaled to the positive elevation.
  // Scaled up, a shape may leave the relief (above a plain's highest point, below its valley or the
  // sea): drawn again within a narrower one.
  const lowest = Math.max(0, floor);
  let shape: Float64Array = new Float64Array(0);
  let lift = 1;
  let [bottom, top] = [floor, ceiling];
  for (let attempt = 0; attempt < 4; attempt++) {
    shape = profileShape(rng, { ...options, floor: bottom, ceiling: top, style }, n);
    lift = liftFor(shape, base, options.elevationGain);
    let [low, high] = [base, base];
    for (let i = 0; i < n; i++) {
      const z = base + lift * (shape[i] - base);
      if (z < low) low = z;
      if (z > high) high = z;
    }
    if (high > ceiling && top > base + 30)
      top = Math.max(base + 30, base + ((top - base) * (ceiling - base)) / (high - base) - 1);
    else if (low < lowest && bottom < base)
      bottom = Math.min(base, base - ((base - bottom) * (base - lowest)) / (base - low) + 1);
    else break;
  }
  const elevations = new Float64Array(n);
  for (let i = 0; i < n; i++) elevations[i] = Math.max(0, Math.round((base + lift * (shape[i] - base)) * 10) / 10);

  // Horizontal: a line in units of one point spacing, the start at (0, 0).
  const [xs, ys] =
    style === "road" ? streetLine(rng, n, options.loop) : trailLine(rng, n, options.loop, elevations, spacing);

  const cosLat = Math.cos((options.lat * Math.PI) / 180);
  const build = (scale: number): TrackPoint[] => {
    const points: TrackPoint[] = new Array(n);
    for (let i = 0; i < n; i++)
      points[i] = [
        round6(options.lng + (xs[i] * scale) / (METRES_PER_DEGREE * cosLat)),
        round6(options.lat + (ys[i] * scale) / METRES_PER_DEGREE),
        elevations[i],
      ];
    return points;
  };
  let length = 0;
  for (let i = 1; i < n; i++) length += Math.hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1]);
  let scale = options.distance / Math.max(length, 1e-9);
  let points = build(scale);
  for (let pass = 0; pass < 2; pass++) {
    const stats = trackStats(points);
    if (stats.distance > 0) scale *= options.distance / stats.distance;
    points = build(scale);
  }
  return { points, stats: trackStats(points), profile: elevationProfile(points) };
}

type ProfileOptions = SynthesizeOptions & { floor: number; ceiling: number; style: "trail" | "road" };

/** Smooth random values at knots `step` points apart (cosine interpolation): hills, not waves. */
function valueNoise(rng: Rng, n: number, step: number): Float64Array {
  const knots = Array.from({ length: Math.ceil(n / step) + 2 }, () => rng.range(-1, 1));
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(i / step);
    const t = (1 - Math.cos(((i / step - k) * Math.PI) as number)) / 2;
    out[i] = knots[k] * (1 - t) + knots[k + 1] * t;
  }
  return out;
}

/**
 * Elevations at n evenly spaced points: climbs of uneven heights (a few big ones and small ones),
 * each at its own gradient with steeper and easier stretches, descents likewise, flats between.
 */
function profileShape(rng: Rng, o: ProfileOptions, n: number): Float64Array {
  const gain = Math.max(0, o.elevationGain);
  const base = o.baseElevation;
  const room = Math.max(30, o.ceiling - o.floor);
  const road = o.style === "road";
  const perKm = gain / (o.distance / 1000);

  // Climbs: about one per 300–800 m of climbing, more when the relief is short of room (enough that
  // they need not all be as high as it allows: climbs of uneven heights).
  let climbs = gain < 150 ? rng.int(1, 4) : Math.round(gain / rng.range(300, 800));
  climbs = clamp(Math.max(climbs, Math.ceil(gain / (0.6 * room))), 1, 40);
  const shares = Array.from({ length: climbs }, () => 0.3 - Math.log(1 - rng.next()));
  const sum = shares.reduce((s, x) => s + x, 0);
  const heights = shares.map((s) => (gain * s) / sum);
  // No climb higher than the relief allows: the excess goes to the others.
  for (let pass = 0; pass < 3; pass++) {
    let excess = 0;
    for (let i = 0; i < climbs; i++)
      if (heights[i] > 0.8 * room) {
        excess += heights[i] - 0.8 * room;
        heights[i] = 0.8 * room;
      }
    if (excess === 0) break;
    for (let i = 0; i < climbs; i++) heights[i] += excess / climbs;
  }

  // Altitudes of the summits and of the low points between them.
  const nodes: number[] = [base];
  let low = base;
  for (let i = 0; i < climbs; i++) {
    const top = Math.min(o.ceiling, low + heights[i]);
    nodes.push(top);
    const last = i === climbs - 1;
    if (last) {
      low = o.loop ? base : clamp(base + rng.range(-0.6, 0.6) * room * 0.5, o.floor, top);
    } else {
      const next = heights[i + 1];
      // Down towards the valley, not always to its bottom; low enough for the next climb to fit.
      let lo = Math.max(o.floor, top - heights[i] * rng.range(0.7, 1.4));
      let hi = Math.min(top - 0.25 * heights[i], o.ceiling - next);
      if (o.loop && i === climbs - 2) lo = Math.max(lo, base - next);
      if (lo > hi) [lo, hi] = [Math.min(lo, hi), Math.min(lo, hi)];
      low = clamp(rng.range(lo, hi), o.floor, o.ceiling);
    }
    nodes.push(low);
  }

  // Lengths of the legs at their gradients; what is left of the distance becomes flats.
  const legs: { from: number; to: number; length: number; knots: number[] }[] = [];
  const steep = road ? [0.01, 0.05] : perKm > 40 ? [0.07, 0.22] : perKm > 20 ? [0.05, 0.15] : [0.03, 0.1];
  let climbing = 0;
  for (let i = 1; i < nodes.length; i++) {
    const drop = Math.abs(nodes[i] - nodes[i - 1]);
    const length = drop / rng.range(steep[0], steep[1]);
    climbing += length;
    // Steeper and easier stretches: cumulative share of the leg's height at 12 knots.
    const weights = [0];
    let w = rng.range(-1, 1);
    for (let k = 0; k < 12; k++) {
      w = 0.6 * w + rng.range(-0.8, 0.8);
      weights.push(weights[k] + Math.exp(w));
    }
    legs.push({ from: nodes[i - 1], to: nodes[i], length, knots: weights.map((x) => x / weights[12]) });
  }
  const budget = (n - 1) * 0.92;
  const squeeze = climbing > budget ? budget / climbing : 1;
  for (const leg of legs) leg.length *= squeeze;
  const flat = Math.max(0, n - 1 - climbing * squeeze);
  const slots = Array.from({ length: legs.length + 1 }, () => (rng.chance(0.35) ? 0 : -Math.log(1 - rng.next())));
  const slotSum = slots.reduce((s, x) => s + x, 0) || 1;

  // Walk the legs point by point (distances in point spacings).
  const shape = new Float64Array(n);
  const starts: { at: number; leg: number }[] = [];
  let at = 0;
  for (let k = 0; k < legs.length; k++) {
    at += (flat * slots[k]) / slotSum;
    starts.push({ at, leg: k });
    at += legs[k].length;
  }
  let k = 0;
  for (let i = 0; i < n; i++) {
    while (k < legs.length - 1 && i >= starts[k + 1].at) k++;
    const leg = legs[k];
    const u = clamp((i - starts[k].at) / Math.max(leg.length, 1e-9), 0, 1);
    const x = u * 12;
    const j = Math.min(11, Math.floor(x));
    const f = leg.knots[j] + (leg.knots[j + 1] - leg.knots[j]) * (x - j);
    shape[i] = i < starts[0].at ? base : leg.from + (leg.to - leg.from) * f;
  }

  // Small undulations: bumps of a few hundred metres and of a kilometre or two.
  const amp = road ? rng.range(0.5, 2.5) : Math.min(25, 3 + perKm * 0.3);
  const short = valueNoise(rng, n, Math.max(3, Math.round(300 / (o.distance / (n - 1)))));
  const long = valueNoise(rng, n, Math.max(6, Math.round(1500 / (o.distance / (n - 1)))));
  for (let i = 0; i < n; i++) {
    // Loops end where they start: no bump at either end.
    const taper = Math.min(1, i / 8, (n - 1 - i) / 8);
    const bump = amp * (0.6 * short[i] + 1.4 * long[i]) * taper;
    shape[i] = clamp(shape[i] + bump, o.floor, o.ceiling);
  }
  shape[0] = base;
  if (o.loop) shape[n - 1] = base;
  return shape;
}

/** The factor on a profile's deviations from the start that gives it `target` metres of climbing. */
function liftFor(shape: Float64Array, base: number, target: number): number {
  const gainOf = (lift: number) => {
    let gain = 0;
    for (let i = 1; i < shape.length; i++) {
      const a = Math.round((base + lift * (shape[i] - base)) * 10) / 10;
      const b = Math.round((base + lift * (shape[i - 1] - base)) * 10) / 10;
      if (a > b) gain += a - b;
    }
    return gain;
  };
  let lift = 1;
  for (let pass = 0; pass < 3; pass++) {
    const gain = gainOf(lift);
    if (gain > 0 && target > 0) lift *= target / gain;
    else if (target === 0) lift = 0;
  }
  return lift;
}

/** Resamples a polyline to n points evenly spaced along it. */
function resample(px: number[], py: number[], n: number): [Float64Array, Float64Array] {
  const cumulative = [0];
  for (let i = 1; i < px.length; i++)
    cumulative.push(cumulative[i - 1] + Math.hypot(px[i] - px[i - 1], py[i] - py[i - 1]));
  const total = cumulative[cumulative.length - 1];
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const d = (total * i) / (n - 1);
    while (j < px.length - 2 && cumulative[j + 1] < d) j++;
    const span = cumulative[j + 1] - cumulative[j] || 1;
    const t = clamp((d - cumulative[j]) / span, 0, 1);
    xs[i] = px[j] + (px[j + 1] - px[j]) * t;
    ys[i] = py[j] + (py[j + 1] - py[j]) * t;
  }
  xs[0] = px[0];
  ys[0] = py[0];
  xs[n - 1] = px[px.length - 1];
  ys[n - 1] = py[py.length - 1];
  return [xs, ys];
}

/** Waypoints (excluding the start) of a loop or a line about `length` long, in point spacings. */
function waypoints(
  rng: Rng,
  length: number,
  loop: boolean,
  sinuosity: number,
  folds: { count: [number, number]; radius: [number, number] } = { count: [5, 10], radius: [0.35, 1.3] },
): [number, number][] {
  const reach = length / sinuosity;
  const axis = rng.range(0, 2 * Math.PI);
  if (loop) {
    // An irregular loop, often stretched along a valley or a ridge.
    const count = rng.int(folds.count[0], folds.count[1]);
    const stretch = rng.range(1, 2.2);
    const radius = reach / (2 * Math.PI * Math.sqrt((1 + stretch * stretch) / 2));
    const out: [number, number][] = [];
    for (let j = 1; j <= count; j++) {
      const theta = Math.PI + (2 * Math.PI * j) / (count + 1) + rng.range(-0.35, 0.35) * (Math.PI / (count + 1));
      const r = radius * rng.range(folds.radius[0], folds.radius[1]);
      // Loop centred one radius away from the start, which lies on it at angle π.
      const lx = stretch * (radius + r * Math.cos(theta));
      const ly = r * Math.sin(theta);
      out.push([lx * Math.cos(axis) - ly * Math.sin(axis), lx * Math.sin(axis) + ly * Math.cos(axis)]);
    }
    out.push([0, 0]);
    return out;
  }
  // A line that wanders to an end some way off.
  const count = rng.int(2, 5);
  const span = reach * rng.range(0.7, 0.9);
  const out: [number, number][] = [];
  for (let j = 1; j <= count; j++) {
    const along = (span * j) / count;
    const across = j === count ? 0 : span * rng.range(-0.18, 0.18);
    out.push([along * Math.cos(axis) - across * Math.sin(axis), along * Math.sin(axis) + across * Math.cos(axis)]);
  }
  return out;
}

/**
 * A path through the country: a walk that heads for each waypoint in turn with a meandering heading
 * (bends at several scales), resampled to n points; zigzags where the profile is steep.
 */
function trailLine(
  rng: Rng,
  n: number,
  loop: boolean,
  elevations: Float64Array,
  spacing: number,
): [Float64Array, Float64Array] {
  const targets = waypoints(rng, n - 1, loop, rng.range(1.3, 1.7));
  const step = 0.5;
  const px = [0];
  const py = [0];
  let x = 0;
  let y = 0;
  let t = 0;
  let heading = Math.atan2(targets[0][1], targets[0][0]) + rng.range(-0.8, 0.8);
  let drift = 0;
  let bend = 0;
  const steer = rng.range(0.08, 0.16);
  for (let steps = 0; steps < 40 * n && t < targets.length; steps++) {
    const [tx, ty] = targets[t];
    const gap = Math.hypot(tx - x, ty - y);
    if (gap < 2) {
      t++;
      continue;
    }
    // Slow drift (the valley's turns) and quick bends (the path's); pulled harder towards the target when close.
    drift = 0.97 * drift + rng.range(-0.06, 0.06);
    bend = 0.7 * bend + rng.range(-0.35, 0.35);
    const pull = steer * (gap < 8 ? 3 : 1);
    heading += pull * wrapAngle(Math.atan2(ty - y, tx - x) - heading) + 0.15 * drift + 0.4 * bend;
    x += step * Math.cos(heading);
    y += step * Math.sin(heading);
    px.push(x);
    py.push(y);
  }
  const [endX, endY] = targets[targets.length - 1];
  px.push(endX);
  py.push(endY);
  const [xs, ys] = resample(px, py, n);

  // Switchbacks: a zigzag across the line where the grade is steep, each leg 100–200 m.
  const period = clamp(Math.round(rng.range(200, 400) / spacing), 4, 12);
  const amplitude = rng.range(35, 70) / spacing;
  let run = 0;
  const offsets = new Float64Array(n);
  for (let i = 1; i < n - 1; i++) {
    const grade = Math.abs(elevations[i + 1] - elevations[i - 1]) / (2 * spacing);
    run = grade > 0.15 ? run + 1 : 0;
    if (run === 0) continue;
    const phase = (run % period) / period;
    offsets[i] = amplitude * (phase < 0.5 ? 4 * phase - 1 : 3 - 4 * phase) + amplitude;
  }
  // Taper each zigzag run at both ends so that it joins the line.
  for (let i = 1; i < n - 1; i++)
    if (offsets[i] !== 0 && (offsets[i - 1] === 0 || offsets[i + 1] === 0)) offsets[i] /= 2;
  const ox = new Float64Array(xs);
  const oy = new Float64Array(ys);
  for (let i = 1; i < n - 1; i++) {
    if (offsets[i] === 0) continue;
    const a = Math.max(0, i - 3);
    const b = Math.min(n - 1, i + 3);
    const dx = xs[b] - xs[a];
    const dy = ys[b] - ys[a];
    const norm = Math.hypot(dx, dy) || 1;
    ox[i] = xs[i] - (dy / norm) * offsets[i];
    oy[i] = ys[i] + (dx / norm) * offsets[i];
  }
  return [ox, oy];
}

/**
 * Streets of a town: straight blocks on the town's grid, turning at crossings towards the next
 * waypoint (now and then the other way), with a few avenues cutting across; resampled to n points.
 */
function streetLine(rng: Rng, n: number, loop: boolean): [Float64Array, Float64Array] {
  // Town courses fold back on themselves through the streets: they span less ground than a trail.
  const targets = waypoints(rng, n - 1, loop, rng.range(2, 3), { count: [8, 14], radius: [0.15, 1.1] });
  const grid = rng.range(0, Math.PI / 2);
  const axes = [0, 1, 2, 3].map((k) => grid + (k * Math.PI) / 2);
  const px = [0];
  const py = [0];
  let x = 0;
  let y = 0;
  let t = 0;
  let previous = -1;
  for (let blocks = 0; blocks < 20 * n && t < targets.length; blocks++) {
    const [tx, ty] = targets[t];
    const gap = Math.hypot(tx - x, ty - y);
    if (gap < 3) {
      t++;
      continue;
    }
    const bearing = Math.atan2(ty - y, tx - x);
    let heading: number;
    let length = rng.range(3, 12);
    if (rng.chance(0.08)) {
      // An avenue or a riverside: straight at the target, gently curved.
      heading = bearing + rng.range(-0.3, 0.3);
      length = Math.min(gap, rng.range(4, 12));
    } else {
      // The street most towards the target, sometimes the second; never straight back.
      const ranked = axes
        .map((a, k) => ({ a, k, progress: Math.cos(a - bearing) }))
        .filter(({ k }) => previous < 0 || k !== (previous + 2) % 4)
        .sort((p, q) => q.progress - p.progress);
      const choice = ranked.length > 1 && ranked[1].progress > -0.2 && rng.chance(0.3) ? ranked[1] : ranked[0];
      previous = choice.k;
      heading = choice.a + rng.range(-0.04, 0.04);
      length = Math.min(length, Math.max(1, gap * Math.abs(Math.cos(choice.a - bearing)) + 0.5));
    }
    const parts = Math.max(1, Math.round(length / 0.5));
    for (let p = 0; p < parts; p++) {
      x += (length / parts) * Math.cos(heading);
      y += (length / parts) * Math.sin(heading);
      px.push(x);
      py.push(y);
    }
  }
  const [endX, endY] = targets[targets.length - 1];
  px.push(endX);
  py.push(endY);
  return resample(px, py, n);
}
