import { describe, expect, it } from "vitest";
import { INT4_MAX, idOrNewParam, idParam, isoDay, isStorableText, numeric, rowId, secretText, text } from "./input.ts";

describe("text", () => {
  it("refuses NUL and lone surrogates, naming no code but BAD_REQUEST", () => {
    for (const bad of ["a\u0000b", "\ud800", "a\ud800b", "\udc00", "x\udfff", "\ud83c"]) {
      const parsed = text().safeParse(bad);
      expect(parsed.success, JSON.stringify(bad)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("BAD_REQUEST");
    }
  });

  it("takes real Unicode (pairs, emoji, accents) and normalises it to NFC", () => {
    expect(isStorableText("🏃‍♀️ 日本語 İstanbul")).toBe(true);
    expect(text().parse("e\u0301te\u0301")).toBe("été");
    expect(text().trim().max(3).parse("  e\u0301t\u00e9  ")).toBe("été");
  });

  it("keeps passwords as typed", () => {
    expect(secretText().parse("e\u0301")).toBe("e\u0301");
    expect(secretText().safeParse("a\u0000").success).toBe(false);
  });
});

describe("ids", () => {
  it("stay within PostgreSQL's integer", () => {
    expect(rowId.safeParse(INT4_MAX).success).toBe(true);
    for (const bad of [INT4_MAX + 1, 2 ** 53, 1e308, 0, -1, 1.5, Number.NaN]) {
      expect(rowId.safeParse(bad).success, String(bad)).toBe(false);
    }
  });

  it("in a path: digits only", () => {
    expect(idParam.parse("42")).toBe(42);
    expect(idOrNewParam.parse("0")).toBe(0);
    for (const bad of ["0", "2147483648", "9007199254740993", "-1", "1e3", "0x10", " 1", "", "NaN", "1%00"]) {
      expect(idParam.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe("numeric", () => {
  it("takes numbers and numeric strings, not what z.coerce would bend into one", () => {
    expect(numeric.parse(8)).toBe(8);
    expect(numeric.parse(" 45.5 ")).toBe(45.5);
    for (const bad of [[8], true, "", "0x10", "NaN", "1\u0000", null]) {
      expect(numeric.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("isoDay", () => {
  it("takes real days of the calendar's years only", () => {
    expect(isoDay.safeParse("2026-09-12").success).toBe(true);
    expect(isoDay.safeParse("1900-01-01").success).toBe(true);
    expect(isoDay.safeParse("2199-12-31").success).toBe(true);
    for (const bad of [
      "9999-12-31",
      "0000-01-01",
      "1899-12-31",
      "2200-01-01",
      "2025-02-30",
      "+275760-09-13",
      "2026-9-1",
    ]) {
      const parsed = isoDay.safeParse(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe("FIELD_REQUIRED");
    }
  });
});
