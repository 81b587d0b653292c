import { describe, expect, it } from "vitest";
import { Rng } from "../platform/prng.ts";
import { category, finishTime, startDelay } from "./demo-community.server.ts";

const minutes = (ms: number) => ms / 60_000;

describe("the demo community's figures", () => {
  // Medians of French finishers (FFA results, Run Repeat's yearly studies): 10 km about 57 min,
  // half marathon about 2 h 05, marathon about 4 h 15; a 30 km trail with 1,500 m D+ about 5 h.
  it("gives the median finisher a believable time", () => {
    expect(minutes(finishTime({ distance: 10_000, elevation_gain: 50, sport: "running" }, 1))).toBeGreaterThan(52);
    expect(minutes(finishTime({ distance: 10_000, elevation_gain: 50, sport: "running" }, 1))).toBeLessThan(64);
    expect(minutes(finishTime({ distance: 21_097, elevation_gain: 100, sport: "half_marathon" }, 1))).toBeGreaterThan(
      115,
    );
    expect(minutes(finishTime({ distance: 21_097, elevation_gain: 100, sport: "half_marathon" }, 1))).toBeLessThan(140);
    expect(minutes(finishTime({ distance: 42_195, elevation_gain: 150, sport: "marathon" }, 1))).toBeGreaterThan(235);
    expect(minutes(finishTime({ distance: 42_195, elevation_gain: 150, sport: "marathon" }, 1))).toBeLessThan(285);
    expect(minutes(finishTime({ distance: 30_000, elevation_gain: 1_500, sport: "trail" }, 1))).toBeGreaterThan(240);
    expect(minutes(finishTime({ distance: 30_000, elevation_gain: 1_500, sport: "trail" }, 1))).toBeLessThan(390);
  });

  it("is faster for a quicker runner and slower uphill", () => {
    const flat = { distance: 10_000, elevation_gain: 0, sport: "trail" };
    expect(finishTime(flat, 0.8)).toBeLessThan(finishTime(flat, 1));
    expect(finishTime({ ...flat, elevation_gain: 500 }, 1)).toBeGreaterThan(finishTime(flat, 1));
  });

  it("starts the front of the field on the line and its back up to a minute after the gun", () => {
    const rng = new Rng(3);
    for (let i = 0; i < 50; i++) {
      expect(startDelay(0, 300, rng)).toBeLessThanOrEqual(1.5);
      expect(startDelay(0.01, 300, rng)).toBeLessThanOrEqual(3);
      const back = startDelay(0.95, 300, rng);
      expect(back).toBeGreaterThan(25);
      expect(back).toBeLessThanOrEqual(61.5);
      // A small field crosses in seconds.
      expect(startDelay(1, 40, rng)).toBeLessThanOrEqual(9.5);
    }
  });

  it("names the FFA categories by age in the season", () => {
    expect(category(2010, 2026)).toBe("CA");
    expect(category(2008, 2026)).toBe("JU");
    expect(category(2005, 2026)).toBe("ES");
    expect(category(1995, 2026)).toBe("SE");
    expect(category(1990, 2026)).toBe("M0");
    expect(category(1975, 2026)).toBe("M3");
    expect(category(1930, 2026)).toBe("M10");
  });
});
