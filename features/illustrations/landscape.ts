/**
 * Stylised landscapes drawn by code: a sky in the sport's colours, a sun, two far ridges, the
 * course's own elevation profile as the near ridge with the course drawn on its crest, and a
 * foreground by terrain (mountains, a lake or the sea, a town, the countryside). The demo
 * catalogue's events get one each instead of a photo, and events without a photo a sport's own.
 *
 * A landscape is named by what it shows, in 20 characters because pages name three sizes of it
 * per card: the sport (its index in SPORT_KEYS, base 36), the terrain's initial, a seed for the
 * sky and the ridges (two base-36 digits), then the course's profile in 16 levels of one base-36
 * digit each ("1mk30a5fz…" is a trail in the mountains). The name alone gives the picture, the
 * same on every run, so a picture can be drawn when it is first asked for.
 */
import { SPORT_KEYS, type SportKey } from "../../shared/constants.ts";
import { hsl, SPORT_HUES } from "./palette.ts";

export const TERRAINS = ["mountain", "lake", "sea", "town", "country"] as const;
export type Terrain = (typeof TERRAINS)[number];

/** Points of a profile in a name; each is a level from 0 to 35 (one base-36 digit). */
export const PROFILE_SAMPLES = 16;
const LEVELS = 35;
const SEEDS = 36 * 36;

export type LandscapeSpec = {
  sport: SportKey;
  terrain: Terrain;
  /** 0 to 1295: time of day, where the sun is, the far ridges, the town and the trees. */
  seed: number;
  /** PROFILE_SAMPLES levels from 0 (the course's lowest point) to 35. */
  profile: number[];
};

const NAME = new RegExp(
  `^([0-9a-z])([${TERRAINS.map((t) => t[0]).join("")}])([0-9a-z]{2})([0-9a-z]{${PROFILE_SAMPLES}})$`,
);

export function landscapeName(spec: LandscapeSpec): string {
  const seed = (((Math.round(spec.seed) % SEEDS) + SEEDS) % SEEDS).toString(36).padStart(2, "0");
  const profile = spec.profile.map((level) => Math.min(LEVELS, Math.max(0, Math.round(level))).toString(36)).join("");
  return `${SPORT_KEYS.indexOf(spec.sport).toString(36)}${spec.terrain[0]}${seed}${profile}`;
}

/** The landscape a name describes, or null when it is not one. */
export function parseLandscapeName(name: string): LandscapeSpec | null {
  const match = NAME.exec(name);
  const sport = match ? SPORT_KEYS[Number.parseInt(match[1], 36)] : undefined;
  if (!match || !sport) return null;
  return {
    sport,
    terrain: TERRAINS.find((t) => t[0] === match[2])!,
    seed: Number.parseInt(match[3], 36),
    profile: [...match[4]].map((digit) => Number.parseInt(digit, 36)),
  };
}

/**
 * A course's elevations (metres, in course order) as the levels of a name: resampled to
 * PROFILE_SAMPLES points, the lowest at 0; a climb of `fullScale` metres or more fills the scale,
 * so a flat road race stays flat.
 */
export function profileLevels(elevations: readonly number[], fullScale = 150): number[] {
  if (elevations.length === 0) return new Array(PROFILE_SAMPLES).fill(0);
  const samples: number[] = [];
  for (let k = 0; k < PROFILE_SAMPLES; k++) {
    const at = (k * (elevations.length - 1)) / (PROFILE_SAMPLES - 1);
    const i = Math.floor(at);
    const next = elevations[Math.min(i + 1, elevations.length - 1)];
    samples.push(elevations[i] + (next - elevations[i]) * (at - i));
  }
  const min = Math.min(...samples);
  const range = Math.max(Math.max(...samples) - min, fullScale);
  return samples.map((e) => Math.round(((e - min) / range) * LEVELS));
}

