import { and, asc, desc, eq, gt, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { events } from "../events/events.tables.ts";

let t: TestApp;
let pastId: number;
let futureId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // The reference date is 2026-06-01 (tests/api/fixtures.ts).
  const past = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-20")))
    .orderBy(desc(events.startDate), desc(events.id))
    .limit(3);
  const [future] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.status, "active"), gt(events.startDate, "2026-06-10")))
    .orderBy(asc(events.startDate))
    .limit(1);
  pastId = past[0].id;
  futureId = future.id;
});
afterAll(() => t?.close());

const rate = (body: Record<string, unknown>, cookie?: string, locale = "fr") =>
  t.app.inject({
    method: "POST",
    url: "/api/rating",
    headers: {
      ...accessHeaders,
      "content-type": "application/json",
      "x-locale": locale,
      ...(cookie ? { cookie } : {}),
    },
    payload: JSON.stringify(body),
  });
const summary = (id: number | string, cookie?: string) =>
  t.app.inject({ method: "GET", url: `/api/rating/${id}`, headers: cookie ? { cookie } : {} });
/** A finished edition nobody has rated yet (each test starts from zero). */
const unratedPast = async () => {
  const [row] = await t.database.db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-20"), eq(events.ratingCount, 0)))
    .orderBy(desc(events.startDate), desc(events.id))
    .limit(1);
  return row;
};
const stored = async (id: number) => {
  const [row] = await t.database.db
    .select({ count: events.ratingCount, average: events.ratingAverage })
    .from(events)
    .where(eq(events.id, id));
  return row;
};

describe("POST /api/rating", () => {
  it("asks visitors to sign in and unverified members to verify their address, and stores nothing", async () => {
    const anonymous = await rate({ eventId: pastId, overall: 4 });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toMatchObject({ code: "LOGIN_REQUIRED", message: "Identification requise." });

    const unverified = await testMember(t, { verified: false });
    const refused = await rate({ eventId: pastId, overall: 4 }, unverified.cookie, "en");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: "EMAIL_VERIFICATION_REQUIRED",
      message: "Please verify your email address.",
    });
    expect((await summary(pastId)).json().count).toBe(0);
  });

  it("refuses an edition that has not taken place, with a message in the caller's language", async () => {
    const member = await testMember(t);
    const fr = await rate({ eventId: futureId, overall: 5 }, member.cookie, "fr");
    expect(fr.statusCode).toBe(409);
    expect(fr.json().error.code).toBe("EVENT_NOT_YET_HELD");
    expect(fr.json().error.message).toMatch(/pas encore eu lieu/);
    const en = await rate({ eventId: futureId, overall: 5 }, member.cookie, "en");
    expect(en.json().error.message).toMatch(/not taken place yet/);
    expect(await stored(futureId)).toEqual({ count: 0, average: null });
    expect((await summary(futureId)).json().open).toBe(false);
  });

  it("refuses scores outside 1–5 and unknown events", async () => {
    const member = await testMember(t);
    for (const body of [
      { eventId: pastId, overall: 6 },
      { eventId: pastId, overall: 0 },
      { eventId: pastId, overall: 3.5 },
      { eventId: pastId, overall: 4, course: 9 },
      { eventId: pastId },
      { eventId: "x", overall: 3 },
    ]) {
      const response = await rate(body, member.cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await rate({ eventId: 2_000_000_000, overall: 3 }, member.cookie)).statusCode).toBe(404);
    expect((await summary(pastId)).json().count).toBe(0);
  });

  it("keeps one rating per member per edition: rating again edits it", async () => {
    const id = pastId;
    const a = await testMember(t);
    const b = await testMember(t);
    const first = await rate({ eventId: id, overall: 2, course: 3 }, a.cookie);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ count: 1, average: 2, mine: { overall: 2, course: 3, atmosphere: null } });
    await rate({ eventId: id, overall: 5, atmosphere: 4 }, b.cookie);
    const edited = await rate({ eventId: id, overall: 4, course: 5 }, a.cookie);
    expect(edited.json()).toMatchObject({ count: 2, average: 4.5, mine: { overall: 4, course: 5 } });
    expect(await stored(id)).toEqual({ count: 2, average: 4.5 });

    const publicView = await summary(id);
    expect(publicView.headers["cache-control"]).toBe("public, max-age=60");
    const body = publicView.json();
    expect(body.mine).toBeUndefined();
    expect(body.distribution).toEqual([0, 0, 0, 1, 1]);
    expect(body.criteria.course).toEqual({ average: 5, count: 1 });
    expect(body.criteria.atmosphere).toEqual({ average: 4, count: 1 });
    expect(body.criteria.value).toEqual({ average: null, count: 0 });

    // Another member sees their own (absent) rating, never a's; the answer is private.
    const other = await testMember(t);
    const theirs = await summary(id, other.cookie);
    expect(theirs.headers["cache-control"]).toBe("private, no-store");
    expect(theirs.json().mine).toBeNull();
    expect((await summary(id, a.cookie)).json().mine).toMatchObject({ overall: 4 });
  });

  it("keeps the count and the average exact when many members rate at once", async () => {
    const target = await unratedPast();
    // Registered one after the other (registering is not what is tested here).
    const members: { cookie: string }[] = [];
    for (let i = 0; i < 20; i++) members.push(await testMember(t));
    const check = async (scores: number[]) => {
      const expected = Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100;
      // Whichever write committed last wrote the aggregate: a lost update or a double count would show.
      expect(await stored(target.id)).toEqual({ count: scores.length, average: expected });
      const body = (await summary(target.id)).json();
      expect(body).toMatchObject({ count: scores.length, average: expected });
      expect(body.distribution.reduce((a: number, b: number) => a + b, 0)).toBe(scores.length);
    };
    // Everyone rates at once…
    const first = members.map((_, i) => (i % 5) + 1);
    const created = await Promise.all(members.map((m, i) => rate({ eventId: target.id, overall: first[i] }, m.cookie)));
    for (const r of created) expect(r.statusCode, r.body).toBe(200);
    await check(first);
    // …then everyone changes their mind at once.
    const second = members.map((_, i) => 5 - (i % 3));
    const edited = await Promise.all(members.map((m, i) => rate({ eventId: target.id, overall: second[i] }, m.cookie)));
    for (const r of edited) expect(r.statusCode, r.body).toBe(200);
    await check(second);
  });

  it("takes a disabled account's ratings out of the averages", async () => {
    const second = await unratedPast();
    const stays = await testMember(t);
    const leaves = await testMember(t);
    await rate({ eventId: second.id, overall: 5 }, stays.cookie);
    await rate({ eventId: second.id, overall: 1 }, leaves.cookie);
    expect(await stored(second.id)).toEqual({ count: 2, average: 3 });
    const disabled = await t.app.inject({
      method: "POST",
      url: "/api/user/disable-account",
      headers: { ...accessHeaders, "content-type": "application/json", cookie: leaves.cookie },
      payload: JSON.stringify({ confirm: true, currentPassword: "a member's own password 1" }),
    });
    expect(disabled.statusCode, disabled.body).toBeLessThan(300);
    expect(await stored(second.id)).toEqual({ count: 1, average: 5 });
    expect((await summary(second.id)).json()).toMatchObject({ count: 1, average: 5, distribution: [0, 0, 0, 0, 1] });
  });
});

