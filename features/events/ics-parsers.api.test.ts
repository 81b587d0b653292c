/**
 * Every iCalendar file the site sends (an event's .ics, the search feed and its pages), read by an
 * iCalendar parser nobody here wrote: Mozilla's ical.js (the one Thunderbird uses).
 */
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { searchService } from "../search/search.service.server.ts";
import type { EventDetail } from "./event-detail.contract.ts";
import { events } from "./events.tables.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Vevent = {
  uid: string;
  status: string | null;
  summary: string;
  location: string | null;
  description: string | null;
  start: ICAL.Time;
  end: ICAL.Time;
  stamp: ICAL.Time;
};

/** The file as ical.js reads it: its VEVENTs, and every physical line's length in octets. */
function parse(body: string): { events: Vevent[]; calendar: ICAL.Component } {
  for (const line of body.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
  expect(body.endsWith("\r\n")).toBe(true);
  const calendar = new ICAL.Component(ICAL.parse(body));
  expect(calendar.name).toBe("vcalendar");
  expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
  const timezones = new Set(calendar.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid")));
  const list = calendar.getAllSubcomponents("vevent").map((vevent) => {
    for (const name of ["uid", "dtstamp", "dtstart"]) expect(vevent.hasProperty(name), name).toBe(true);
    // A time given in a named zone needs that zone's definition in the file.
    for (const property of vevent.getAllProperties()) {
      const tzid = property.getParameter("tzid");
      if (tzid) expect(timezones.has(tzid), String(tzid)).toBe(true);
    }
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      status: vevent.getFirstPropertyValue("status") as string | null,
      summary: event.summary,
      location: event.location,
      description: event.description,
      start: event.startDate,
      end: event.endDate,
      stamp: vevent.getFirstPropertyValue("dtstamp") as ICAL.Time,
    };
  });
  return { events: list, calendar };
}

async function get(url: string) {
  const res = await t.app.inject({ method: "GET", url });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
  return res;
}

async function detail(id: number): Promise<EventDetail> {
  return (await t.app.inject({ method: "GET", url: `/api/event/${id}` })).json();
}

/** "2026-06-13" → "2026-06-14". */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

function expectEventDates(vevent: Vevent, event: EventDetail) {
  // All-day: plain dates, which calendar apps show on those days wherever the reader is.
  expect(vevent.start.isDate).toBe(true);
  expect(vevent.start.toString()).toBe(event.startDate);
  expect(vevent.end.isDate).toBe(true);
  expect(vevent.end.toString()).toBe(dayAfter(event.endDate));
  // DTSTAMP: an instant in UTC, the server's clock when the file was made.
  expect(vevent.stamp.zone?.tzid).toBe("UTC");
  expect(vevent.stamp.toJSDate().toISOString()).toBe(TEST_REFERENCE_DATE.toISOString());
}

describe("iCalendar files read by ical.js", () => {
  it("an event's .ics: one VEVENT with its dates, title, place and status", async () => {
    const list = (await t.app.inject({ method: "GET", url: "/api/events?perPage=5" })).json().items;
    for (const item of list as { id: number }[]) {
      const { events: parsed } = parse((await get(`/api/event/${item.id}/ics`)).body);
      expect(parsed).toHaveLength(1);
      const event = await detail(item.id);
      const vevent = parsed[0] as Vevent;
      expect(vevent.summary).toBe(event.name);
      expectEventDates(vevent, event);
      expect(vevent.status).toBe(event.dateConfirmed ? "CONFIRMED" : "TENTATIVE");
    }
  });

  it("the search feed: every event once, with the same UID, STATUS and title as its own .ics", async () => {
    const feed = parse((await get("/api/events/ics?cancelled=1")).body).events;
    const items: { id: number; state: string }[] = [];
    for (let page = 1; ; page++) {
      const res = (
        await t.app.inject({ method: "GET", url: `/api/events?cancelled=1&perPage=60&page=${page}` })
      ).json();
      expect(Array.isArray(res.items), JSON.stringify(res).slice(0, 200)).toBe(true);
      items.push(...res.items);
      if (page >= res.pages) break;
    }
    expect(feed.length).toBe(items.length);
    expect(new Set(feed.map((e) => e.uid)).size).toBe(feed.length);
    const cancelled = items.filter((i) => i.state === "cancelled");
    const postponed = items.filter((i) => i.state === "postponed");
    expect(cancelled.length).toBeGreaterThan(0);
    expect(postponed.length).toBeGreaterThan(0);
    for (const item of [...cancelled.slice(0, 3), ...postponed.slice(0, 3), ...items.slice(0, 4)]) {
      const own = parse((await get(`/api/event/${item.id}/ics`)).body).events[0] as Vevent;
      const inFeed = feed.find((e) => e.uid === own.uid);
      expect(inFeed, own.uid).toBeDefined();
      expect([inFeed?.status, inFeed?.summary]).toEqual([own.status, own.summary]);
      expectEventDates(inFeed as Vevent, await detail(item.id));
      if (item.state === "cancelled") expect(own.status).toBe("CANCELLED");
      if (item.state === "postponed") expect(own.status).toBe("CONFIRMED");
    }
  });

  it("a cut feed's pages: each says it is a part, and together they hold the whole search once", async () => {
    const small = searchService(t.database.db, () => TEST_REFERENCE_DATE, { icsPageSize: 40 });
    const first = await small.ics({}, "en");
    expect(first.pages).toBeGreaterThan(1);
    const uids = new Set<string>();
    for (let page = 1; page <= first.pages; page++) {
      const { events: parsed, calendar } = parse((await small.ics({ page }, "en")).body);
      expect(parsed.length).toBe(page < first.pages ? 40 : first.total - 40 * (first.pages - 1));
      expect(String(calendar.getFirstPropertyValue("x-wr-caldesc"))).toMatch(/\d+.*\d+.*\d+/);
      for (const vevent of parsed) uids.add(vevent.uid);
    }
    expect(uids.size).toBe(first.total);
  });

  it("keeps commas, semicolons, backslashes and line breaks of names and addresses", async () => {
    const [row] = await t.database.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.status, "active"))
      .limit(1);
    const id = row?.id as number;
    // A backslash before an "n" must stay a backslash and an "n", a line break a line break.
    const name = 'Trail, du lac; "nuit" C:\\new\nédition spéciale — 10 km à Saint-Étienne-de-Saint-Geoirs';
    await t.database.db
      .update(events)
      .set({ name, place: "Salle A; B", address: "3, rue du Stade\nbâtiment C", cancelled: false })
      .where(eq(events.id, id));
    t.app.services.search.invalidate();
    const event = await detail(id);
    expect(event.name).toBe(name);
    const own = parse((await get(`/api/event/${id}/ics`)).body).events[0] as Vevent;
    expect(own.summary).toBe(name);
    expect(own.location).toContain("Salle A; B, 3, rue du Stade\nbâtiment C");
    const feed = parse((await get(`/api/events/ics?q=${encodeURIComponent("Saint-Geoirs")}`)).body).events;
    expect(feed.find((e) => e.uid === own.uid)?.summary).toBe(name);
  });
});
