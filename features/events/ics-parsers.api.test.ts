/**
 * Every iCalendar file the site sends (an event's .ics, the search feed and its pages, a member's
 * planning feed), read by an iCalendar parser nobody here wrote: Mozilla's ical.js (the one
 * Thunderbird uses). Each race (course) is one entry, the same in every file (race-ics.ts).
 */
import { eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { searchService } from "../search/search.service.server.ts";
import { hasStartTime, zonedIsoDate } from "./components/event-format.ts";
import type { CourseDetail, EventDetail } from "./event-detail.contract.ts";
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

/** The VEVENT of a course: at its start time (an instant in UTC), else on its day, else on the event's days. */
function expectRaceDates(vevent: Vevent, event: EventDetail, course: CourseDetail) {
  const zone = event.place.timeZone;
  if (hasStartTime(course.startAt, zone)) {
    expect(vevent.start.isDate).toBe(false);
    expect(vevent.start.zone?.tzid).toBe("UTC");
    expect(vevent.start.toJSDate().toISOString()).toBe(new Date(course.startAt).toISOString());
    expect(vevent.end.compare(vevent.start)).toBe(1);
  } else {
    // All-day: plain dates, which calendar apps show on those days wherever the reader is.
    const [first, last] = course.startAt
      ? [zonedIsoDate(course.startAt, zone), zonedIsoDate(course.startAt, zone)]
      : [event.startDate, event.endDate];
    expect(vevent.start.isDate).toBe(true);
    expect(vevent.start.toString()).toBe(first);
    expect(vevent.end.isDate).toBe(true);
    expect(vevent.end.toString()).toBe(dayAfter(last));
  }
  // DTSTAMP: an instant in UTC, the server's clock when the file was made.
  expect(vevent.stamp.zone?.tzid).toBe("UTC");
  expect(vevent.stamp.toJSDate().toISOString()).toBe(TEST_REFERENCE_DATE.toISOString());
}

/** STATUS from the event's state alone. */
function statusOf(event: EventDetail): string {
  return event.cancelled ? "CANCELLED" : event.dateConfirmed || event.postponed ? "CONFIRMED" : "TENTATIVE";
}

/** Every race of the event in its own .ics, in the courses' order, with its dates, title and status. */
async function expectOwnIcs(id: number): Promise<Vevent[]> {
  const event = await detail(id);
  const { events: parsed } = parse((await get(`/api/event/${id}/ics`)).body);
  expect(parsed.map((v) => v.uid)).toEqual(
    event.courses.map((c) => expect.stringMatching(new RegExp(`^course-${c.id}@`))),
  );
  for (const [i, course] of event.courses.entries()) {
    const vevent = parsed[i] as Vevent;
    expect(vevent.summary.includes(`${event.name} — `), vevent.summary).toBe(true);
    expectRaceDates(vevent, event, course);
    expect(vevent.status).toBe(statusOf(event));
  }
  return parsed;
}

describe("iCalendar files read by ical.js", () => {
  it("an event's .ics: one VEVENT per race with its day or start, title, place and status", async () => {
    const list = (await t.app.inject({ method: "GET", url: "/api/events?perPage=5" })).json().items;
    for (const item of list as { id: number }[]) await expectOwnIcs(item.id);
  });

  it("the search feed: every race once, with the same UID, STATUS, title and dates as its event's .ics", async () => {
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
    const [{ races }] = await t.database.db
      .execute<{ races: number }>(sql`
        SELECT coalesce(sum(greatest(1, (SELECT count(*) FROM courses c WHERE c.event_id = e.id))), 0)::int AS races
        FROM events e WHERE e.id IN (${sql.join(
          items.map((i) => sql`${i.id}`),
          sql`, `,
        )})`)
      .then((r) => r.rows as { races: number }[]);
    expect(feed.length).toBe(races);
    expect(new Set(feed.map((e) => e.uid)).size).toBe(feed.length);
    const cancelled = items.filter((i) => i.state === "cancelled");
    const postponed = items.filter((i) => i.state === "postponed");
    expect(cancelled.length).toBeGreaterThan(0);
    expect(postponed.length).toBeGreaterThan(0);
    for (const item of [...cancelled.slice(0, 3), ...postponed.slice(0, 3), ...items.slice(0, 4)]) {
      for (const own of await expectOwnIcs(item.id)) {
        const inFeed = feed.find((e) => e.uid === own.uid);
        expect(inFeed, own.uid).toBeDefined();
        expect([inFeed?.status, inFeed?.summary, inFeed?.start.toString(), inFeed?.end.toString()]).toEqual([
          own.status,
          own.summary,
          own.start.toString(),
          own.end.toString(),
        ]);
        if (item.state === "cancelled") expect(own.status).toBe("CANCELLED");
        if (item.state === "postponed") expect(own.status).toBe("CONFIRMED");
      }
    }
  });

  it("a cut feed's pages: each says it is a part, and together they hold the whole search once", async () => {
    const small = searchService(t.database.db, () => TEST_REFERENCE_DATE, { icsPageSize: 40 });
    const whole = parse((await searchService(t.database.db, () => TEST_REFERENCE_DATE).ics({}, "en")).body).events;
    const first = await small.ics({}, "en");
    expect(first.pages).toBeGreaterThan(1);
    const uids: string[] = [];
    for (let page = 1; page <= first.pages; page++) {
      const { events: parsed, calendar } = parse((await small.ics({ page }, "en")).body);
      expect(String(calendar.getFirstPropertyValue("x-wr-caldesc"))).toMatch(/\d+.*\d+.*\d+/);
      for (const vevent of parsed) uids.push(vevent.uid);
    }
    // Cut by events, whose races stay together: each race once, on one page.
    expect(new Set(uids).size).toBe(uids.length);
    expect(uids.sort()).toEqual(whole.map((e) => e.uid).sort());
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
    expect(own.summary.startsWith(`${name} — `), own.summary).toBe(true);
    expect(own.location).toContain("Salle A; B, 3, rue du Stade\nbâtiment C");
    const feed = parse((await get(`/api/events/ics?q=${encodeURIComponent("Saint-Geoirs")}`)).body).events;
    expect(feed.find((e) => e.uid === own.uid)?.summary).toBe(own.summary);
  });
});

describe("one race, one entry, whichever file a calendar imports it from (decision 022)", () => {
  it("a planned course has the same UID, STATUS and title in its event's .ics, the search feed and the planning feed", async () => {
    const today = TEST_REFERENCE_DATE.toISOString().slice(0, 10);
    const [picked] = await t.database.db
      .execute<{ id: number; ids: number[] }>(sql`
        SELECT e.id, array_agg(c.id ORDER BY c.position, c.id) AS ids FROM events e JOIN courses c ON c.event_id = e.id
        WHERE e.status = 'active' AND e.start_date > ${today}::date AND NOT e.cancelled AND NOT e.postponed
        GROUP BY e.id HAVING count(*) >= 2 ORDER BY e.start_date, e.id LIMIT 1`)
      .then((r) => r.rows);
    const id = picked?.id as number;
    const courseId = Number(picked?.ids[1]);
    // A date not confirmed yet: the race is tentative, whatever the member says of it.
    await t.database.db.update(events).set({ dateConfirmed: false }).where(eq(events.id, id));
    t.app.services.search.invalidate();
    const member = await testMember(t);
    const post = (url: string, body?: unknown) =>
      t.app.inject({
        method: "POST",
        url,
        headers: { ...accessHeaders, cookie: member.cookie, "content-type": "application/json" },
        payload: JSON.stringify(body ?? {}),
      });
    expect((await post(`/api/user/calendar/${courseId}`, { status: "registered" })).statusCode).toBe(200);
    const feedUrl = (await post("/api/user/calendar/feed")).json().url as string;
    const feedPath = feedUrl.slice(feedUrl.indexOf("/api/"));

    const entries = async () => {
      const planning = parse((await get(feedPath)).body).events;
      const own = parse((await get(`/api/event/${id}/ics`)).body).events;
      const search = parse((await get("/api/events/ics?cancelled=1")).body).events;
      return { planning, own, search };
    };
    const { planning, own, search } = await entries();
    expect(planning).toHaveLength(1);
    const mine = planning[0] as Vevent;
    for (const file of [own, search]) {
      const same = file.find((e) => e.uid === mine.uid);
      expect(same, `${mine.uid} among ${file.slice(0, 3).map((e) => e.uid)}`).toBeDefined();
      expect([same?.status, same?.summary]).toEqual([mine.status, mine.summary]);
    }
    expect(mine.status).toBe("TENTATIVE");
    // The event's .ics holds each of its races once.
    expect(own.length).toBe(picked?.ids.length);
    expect(new Set(own.map((e) => e.uid)).size).toBe(own.length);

    // Cancelled: CANCELLED everywhere, with the same title.
    await t.database.db.update(events).set({ cancelled: true }).where(eq(events.id, id));
    t.app.services.search.invalidate();
    const after = await entries();
    const cancelled = after.planning[0] as Vevent;
    expect(cancelled.uid).toBe(mine.uid);
    expect(cancelled.status).toBe("CANCELLED");
    for (const file of [after.own, after.search])
      expect(file.filter((e) => e.uid === mine.uid).map((e) => [e.status, e.summary])).toEqual([
        ["CANCELLED", cancelled.summary],
      ]);
    await t.database.db.update(events).set({ cancelled: false }).where(eq(events.id, id));
    t.app.services.search.invalidate();
  });
});
