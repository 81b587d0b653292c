import { describe, expect, it } from "vitest";
import { Rng } from "../../platform/prng.ts";
import { synthesizeTrack } from "../../seed/demo/track.ts";
import { trackStats } from "../tracks/track-stats.ts";
import type { TrackPoint } from "./events.tables.ts";
import { escapeXml, fileSlug, GPX_NAMESPACE, parseGpx, toGpx } from "./gpx.ts";

const points: TrackPoint[] = [
  [6.8652, 45.9237, 1035.2],
  [6.8701, 45.9301, 1102],
  [6.8755, 45.9342, null],
  [6.8811, 45.9401, 1180.46],
];

describe("toGpx", () => {
  it("writes a GPX 1.1 document: declaration, namespace, metadata, one track of one segment", () => {
    const xml = toGpx({ name: "Trail du Mont-Blanc", time: new Date("2026-06-13T05:30:00.250Z"), points });
    const lines = xml.split("\n");
    expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(lines[1]).toMatch(/^<gpx version="1\.1" creator="Dossard" xmlns="http:\/\/www\.topografix\.com\/GPX\/1\/1"/);
    expect(lines[1]).toContain(
      'xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd"',
    );
    expect(xml).toContain(
      "<metadata>\n    <name>Trail du Mont-Blanc</name>\n    <time>2026-06-13T05:30:00Z</time>\n  </metadata>",
    );
    expect(xml).toContain("<trk>\n    <name>Trail du Mont-Blanc</name>\n    <trkseg>");
    expect(xml).toContain('<trkpt lat="45.9237" lon="6.8652"><ele>1035.2</ele></trkpt>');
    expect(xml).toContain('<trkpt lat="45.9342" lon="6.8755"/>');
    expect(xml).toContain("<ele>1180.5</ele>");
    expect(xml.endsWith("</gpx>\n")).toBe(true);
    expect(xml.match(/<trkpt /g)).toHaveLength(4);
  });

  it("writes one <trkseg> per segment, and reads them back", () => {
    const xml = toGpx({ name: "Deux morceaux", points, breaks: [2] });
    expect(xml.match(/<trkseg>/g)).toHaveLength(2);
    expect(xml).toContain('<trkpt lat="45.9301" lon="6.8701"><ele>1102</ele></trkpt>\n    </trkseg>\n    <trkseg>');
    const back = parseGpx(xml);
    expect(back.points).toHaveLength(4);
    expect(back.breaks).toEqual([2]);
    expect(parseGpx(toGpx({ name: "Un", points })).breaks).toEqual([]);
  });

  it("escapes names, descriptions and links, and drops characters XML forbids", () => {
    const xml = toGpx({
      name: `Course "A" & <B> l'été\u0007`,
      description: "5 < 10 & 21 > 10",
      link: { href: "https://example.org/?a=1&b=2", text: "Page" },
      points,
    });
    expect(xml).toContain("<name>Course &quot;A&quot; &amp; &lt;B&gt; l&apos;été</name>");
    expect(xml).toContain("<desc>5 &lt; 10 &amp; 21 &gt; 10</desc>");
    expect(xml).toContain('<link href="https://example.org/?a=1&amp;b=2">');
    expect(xml).not.toContain("\u0007");
    expect(parseGpx(xml).name).toBe(`Course "A" & <B> l'été`);
  });

  it("escapeXml covers the five predefined entities", () => {
    expect(escapeXml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&apos;");
  });
});

describe("parseGpx", () => {
  it("reads back what toGpx writes", () => {
    const parsed = parseGpx(toGpx({ name: "Boucle", time: "2026-01-02T03:04:05Z", points }));
    expect(parsed).toEqual({
      version: "1.1",
      creator: "Dossard",
      name: "Boucle",
      time: "2026-01-02T03:04:05Z",
      points: [
        [6.8652, 45.9237, 1035.2],
        [6.8701, 45.9301, 1102],
        [6.8755, 45.9342, null],
        [6.8811, 45.9401, 1180.5],
      ],
      breaks: [],
    });
  });

  it("reads files from other tools: attribute order and quotes, namespaces prefixes, routes", () => {
    const other = `<?xml version='1.0'?>
<gpx xmlns='${GPX_NAMESPACE}' creator='Other' version='1.1'>
  <trk><name>Sortie &amp; retour</name><trkseg>
    <trkpt lon='2.35' lat='48.85'><ele>35</ele><time>2026-01-01T00:00:00Z</time></trkpt>
    <trkpt lon="2.36" lat="48.86"></trkpt>
  </trkseg></trk>
</gpx>`;
    const parsed = parseGpx(other);
    expect(parsed.name).toBe("Sortie & retour");
    expect(parsed.creator).toBe("Other");
    expect(parsed.points).toEqual([
      [2.35, 48.85, 35],
      [2.36, 48.86, null],
    ]);
    const route = `<gpx version="1.1"><rte><rtept lat="1" lon="2"/><rtept lat="1.5" lon="2.5"/></rte></gpx>`;
    expect(parseGpx(route).points).toEqual([
      [2, 1, null],
      [2.5, 1.5, null],
    ]);
  });

  it("refuses what is not GPX", () => {
    expect(() => parseGpx("<kml></kml>")).toThrow(/GPX/);
    expect(() => parseGpx('<gpx><trk><trkseg><trkpt lat="x" lon="2"/></trkseg></trk></gpx>')).toThrow(/lat/);
  });

  it("keeps a synthetic course's distance and elevation gain through a round trip", () => {
    for (const [seed, distance, elevationGain] of [
      [1, 42_195, 350],
      [2, 10_000, 80],
      [3, 102_000, 6_100],
    ]) {
      const track = synthesizeTrack(new Rng(seed), {
        lat: 45.9,
        lng: 6.86,
        distance,
        elevationGain,
        baseElevation: 1000,
        loop: seed % 2 === 1,
      });
      const back = parseGpx(toGpx({ name: "t", points: track.points })).points;
      const stats = trackStats(back);
      expect(Math.abs(stats.distance - track.stats.distance)).toBeLessThan(0.5);
      expect(Math.abs(stats.distance - distance) / distance).toBeLessThan(0.01);
      expect(Math.abs(stats.elevationGain - track.stats.elevationGain)).toBeLessThan(back.length * 0.05);
    }
  });
});

describe("fileSlug", () => {
  it("makes ASCII file names from event and course names", () => {
    expect(fileSlug("trail-des-ecrins-2026", "Grand Trail – 42 km")).toBe("trail-des-ecrins-2026-grand-trail-42-km");
    expect(fileSlug("Éà ç  ", null, "L'Œuf")).toBe("ea-c-l-uf");
    expect(fileSlug("")).toBe("track");
    expect(fileSlug("x".repeat(200)).length).toBeLessThanOrEqual(80);
  });
});
