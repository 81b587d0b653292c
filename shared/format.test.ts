import { describe, expect, it } from "vitest";
import {
  distanceBesideName,
  formatDistance,
  formatDuration,
  formatElevation,
  formatKm,
  formatMoney,
  formatMoneyCents,
  formatNumber,
  formatPace,
  formatRaceTime,
  NBSP,
  NNBSP,
} from "./format.ts";

describe("separators", () => {
  it("are the no-break space and the narrow no-break space", () => {
    expect(NBSP).toBe("\u00a0");
    expect(NNBSP).toBe("\u202f");
  });
});

describe("formatNumber", () => {
  it("uses a decimal comma and thin-space groups in French", () => {
    expect(formatNumber(42.2, "fr")).toBe("42,2");
    expect(formatNumber(1200, "fr")).toBe(`1${NNBSP}200`);
    expect(formatNumber(1234567.891, "fr")).toBe(`1${NNBSP}234${NNBSP}567,89`);
    expect(formatNumber(-1200.5)).toBe(`-1${NNBSP}200,5`);
  });

  it("uses a decimal point and comma groups in English", () => {
    expect(formatNumber(42.2, "en")).toBe("42.2");
    expect(formatNumber(1234567.891, "en-GB")).toBe("1,234,567.89");
  });

  it("honours fraction digits and rejects non-finite values", () => {
    expect(formatNumber(3, "fr", { minimumFractionDigits: 1 })).toBe("3,0");
    expect(formatNumber(1.23456, "en", { maximumFractionDigits: 3 })).toBe("1.235");
    expect(formatNumber(Number.NaN)).toBe("");
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe("");
  });
});

describe("formatMoney", () => {
  it('writes "25 €" in French with a no-break space', () => {
    expect(formatMoney(25, "fr")).toBe(`25${NBSP}€`);
    expect(formatMoney(25.5, "fr")).toBe(`25,50${NBSP}€`);
    expect(formatMoney(1225, "fr")).toBe(`1${NNBSP}225${NBSP}€`);
    expect(formatMoney(0, "fr")).toBe(`0${NBSP}€`);
  });

  it('writes "€25" in English', () => {
    expect(formatMoney(25, "en")).toBe("€25");
    expect(formatMoney(25.5, "en")).toBe("€25.50");
    expect(formatMoney(1225, "en")).toBe("€1,225");
    expect(formatMoney(-3, "en")).toBe("-€3");
  });

  it("rounds to cents and takes amounts in cents", () => {
    expect(formatMoney(25.999, "fr")).toBe(`26${NBSP}€`);
    expect(formatMoneyCents(2550, "fr")).toBe(`25,50${NBSP}€`);
    expect(formatMoneyCents(2500, "en")).toBe("€25");
  });

  it("formats other currencies", () => {
    expect(formatMoney(10, "en", { currency: "GBP" })).toBe("£10");
    expect(formatMoney(10, "fr", { currency: "CHF" })).toBe(`10${NBSP}CHF`);
  });
});

