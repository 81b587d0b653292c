import { describe, expect, it } from "vitest";
import { escapeText, foldLine, icsDate, icsDateTime, nextDay, toIcs } from "./ics.ts";

const octets = (s: string) => new TextEncoder().encode(s).length;

/** Physical lines → content lines (RFC 5545 §3.1 unfolding). */
function unfold(body: string): string[] {
  return body.replace(/\r\n /g, "").split("\r\n").slice(0, -1);
}

describe("escapeText", () => {
  it("escapes backslashes, semicolons, commas and line breaks", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf")).toBe("a\\\\b\\;c\\,d\\ne\\nf");
  });
  it("drops control characters but keeps accents and tabs", () => {
    expect(escapeText("Crêtes\u0000\u0007 du Vercors\ttab")).toBe("Crêtes du Vercors\ttab");
  });
});

describe("foldLine", () => {
  it("leaves short lines alone", () => {
    expect(foldLine("SUMMARY:Trail")).toBe("SUMMARY:Trail");
    const exact = `X:${"a".repeat(73)}`;
    expect(octets(exact)).toBe(75);
    expect(foldLine(exact)).toBe(exact);
  });

  it("folds at 75 octets, continuation lines starting with one space", () => {
    const line = `DESCRIPTION:${"x".repeat(200)}`;
    const folded = foldLine(line);
    const physical = folded.split("\r\n");
    expect(physical.length).toBeGreaterThan(2);
    for (const [i, part] of physical.entries()) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      if (i > 0) expect(part.startsWith(" ")).toBe(true);
    }
    expect(physical[0]).toHaveLength(75);
    expect(folded.replace(/\r\n /g, "")).toBe(line);
  });

  it("never splits a multi-byte character", () => {
    const line = `SUMMARY:${"é".repeat(100)}${"🏃".repeat(20)}`;
    const folded = foldLine(line);
    for (const part of folded.split("\r\n")) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      // A split sequence would decode to U+FFFD.
      expect(new TextDecoder().decode(new TextEncoder().encode(part))).not.toContain("\uFFFD");
    }
    expect(folded.replace(/\r\n /g, "")).toBe(line);
  });
});

describe("dates", () => {
  it("formats DATE and UTC DATE-TIME values", () => {
    expect(icsDate("2026-06-01")).toBe("20260601");
    expect(icsDateTime(new Date("2026-06-01T10:05:09.123Z"))).toBe("20260601T100509Z");
    expect(() => icsDate("1 June")).toThrow(RangeError);
  });
  it("gives the next day across months and leap years", () => {
    expect(nextDay("2026-06-30")).toBe("2026-07-01");
    expect(nextDay("2028-02-28")).toBe("2028-02-29");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
  });
});

describe("toIcs", () => {
  const stamp = new Date("2026-06-01T10:00:00Z");
  const body = toIcs({
    prodId: "-//Dossard//Test//FR",
    name: "Dossard · Trail, Isère",
    description: "Courses, mises à jour",
    stamp,
    refreshHours: 12,
    events: [
      {
        uid: "event-1@dossard",
        summary: "Trail des Crêtes; édition 2026, la grande",
        start: "2026-06-06",
        end: "2026-06-07",
        location: "Place du village, 38000 Grenoble",
        geo: { lat: 45.1885, lng: 5.7245 },
        description: "Trail\n10 km · 42 km\nhttps://dossard.example/course/trail-des-cretes",
        url: "https://dossard.example/course/trail-des-cretes",
        categories: ["Trail"],
        status: "CONFIRMED",
        created: new Date("2026-01-02T03:04:05Z"),
        lastModified: stamp,
      },
      { uid: "event-2@dossard", summary: "Marathon annulé", start: "2026-06-14", status: "CANCELLED" },
    ],
  });

  it("ends every line with CRLF and keeps physical lines within 75 octets", () => {
    expect(body.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(body.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of body.split("\r\n")) expect(octets(line)).toBeLessThanOrEqual(75);
  });

  it("writes the calendar and its events with the required properties", () => {
    const lines = unfold(body);
    expect(lines.slice(0, 5)).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Dossard//Test//FR",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
    ]);
    expect(lines).toContain("X-WR-CALNAME:Dossard · Trail\\, Isère");
    expect(lines).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT12H");
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(2);
    expect(lines.filter((l) => l === "END:VEVENT")).toHaveLength(2);
    expect(lines.filter((l) => l === "DTSTAMP:20260601T100000Z")).toHaveLength(2);
    expect(lines.at(-1)).toBe("END:VCALENDAR");
  });

  it("writes all-day dates with an exclusive end, escaped text, status and location", () => {
    const lines = unfold(body);
    expect(lines).toContain("UID:event-1@dossard");
    expect(lines).toContain("DTSTART;VALUE=DATE:20260606");
    expect(lines).toContain("DTEND;VALUE=DATE:20260608");
    expect(lines).toContain("SUMMARY:Trail des Crêtes\\; édition 2026\\, la grande");
    expect(lines).toContain("LOCATION:Place du village\\, 38000 Grenoble");
    expect(lines).toContain("GEO:45.188500;5.724500");
    expect(lines).toContain("URL:https://dossard.example/course/trail-des-cretes");
    expect(lines).toContain("DESCRIPTION:Trail\\n10 km · 42 km\\nhttps://dossard.example/course/trail-des-cretes");
    expect(lines).toContain("CREATED:20260102T030405Z");
    // A one-day event ends the next day.
    expect(lines).toContain("DTSTART;VALUE=DATE:20260614");
    expect(lines).toContain("DTEND;VALUE=DATE:20260615");
    expect(lines).toContain("STATUS:CANCELLED");
  });
});
