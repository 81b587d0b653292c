import { describe, expect, it } from "vitest";
import { SAMPLE_EVENT } from "./event-detail.fixture.ts";
import { buildEventIcs, safeExternalUrl } from "./event-detail.service.server.ts";

const event = SAMPLE_EVENT;

describe("buildEventIcs", () => {
  it("builds one all-day VEVENT with the courses and the page address", () => {
    const ics = buildEventIcs(event, { locale: "fr", now: new Date("2026-06-01T10:00:00Z") });
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const text = ics.replace(/\r\n /g, "");
    expect(text).toContain("\r\nDTSTAMP:20260601T100000Z\r\n");
    expect(text).toContain("\r\nDTSTART;VALUE=DATE:20260613\r\nDTEND;VALUE=DATE:20260615\r\n");
    expect(text).toContain("\r\nSUMMARY:Trail des Crêtes\\, 10e édition\\; le retour\r\n");
    expect(text).toContain("\r\nLOCATION:Salle des fêtes\\, 3 rue du Stade\\, 38000 Grenoble\r\n");
    expect(text).toContain("\r\nGEO:45.190000;5.720000\r\n");
    expect(text).toContain("Grand trail · 42\\,195\u00a0km · D+\u00a02\u202f100\u00a0m · 07:30");
    expect(text).toContain("Une belle course.");
    expect(text).toContain("\r\nURL:http://localhost:3000/course/trail-des-cretes-2026\r\n");
    expect(text).toContain("\r\nSTATUS:CONFIRMED\r\n");
    expect(text).toContain("\r\nCATEGORIES:Trail\r\n");
    expect(text).toContain("\r\nUID:event-42@localhost\r\n");
    const en = buildEventIcs(event, { locale: "en", now: new Date() }).replace(/\r\n /g, "");
    expect(en).toContain("URL:http://localhost:3000/en/race/trail-des-cretes-2026");
    expect(en).toContain("42.195\u00a0km · 2\\,100\u00a0m\u00a0D+ · 07:30");
    const cancelled = buildEventIcs({ ...event, cancelled: true }, { locale: "fr", now: new Date() });
    expect(cancelled).toContain("\r\nSTATUS:CANCELLED\r\n");
    expect(buildEventIcs({ ...event, dateConfirmed: false }, { locale: "fr", now: new Date() })).toContain(
      "STATUS:TENTATIVE",
    );
  });
});

describe("safeExternalUrl", () => {
  it("keeps web addresses only", () => {
    expect(safeExternalUrl("https://example.org/a?b=1")).toBe("https://example.org/a?b=1");
    expect(safeExternalUrl(" http://example.org ")).toBe("http://example.org/");
    expect(safeExternalUrl("javascript:alert(1)")).toBeNull();
    expect(safeExternalUrl("/relative")).toBeNull();
    expect(safeExternalUrl(null)).toBeNull();
  });
});
