import { describe, expect, it } from "vitest";
import { daysInMonth, evaluateDate, isoFromParts, partsFromIso } from "./date-parts.ts";

const texts = (day: string, month: string, year: string) => ({ day, month, year });

describe("daysInMonth", () => {
  it("honours month lengths and leap years", () => {
    expect(daysInMonth(1, 2023)).toBe(31);
    expect(daysInMonth(4, 2023)).toBe(30);
    expect(daysInMonth(2, 2023)).toBe(28);
    expect(daysInMonth(2, 2024)).toBe(29);
    expect(daysInMonth(2, 1900)).toBe(28);
    expect(daysInMonth(2, 2000)).toBe(29);
    expect(daysInMonth(2)).toBe(29);
  });
});

describe("evaluateDate", () => {
  it("builds YYYY-MM-DD from valid parts", () => {
    expect(evaluateDate(texts("7", "3", "2025")).value).toBe("2025-03-07");
    expect(evaluateDate(texts("1", "1", "0001")).value).toBe("0001-01-01");
    expect(evaluateDate(texts("31", "12", "275760")).value).toBe("275760-12-31");
  });

  it("rejects month 13 and month 0", () => {
    expect(evaluateDate(texts("1", "13", "2025"))).toMatchObject({ value: null, invalid: { month: true } });
    expect(evaluateDate(texts("1", "0", "2025")).invalid.month).toBe(true);
  });

  it("rejects year 275761 and year 0", () => {
    expect(evaluateDate(texts("1", "1", "275761"))).toMatchObject({ value: null, invalid: { year: true } });
    expect(evaluateDate(texts("1", "1", "0000")).invalid.year).toBe(true);
  });

  it("honours days per month", () => {
    expect(evaluateDate(texts("31", "4", "2025")).invalid.day).toBe(true);
    expect(evaluateDate(texts("29", "2", "2023")).invalid.day).toBe(true);
    expect(evaluateDate(texts("29", "2", "2024")).value).toBe("2024-02-29");
    expect(evaluateDate(texts("32", "", "")).invalid.day).toBe(true);
  });

  it("rejects non-numeric parts", () => {
    expect(evaluateDate(texts("1a", "1", "2025")).invalid.day).toBe(true);
    expect(evaluateDate(texts("1", "x", "2025")).invalid.month).toBe(true);
  });

  it("is incomplete (null, not invalid) until the year has 4 digits", () => {
    const result = evaluateDate(texts("1", "1", "202"));
    expect(result).toMatchObject({ value: null, complete: false, invalid: { day: false, month: false, year: false } });
  });

  it("keeps the date within min and max", () => {
    const bounds = { min: "2020-01-01", max: "2020-12-31" };
    expect(evaluateDate(texts("1", "1", "2020"), bounds).value).toBe("2020-01-01");
    expect(evaluateDate(texts("31", "12", "2019"), bounds)).toMatchObject({ value: null, outOfBounds: true });
    expect(evaluateDate(texts("1", "1", "2021"), bounds)).toMatchObject({ value: null, outOfBounds: true });
  });
});

describe("iso helpers", () => {
  it("pads and splits ISO strings", () => {
    expect(isoFromParts(25, 1, 2)).toBe("0025-01-02");
    expect(partsFromIso("2025-03-07")).toEqual({ day: "07", month: "03", year: "2025" });
    expect(partsFromIso("nope")).toEqual({ day: "", month: "", year: "" });
  });
});
