import { describe, expect, it } from "vitest";
import {
  clampRange,
  dateBounds,
  formatShortDate,
  matchingQuickRange,
  parseIsoDate,
  parseRangeValue,
  quickRange,
  shortRangeParts,
  toIsoDate,
  toRangeOutput,
  visibleQuickRanges,
} from "./date-range.ts";

const day = (iso: string) => parseIsoDate(iso) as Date;
const iso = (range: { start: Date; end: Date } | null) => (range ? toRangeOutput(range) : null);

describe("parseIsoDate / toIsoDate", () => {
  it("round-trips a calendar day in local time", () => {
    expect(toIsoDate(day("2024-02-29"))).toBe("2024-02-29");
    expect(toIsoDate(new Date(2024, 0, 5, 23, 59, 59))).toBe("2024-01-05");
  });

  it("rejects impossible days and other formats", () => {
    expect(parseIsoDate("2023-02-29")).toBeNull();
    expect(parseIsoDate("2024-13-01")).toBeNull();
    expect(parseIsoDate("01/02/2024")).toBeNull();
    expect(parseIsoDate(new Date("nope"))).toBeNull();
  });
});

describe("parseRangeValue", () => {
  it("accepts a [start, end] pair of strings or dates", () => {
    expect(iso(parseRangeValue(["2024-05-01", "2024-05-10"]))).toEqual({
      startDate: "2024-05-01",
      endDate: "2024-05-10",
    });
    expect(iso(parseRangeValue([new Date(2024, 4, 1, 15), new Date(2024, 4, 10)]))).toEqual({
      startDate: "2024-05-01",
      endDate: "2024-05-10",
    });
  });

  it("accepts two dates joined by a pipe", () => {
    expect(iso(parseRangeValue("2024-05-01|2024-05-10"))).toEqual({ startDate: "2024-05-01", endDate: "2024-05-10" });
  });

  it("accepts an object with startDate and endDate", () => {
    expect(iso(parseRangeValue({ startDate: "2024-05-01", endDate: "2024-05-10" }))).toEqual({
      startDate: "2024-05-01",
      endDate: "2024-05-10",
    });
  });

  it("treats a lone date as a one-day range and swaps reversed ends", () => {
    expect(iso(parseRangeValue("2024-05-01"))).toEqual({ startDate: "2024-05-01", endDate: "2024-05-01" });
    expect(iso(parseRangeValue("2024-05-10|2024-05-01"))).toEqual({ startDate: "2024-05-01", endDate: "2024-05-10" });
  });

  it("returns null for empty or invalid values", () => {
    expect(parseRangeValue(null)).toBeNull();
    expect(parseRangeValue("")).toBeNull();
    expect(parseRangeValue("garbage|2024-01-01")).toBeNull();
    expect(parseRangeValue({ startDate: null, endDate: null })).toBeNull();
  });
});

describe("dateBounds", () => {
  const today = new Date(2025, 5, 18, 14, 30); // Wednesday 18 June 2025

  it("starts on 2017-01-01 by default with no upper bound", () => {
    const bounds = dateBounds({ today });
    expect(toIsoDate(bounds.min)).toBe("2017-01-01");
    expect(bounds.max).toBeNull();
  });

  it("uses minDate when given", () => {
    expect(toIsoDate(dateBounds({ today, minDate: "2020-03-01" }).min)).toBe("2020-03-01");
  });

  it("future=true runs from today to today + 5 years", () => {
    const bounds = dateBounds({ today, future: true });
    expect(toIsoDate(bounds.min)).toBe("2025-06-18");
    expect(bounds.max && toIsoDate(bounds.max)).toBe("2030-06-18");
  });

  it("future=false ends today and keeps the 2017 floor", () => {
    const bounds = dateBounds({ today, future: false });
    expect(toIsoDate(bounds.min)).toBe("2017-01-01");
    expect(bounds.max && toIsoDate(bounds.max)).toBe("2025-06-18");
  });
});

describe("quickRange (ISO weeks, Monday start)", () => {
  it("puts a Sunday in the week of the previous Monday", () => {
    const sunday = new Date(2025, 5, 22); // Sunday 22 June 2025
    expect(iso(quickRange("this_week", sunday))).toEqual({ startDate: "2025-06-16", endDate: "2025-06-22" });
  });

  it("computes next and previous weeks", () => {
    const monday = new Date(2025, 5, 16);
    expect(iso(quickRange("next_week", monday))).toEqual({ startDate: "2025-06-23", endDate: "2025-06-29" });
    expect(iso(quickRange("previous_week", monday))).toEqual({ startDate: "2025-06-09", endDate: "2025-06-15" });
  });

  it("crosses a year boundary by ISO week", () => {
    expect(iso(quickRange("this_week", new Date(2026, 0, 1)))).toEqual({
      startDate: "2025-12-29",
      endDate: "2026-01-04",
    });
  });

  it("computes this, next and previous months", () => {
    const today = new Date(2024, 0, 31);
    expect(iso(quickRange("this_month", today))).toEqual({ startDate: "2024-01-01", endDate: "2024-01-31" });
    expect(iso(quickRange("next_month", today))).toEqual({ startDate: "2024-02-01", endDate: "2024-02-29" });
    expect(iso(quickRange("previous_month", today))).toEqual({ startDate: "2023-12-01", endDate: "2023-12-31" });
  });
});

describe("visibleQuickRanges", () => {
  it("hides previous_* in the default and future modes", () => {
    expect(visibleQuickRanges(undefined)).toEqual(["this_week", "next_week", "this_month", "next_month"]);
    expect(visibleQuickRanges(true)).toEqual(["this_week", "next_week", "this_month", "next_month"]);
  });

  it("hides next_* in past-only mode", () => {
    expect(visibleQuickRanges(false)).toEqual(["this_week", "this_month", "previous_week", "previous_month"]);
  });
});

describe("clampRange and matchingQuickRange", () => {
  const today = new Date(2025, 5, 18);

  it("clamps a shortcut to the bounds", () => {
    const bounds = dateBounds({ today, future: true });
    expect(iso(clampRange(quickRange("this_week", today), bounds))).toEqual({
      startDate: "2025-06-18",
      endDate: "2025-06-22",
    });
    expect(clampRange(quickRange("previous_week", today), bounds)).toBeNull();
  });

  it("finds the shortcut equal to the current range", () => {
    const bounds = dateBounds({ today });
    const keys = visibleQuickRanges(undefined);
    expect(matchingQuickRange(parseRangeValue("2025-06-23|2025-06-29"), keys, today, bounds)).toBe("next_week");
    expect(matchingQuickRange(parseRangeValue("2025-06-23|2025-06-28"), keys, today, bounds)).toBeNull();
    expect(matchingQuickRange(null, keys, today, bounds)).toBeNull();
  });
});

describe("formatShortDate", () => {
  it("uses dd/MM/yy in French and yy-MM-dd in English", () => {
    const date = new Date(2025, 2, 7);
    expect(formatShortDate(date, "fr")).toBe("07/03/25");
    expect(formatShortDate(date, "en")).toBe("25-03-07");
    expect(formatShortDate(date, "en-GB")).toBe("25-03-07");
  });

  it("reports whether a range covers one day", () => {
    expect(shortRangeParts({ start: day("2025-03-07"), end: day("2025-03-09") }, "fr")).toEqual({
      start: "07/03/25",
      end: "09/03/25",
      single: false,
    });
    expect(shortRangeParts({ start: day("2025-03-07"), end: day("2025-03-07") }, "fr").single).toBe(true);
  });
});
