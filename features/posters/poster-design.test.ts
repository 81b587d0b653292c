import { describe, expect, it } from "vitest";
import {
  blankDesign,
  designFromCourse,
  POSTER_SIZE_IDS,
  paperMm,
  posterDesignSchema,
  TITLE_MAX,
} from "./poster.contract.ts";
import { posterFigures } from "./render/render.ts";

const course = {
  courseId: 7,
  eventName: "Trail des Aiguilles Rouges",
  courseName: "Le 42",
  date: "2026-06-14",
  place: "Chamonix",
  distanceM: 42_195,
  elevationGainM: 2_480,
};

describe("poster design object", () => {
  it("a design made from a course is valid and carries the event's facts", () => {
    const design = designFromCourse(course);
    expect(posterDesignSchema.parse(design)).toEqual(design);
    expect(design.source).toEqual({ type: "course", id: 7 });
    expect(design.title).toBe("Trail des Aiguilles Rouges");
    expect(design.subtitle).toBe("Le 42 · Chamonix");
    expect(design.data).toMatchObject({ distanceM: 42_195, elevationGainM: 2_480, date: "2026-06-14", timeMs: null });
    expect(design.show).toMatchObject({ distance: true, elevationGain: true, date: true, time: false, rank: false });
  });

  it("with the member's result, time, pace and rank are shown, in each language's notation", () => {
    const result = { timeMs: (3 * 3600 + 42 * 60 + 17) * 1000, rank: 12 };
    const fr = designFromCourse(course, result, "fr");
    expect(fr.show).toMatchObject({ time: true, pace: true, rank: true });
    const figures = Object.fromEntries(posterFigures(fr, null).map((f) => [f.key, f.value]));
    expect(figures).toEqual({
      distance: "42,2 km",
      elevationGain: "2\u202f480 m",
      time: "3:42:17",
      pace: "5:16\u00a0/km",
      rank: "12e",
      date: "14 juin 2026",
    });
    const en = Object.fromEntries(
      posterFigures(designFromCourse(course, result, "en"), null).map((f) => [f.key, f.value]),
    );
    expect(en).toMatchObject({ distance: "42.2 km", elevationGain: "2,480 m", rank: "12th", date: "14 June 2026" });
  });

  it("a course without distance, D+ or date hides those figures; the track's length stands in for the distance", () => {
    const design = designFromCourse({ ...course, distanceM: null, elevationGainM: null, date: null });
    expect(design.show).toMatchObject({ distance: false, elevationGain: false, date: false, pace: false });
    design.show.distance = true;
    expect(posterFigures(design, 12_345).map((f) => f.value)).toEqual(["12,3 km"]);
  });

  it("refuses what is not a design, naming the field", () => {
    const good = blankDesign({ type: "track", id: 3 });
    const bad = (patch: Record<string, unknown>) => posterDesignSchema.safeParse({ ...good, ...patch });
    for (const patch of [
      { version: 2 },
      { size: "A5" },
      { colors: { ...good.colors, track: "red" } },
      { title: "x".repeat(TITLE_MAX + 1) },
      { marginMm: 2 },
      { mapStyle: "watercolour" },
      { source: { type: "course", id: -1 } },
      { data: { ...good.data, date: "2026-02-30" } },
      { show: { ...good.show, rank: "yes" } },
      { font: "Comic Sans" },
    ]) {
      const parsed = bad(patch);
      expect(parsed.success, JSON.stringify(patch)).toBe(false);
      expect(parsed.error?.issues[0].path[0]).toBe(Object.keys(patch)[0]);
    }
  });

  it("orientation swaps the paper's sides, for every size", () => {
    for (const size of POSTER_SIZE_IDS) {
      const [w, h] = paperMm({ size, orientation: "portrait" });
      expect(w).toBeLessThan(h);
      expect(paperMm({ size, orientation: "landscape" })).toEqual([h, w]);
    }
    expect(paperMm({ size: "A3", orientation: "portrait" })).toEqual([297, 420]);
  });
});
