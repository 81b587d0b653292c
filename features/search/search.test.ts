import { describe, expect, it } from "vitest";
import { queryWords, weekendRange } from "./search.service.server.ts";

describe("queryWords", () => {
  it("splits on anything but letters and digits, lower-cases, drops one-letter words and repeats", () => {
    expect(queryWords("Trail des Crêtes d'Ardèche — 2026, trail!")).toEqual([
      "trail",
      "des",
      "crêtes",
      "ardèche",
      "2026",
    ]);
    expect(queryWords("a b c")).toEqual([]);
    expect(queryWords("  ")).toEqual([]);
  });
  it("keeps at most eight words of at most forty characters", () => {
    expect(queryWords("un deux trois quatre cinq six sept huit neuf dix")).toHaveLength(8);
    expect(queryWords(`${"x".repeat(41)} ok`)).toEqual(["ok"]);
  });
});

describe("weekendRange", () => {
  it("gives the coming Saturday and Sunday from a weekday", () => {
    expect(weekendRange("2026-06-01")).toEqual({ from: "2026-06-06", to: "2026-06-07" }); // Monday
    expect(weekendRange("2026-06-05")).toEqual({ from: "2026-06-06", to: "2026-06-07" }); // Friday
    expect(weekendRange("2026-06-01", 1)).toEqual({ from: "2026-06-13", to: "2026-06-14" });
  });
  it("starts today during the weekend", () => {
    expect(weekendRange("2026-06-06")).toEqual({ from: "2026-06-06", to: "2026-06-07" }); // Saturday
    expect(weekendRange("2026-06-07")).toEqual({ from: "2026-06-07", to: "2026-06-07" }); // Sunday
    expect(weekendRange("2026-06-07", 1)).toEqual({ from: "2026-06-13", to: "2026-06-14" });
  });
  it("crosses months and years", () => {
    expect(weekendRange("2026-12-28")).toEqual({ from: "2027-01-02", to: "2027-01-03" });
  });
});
