import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyseElevation, cumulativeDistances, parseGpxTrack, processGpx } from "./track-processing.ts";

/**
 * Real GPX files (features/tracks/fixtures/README.md: where they come from) against reference
 * values computed by code nobody here wrote (fixtures/reference.mjs: jsdom's XML parser,
 * geographiclib's geodesics, sports-lib's threshold gain) with the same 4 m threshold.
 */
type Reference = {
  points: number;
  segments: number;
  distance: number;
  threshold: number;
  elevationGain: number;
  elevationLoss: number;
};
const reference = JSON.parse(readFileSync(new URL("./fixtures/reference.json", import.meta.url), "utf8")) as {
  references: Record<string, Reference>;
};
const fixtures = Object.entries(reference.references);
const within = (value: number, expected: number, share: number) => Math.abs(value - expected) <= expected * share;

describe("real GPX files against independently computed references", () => {
  it("has the three fixtures", () => {
    expect(fixtures.map(([file]) => file).sort()).toEqual([
      "gpx-parse-route-1.1.gpx",
      "togeojson-multitrack.gpx",
      "togeojson-trek.gpx",
    ]);
  });

  for (const [file, ref] of fixtures) {
    it(`${file}: distance within 1 %, D+ within 3 % of the reference, with the same threshold`, () => {
      const bytes = readFileSync(new URL(`./fixtures/${file}`, import.meta.url));
      const parsed = parseGpxTrack(bytes.toString("utf8"));
      expect(parsed.points).toHaveLength(ref.points);
      expect(parsed.segments).toBe(ref.segments);
      const analysis = analyseElevation(
        parsed.points,
        cumulativeDistances(parsed.points, parsed.breaks),
        parsed.breaks,
      );
      expect(analysis?.threshold).toBe(ref.threshold);

      const track = processGpx(new Uint8Array(bytes));
      expect(within(track.distance, ref.distance, 0.01), `distance ${track.distance} vs ${ref.distance}`).toBe(true);
      expect(track.elevationGain).not.toBeNull();
      const gain = track.elevationGain!;
      expect(within(gain, ref.elevationGain, 0.03), `D+ ${gain} vs ${ref.elevationGain}`).toBe(true);
      // D- too, a little looser: on the flat run (88 m in 21.5 km) 4 m is already 4.5 %.
      const loss = track.elevationLoss!;
      expect(within(loss, ref.elevationLoss, 0.05), `D- ${loss} vs ${ref.elevationLoss}`).toBe(true);
    });
  }
});
