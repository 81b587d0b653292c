import { eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { courses, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { NAMED_PER_COURSE } from "./engagement.service.server.ts";
import { calendarEntries, calendarFeeds, favorites } from "./engagement.tables.ts";

let t: TestApp;
/** An upcoming listed event with two courses that have a distance. */
let event: { id: number; slug: string; courseIds: number[] };
/** A listed event that is over. */
let past: { id: number; courseId: number };

beforeAll(async () => {
  t = await createTestApp();
  const today = TEST_REFERENCE_DATE.toISOString().slice(0, 10);
  const [upcoming] = await t.database.db
    .execute<{ id: number; slug: string; ids: number[] }>(sql`
    SELECT e.id, e.slug, array_agg(c.id ORDER BY c.position, c.id) AS ids FROM events e JOIN courses c ON c.event_id = e.id
    WHERE e.status = 'active' AND e.start_date > ${today}::date AND NOT e.cancelled AND c.distance IS NOT NULL
    GROUP BY e.id HAVING count(*) >= 2 ORDER BY e.start_date, e.id LIMIT 1`)
    .then((r) => r.rows);
  event = { id: upcoming.id, slug: upcoming.slug, courseIds: upcoming.ids.map(Number) };
  const [over] = await t.database.db
    .execute<{ id: number; course_id: number }>(sql`
    SELECT e.id, min(c.id) AS course_id FROM events e JOIN courses c ON c.event_id = e.id
    WHERE e.status = 'active' AND e.end_date < ${today}::date GROUP BY e.id ORDER BY e.id LIMIT 1`)
    .then((r) => r.rows);
  past = { id: over.id, courseId: Number(over.course_id) };
});
afterAll(() => t?.close());

type Call = { method?: "GET" | "POST" | "DELETE"; cookie?: string; body?: unknown };
const call = (url: string, { method = "GET", cookie, body }: Call = {}) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...(method === "GET" ? {} : accessHeaders),
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe("GET /api/user/action/{id}", () => {
  it("tells a member, the event's owner and an admin what they may do on the event", async () => {
    const member = await testMember(t);
    const owner = await testMember(t, { firstName: "Owen" });
    const admin = await testMember(t, { role: "admin" });
    const [other] = await t.database.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.status, "active"))
      .limit(1);
    await t.database.db.update(events).set({ ownerId: owner.id }).where(eq(events.id, other.id));

    const seen = async (cookie: string) => {
      const response = await call(`/api/user/action/${other.id}`, { cookie });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers["cache-control"]).toBe("private, no-store");
      return response.json().access;
    };
    expect(await seen(member.cookie)).toBe("member");
    expect(await seen(owner.cookie)).toBe("owner");
    expect(await seen(admin.cookie)).toBe("admin");
  });

  it("gives the member's favourite and planned courses in the same answer", async () => {
    const member = await testMember(t);
    await call(`/api/user/favorite/${event.id}`, { method: "POST", cookie: member.cookie, body: {} });
    await call(`/api/user/calendar/${event.courseIds[1]}`, {
      method: "POST",
      cookie: member.cookie,
      body: { status: "registered", targetTime: 5400 },
    });
    const answer = (await call(`/api/user/action/${event.id}`, { cookie: member.cookie })).json();
    expect(answer).toEqual({
      eventId: event.id,
      access: "member",
      favorite: true,
      calendar: [{ courseId: event.courseIds[1], status: "registered", targetTime: 5400 }],
      rating: null,
      commentCount: 0,
    });
  });

  it("asks visitors to sign in and says clearly when the event does not exist", async () => {
    expect((await call(`/api/user/action/${event.id}`)).statusCode).toBe(401);
    const member = await testMember(t);
    const missing = await call("/api/user/action/2000000000", { cookie: member.cookie });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe("ITEM_NOT_FOUND");
    expect((await call("/api/user/action/abc", { cookie: member.cookie })).statusCode).toBe(400);
  });
});