describe("search by rating", () => {
  it("sorts best rated first and filters by a minimum rating, facets still counted", async () => {
    const rated = await t.database.db
      .select({ id: events.id, startDate: events.startDate })
      .from(events)
      .where(and(eq(events.status, "active"), eq(events.cancelled, false), lt(events.startDate, "2026-05-01")))
      .orderBy(desc(events.startDate), desc(events.id))
      .limit(3);
    const [low, high] = rated;
    const member = await testMember(t);
    expect((await rate({ eventId: high.id, overall: 5 }, member.cookie)).statusCode).toBe(200);
    expect((await rate({ eventId: low.id, overall: 2 }, member.cookie)).statusCode).toBe(200);
    const window = `past=1&from=${rated[2].startDate}&to=${rated[0].startDate}`;

    const best = await t.app.inject({ method: "GET", url: `/api/events?${window}&sort=rating&perPage=60` });
    expect(best.statusCode, best.body).toBe(200);
    const ids = best.json().items.map((i: { id: number }) => i.id);
    expect(ids.indexOf(high.id)).toBeLessThan(ids.indexOf(low.id));
    expect(ids[0]).toBe(high.id);

    const filtered = await t.app.inject({ method: "GET", url: `/api/events?${window}&minRating=4.5&perPage=60` });
    const body = filtered.json();
    expect(body.items.map((i: { id: number }) => i.id)).toContain(high.id);
    expect(body.items.map((i: { id: number }) => i.id)).not.toContain(low.id);
    for (const item of body.items) {
      const [row] = await t.database.db
        .select({ average: events.ratingAverage })
        .from(events)
        .where(eq(events.id, item.id));
      expect(row.average).toBeGreaterThanOrEqual(4.5);
    }
    expect(Object.values(body.facets.sport).reduce((a, b) => Number(a) + Number(b), 0)).toBe(body.total);
    expect((await t.app.inject({ method: "GET", url: "/api/events?minRating=6" })).statusCode).toBe(400);
  });
});
