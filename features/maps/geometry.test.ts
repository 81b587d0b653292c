import { describe, expect, it } from "vitest";
import {
  boundsOf,
  joinSegments,
  normaliseBreaks,
  projectToBox,
  simplifyLine,
  simplifySegmentsToCount,
  simplifyToCount,
  splitAtBreaks,
} from "./geometry.ts";

describe("boundsOf", () => {
  it("gives [west, south, east, north] and skips non-finite positions", () => {
    expect(
      boundsOf([
        [2, 48],
        [3, 47.5, 120],
        [Number.NaN, 0],
        [2.5, 49],
      ]),
    ).toEqual([2, 47.5, 3, 49]);
    expect(boundsOf([])).toBeNull();
  });
});

describe("simplifyLine", () => {
  it("drops points within the tolerance and keeps the ends and the corners", () => {
    const line: [number, number, number][] = [];
    for (let i = 0; i <= 100; i++) line.push([2 + i * 0.0001, 48, i]);
    for (let i = 1; i <= 100; i++) line.push([2.01, 48 + i * 0.0001, 100 + i]);
    const out = simplifyLine(line, 1);
    expect(out).toEqual([line[0], line[100], line[200]]);
  });

  it("simplifyToCount reaches the limit and leaves short lines alone", () => {
    const wiggle: [number, number][] = Array.from({ length: 1000 }, (_, i) => [
      2 + i * 0.001,
      48 + Math.sin(i / 5) * 0.002,
    ]);
    const out = simplifyToCount(wiggle, 120);
    expect(out.length).toBeLessThanOrEqual(120);
    expect(out[0]).toEqual(wiggle[0]);
    expect(out.at(-1)).toEqual(wiggle.at(-1));
    expect(simplifyToCount(wiggle.slice(0, 10), 120)).toEqual(wiggle.slice(0, 10));
  });
});

describe("projectToBox", () => {
  it("fits positions in the box with a margin, north up, keeping the aspect ratio", () => {
    const pts = projectToBox(
      [
        [2, 48],
        [2.1, 48.1],
      ],
      300,
      200,
      10,
    );
    const [a, b] = pts;
    expect(a.y).toBeGreaterThan(b.y);
    for (const p of pts) {
      expect(p.x).toBeGreaterThanOrEqual(10);
      expect(p.x).toBeLessThanOrEqual(290);
      expect(p.y).toBeGreaterThanOrEqual(10);
      expect(p.y).toBeLessThanOrEqual(190);
    }
    // 0.1° of longitude at 48° is about two thirds of 0.1° of latitude.
    const ratio = (b.x - a.x) / (a.y - b.y);
    expect(ratio).toBeCloseTo(Math.cos((48.05 * Math.PI) / 180), 2);
  });
});

describe("segments", () => {
  it("cuts a line at its breaks and joins pieces back, ignoring breaks out of range", () => {
    expect(normaliseBreaks([5, 0, 2, 2, 9, 1.5], 6)).toEqual([2, 5]);
    expect(splitAtBreaks([1, 2, 3, 4, 5], [2, 4])).toEqual([[1, 2], [3, 4], [5]]);
    expect(splitAtBreaks([1, 2, 3], [])).toEqual([[1, 2, 3]]);
    expect(joinSegments([[1, 2], [], [3, 4], [5]])).toEqual({ points: [1, 2, 3, 4, 5], breaks: [2, 4] });
  });

  it("simplifies each segment on its own, keeping both ends of each and dropping single points", () => {
    const straight = (lat: number, n: number) =>
      Array.from({ length: n }, (_, i) => [6 + i * 0.0001, lat] as [number, number]);
    const line = [...straight(45, 50), ...straight(45.02, 50), [7, 46] as [number, number]];
    const out = simplifySegmentsToCount(line, [50, 100], 10);
    expect(out.points).toEqual([line[0], line[49], line[50], line[99]]);
    expect(out.breaks).toEqual([2]);
  });
});