/** mulberry32: the landscape's own small random source. */
function random(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Point = [number, number];
const r1 = (x: number) => Math.round(x * 10) / 10;

/** A smooth line through the points (Catmull-Rom as cubic Béziers). */
function smoothLine(points: readonly Point[]): string {
  let d = `M${r1(points[0][0])} ${r1(points[0][1])}`;
  for (let i = 0; i < points.length - 1; i++) {
    const p0 = points[Math.max(0, i - 1)];
    const p1 = points[i];
    const p2 = points[i + 1];
    const p3 = points[Math.min(points.length - 1, i + 2)];
    const c1: Point = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2: Point = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${r1(c1[0])} ${r1(c1[1])} ${r1(c2[0])} ${r1(c2[1])} ${r1(p2[0])} ${r1(p2[1])}`;
  }
  return d;
}

/** A broken line through the points: rock ridges. */
function sharpLine(points: readonly Point[]): string {
  return `M${points.map(([x, y]) => `${r1(x)} ${r1(y)}`).join("L")}`;
}

/** The area under a line, down to the bottom edge. */
function ridge(line: string, width: number, height: number, fill: string): string {
  return `<path d="${line}L${r1(width + 2)} ${r1(height + 2)}L-2 ${r1(height + 2)}Z" fill="${fill}"/>`;
}

/** Heights (0 to 1) of a random ridge of `peaks` summits. */
function randomHeights(next: () => number, count: number, peaks: number): number[] {
  const phase = next() * Math.PI * 2;
  const second = next() * Math.PI * 2;
  return Array.from({ length: count }, (_, i) => {
    const t = i / (count - 1);
    const v = 0.6 * Math.sin(t * Math.PI * peaks + phase) + 0.3 * Math.sin(t * Math.PI * peaks * 2.3 + second);
    return 0.5 + 0.5 * v * (0.75 + 0.25 * next());
  });
}

const TIMES = ["day", "golden", "dusk"] as const;

/** A hue `share` of the way from `from` to `to`, the short way round. */
function mixHue(from: number, to: number, share: number): number {
  const delta = ((((to - from) % 360) + 540) % 360) - 180;
  return from + delta * share;
}

/** How much of the height each terrain gives the course's relief. */
const RELIEF: Record<Terrain, number> = { mountain: 0.4, country: 0.2, lake: 0.16, sea: 0.14, town: 0.12 };

/**
 * The landscape as an SVG document of `width` × `height` (its own coordinates, so any size is
 * drawn for its proportions), or as a picture that fills any box when `fill` is set.
 */
export function landscapeSvg(spec: LandscapeSpec, width: number, height: number, options: { fill?: boolean } = {}) {
  const W = width;
  const H = height;
  const next = random(spec.seed + 7919 * (SPORT_KEYS.indexOf(spec.sport) + 1));
  // Each landscape a little warmer or cooler than its sport's hue, so that a page of one sport varies.
  const hue = SPORT_HUES[spec.sport] + ((spec.seed % 9) - 4) * 3;
  const time = TIMES[Math.floor(spec.seed / 9) % TIMES.length];
  const dusk = time === "dusk";
  const sky =
    time === "day"
      ? [hsl(hue + 15, 55, 74), hsl(hue + 35, 65, 92)]
      : time === "golden"
        ? [hsl(hue - 10, 55, 70), hsl(38, 95, 86)]
        : [hsl(mixHue(hue, 245, 0.7), 40, 34), hsl(hue - 20, 75, 74)];
  // Ridges from far (light, greyish) to near (dark, saturated): aerial perspective. At dusk they
  // turn to indigo, whatever the sport.
  const ridgeHue = dusk ? mixHue(hue, 245, 0.55) : hue;
  const shade = (layer: number) =>
    hsl(ridgeHue + (dusk ? 8 : -5) * layer, 22 + 9 * layer, (dusk ? [54, 42, 30, 18] : [72, 57, 40, 23])[layer]);
  const mountain = spec.terrain === "mountain";
  const wet = spec.terrain === "lake" || spec.terrain === "sea";
  const parts: string[] = [];

  const sunX = W * (0.14 + 0.72 * next());
  const sunY = H * (0.2 + 0.16 * next());
  const sunR = H * (0.075 + 0.03 * next());
  const sun = dusk ? hsl(30, 100, 88) : hsl(48, 100, 96);
  parts.push(
    `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/>` +
      `<stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>`,
    `<rect width="${W}" height="${H}" fill="url(#s)"/>`,
    `<circle cx="${r1(sunX)}" cy="${r1(sunY)}" r="${r1(sunR * 2.2)}" fill="${sun}" opacity=".25"/>`,
    `<circle cx="${r1(sunX)}" cy="${r1(sunY)}" r="${r1(sunR)}" fill="${sun}"/>`,
  );

  // Two far ridges: high and jagged in the mountains, low hills elsewhere.
  const farCount = mountain ? 23 : 13;
  for (const [layer, base, amplitude, peaks] of [
    [0, 0.56, mountain ? 0.3 : 0.13, mountain ? 4 : 2.5],
    [1, 0.68, mountain ? 0.22 : 0.1, mountain ? 3 : 2],
  ] as const) {
    const heights = randomHeights(next, farCount, peaks + next());
    const points = heights.map(
      (h, i): Point => [(W * i) / (farCount - 1), H * (base - amplitude * (mountain ? h * 0.8 + 0.35 * next() : h))],
    );
    parts.push(ridge(mountain ? sharpLine(points) : smoothLine(points), W, H, shade(layer)));
  }

  // A town: two rows of blocks (a steeple here and there, lit windows at dusk) between the far
  // ridges and the course, each town its own.
  if (spec.terrain === "town") {
    for (const [row, ground, tallest, opacity] of [
      [0, 0.74, 0.2, ".55"],
      [1, 0.8, 0.16, ".85"],
    ] as const) {
      let x = W * (0.01 + 0.12 * next());
      const blocks: string[] = [];
      const windows: string[] = [];
      const end = W * (0.9 + 0.1 * next());
      const density = 0.5 + next() * 0.5;
      while (x < end) {
        const w = W * (0.022 + 0.04 * next());
        const h = H * (0.05 + tallest * next() * density);
        const y = H * ground - h;
        blocks.push(`M${r1(x)} ${r1(H)}V${r1(y)}h${r1(w)}V${r1(H)}Z`);
        if (next() < 0.1) {
          const spireX = x + w / 2;
          blocks.push(
            `M${r1(spireX - w * 0.18)} ${r1(y)}L${r1(spireX)} ${r1(y - h * 0.6)}L${r1(spireX + w * 0.18)} ${r1(y)}Z`,
          );
        }
        if (dusk && row === 1) {
          const size = W * 0.006;
          for (let wy = y + size * 2; wy < H * ground - size * 2; wy += size * 3) {
            for (let wx = x + size; wx < x + w - size * 1.5; wx += size * 2.5) {
              if (next() < 0.3) windows.push(`M${r1(wx)} ${r1(wy)}h${r1(size)}v${r1(size * 1.4)}h${r1(-size)}Z`);
            }
          }
        }
        x += w + W * 0.006 * next();
      }
      parts.push(`<path d="${blocks.join("")}" fill="${shade(row + 1)}" opacity="${opacity}"/>`);
      if (windows.length > 0) parts.push(`<path d="${windows.join("")}" fill="${hsl(45, 100, 80)}" opacity=".8"/>`);
    }
  }

  // The course: its profile as the near ridge, the route dashed along the crest.
  const relief = RELIEF[spec.terrain];
  const crestBase = wet ? 0.8 : 0.86;
  const profile = spec.profile.length >= 2 ? spec.profile : [0, 0];
  const course = profile.map(
    (level, i): Point => [W * (-0.02 + (1.04 * i) / (profile.length - 1)), H * (crestBase - relief * (level / LEVELS))],
  );
  parts.push(ridge(smoothLine(course), W, H, shade(2)));
  const route = course.map(([x, y]): Point => [x, y + H * 0.022]);
  const stroke = Math.max(1.5, H * 0.009);
  parts.push(
    `<path d="${smoothLine(route)}" fill="none" stroke="#fff" stroke-opacity=".85" stroke-width="${r1(stroke)}" ` +
      `stroke-linecap="round" stroke-dasharray="${r1(stroke * 2.5)} ${r1(stroke * 2)}"/>`,
  );

  // The foreground.
  if (wet) {
    const waterTop = H * 0.86;
    parts.push(
      `<linearGradient id="w" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[1]}"/>` +
        `<stop offset="1" stop-color="${hsl(hue + 10, 40, dusk ? 26 : 42)}"/></linearGradient>`,
      `<rect y="${r1(waterTop)}" width="${W}" height="${r1(H - waterTop + 2)}" fill="url(#w)"/>`,
    );
    const glints: string[] = [];
    for (let i = 0; i < 6; i++) {
      const y = waterTop + (H - waterTop) * (0.2 + 0.13 * i);
      const w = sunR * (1.6 - 0.18 * i) * (0.7 + 0.6 * next());
      glints.push(`M${r1(sunX - w / 2)} ${r1(y)}h${r1(w)}`);
    }
    parts.push(
      `<path d="${glints.join("")}" stroke="${sun}" stroke-opacity=".7" stroke-width="${r1(Math.max(1, H * 0.007))}" stroke-linecap="round"/>`,
    );
  } else {
    const nearCount = 7;
    const heights = randomHeights(next, nearCount, 1.5 + next());
    const near = heights.map((h, i): Point => [(W * i) / (nearCount - 1), H * (0.955 - 0.06 * h)]);
    parts.push(ridge(smoothLine(near), W, H, shade(3)));
    if (spec.terrain === "country" || mountain) {
      const trees: string[] = [];
      const count = 5 + Math.floor(next() * 8);
      for (let i = 0; i < count; i++) {
        const x = W * next();
        const h = H * (0.05 + 0.05 * next());
        const y = H * (0.94 - 0.05 * next());
        trees.push(`M${r1(x)} ${r1(y - h)}L${r1(x + h * 0.32)} ${r1(y)}H${r1(x - h * 0.32)}Z`);
      }
      parts.push(`<path d="${trees.join("")}" fill="${shade(3)}"/>`);
    }
  }

  const box = options.fill ? ` preserveAspectRatio="xMidYMid slice"` : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"${box}>` +
    `${parts.join("")}</svg>`
  );
}