describe("formatDistance (metres)", () => {
  it("writes kilometres with the locale's decimal mark", () => {
    expect(formatDistance(42195, "fr")).toBe(`42,195${NBSP}km`);
    expect(formatDistance(42195, "en")).toBe(`42.195${NBSP}km`);
    expect(formatDistance(42200, "fr")).toBe(`42,2${NBSP}km`);
    expect(formatDistance(10000, "fr")).toBe(`10${NBSP}km`);
    expect(formatDistance(1000, "fr")).toBe(`1${NBSP}km`);
    expect(formatDistance(170000, "fr")).toBe(`170${NBSP}km`);
    expect(formatDistance(1234567, "fr")).toBe(`1${NNBSP}234,567${NBSP}km`);
  });

  it("writes whole metres under one kilometre", () => {
    expect(formatDistance(800, "fr")).toBe(`800${NBSP}m`);
    expect(formatDistance(999.4, "en")).toBe(`999${NBSP}m`);
    expect(formatDistance(999.6, "fr")).toBe(`1${NBSP}km`);
  });

  it("writes nothing at all in kilometres, as totals are counted", () => {
    expect(formatDistance(0, "fr")).toBe(`0${NBSP}km`);
    expect(formatDistance(0.3, "en")).toBe(`0${NBSP}km`);
  });

  it("leaves out a course's distance when its name gives it", () => {
    expect(distanceBesideName("5 km", 5000, "fr")).toBeNull();
    expect(distanceBesideName(`Le 10${NBSP}km`, 10000, "fr")).toBeNull();
    expect(distanceBesideName("Le Trail des Cimes – 35 km", 35000, "fr")).toBeNull();
    expect(distanceBesideName("Semi-marathon 21,1 km", 21097, "fr")).toBeNull();
    expect(distanceBesideName("10K des Quais", 10000, "en")).toBe(`10${NBSP}km`);
    expect(distanceBesideName("Relais 4 x 800 m", 3200, "fr")).toBe(`3,2${NBSP}km`);
    expect(distanceBesideName("La Boucle", 12500, "fr")).toBe(`12,5${NBSP}km`);
    expect(distanceBesideName("Marche 8 km", 12000, "fr")).toBe(`12${NBSP}km`);
    expect(distanceBesideName("Le 800 m", 800, "fr")).toBeNull();
    expect(distanceBesideName("Trail nocturne", null, "fr")).toBeNull();
  });

  it("can round kilometres and read them from km", () => {
    expect(formatDistance(42195, "fr", { maximumFractionDigits: 1 })).toBe(`42,2${NBSP}km`);
    expect(formatKm(42.195, "fr")).toBe(`42,195${NBSP}km`);
    expect(formatKm(21.0975, "en", { maximumFractionDigits: 1 })).toBe(`21.1${NBSP}km`);
    expect(formatKm(0.5, "fr")).toBe(`500${NBSP}m`);
    expect(formatDistance(Number.NaN)).toBe("");
  });
});

describe("formatElevation", () => {
  it('writes "D+ 1 200 m" in French', () => {
    expect(formatElevation(1200, "fr")).toBe(`D+${NBSP}1${NNBSP}200${NBSP}m`);
    expect(formatElevation(850.6, "fr")).toBe(`D+${NBSP}851${NBSP}m`);
  });

  it('writes "1,200 m D+" in English', () => {
    expect(formatElevation(1200, "en")).toBe(`1,200${NBSP}m${NBSP}D+`);
    expect(formatElevation(10000, "en")).toBe(`10,000${NBSP}m${NBSP}D+`);
  });
});

describe("formatDuration (seconds)", () => {
  it('writes "2 h 05" style in French', () => {
    expect(formatDuration(2 * 3600 + 5 * 60, "fr")).toBe(`2${NBSP}h${NBSP}05`);
    expect(formatDuration(6 * 3600, "fr")).toBe(`6${NBSP}h`);
    expect(formatDuration(45 * 60, "fr")).toBe(`45${NBSP}min`);
    expect(formatDuration(100 * 3600, "fr")).toBe(`100${NBSP}h`);
  });

  it('writes "2h 05m" style in English', () => {
    expect(formatDuration(2 * 3600 + 5 * 60, "en")).toBe(`2h${NBSP}05m`);
    expect(formatDuration(24 * 3600, "en")).toBe("24h");
    expect(formatDuration(45 * 60, "en")).toBe(`45${NBSP}min`);
  });

  it("rounds to the minute and rejects negative values", () => {
    expect(formatDuration(2 * 3600 + 4 * 60 + 30, "fr")).toBe(`2${NBSP}h${NBSP}05`);
    expect(formatDuration(3599.9, "fr")).toBe(`1${NBSP}h`);
    expect(formatDuration(0, "fr")).toBe(`0${NBSP}min`);
    expect(formatDuration(-1)).toBe("");
  });
});

describe("race times and paces", () => {
  it("writes h:mm:ss, or m:ss under an hour", () => {
    expect(formatRaceTime(2 * 3600 + 5 * 60 + 9)).toBe("2:05:09");
    expect(formatRaceTime(45 * 60 + 9)).toBe("45:09");
    expect(formatRaceTime(26 * 3600)).toBe("26:00:00");
    expect(formatRaceTime(59.6)).toBe("1:00");
    expect(formatRaceTime(-5)).toBe("");
  });

  it("writes paces per kilometre", () => {
    expect(formatPace(270)).toBe(`4:30${NBSP}/km`);
    expect(formatPace(Number.NaN)).toBe("");
  });
});
