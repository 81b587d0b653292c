import { describe, expect, it } from "vitest";
import { SAMPLE_EVENT } from "./event-detail.fixture.ts";
import { buildEventIcs, safeExternalUrl } from "./event-detail.service.server.ts";

const event = SAMPLE_EVENT;

describe("buildEventIcs", () => {
  it("builds one VEVENT per race, at its start in UTC, with the course and the page address", () => {
    const ics = buildEventIcs(event, { locale: "fr", now: new Date("2026-06-01T10:00:00Z") });
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const text = ics.replace(/\r\n /g, "");
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(text).toContain("\r\nUID:course-1@localhost\r\n");
    expect(text).toContain("\r\nDTSTAMP:20260601T100000Z\r\n");
    // 07:30 in Grenoble; no duration nor target: an hour.
    expect(text).toContain("\r\nDTSTART:20260613T053000Z\r\nDTEND:20260613T063000Z\r\n");
    expect(text).toContain("\r\nSUMMARY:Trail des Crêtes\\, 10e édition\\; le retour — 42\\,2\u00a0km\r\n");
    expect(text).toContain("\r\nLOCATION:Salle des fêtes\\, 3 rue du Stade\\, 38000 Grenoble\r\n");
    expect(text).toContain("\r\nGEO:45.190000;5.720000\r\n");
    expect(text).toContain("Grand trail · 42\\,195\u00a0km · D+\u00a02\u202f100\u00a0m · 07:30");
    expect(text).toContain("Une belle course.");
    expect(text).toContain("\r\nURL:http://localhost:3000/course/trail-des-cretes-2026\r\n");
    expect(text).toContain("\r\nSTATUS:CONFIRMED\r\n");
    expect(text).toContain("\r\nCATEGORIES:Trail\r\n");
    const en = buildEventIcs(event, { locale: "en", now: new Date() }).replace(/\r\n /g, "");
    expect(en).toContain("URL:http://localhost:3000/en/race/trail-des-cretes-2026");
    expect(en).toContain("42.195\u00a0km · 2\\,100\u00a0m\u00a0D+ · 07:30");
    const cancelled = buildEventIcs({ ...event, cancelled: true }, { locale: "fr", now: new Date() });
    expect(cancelled).toContain("\r\nSTATUS:CANCELLED\r\n");
    expect(cancelled.replace(/\r\n /g, "")).toContain("SUMMARY:Annulée : Trail des Crêtes");
    expect(buildEventIcs({ ...event, dateConfirmed: false }, { locale: "fr", now: new Date() })).toContain(
      "STATUS:TENTATIVE",
    );
  });

  it("puts a race without a start time on its day, one without a day on the event's days", () => {
    const [grand] = event.courses;
    const courses = [
      // Local midnight: the day is known (the 14th in Grenoble), not the time.
      { ...grand, id: 2, name: "Course des enfants", distance: 2000, startAt: "2026-06-13T22:00:00.000Z" },
      { ...grand, id: 3, name: "24 h", distance: null, duration: 86_400, startAt: null },
    ];
    const text = buildEventIcs({ ...event, courses }, { locale: "fr", now: new Date() }).replace(/\r\n /g, "");
    const vevents = text.split("BEGIN:VEVENT").slice(1);
    expect(vevents).toHaveLength(2);
    expect(vevents[0]).toContain("\r\nUID:course-2@localhost\r\n");
    expect(vevents[0]).toContain("\r\nDTSTART;VALUE=DATE:20260614\r\nDTEND;VALUE=DATE:20260615\r\n");
    expect(vevents[1]).toContain("\r\nUID:course-3@localhost\r\n");
    expect(vevents[1]).toContain("\r\nDTSTART;VALUE=DATE:20260613\r\nDTEND;VALUE=DATE:20260615\r\n");
    expect(vevents[1]).toContain("SUMMARY:Trail des Crêtes\\, 10e édition\\; le retour — 24\u00a0h\r\n");
    // An event without any course is one entry of its own.
    const bare = buildEventIcs({ ...event, courses: [] }, { locale: "fr", now: new Date() });
    expect(bare).toContain("\r\nUID:event-42@localhost\r\n");
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
