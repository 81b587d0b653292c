import { Decoder, Stream } from "@garmin/fitsdk";
import { Geodesic } from "geographiclib-geodesic";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/api-error.ts";
import { readActivityFile, sniffKind } from "./activity-files.ts";
import { type FixturePoint, fixtureRun, toFit, toGpx, toTcx } from "./activity-fixtures.ts";

/**
 * Activity files read as a member's upload would be, measured against references nobody here
 * wrote: the distance along the points on the WGS84 ellipsoid (geographiclib), the records Garmin's
 * own FIT SDK decodes from the same file, and the plain arithmetic of the samples (times, HR).
 */
const run = fixtureRun({ km: 5 });
const bytes = (text: string) => new TextEncoder().encode(text);

function geodesicLength(points: FixturePoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    total += Geodesic.WGS84.Inverse(points[i - 1].lat, points[i - 1].lng, points[i].lat, points[i].lng).s12 ?? 0;
  }
  return total;
}

/** Time (s) of each full km along the points' geodesic distance, interpolated linearly. */
function geodesicSplits(points: FixturePoint[]): number[] {
  const out: number[] = [];
  let along = 0;
  let last = points[0].time.getTime();
  let next = 1000;
  for (let i = 1; i < points.length; i++) {
    const step = Geodesic.WGS84.Inverse(points[i - 1].lat, points[i - 1].lng, points[i].lat, points[i].lng).s12 ?? 0;
    while (along + step >= next) {
      const t0 = points[i - 1].time.getTime();
      const at = t0 + ((points[i].time.getTime() - t0) * (next - along)) / step;
      out.push((at - last) / 1000);
      last = at;
      next += 1000;
    }
    along += step;
  }
  return out;
}

const reference = {
  distance: geodesicLength(run),
  splits: geodesicSplits(run),
  gain: run.reduce((sum, p, i) => sum + (i > 0 ? Math.max(0, p.ele - run[i - 1].ele) : 0), 0),
  elapsed: (run[run.length - 1].time.getTime() - run[0].time.getTime()) / 1000,
  averageHr: run.reduce((s, p) => s + p.hr, 0) / run.length,
  maxHr: Math.max(...run.map((p) => p.hr)),
};

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  throw new Error("the file was accepted");
}

