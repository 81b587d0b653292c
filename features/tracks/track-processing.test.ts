import { describe, expect, it } from "vitest";
import { Rng } from "../../platform/prng.ts";
import { ApiError } from "../../shared/api-error.ts";
import type { TrackPoint } from "../events/events.tables.ts";
import { toGpx } from "../events/gpx.ts";
import {
  decodeGpxBytes,
  haversine,
  parseGpxTrack,
  processGpx,
  processTrack,
  reverseTrack,
  simplifyTrack,
  TRACK_DISPLAY_POINTS,
  TRACK_MAX_POINTS,
  TRACK_PROFILE_SAMPLES,
} from "./track-processing.ts";

const METRES_PER_DEGREE = 111_195;
const LAT = 45;
const COS = Math.cos((LAT * Math.PI) / 180);

/** A line heading east from (6°E, 45°N): a point every `spacing` metres, elevation from `ele(d)`. */
function eastward(length: number, spacing: number, ele: (d: number) => number | null): TrackPoint[] {
  const points: TrackPoint[] = [];
  for (let d = 0; d <= length + 1e-6; d += spacing) {
    points.push([6 + d / (METRES_PER_DEGREE * COS), LAT, ele(d)]);
  }
  return points;
}

function gpxDocument(body: string, root = 'version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"') {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx ${root}>\n${body}\n</gpx>\n`;
}

const trkpts = (points: TrackPoint[], tag = "trkpt") =>
  points
    .map(([lng, lat, ele]) =>
      ele === null
        ? `<${tag} lat="${lat}" lon="${lng}"/>`
        : `<${tag} lat="${lat}" lon="${lng}"><ele>${ele}</ele><time>2026-05-01T08:00:00Z</time></${tag}>`,
    )
    .join("\n");

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return undefined;
}

const three: TrackPoint[] = [
  [6.8652, 45.9237, 1035.2],
  [6.8701, 45.9301, 1102],
  [6.8755, 45.9342, 1150],
];

describe("parseGpxTrack", () => {
  it("reads a GPX 1.1 track: metadata name, points with elevation, namespace-free names", () => {
    const parsed = parseGpxTrack(
      gpxDocument(
        `<metadata><name>Trail des Écrins &amp; du Pelvoux</name><time>2026-01-01T00:00:00Z</time></metadata>
         <wpt lat="45" lon="6"><ele>5000</ele><name>Refuge</name></wpt>
         <trk><name>Track name</name><trkseg>${trkpts(three)}</trkseg></trk>`,
      ),
    );
    expect(parsed).toMatchObject({
      version: "1.1",
      name: "Trail des Écrins & du Pelvoux",
      source: "track",
      segments: 1,
    });
    expect(parsed.points).toEqual(three);
  });

  it("reads a GPX 1.0 file (name on the root, no metadata element)", () => {
    const parsed = parseGpxTrack(
      gpxDocument(
        `<name><![CDATA[Boucle <verte>]]></name><trk><name>ignored</name><trkseg>${trkpts(three)}</trkseg></trk>`,
        'version="1.0" creator="GPSBabel" xmlns="http://www.topografix.com/GPX/1/0"',
      ),
    );
    expect(parsed).toMatchObject({ version: "1.0", name: "Boucle <verte>", source: "track" });
    expect(parsed.points).toHaveLength(3);
  });

  it("falls back on the track's name, and reads our own export back", () => {
    const parsed = parseGpxTrack(gpxDocument(`<trk><name> Le  10 km </name><trkseg>${trkpts(three)}</trkseg></trk>`));
    expect(parsed.name).toBe("Le 10 km");
    const exported = parseGpxTrack(toGpx({ name: "Export", points: three }));
    expect(exported).toMatchObject({ name: "Export", points: three });
  });

  it("reads route points when there is no track", () => {
    const parsed = parseGpxTrack(gpxDocument(`<rte><name>Itinéraire</name>${trkpts(three, "rtept")}</rte>`));
    expect(parsed).toMatchObject({ source: "route", name: "Itinéraire", segments: 1 });
    expect(parsed.points).toEqual(three);
  });

  it("joins several segments and several tracks in order", () => {
    const parsed = parseGpxTrack(
      gpxDocument(
        `<trk><trkseg>${trkpts(three.slice(0, 2))}</trkseg><trkseg>${trkpts(three.slice(2))}</trkseg></trk>
         <trk><trkseg>${trkpts([[6.88, 45.94, null]])}</trkseg></trk>`,
      ),
    );
    expect(parsed.segments).toBe(3);
    expect(parsed.points).toEqual([...three, [6.88, 45.94, null]]);
  });

  it("accepts prefixed elements, single quotes, comments and ignores <ele> inside extensions", () => {
    const parsed = parseGpxTrack(
      `<?xml version='1.0'?><!-- made by hand --><g:gpx xmlns:g='http://www.topografix.com/GPX/1/1' version='1.1'>
        <g:trk><g:trkseg>
          <g:trkpt lat='45.1' lon='6.1'><g:extensions><x:data><g:ele>9999</g:ele></x:data></g:extensions></g:trkpt>
          <g:trkpt lat = '45.2' lon='6.2' ><g:ele> 812.5 </g:ele></g:trkpt>
        </g:trkseg></g:trk></g:gpx>`,
    );
    expect(parsed.points).toEqual([
      [6.1, 45.1, null],
      [6.2, 45.2, 812.5],
    ]);
  });

  it("drops impossible and empty elevations but keeps the point", () => {
    const parsed = parseGpxTrack(
      gpxDocument(
        `<trk><trkseg><trkpt lat="45" lon="6"><ele>-32768</ele></trkpt><trkpt lat="45.1" lon="6"><ele> </ele></trkpt></trkseg></trk>`,
      ),
    );
    expect(parsed.points).toEqual([
      [6, 45, null],
      [6, 45.1, null],
    ]);
  });

  it("reads elevations written with a decimal comma", () => {
    const parsed = parseGpxTrack(
      gpxDocument(
        `<trk><trkseg><trkpt lat="45" lon="6"><ele>1234,5</ele></trkpt><trkpt lat="45.1" lon="6"><ele> -12,25 </ele></trkpt><trkpt lat="45.2" lon="6"><ele>1234.5</ele></trkpt></trkseg></trk>`,
      ),
    );
    expect(parsed.points.map((p) => p[2])).toEqual([1234.5, -12.25, 1234.5]);
  });

  it.each(["n/a", "1.234,5", "1 234", "12m", "NaN", "0x10", "1,2,3"])(
    "refuses an unreadable elevation (%s) as GPX_ELEVATION_INVALID",
    (ele) => {
      const body = `<trk><trkseg><trkpt lat="45" lon="6"><ele>100</ele></trkpt><trkpt lat="45.1" lon="6"><ele>${ele}</ele></trkpt></trkseg></trk>`;
      expect(errorCode(() => parseGpxTrack(gpxDocument(body)))).toBe("GPX_ELEVATION_INVALID");
    },
  );

  it.each([
    ["plain text", "this is not xml"],
    ["an empty file", ""],
    ["unclosed elements", '<gpx version="1.1"><trk><trkseg><trkpt lat="45" lon="6">'],
    ["mismatched tags", '<gpx version="1.1"><trk></trkseg></gpx>'],
    ["an unquoted attribute", "<gpx version=1.1><trk/></gpx>"],
    ["another root element", '<?xml version="1.0"?><kml><Document/></kml>'],
    ["two root elements", "<gpx></gpx><gpx></gpx>"],
    ["text after the root", "<gpx></gpx> trailing"],
    ["an unknown entity", "<gpx><metadata><name>&nbsp;</name></metadata></gpx>"],
    ["an entity declaration", '<!DOCTYPE gpx [<!ENTITY a "aaaa">]><gpx></gpx>'],
    [
      "a point without longitude",
      gpxDocument('<trk><trkseg><trkpt lat="45"/><trkpt lat="45" lon="6"/></trkseg></trk>'),
    ],
    [
      "a latitude out of range",
      gpxDocument('<trk><trkseg><trkpt lat="95" lon="6"/><trkpt lat="45" lon="6"/></trkseg></trk>'),
    ],
    ["a non-numeric coordinate", gpxDocument('<trk><trkseg><trkpt lat="north" lon="6"/></trkseg></trk>')],
  ])("refuses %s as GPX_INVALID", (_, text) => {
    expect(errorCode(() => parseGpxTrack(text))).toBe("GPX_INVALID");
  });

  it("refuses binary content (a PNG) as GPX_INVALID", () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expect(errorCode(() => processGpx(png))).toBe("GPX_INVALID");
  });

  it.each([
    ["no track at all", gpxDocument("<metadata><name>Vide</name></metadata>")],
    ["an empty segment", gpxDocument("<trk><trkseg></trkseg></trk>")],
    ["a single point", gpxDocument('<trk><trkseg><trkpt lat="45" lon="6"/></trkseg></trk>')],
    ["waypoints only", gpxDocument('<wpt lat="45" lon="6"/><wpt lat="45.1" lon="6"/>')],
    ["a self-closing root", '<gpx version="1.1"/>'],
  ])("refuses %s as GPX_EMPTY", (_, text) => {
    expect(errorCode(() => parseGpxTrack(text))).toBe("GPX_EMPTY");
  });

  it("refuses more points than the limit as GPX_TOO_LARGE", () => {
    const point = '<trkpt lat="45" lon="6"/>';
    const text = gpxDocument(`<trk><trkseg>${point.repeat(TRACK_MAX_POINTS + 1)}</trkseg></trk>`);
    expect(errorCode(() => parseGpxTrack(text))).toBe("GPX_TOO_LARGE");
  });
});

describe("decodeGpxBytes", () => {
  it("follows the declared encoding, else UTF-8, and skips a byte order mark", () => {
    const latin1 = Uint8Array.from(
      Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?><gpx><metadata><name>\xc9crins</name></metadata></gpx>',
        "latin1",
      ),
    );
    expect(decodeGpxBytes(latin1)).toContain("<name>Écrins</name>");
    const utf8 = new TextEncoder().encode("\ufeff<gpx><name>Écrins</name></gpx>");
    expect(decodeGpxBytes(utf8)).toBe("<gpx><name>Écrins</name></gpx>");
  });
});

describe("haversine", () => {
  it("gives one degree of latitude as 111.2 km and Paris–London as 343.9 km", () => {
    expect(haversine(45, 6, 46, 6)).toBeCloseTo(111_195, -1);
    // Notre-Dame de Paris to Trafalgar Square.
    expect(haversine(48.853, 2.3499, 51.508, -0.128) / 1000).toBeCloseTo(343.9, 0);
    expect(haversine(45, 6, 45, 6)).toBe(0);
  });
});

describe("processTrack: distance and elevation", () => {
  it("measures the distance along the points", () => {
    const track = processTrack(eastward(10_000, 10, () => 200));
    expect(track.distance).toBeGreaterThanOrEqual(9_995);
    expect(track.distance).toBeLessThanOrEqual(10_005);
    expect(track).toMatchObject({ elevationGain: 0, elevationLoss: 0, minElevation: 200, maxElevation: 200 });
  });

  it("does not turn GPS noise of ±5 m on a flat 10 km into climbing", () => {
    const rng = new Rng(42);
    for (const spacing of [3, 10, 30]) {
      const noisy = eastward(10_000, spacing, () => 200 + rng.range(-5, 5));
      const track = processTrack(noisy);
      expect(track.elevationGain, `spacing ${spacing} m`).toBeLessThan(10);
      expect(track.elevationLoss, `spacing ${spacing} m`).toBeLessThan(10);
      // Summing every rise would have given hundreds of metres.
      let raw = 0;
      for (let i = 1; i < noisy.length; i++) raw += Math.max(0, noisy[i][2]! - noisy[i - 1][2]!);
      expect(raw).toBeGreaterThan(300);
    }
  });

  it("ignores a runner standing still: a hundred noisy points at one place add nothing", () => {
    const rng = new Rng(7);
    const before = eastward(2_000, 10, () => 300 + rng.range(-2, 2));
    const stop: TrackPoint[] = Array.from({ length: 200 }, () => [before.at(-1)![0], LAT, 300 + rng.range(-5, 5)]);
    const track = processTrack([...before, ...stop]);
    expect(track.elevationGain).toBeLessThan(6);
  });

  it("counts a real 500 m climb in full, with or without noise", () => {
    const climb = (d: number) => 400 + Math.min(500, Math.max(0, d - 1_000) / 10);
    const clean = processTrack(eastward(8_000, 10, climb));
    expect(clean.elevationGain).toBeGreaterThanOrEqual(495);
    expect(clean.elevationGain).toBeLessThanOrEqual(505);
    expect(clean.elevationLoss).toBeLessThan(5);
    const rng = new Rng(3);
    const noisy = processTrack(eastward(8_000, 5, (d) => climb(d) + rng.range(-5, 5)));
    expect(noisy.elevationGain).toBeGreaterThanOrEqual(485);
    expect(noisy.elevationGain).toBeLessThanOrEqual(515);
    expect(noisy.minElevation).toBeGreaterThanOrEqual(395);
    expect(noisy.maxElevation).toBeLessThanOrEqual(905);
  });

  it("rejects an isolated spike whatever the spacing of the points: 1 m, 10 m or 100 m", () => {
    for (const spacing of [1, 10, 100]) {
      for (const jump of [120, -150]) {
        // A flat 3 km at 300 m, one point (the one nearest 1.5 km) off by `jump` metres.
        const at = Math.round(1_500 / spacing) * spacing;
        const points = eastward(3_000, spacing, (d) => (d === at ? 300 + jump : 300));
        const track = processTrack(points);
        const label = `spacing ${spacing} m, spike ${jump} m`;
        expect(track.elevationGain, label).toBe(0);
        expect(track.elevationLoss, label).toBe(0);
        expect(track.minElevation, label).toBe(300);
        expect(track.maxElevation, label).toBe(300);
      }
    }
  });

  it("rejects a spike of a few points, a bad first fix and a bad last fix, on a climb as on the flat", () => {
    // 10 % for 2 km (200 m up) at 2 m spacing; three points 80 m too high in the middle.
    const climb = (d: number) => 500 + d / 10;
    const middle = eastward(2_000, 2, (d) => (d >= 1_000 && d <= 1_004 ? climb(d) + 80 : climb(d)));
    expect(processTrack(middle).elevationGain).toBe(200);
    expect(processTrack(middle).elevationLoss).toBe(0);
    const ends = eastward(2_000, 20, climb);
    ends[0][2] = 0;
    ends[ends.length - 1][2] = 3_000;
    // Without the first and last points the climb runs from 502 m (20 m in) to 698 m.
    expect(processTrack(ends)).toMatchObject({
      elevationGain: 196,
      elevationLoss: 0,
      minElevation: 502,
      maxElevation: 698,
    });
  });

  it("keeps a real change of level that does not come back (a steep step up, then on at the new level)", () => {
    const step = processTrack(eastward(2_000, 10, (d) => (d < 1_000 ? 300 : 330)));
    expect(step.elevationGain).toBe(30);
    expect(step.elevationLoss).toBe(0);
  });

  it("counts a clean 500 m climb as 500 m ± 1 %, whatever the spacing and even from the first metre", () => {
    for (const spacing of [1, 10, 50, 100]) {
      // Flat 1 km, 5 km at 10 %, flat 2 km; then the same climb starting at the first point.
      const lead = processTrack(eastward(8_000, spacing, (d) => 400 + Math.min(500, Math.max(0, d - 1_000) / 10)));
      const straight = processTrack(eastward(5_000, spacing, (d) => 400 + d / 10));
      for (const track of [lead, straight]) {
        expect(track.elevationGain, `spacing ${spacing} m`).toBeGreaterThanOrEqual(495);
        expect(track.elevationGain, `spacing ${spacing} m`).toBeLessThanOrEqual(505);
        expect(track.elevationLoss, `spacing ${spacing} m`).toBe(0);
      }
    }
  });

  it("counts a noisy 500 m climb (GPS noise ±5 m every 5 m) within 2 %", () => {
    const rng = new Rng(19);
    const climb = (d: number) => 400 + Math.min(500, Math.max(0, d - 1_000) / 10);
    const noisy = processTrack(eastward(8_000, 5, (d) => climb(d) + rng.range(-5, 5)));
    expect(noisy.elevationGain).toBeGreaterThanOrEqual(490);
    expect(noisy.elevationGain).toBeLessThanOrEqual(510);
    expect(noisy.elevationLoss).toBeLessThan(10);
  });

  it("counts no climb across the gap between two segments", () => {
    // Two flat segments, the second 250 m higher (a lift between them), then a real 100 m climb.
    const low = eastward(2_000, 10, () => 1_000);
    const high = eastward(2_000, 10, (d) => 1_250 + Math.max(0, d - 1_000) / 10).map(
      ([lng, lat, ele]) => [lng, lat + 0.01, ele] as TrackPoint,
    );
    const joined = processTrack([...low, ...high], null, [low.length]);
    expect(joined.elevationGain).toBe(100);
    expect(joined.elevationLoss).toBe(0);
    expect(joined.minElevation).toBe(1_000);
    expect(joined.maxElevation).toBe(1_350);
    // The same points read as one segment climb the 250 m.
    expect(processTrack([...low, ...high]).elevationGain).toBe(350);
  });

  it("keeps the segments in the stored line: each simplified on its own, its own elevations, no distance across the gap", () => {
    // Issue 26 item 4: a flat segment at 1,000 m, then 1 km north one at 1,250 m.
    const low = eastward(2_000, 10, () => 1_000);
    const high = eastward(2_000, 10, () => 1_250).map(([lng, lat, ele]) => [lng, lat + 0.01, ele] as TrackPoint);
    const track = processTrack([...low, ...high], null, [low.length]);
    expect(track.distance).toBeGreaterThanOrEqual(3_990);
    expect(track.distance).toBeLessThanOrEqual(4_010);
    expect(track.breaks).toHaveLength(1);
    const [at] = track.breaks;
    // The second segment's first point is its own start, at its own level.
    expect(at).toBe(low.length);
    expect(track.points[at - 1][2]).toBe(1_000);
    expect(track.points[at]).toEqual([high[0][0], expect.closeTo(high[0][1], 6), 1_250]);
    expect(processTrack([...low, ...high]).breaks).toEqual([]);
    // Simplified, each straight segment keeps its two ends.
    const long = (lat: number, ele: number) =>
      eastward(20_000, 10, () => ele).map(([lng, y, e]) => [lng, y + lat, e] as TrackPoint);
    const a = long(0, 1_000);
    const simplified = processTrack([...a, ...long(0.01, 1_250)], null, [a.length]);
    expect(simplified.points).toHaveLength(4);
    expect(simplified.breaks).toEqual([2]);
    expect(simplified.points.map((p) => p[2])).toEqual([1_000, 1_000, 1_250, 1_250]);
  });

  it("keeps rolling hills: ten 40 m hills make about 400 m up and down", () => {
    const hills = processTrack(eastward(10_000, 10, (d) => 200 + 20 * (1 - Math.cos((2 * Math.PI * d) / 1_000))));
    expect(hills.elevationGain).toBeGreaterThan(370);
    expect(hills.elevationGain).toBeLessThanOrEqual(400);
    expect(hills.elevationLoss).toBeGreaterThan(370);
  });

  it("uses the known elevations when some points have none, and reports unknown (null, not 0) when no point has one", () => {
    const partial = processTrack(eastward(2_000, 10, (d) => (d % 100 === 0 ? 100 + d / 20 : null)));
    expect(partial.elevationGain).toBeGreaterThan(90);
    expect(partial.points.every((p) => p[2] !== null)).toBe(true);
    const flat = processTrack(eastward(1_000, 10, () => null));
    expect(flat).toMatchObject({
      elevationGain: null,
      elevationLoss: null,
      minElevation: null,
      maxElevation: null,
      profile: [],
    });
    expect(flat.points.every((p) => p[2] === null)).toBe(true);
  });

  it("refuses a track of zero length as GPX_EMPTY", () => {
    expect(
      errorCode(() =>
        processTrack([
          [6, 45, 100],
          [6, 45, 101],
        ]),
      ),
    ).toBe("GPX_EMPTY");
  });
});

describe("processTrack: line, profile, bounds", () => {
  const rng = new Rng(11);
  // 25,000 points on a winding 50 km course.
  const winding: TrackPoint[] = Array.from({ length: 25_000 }, (_, i) => [
    6 + i * 0.00002 + Math.sin(i / 40) * 0.001,
    45 + Math.cos(i / 55) * 0.002 + i * 0.000005,
    800 + 300 * Math.sin(i / 3_000) + rng.range(-3, 3),
  ]);
  const track = processTrack(winding, "Winding");

  it("simplifies the line to at most 1,500 points and keeps both ends", () => {
    expect(track.points.length).toBeLessThanOrEqual(TRACK_DISPLAY_POINTS);
    expect(track.points.length).toBeGreaterThan(100);
    expect(track.points[0].slice(0, 2)).toEqual([6, 45.002]);
    const last = winding.at(-1)!;
    expect(track.points.at(-1)![0]).toBeCloseTo(last[0], 6);
    expect(track.points.at(-1)![1]).toBeCloseTo(last[1], 6);
    expect(track.pointCount).toBe(25_000);
  });

  it("leaves short lines alone and simplifies any list to the count asked", () => {
    const short = eastward(1_000, 10, () => 100);
    expect(processTrack(short).points).toHaveLength(short.length);
    const line = simplifyTrack(
      winding.map(([lng, lat]) => [lng, lat] as [number, number]),
      50,
    );
    expect(line.length).toBeLessThanOrEqual(50);
    expect(line[0]).toEqual([winding[0][0], winding[0][1]]);
  });

  it("samples an elevation profile [distance m, elevation m] from 0 to the full distance", () => {
    expect(track.profile).toHaveLength(TRACK_PROFILE_SAMPLES);
    expect(track.profile[0][0]).toBe(0);
    expect(track.profile.at(-1)![0]).toBe(track.distance);
    for (let i = 1; i < track.profile.length; i++) expect(track.profile[i][0]).toBeGreaterThan(track.profile[i - 1][0]);
    const elevations = track.profile.map(([, e]) => e);
    expect(Math.min(...elevations)).toBeGreaterThanOrEqual(track.minElevation! - 1);
    expect(Math.max(...elevations)).toBeLessThanOrEqual(track.maxElevation! + 1);
  });

  it("gives bounds, start, extremes and the name", () => {
    const lngs = winding.map((p) => p[0]);
    const lats = winding.map((p) => p[1]);
    expect(track.bounds).toEqual([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)]);
    expect(track.start).toEqual({ lat: 45.002, lng: 6 });
    expect(track.minElevation).toBeGreaterThan(490);
    expect(track.maxElevation).toBeLessThan(1_110);
    expect(track.name).toBe("Winding");
  });
});

describe("processGpx and reverseTrack", () => {
  it("goes from GPX bytes to a processed track named after the file's metadata", () => {
    const points = eastward(5_000, 20, (d) => 100 + d / 25);
    const bytes = new TextEncoder().encode(
      gpxDocument(`<metadata><name>Montée</name></metadata><trk><trkseg>${trkpts(points)}</trkseg></trk>`),
    );
    const track = processGpx(bytes);
    expect(track.name).toBe("Montée");
    expect(track.distance).toBeGreaterThanOrEqual(4_990);
    expect(track.elevationGain).toBeGreaterThanOrEqual(195);
    expect(track.elevationGain).toBeLessThanOrEqual(201);
  });

  it("reverses a track of several segments: the segments follow, in reverse order", () => {
    const points: TrackPoint[] = Array.from({ length: 10 }, (_, i) => [6 + i * 0.001, 45, 100]);
    const reversed = reverseTrack({ points, breaks: [4], elevationGain: 0, elevationLoss: 0, profile: [] });
    // Points 4…9 come first (6 of them), then 0…3.
    expect(reversed.breaks).toEqual([6]);
    expect(reverseTrack({ points, breaks: [3, 7], elevationGain: 0, elevationLoss: 0, profile: [] }).breaks).toEqual([
      3, 7,
    ]);
    expect(reverseTrack({ points, breaks: [2, 5], elevationGain: 0, elevationLoss: 0, profile: [] }).breaks).toEqual([
      5, 8,
    ]);
  });

  it("reverses a track: points and profile mirrored, gain and loss exchanged as a fresh computation would", () => {
    const rng = new Rng(5);
    const raw = eastward(
      12_000,
      8,
      (d) => 300 + Math.min(600, d / 10) - Math.max(0, d - 9_000) / 20 + rng.range(-4, 4),
    );
    const forward = processTrack(raw);
    const reversed = reverseTrack(forward);
    expect(reversed.elevationGain).toBe(forward.elevationLoss);
    expect(reversed.elevationLoss).toBe(forward.elevationGain);
    expect(reversed.points[0]).toEqual(forward.points.at(-1));
    expect(reversed.start).toEqual({ lng: forward.points.at(-1)![0], lat: forward.points.at(-1)![1] });
    expect(reversed.profile[0]).toEqual([0, forward.profile.at(-1)![1]]);
    expect(reversed.profile.at(-1)).toEqual([forward.distance, forward.profile[0][1]]);
    const recomputed = processTrack([...raw].reverse());
    expect(Math.abs(recomputed.elevationGain! - reversed.elevationGain!)).toBeLessThanOrEqual(5);
    expect(Math.abs(recomputed.elevationLoss! - reversed.elevationLoss!)).toBeLessThanOrEqual(5);
  });
});
