import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DATE_FNS_LOCALES,
  DEFAULT_DATE_LOCALE,
  dateFnsLocale,
  daysBetween,
  daysUntil,
  formatCompactDate,
  formatDateRange,
  formatIsoDate,
  formatLongDate,
  formatPageDate,
  formatPageDateRange,
  formatRelativeDays,
  fromUtcMidnight,
  parseIsoDate,
  toCalendarDate,
} from "./dates.ts";

const NBSP = "\u00a0";

// The calendar-date rules must hold far from Paris on both sides of Greenwich.
const ZONES = ["Europe/Paris", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago"];
const originalTz = process.env.TZ;
afterAll(() => {
  // The next files in this worker run in the machine's zone again (an unset TZ must stay unset:
  // assigning undefined would store the string "undefined").
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe.each(ZONES)("in time zone %s", (zone) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });

  it("parses and formats ISO dates without shifting the day", () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone); // the zone is really in force
    const date = parseIsoDate("2026-06-14");
    expect(date?.getDate()).toBe(14);
    expect(formatIsoDate(date!)).toBe("2026-06-14");
    for (const iso of ["2026-01-01", "2026-03-29", "2026-10-25", "2024-02-29", "2026-12-31"]) {
      expect(formatIsoDate(parseIsoDate(iso)!)).toBe(iso);
    }
  });

  it("displays calendar-date strings as the same day", () => {
    expect(formatCompactDate("2026-06-14")).toBe("14/06/26");
    expect(formatLongDate("2026-06-14", "en")).toBe("Sunday 14 June 2026");
  });

  it("reads a Date made at UTC midnight back as its day", () => {
    if (zone === "America/Los_Angeles") expect(new Date("2026-06-14").getDate()).toBe(13); // the trap
    expect(formatIsoDate(fromUtcMidnight(new Date("2026-06-14")))).toBe("2026-06-14");
  });

  it("counts calendar days across daylight-saving changes", () => {
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2);
    expect(daysBetween("2026-10-24", "2026-10-26")).toBe(2);
  });
});

describe("parseIsoDate", () => {
  it("rejects malformed and impossible days", () => {
    expect(parseIsoDate("2026-02-30")).toBeNull();
    expect(parseIsoDate("2025-02-29")).toBeNull();
    expect(parseIsoDate("2026-13-01")).toBeNull();
    expect(parseIsoDate("14/06/2026")).toBeNull();
    expect(parseIsoDate("2026-6-14")).toBeNull();
    expect(parseIsoDate(" 2026-06-14 ")?.getDate()).toBe(14);
  });

  it("keeps years below 100", () => {
    expect(formatIsoDate(parseIsoDate("0042-01-02")!)).toBe("0042-01-02");
  });
});

describe("toCalendarDate", () => {
  it("accepts ISO dates, ISO date-times and Dates, at local midnight", () => {
    expect(toCalendarDate(new Date(2026, 5, 14, 18, 30))).toEqual(new Date(2026, 5, 14));
    expect(toCalendarDate("2026-06-14T18:30:00")).toEqual(new Date(2026, 5, 14));
    expect(toCalendarDate("14/06/2026")).toBeNull();
    expect(toCalendarDate(new Date(Number.NaN))).toBeNull();
    expect(toCalendarDate(null)).toBeNull();
  });
});

describe("date display (spec section 9)", () => {
  it("uses French as the default date locale", () => {
    expect(DEFAULT_DATE_LOCALE).toBe("fr");
    expect(dateFnsLocale()).toBe(DATE_FNS_LOCALES.fr);
    expect(dateFnsLocale("en-GB")).toBe(DATE_FNS_LOCALES.en);
    expect(dateFnsLocale("de")).toBe(DATE_FNS_LOCALES.fr);
    expect(DATE_FNS_LOCALES.en.code).toBe("en-GB");
  });

  it("shows dd/MM/yy in French and yy-MM-dd in English", () => {
    expect(formatCompactDate("2026-06-14", "fr")).toBe("14/06/26");
    expect(formatCompactDate("2026-06-14", "en")).toBe("26-06-14");
    expect(formatCompactDate(new Date(2027, 0, 3), "en")).toBe("27-01-03");
    expect(formatCompactDate("nope")).toBe("");
  });

  it("writes long dates in each language", () => {
    expect(formatLongDate("2026-06-13", "fr")).toBe("samedi 13 juin 2026");
    expect(formatLongDate("2026-06-13", "en")).toBe("Saturday 13 June 2026");
    expect(formatLongDate("2026-08-01", "fr")).toBe("samedi 1er août 2026");
    expect(formatLongDate("2026-08-01", "en")).toBe("Saturday 1 August 2026");
    expect(formatLongDate(null)).toBe("");
  });
});