describe("activity files", () => {
  it.each([
    ["gpx", () => bytes(toGpx(run))],
    ["tcx", () => bytes(toTcx(run))],
    ["fit", () => toFit(run)],
  ] as const)(
    "reads a %s run: distance, times, heart rate and splits agree with the references",
    async (kind, make) => {
      const file = await readActivityFile({ bytes: make(), fileName: `morning.${kind}` });
      expect(file.kind).toBe(kind);
      expect(file.sport).toBe("run");
      // Haversine on a sphere vs the ellipsoid: within 0.5 % on 5 km.
      expect(Math.abs(file.track.distance - reference.distance) / reference.distance).toBeLessThan(0.005);
      expect(file.startedAt).toBe(run[0].time.getTime());
      expect(file.elapsedTime).toBe(reference.elapsed);
      expect(file.movingTime).toBe(reference.elapsed);
      expect(Math.abs((file.averageHeartRate ?? 0) - reference.averageHr)).toBeLessThanOrEqual(1);
      expect(file.maxHeartRate).toBe(reference.maxHr);
      // Five 1 km splits (about 5:30/km; the 30 m step across at the turn is run faster), each
      // within 2 s of the ellipsoid's.
      expect(file.splits.map((s) => s.km)).toEqual([1, 2, 3, 4, 5]);
      expect(reference.splits.length).toBeGreaterThanOrEqual(4);
      reference.splits.slice(0, 4).forEach((seconds, k) => {
        expect(Math.abs(file.splits[k].seconds - seconds)).toBeLessThanOrEqual(2);
      });
      expect(file.splits.reduce((s, x) => s + x.seconds, 0)).toBe(reference.elapsed);
      // Smooth, noise-free hills: the smoothed D+ of course tracks is the plain sum of the rises.
      expect(Math.abs((file.track.elevationGain ?? 0) - reference.gain)).toBeLessThanOrEqual(3);
      expect(file.heartRate.length).toBeGreaterThan(10);
    },
  );

  it("decodes the FIT file's records like Garmin's own SDK does", async () => {
    const fit = toFit(run);
    const decoder = new Decoder(Stream.fromByteArray(Array.from(fit)));
    expect(decoder.isFIT()).toBe(true);
    expect(decoder.checkIntegrity()).toBe(true);
    const { messages } = decoder.read();
    const records = messages.recordMesgs ?? [];
    const file = await readActivityFile({ bytes: fit, fileName: null });
    expect(records.length).toBe(run.length);
    expect(file.track.pointCount).toBe(records.length);
    const sdkHr = records.reduce((s: number, r: { heartRate?: number }) => s + (r.heartRate ?? 0), 0) / records.length;
    expect(Math.abs((file.averageHeartRate ?? 0) - sdkHr)).toBeLessThanOrEqual(1);
  });

  it("knows a file by its content, whatever its name", () => {
    expect(sniffKind(toFit(run.slice(0, 3)), "run.gpx")).toBe("fit");
    expect(sniffKind(bytes(toTcx(run.slice(0, 3))), "run.fit")).toBe("tcx");
    expect(sniffKind(bytes(toGpx(run.slice(0, 3))), null)).toBe("gpx");
  });

  it("refuses broken files with a clear code each", async () => {
    const fit = toFit(run);
    const truncatedFit = fit.slice(0, Math.floor(fit.length / 2));
    const corruptedFit = fit.slice();
    corruptedFit[fit.length - 40] ^= 0xff;
    const gpx = toGpx(run);
    expect(await refusal(readActivityFile({ bytes: truncatedFit, fileName: "a.fit" }))).toBe("ACTIVITY_FILE_INVALID");
    expect(await refusal(readActivityFile({ bytes: corruptedFit, fileName: "a.fit" }))).toBe("ACTIVITY_FILE_INVALID");
    expect(await refusal(readActivityFile({ bytes: bytes(gpx.slice(0, gpx.length / 2)), fileName: "a.gpx" }))).toBe(
      "ACTIVITY_FILE_INVALID",
    );
    expect(await refusal(readActivityFile({ bytes: bytes("hello"), fileName: "notes.txt" }))).toBe(
      "ACTIVITY_FILE_INVALID",
    );
    expect(await refusal(readActivityFile({ bytes: new Uint8Array(), fileName: "a.gpx" }))).toBe(
      "ACTIVITY_FILE_INVALID",
    );
    expect(await refusal(readActivityFile({ bytes: bytes(toGpx(run.slice(0, 1))), fileName: "a.gpx" }))).toBe(
      "ACTIVITY_FILE_EMPTY",
    );
    const noPosition = toTcx(run).replace(/<Position>.*?<\/Position>/g, "");
    expect(await refusal(readActivityFile({ bytes: bytes(noPosition), fileName: "a.tcx" }))).toBe(
      "ACTIVITY_FILE_EMPTY",
    );
    const badLatitude = gpx.replace(`lat="${run[3].lat}"`, 'lat="north"');
    expect(await refusal(readActivityFile({ bytes: bytes(badLatitude), fileName: "a.gpx" }))).toBe(
      "ACTIVITY_FILE_INVALID",
    );
  });

  it("reads a file without times: no splits, no time, distance still right", async () => {
    const untimed = toGpx(run).replace(/<time>[^<]*<\/time>/g, "");
    const file = await readActivityFile({ bytes: bytes(untimed), fileName: "plan.gpx" });
    expect(file.startedAt).toBeNull();
    expect(file.splits).toEqual([]);
    expect(Math.abs(file.track.distance - reference.distance) / reference.distance).toBeLessThan(0.005);
  });
});

describe("activity files: what their times and sport say (issue 26 item 5)", () => {
  it("uses the times of a file timed only in part: its start, its elapsed time, its splits", async () => {
    // The watch had no clock for the first minute: the first 12 points carry no <time>.
    let seen = 0;
    const partly = toGpx(run).replace(/<time>[^<]*<\/time>/g, (time) => (++seen <= 13 ? "" : time));
    const file = await readActivityFile({ bytes: bytes(partly), fileName: "montre.gpx" });
    expect(file.startedAt).toBe(run[12].time.getTime());
    expect(file.elapsedTime).toBe(Math.round((run.at(-1)!.time.getTime() - run[12].time.getTime()) / 1000));
    expect(file.splits.map((s) => s.km)).toEqual([1, 2, 3, 4, 5]);
  });

  it("knows the start of a file with a single time, and nothing more", async () => {
    let seen = 0;
    const once = toGpx(run).replace(/<time>[^<]*<\/time>/g, (time) => (++seen === 5 ? time : ""));
    const file = await readActivityFile({ bytes: bytes(once), fileName: "une-heure.gpx" });
    expect(file.startedAt).toBe(run[3].time.getTime());
    expect(file.elapsedTime).toBeNull();
    expect(file.splits).toEqual([]);
  });

  it('reads a TCX of Sport="Other" as another sport, not a run', async () => {
    const other = toTcx(run).replace('Sport="Running"', 'Sport="Other"');
    expect((await readActivityFile({ bytes: bytes(other), fileName: "a.tcx" })).sport).toBe("other");
    const biking = toTcx(run).replace('Sport="Running"', 'Sport="Biking"');
    expect((await readActivityFile({ bytes: bytes(biking), fileName: "a.tcx" })).sport).toBe("ride");
  });
});
