import { describe, expect, it } from "vitest";
import { formatDuration, isPartValid, parseDuration, partsToSeconds, secondsToParts } from "./duration.ts";

describe("isPartValid", () => {
  it("accepts hours 0 to 999 with at most 3 characters", () => {
    expect(isPartValid("hours", "999")).toBe(true);
    expect(isPartValid("hours", "0")).toBe(true);
    expect(isPartValid("hours", "1000")).toBe(false);
    expect(isPartValid("hours", "0001")).toBe(false);
  });

  it("honours a custom hour maximum", () => {
    expect(isPartValid("hours", "24", 24)).toBe(true);
    expect(isPartValid("hours", "25", 24)).toBe(false);
  });

  it("accepts minutes and seconds 0 to 59 with at most 2 characters", () => {
    expect(isPartValid("minutes", "59")).toBe(true);
    expect(isPartValid("minutes", "60")).toBe(false);
    expect(isPartValid("seconds", "60")).toBe(false);
    expect(isPartValid("seconds", "005")).toBe(false);
  });

  it("accepts empty parts and rejects non-digits", () => {
    expect(isPartValid("seconds", "")).toBe(true);
    expect(isPartValid("minutes", "1a")).toBe(false);
    expect(isPartValid("hours", "-1")).toBe(false);
  });
});

describe("partsToSeconds", () => {
  it("counts empty parts as 00", () => {
    expect(partsToSeconds({ hours: "", minutes: "5", seconds: "" })).toBe(300);
    expect(partsToSeconds({ hours: "1", minutes: "", seconds: "30" })).toBe(3630);
  });

  it("reports an all-zero duration as null", () => {
    expect(partsToSeconds({ hours: "00", minutes: "0", seconds: "" })).toBeNull();
    expect(partsToSeconds({ hours: "", minutes: "", seconds: "" })).toBeNull();
  });

  it("returns undefined when a part is invalid", () => {
    expect(partsToSeconds({ hours: "1", minutes: "60", seconds: "0" })).toBeUndefined();
  });
});

describe("parseDuration / formatDuration", () => {
  it("parses hh:mm:ss", () => {
    expect(parseDuration("01:02:03")).toBe(3723);
    expect(parseDuration("999:59:59")).toBe(999 * 3600 + 59 * 60 + 59);
    expect(parseDuration("::7")).toBe(7);
    expect(parseDuration("12:30")).toBe(750);
  });

  it("rejects out-of-range parts and all-zero is null", () => {
    expect(parseDuration("1000:00:00")).toBeUndefined();
    expect(parseDuration("00:60:00")).toBeUndefined();
    expect(parseDuration("1:2:3:4")).toBeUndefined();
    expect(parseDuration("00:00:00")).toBeNull();
    expect(parseDuration("")).toBeNull();
  });

  it("formats seconds as hh:mm:ss", () => {
    expect(formatDuration(3723)).toBe("01:02:03");
    expect(formatDuration(360_000)).toBe("100:00:00");
    expect(formatDuration(null)).toBe("");
    expect(formatDuration(0)).toBe("");
    expect(secondsToParts(59)).toEqual({ hours: "00", minutes: "00", seconds: "59" });
  });
});