describe("formatDateRange", () => {
  it("builds the French short labels", () => {
    expect(formatDateRange("2026-06-14", "2026-06-14", "fr")).toBe("14/06/26");
    expect(formatDateRange("2026-06-14", "2026-06-15", "fr")).toBe("14–15/06/26");
    expect(formatDateRange("2026-06-14", "2026-07-02", "fr")).toBe(`14/06${NBSP}– 02/07/26`);
    expect(formatDateRange("2026-12-28", "2027-01-03", "fr")).toBe(`28/12/26${NBSP}– 03/01/27`);
  });

  it("builds the English short labels", () => {
    expect(formatDateRange("2026-06-14", "2026-06-14", "en")).toBe("26-06-14");
    expect(formatDateRange("2026-06-14", "2026-06-15", "en")).toBe("26-06-14–15");
    expect(formatDateRange("2026-06-14", "2026-07-02", "en")).toBe(`26-06-14${NBSP}– 07-02`);
    expect(formatDateRange("2026-12-28", "2027-01-03", "en")).toBe(`26-12-28${NBSP}– 27-01-03`);
  });

  it("swaps reversed ends and tolerates a missing one", () => {
    expect(formatDateRange("2026-06-15", "2026-06-14")).toBe("14–15/06/26");
    expect(formatDateRange("2026-06-14", null)).toBe("14/06/26");
    expect(formatDateRange(null, "2026-06-14")).toBe("14/06/26");
    expect(formatDateRange(null, undefined)).toBe("");
  });
});

describe("relative days", () => {
  const now = new Date(2026, 5, 14, 23, 59);

  it("counts calendar days, not 24-hour periods", () => {
    expect(daysUntil("2026-06-15", now)).toBe(1);
    expect(daysUntil("2026-06-14", now)).toBe(0);
    expect(daysUntil("2026-06-01", now)).toBe(-13);
    expect(daysBetween("2026-06-14", "2027-06-14")).toBe(365);
    expect(() => daysBetween("nope", "2026-06-14")).toThrow(RangeError);
  });

  it("words them in each language", () => {
    expect(formatRelativeDays(0, "fr")).toBe("aujourd’hui");
    expect(formatRelativeDays(1, "fr")).toBe("demain");
    expect(formatRelativeDays(3)).toBe("dans 3 jours");
    expect(formatRelativeDays(-2, "fr")).toBe("avant-hier");
    expect(formatRelativeDays(1, "en")).toBe("tomorrow");
    expect(formatRelativeDays(3, "en")).toBe("in 3 days");
    expect(formatRelativeDays(-5, "en")).toBe("5 days ago");
  });
});

describe("dates on pages", () => {
  it("keeps the spec's compact form in French and writes English dates as English readers read them", () => {
    expect(formatPageDate("2026-12-19", "fr")).toBe("19/12/26");
    expect(formatPageDate("2026-12-19", "en")).toBe("Sat 19 Dec 2026");
  });

  it("shares the month and year of a range in English", () => {
    expect(formatPageDateRange("2027-06-01", "2027-06-30", "en")).toBe("1–30 Jun 2027");
    expect(formatPageDateRange("2026-11-28", "2026-12-03", "en")).toBe("28 Nov\u00a0– 3 Dec 2026");
    expect(formatPageDateRange("2026-12-28", "2027-01-03", "en")).toBe("28 Dec 2026\u00a0– 3 Jan 2027");
    expect(formatPageDateRange("2027-06-01", "2027-06-30", "fr")).toBe("01–30/06/27");
    expect(formatPageDateRange("2027-06-01", null, "en")).toBe("Tue 1 Jun 2027");
  });
});