describe("favourites", () => {
  it("toggle, set, list and count a member's saved races", async () => {
    const member = await testMember(t);
    const other = await testMember(t);
    const on = await call(`/api/user/favorite/${event.id}`, { method: "POST", cookie: member.cookie, body: {} });
    expect(on.statusCode, on.body).toBe(200);
    const base = on.json().count as number;
    expect(on.json()).toMatchObject({ eventId: event.id, favorite: true });
    expect(
      (
        await call(`/api/user/favorite/${event.id}`, { method: "POST", cookie: other.cookie, body: { on: true } })
      ).json(),
    ).toEqual({ eventId: event.id, favorite: true, count: base + 1 });
    // Setting again changes nothing; toggling takes it off.
    expect(
      (
        await call(`/api/user/favorite/${event.id}`, { method: "POST", cookie: other.cookie, body: { on: true } })
      ).json().count,
    ).toBe(base + 1);
    const list = (await call("/api/user/favorites", { cookie: member.cookie })).json();
    expect(list.items.map((i: { id: number }) => i.id)).toEqual([event.id]);
    expect(list.items[0].slug).toBe(event.slug);
    const off = await call(`/api/user/favorite/${event.id}`, { method: "POST", cookie: member.cookie, body: {} });
    expect(off.json()).toEqual({ eventId: event.id, favorite: false, count: base });
    expect((await call("/api/user/favorites", { cookie: member.cookie })).json().items).toEqual([]);
  });

  it("stay exact when the same member's requests race", async () => {
    const member = await testMember(t);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(`/api/user/favorite/${past.id}`, { method: "POST", cookie: member.cookie, body: { on: true } }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const saved = await t.database.db.select().from(favorites).where(eq(favorites.userId, member.id));
    expect(saved).toHaveLength(1);
  });

  it("refuse visitors, unknown or unlisted events and bad bodies, writing nothing", async () => {
    const member = await testMember(t);
    expect((await call(`/api/user/favorite/${event.id}`, { method: "POST", body: {} })).statusCode).toBe(401);
    expect((await call("/api/user/favorites")).statusCode).toBe(401);
    const [pending] = await t.database.db
      .update(events)
      .set({ status: "pending" })
      .where(eq(events.id, past.id + 1))
      .returning({ id: events.id });
    const hidden = await call(`/api/user/favorite/${pending.id}`, { method: "POST", cookie: member.cookie, body: {} });
    expect(hidden.statusCode).toBe(404);
    await t.database.db.update(events).set({ status: "active" }).where(eq(events.id, pending.id));
    expect(
      (await call("/api/user/favorite/2000000000", { method: "POST", cookie: member.cookie, body: {} })).statusCode,
    ).toBe(404);
    const bad = await call(`/api/user/favorite/${event.id}`, {
      method: "POST",
      cookie: member.cookie,
      body: { on: "yes" },
    });
    expect(bad.statusCode).toBe(400);
    expect(await t.database.db.select().from(favorites).where(eq(favorites.userId, member.id))).toEqual([]);
  });
});

describe("planning", () => {
  it("adds courses with a status and a target time, totals them per month and year, and removes them", async () => {
    const member = await testMember(t);
    const [first, second] = event.courseIds;
    const added = await call(`/api/user/calendar/${first}`, {
      method: "POST",
      cookie: member.cookie,
      body: { targetTime: 3 * 3600 },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ courseId: first, eventId: event.id, status: "planned", targetTime: 10800 });
    await call(`/api/user/calendar/${second}`, {
      method: "POST",
      cookie: member.cookie,
      body: { status: "registered" },
    });
    // Changing an entry keeps one row per course.
    await call(`/api/user/calendar/${first}`, {
      method: "POST",
      cookie: member.cookie,
      body: { status: "registered" },
    });
    await call(`/api/user/calendar/${past.courseId}`, { method: "POST", cookie: member.cookie, body: {} });

    const planning = (await call("/api/user/calendar", { cookie: member.cookie })).json();
    expect(planning.entries).toHaveLength(3);
    const byCourse = new Map(planning.entries.map((e: { courseId: number }) => [e.courseId, e]));
    expect(byCourse.get(first)).toMatchObject({
      status: "registered",
      shown: "registered",
      past: false,
      targetTime: null,
    });
    // The race that is over reads "done" and invites a result.
    expect(byCourse.get(past.courseId)).toMatchObject({ status: "planned", shown: "done", past: true });

    const rows = await t.database.db
      .select({ distance: courses.distance, gain: courses.elevationGain, id: courses.id })
      .from(courses)
      .where(sql`${courses.id} IN (${first}, ${second}, ${past.courseId})`);
    const distance = rows.reduce((sum, r) => sum + (r.distance ?? 0), 0);
    const gain = rows.reduce((sum, r) => sum + (r.gain ?? 0), 0);
    expect(planning.years.reduce((sum: number, y: { distance: number }) => sum + y.distance, 0)).toBe(distance);
    expect(planning.months.reduce((sum: number, m: { elevationGain: number }) => sum + m.elevationGain, 0)).toBe(gain);
    expect(planning.months.reduce((sum: number, m: { races: number }) => sum + m.races, 0)).toBe(3);
    expect(planning.months.map((m: { month: string }) => m.month)).toEqual([
      ...new Set(planning.entries.map((e: { event: { startDate: string } }) => e.event.startDate.slice(0, 7))),
    ]);

    expect((await call(`/api/user/calendar/${second}`, { method: "DELETE", cookie: member.cookie })).statusCode).toBe(
      200,
    );
    expect((await call(`/api/user/calendar/${second}`, { method: "DELETE", cookie: member.cookie })).statusCode).toBe(
      404,
    );
    expect((await call("/api/user/calendar", { cookie: member.cookie })).json().entries).toHaveLength(2);
  });

  it("refuses a bad status, a bad target time and an unknown course, writing nothing", async () => {
    const member = await testMember(t);
    const course = event.courseIds[0];
    for (const body of [{ status: "maybe" }, { targetTime: -5 }, { targetTime: 8 * 24 * 3600 }, { extra: 1 }]) {
      const answer = await call(`/api/user/calendar/${course}`, { method: "POST", cookie: member.cookie, body });
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().error.message).not.toMatch(/targetTime|status/);
    }
    expect(
      (await call("/api/user/calendar/2000000000", { method: "POST", cookie: member.cookie, body: {} })).statusCode,
    ).toBe(404);
    expect(await t.database.db.select().from(calendarEntries).where(eq(calendarEntries.userId, member.id))).toEqual([]);
    expect((await call(`/api/user/calendar/${course}`, { method: "POST", body: {} })).statusCode).toBe(401);
  });
});

describe("the planning's calendar feed", () => {
  it("is a private address that calendar apps read, follows the planning and dies when reset", async () => {
    const member = await testMember(t);
    expect((await call("/api/user/calendar/feed", { cookie: member.cookie })).json()).toEqual({ url: null });
    const url = (await call("/api/user/calendar/feed", { method: "POST", cookie: member.cookie })).json().url as string;
    expect(url).toMatch(/\/api\/user\/calendar\.ics\?token=[\w-]{20,}$/);
    const path = url.slice(url.indexOf("/api/"));

    const [course] = await t.database.db
      .update(courses)
      .set({ startAt: new Date("2027-06-13T07:30:00Z") })
      .where(eq(courses.id, event.courseIds[0]))
      .returning();
    await call(`/api/user/calendar/${course.id}`, {
      method: "POST",
      cookie: member.cookie,
      body: { targetTime: 7200 },
    });
    await call(`/api/user/calendar/${event.courseIds[1]}`, {
      method: "POST",
      cookie: member.cookie,
      body: { status: "dns" },
    });

    const feed = await call(path);
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    // Read by Mozilla's ical.js, as Thunderbird would.
    const calendar = new ICAL.Component(ICAL.parse(feed.body));
    const vevents = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    // The course the member will not start is left out.
    expect(vevents).toHaveLength(1);
    const [entry] = vevents;
    expect(entry.uid).toMatch(new RegExp(`^course-${course.id}@`));
    // The start as an instant in UTC (09:30 in Paris); the end is the target time later.
    expect(entry.startDate.zone?.tzid).toBe("UTC");
    expect(entry.startDate.toJSDate().toISOString()).toBe("2027-06-13T07:30:00.000Z");
    expect(entry.endDate.toJSDate().toISOString()).toBe("2027-06-13T09:30:00.000Z");
    expect(entry.summary).toContain(" — ");
    expect(entry.description).toContain(`/course/${event.slug}`);
    // The member's time is taken: busy, unlike the same race in the event's .ics.
    expect(calendar.getFirstSubcomponent("vevent")?.getFirstPropertyValue("transp")).toBe("OPAQUE");
    for (const line of feed.body.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    // A change shows in the next read; a reset kills the old address.
    await call(`/api/user/calendar/${course.id}`, { method: "DELETE", cookie: member.cookie });
    expect(new ICAL.Component(ICAL.parse((await call(path)).body)).getAllSubcomponents("vevent")).toHaveLength(0);
    const next = (await call("/api/user/calendar/feed", { method: "POST", cookie: member.cookie })).json()
      .url as string;
    expect(next).not.toBe(url);
    expect((await call(path)).statusCode).toBe(404);
    expect((await call(next.slice(next.indexOf("/api/")))).statusCode).toBe(200);
    expect((await call("/api/user/calendar.ics?token=nope")).statusCode).toBe(404);
  });
});

describe("a disabled account's calendar feed", () => {
  /** A member with a feed whose planning holds one course: the feed's path, read once. */
  async function memberWithFeed() {
    const member = await testMember(t);
    const url = (await call("/api/user/calendar/feed", { method: "POST", cookie: member.cookie })).json().url as string;
    await call(`/api/user/calendar/${event.courseIds[0]}`, { method: "POST", cookie: member.cookie, body: {} });
    const path = url.slice(url.indexOf("/api/"));
    const feed = await call(path);
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.body).toContain("BEGIN:VEVENT");
    return { member, path };
  }

  const unknownToken = async () => (await call("/api/user/calendar.ics?token=nope")).json();

  it("stops with the account, answered like an unknown address, and stays dead if the account comes back", async () => {
    const { member, path } = await memberWithFeed();
    const disabled = await call("/api/user/disable-account", {
      method: "POST",
      cookie: member.cookie,
      body: { confirm: true, currentPassword: "a member's own password 1" },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const gone = await call(path);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(await unknownToken());
    expect(await t.database.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, member.id))).toEqual([]);
    // An admin enabling the account again (npm run user:create-admin) does not revive the old address.
    await t.app.services.accounts.createAdmin({ email: member.email });
    expect((await call(path)).statusCode).toBe(404);
  });

  it("is refused at each read while the account is disabled, however it was disabled", async () => {
    const { member, path } = await memberWithFeed();
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, member.id));
    const gone = await call(path);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(await unknownToken());
  });
});

describe("GET /api/event/participants/{id}", () => {
  it("counts every member going and names only those with a public profile", async () => {
    const before = (await call(`/api/event/participants/${event.id}`)).json();
    const open = await testMember(t, { firstName: "Ouverte", publicProfile: true });
    const shy = await testMember(t, { firstName: "Discrete", publicProfile: false });
    const gone = await testMember(t, { firstName: "Partie", publicProfile: true });
    const course = event.courseIds[0];
    for (const m of [open, shy, gone]) {
      await call(`/api/user/calendar/${course}`, { method: "POST", cookie: m.cookie, body: { status: "registered" } });
    }
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, gone.id));

    const answer = await call(`/api/event/participants/${event.id}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers["cache-control"]).toBe("public, max-age=60");
    const after = answer.json();
    const courseBefore = before.courses.find((c: { courseId: number }) => c.courseId === course);
    const courseAfter = after.courses.find((c: { courseId: number }) => c.courseId === course);
    expect(courseAfter.going).toBe(courseBefore.going + 2);
    const names = courseAfter.members.map((m: { displayName: string }) => m.displayName);
    expect(names.some((n: string) => n.startsWith("Ouverte"))).toBe(true);
    expect(names.some((n: string) => n.startsWith("Discrete") || n.startsWith("Partie"))).toBe(false);
    expect(JSON.stringify(after)).not.toContain("@example.fr");
    expect(after.members).toBe(before.members + 2);
    expect((await call("/api/event/participants/2000000000")).statusCode).toBe(404);
  });

  it("names the most recent first, and the members it is asked to put first before them (friends, later)", async () => {
    const course = event.courseIds[event.courseIds.length - 1];
    const going = [];
    for (let i = 0; i <= NAMED_PER_COURSE; i++) {
      const m = await testMember(t, { firstName: `Coureur${i}`, publicProfile: true });
      await call(`/api/user/calendar/${course}`, { method: "POST", cookie: m.cookie, body: { status: "planned" } });
      going.push(m);
    }
    const names = (answer: Awaited<ReturnType<typeof t.app.services.engagement.participants>>) =>
      answer.courses.find((c) => c.courseId === course)?.members.map((m) => m.displayName.split(" ")[0]) ?? [];
    // One more than are named: the first to plan is left out, the last is named first.
    const plain = names(await t.app.services.engagement.participants(event.id));
    expect(plain).toHaveLength(NAMED_PER_COURSE);
    expect(plain[0]).toBe(`Coureur${NAMED_PER_COURSE}`);
    expect(plain).not.toContain("Coureur0");
    const friendsFirst = names(await t.app.services.engagement.participants(event.id, { firstUserIds: [going[0].id] }));
    expect(friendsFirst[0]).toBe("Coureur0");
    expect(friendsFirst).toHaveLength(NAMED_PER_COURSE);
  });
});

describe("event page views", () => {
  it("are counted in memory and written in one go, unknown slugs ignored", async () => {
    const before = (await call(`/api/event/participants/${event.id}`)).json().views as number;
    for (let i = 0; i < 3; i++) t.app.services.engagement.countView(event.slug);
    t.app.services.engagement.countView("no-such-race");
    // Not written yet: the page's path never waits for the database.
    expect((await call(`/api/event/participants/${event.id}`)).json().views).toBe(before);
    expect(await t.app.services.engagement.flushViews()).toBe(4);
    expect((await call(`/api/event/participants/${event.id}`)).json().views).toBe(before + 3);
    expect(await t.app.services.engagement.flushViews()).toBe(0);
  });
});

describe("the member's data export", () => {
  it("holds their favourites and planning, never the feed's secret address", async () => {
    const member = await testMember(t);
    await call(`/api/user/favorite/${event.id}`, { method: "POST", cookie: member.cookie, body: { on: true } });
    await call(`/api/user/calendar/${event.courseIds[0]}`, {
      method: "POST",
      cookie: member.cookie,
      body: { status: "registered", targetTime: 3600 },
    });
    const url = (await call("/api/user/calendar/feed", { method: "POST", cookie: member.cookie })).json().url;
    const exported = await call("/api/me/export", { cookie: member.cookie });
    expect(exported.statusCode).toBe(200);
    const data = exported.json();
    expect(data.favorites.map((f: { slug: string }) => f.slug)).toEqual([event.slug]);
    expect(data.planning.courses).toEqual([
      expect.objectContaining({ slug: event.slug, status: "registered", targetTimeSeconds: 3600 }),
    ]);
    expect(data.planning.calendarFeedSince).toEqual(expect.any(String));
    expect(exported.body).not.toContain(new URL(url).searchParams.get("token"));
  });
});
