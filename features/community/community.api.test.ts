import { and, asc, eq, gt, isNotNull, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { comments } from "../comments/comments.tables.ts";
import { calendarEntries } from "../engagement/engagement.tables.ts";
import { courses, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { ratings } from "../ratings/ratings.tables.ts";
import { results, userBadges } from "../results/results.tables.ts";
import type { Directory, Finishers, Ranking, Timeline } from "./community.contract.ts";

/**
 * The reference date is 2026-06-01 (tests/api/fixtures.ts). Four past editions are moved to known
 * days (last week, last month, 200 days ago, two years ago) with one course of known distance and D+
 * each, then members finish them through result rows written directly (the results feature's
 * import is another engineer's work).
 */
let t: TestApp;
type Member = { id: number; cookie: string; name: string };
const m: Record<"ana" | "bruno" | "chloe" | "privy" | "gone", Member> = {} as never;
const course: Record<"week" | "month" | "year" | "old", { id: number; eventId: number }> = {} as never;
const spec = {
  week: { day: "2026-05-28", distance: 10_000, elevation: 100 },
  month: { day: "2026-05-10", distance: 42_195, elevation: 500 },
  year: { day: "2025-11-13", distance: 20_000, elevation: 1_000 },
  old: { day: "2024-05-01", distance: 100_000, elevation: 5_000 },
};
/** Who finished what (chloe did not finish last week's race). */
const finished: Array<[keyof typeof m, keyof typeof course]> = [
  ["ana", "week"],
  ["bruno", "week"],
  ["privy", "week"],
  ["gone", "week"],
  ["ana", "month"],
  ["chloe", "month"],
  ["chloe", "year"],
  ["bruno", "old"],
];

const publicFinishes = () => finished.filter(([who]) => who !== "privy" && who !== "gone").length;

const get = (url: string, cookie?: string, locale = "fr") =>
  t.app.inject({ method: "GET", url, headers: { "x-locale": locale, ...(cookie ? { cookie } : {}) } });

async function member(key: keyof typeof m, pseudo: string, options: { publicProfile: boolean; disabled?: boolean }) {
  const created = await testMember(t, { firstName: pseudo, publicProfile: options.publicProfile });
  await t.database.db
    .update(users)
    .set({ pseudo, city: key === "ana" ? "Annecy" : "Lyon", ...(options.disabled ? { disabledAt: new Date() } : {}) })
    .where(eq(users.id, created.id));
  m[key] = { id: created.id, cookie: created.cookie, name: pseudo };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await member("ana", "Ana Trail", { publicProfile: true });
  await member("bruno", "Bruno Route", { publicProfile: true });
  await member("chloe", "Chloé Ultra", { publicProfile: true });
  await member("privy", "Paul Privé", { publicProfile: false });
  await member("gone", "Gaston Parti", { publicProfile: true, disabled: true });

  const past = await db
    .select({ eventId: events.id, courseId: sql<number>`min(${courses.id})` })
    .from(events)
    .innerJoin(courses, eq(courses.eventId, events.id))
    .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-20")))
    .groupBy(events.id)
    .orderBy(asc(events.id))
    .limit(4);
  const keys = Object.keys(spec) as Array<keyof typeof spec>;
  for (const [i, key] of keys.entries()) {
    const { eventId, courseId } = past[i];
    await db.update(events).set({ startDate: spec[key].day, endDate: spec[key].day }).where(eq(events.id, eventId));
    await db
      .update(courses)
      .set({ distance: spec[key].distance, elevationGain: spec[key].elevation })
      .where(eq(courses.id, courseId));
    course[key] = { id: courseId, eventId };
  }
  let position = 0;
  for (const [who, where] of finished) {
    position++;
    await db.insert(results).values({
      courseId: course[where].id,
      eventId: course[where].eventId,
      name: m[who].name,
      position,
      rank: position,
      timeMs: 3_600_000 + position * 1000,
      userId: m[who].id,
      claimedAt: new Date(Date.UTC(2026, 4, 1, 8, position)),
    });
  }
  await db.insert(results).values({
    courseId: course.week.id,
    eventId: course.week.eventId,
    name: m.chloe.name,
    status: "dnf",
    position: 99,
    userId: m.chloe.id,
    claimedAt: new Date(Date.UTC(2026, 4, 1, 9)),
  });
  // A finisher nobody claimed.
  await db.insert(results).values({
    courseId: course.week.id,
    eventId: course.week.eventId,
    name: "Inconnu Anonyme",
    position: 50,
    rank: 50,
  });
});
afterAll(() => t?.close());

const ranking = async (period: string, order: string, cookie?: string) => {
  const response = await get(`/api/rankings/${period}/${order}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Ranking;
};
const lines = (r: Ranking) => r.entries.map((e) => [e.displayName, e.rank]);

describe("rankings", () => {
  it("last week by races: the two public finishers tie at 1; the private, disabled and unfinished are left out", async () => {
    const r = await ranking("last_week", "races");
    expect(r.from).toBe("2026-05-25");
    expect(r.to).toBe("2026-06-01");
    expect(lines(r)).toEqual([
      ["Ana Trail", 1],
      ["Bruno Route", 1],
    ]);
    expect(r.total).toBe(2);
    expect(r.me).toBeNull();
    expect(JSON.stringify(r)).not.toMatch(/Paul|Gaston|Inconnu/);
  });

  it("last month by races shares rank 2, then by distance sums the courses' metres", async () => {
    expect(lines(await ranking("1m", "races"))).toEqual([
      ["Ana Trail", 1],
      ["Bruno Route", 2],
      ["Chloé Ultra", 2],
    ]);
    const byDistance = await ranking("1m", "distance");
    expect(byDistance.entries.map((e) => [e.displayName, e.rank, e.distance])).toEqual([
      ["Ana Trail", 1, spec.week.distance + spec.month.distance],
      ["Chloé Ultra", 2, spec.month.distance],
      ["Bruno Route", 3, spec.week.distance],
    ]);
  });

  it("a year by elevation counts the edition 200 days ago, not the one two years ago", async () => {
    const r = await ranking("1y", "elevation");
    expect(r.entries.map((e) => [e.displayName, e.rank, e.elevation, e.races])).toEqual([
      ["Chloé Ultra", 1, spec.month.elevation + spec.year.elevation, 2],
      ["Ana Trail", 2, spec.week.elevation + spec.month.elevation, 2],
      ["Bruno Route", 3, spec.week.elevation, 1],
    ]);
  });

  it("all time by distance includes the old edition", async () => {
    const r = await ranking("all", "distance");
    expect(r.from).toBeNull();
    expect(lines(r)).toEqual([
      ["Bruno Route", 1],
      ["Chloé Ultra", 2],
      ["Ana Trail", 3],
    ]);
    expect(r.entries[0].distance).toBe(spec.week.distance + spec.old.distance);
    expect(r.entries[0].initials).toBe("BR");
    expect(r.entries[0].slug).toBeTruthy();
  });

  it("gives a public member their own line; a private member gets none", async () => {
    const mine = await ranking("1m", "distance", m.chloe.cookie);
    expect(mine.me).toMatchObject({ displayName: "Chloé Ultra", rank: 2 });
    const privy = await ranking("1m", "races", m.privy.cookie);
    expect(privy.me).toBeNull();
    expect(privy.entries.map((e) => e.displayName)).not.toContain("Paul Privé");
  });

  it("leaves out at once a member who made their profile private, though the ranking is kept a minute", async () => {
    expect((await ranking("1m", "races")).entries.map((e) => e.displayName)).toContain("Bruno Route");
    await t.database.db.update(users).set({ publicProfile: false }).where(eq(users.id, m.bruno.id));
    try {
      const after = await ranking("1m", "races", m.bruno.cookie);
      expect(after.entries.map((e) => e.displayName)).not.toContain("Bruno Route");
      expect(after.me).toBeNull();
    } finally {
      await t.database.db.update(users).set({ publicProfile: true }).where(eq(users.id, m.bruno.id));
    }
  });

  it("a page past the end is empty but keeps the total", async () => {
    const r = await ranking("all", "races");
    const page2 = (await get("/api/rankings/all/races?page=2")).json() as Ranking;
    expect(page2.entries).toEqual([]);
    expect(page2.total).toBe(r.total);
  });

  it("refuses an unknown period or order with a translated message", async () => {
    const fr = await get("/api/rankings/2y/races");
    expect(fr.statusCode).toBe(400);
    expect(fr.json().error.message).toMatch(/[a-zé]/);
    const en = await get("/api/rankings/all/speed", undefined, "en");
    expect(en.statusCode).toBe(400);
    expect(en.json().error.message).not.toBe(fr.json().error.message);
    expect((await get("/api/rankings/all/races?page=0")).statusCode).toBe(400);
  });
});

const timeline = async (type: string, query = "", cookie?: string) => {
  const response = await get(`/api/timeline/${type}${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Timeline;
};

describe("timeline", () => {
  beforeAll(async () => {
    const db = t.database.db;
    const at = (minute: number) => new Date(Date.UTC(2026, 4, 20, 12, minute));
    await db.insert(ratings).values([
      { userId: m.ana.id, eventId: course.month.eventId, overall: 5, createdAt: at(1), updatedAt: at(1) },
      { userId: m.privy.id, eventId: course.month.eventId, overall: 2, createdAt: at(2), updatedAt: at(2) },
    ]);
    await db.insert(comments).values([
      {
        targetType: "event",
        targetId: course.month.eventId,
        userId: m.bruno.id,
        body: "Superbe parcours !",
        createdAt: at(3),
      },
      {
        targetType: "event",
        targetId: course.month.eventId,
        userId: m.bruno.id,
        body: "Message retiré",
        createdAt: at(4),
        deletedAt: at(5),
      },
      { targetType: "event", targetId: course.month.eventId, userId: m.privy.id, body: "Secret", createdAt: at(6) },
    ]);
    const [upcoming] = await db
      .select({ eventId: events.id, courseId: courses.id })
      .from(events)
      .innerJoin(courses, eq(courses.eventId, events.id))
      .where(and(eq(events.status, "active"), gt(events.startDate, "2026-06-10")))
      .orderBy(asc(events.id))
      .limit(1);
    await db.insert(calendarEntries).values([
      { userId: m.chloe.id, courseId: upcoming.courseId, eventId: upcoming.eventId, createdAt: at(7) },
      { userId: m.privy.id, courseId: upcoming.courseId, eventId: upcoming.eventId, createdAt: at(8) },
    ]);
    const [chloeResult] = await db
      .select({ id: results.id })
      .from(results)
      .where(and(eq(results.userId, m.chloe.id), eq(results.courseId, course.year.id)));
    await db
      .insert(userBadges)
      .values({ userId: m.chloe.id, code: "first-ultra", resultId: chloeResult.id, awardedAt: at(9) });
  });

  it("mixes every kind newest first, without private or disabled members or deleted comments", async () => {
    const all = await timeline("all");
    const kinds = all.items.map((i) => i.kind);
    expect(kinds.slice(0, 5)).toEqual(["badge", "planning", "comment", "rating", "result"]);
    const times = all.items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/Paul Privé|Gaston|Secret|retiré/);
    expect(all.items[0]).toMatchObject({ badge: "first-ultra", member: { displayName: "Chloé Ultra" } });
    expect(all.items.find((i) => i.kind === "comment")?.excerpt).toBe("Superbe parcours !");
    expect(all.items.find((i) => i.kind === "rating")?.score).toBe(5);
  });

  it("filters by type", async () => {
    for (const [type, kind] of [
      ["results", "result"],
      ["planning", "planning"],
      ["ratings", "rating"],
      ["comments", "comment"],
      ["badges", "badge"],
    ] as const) {
      const page = await timeline(type);
      expect(page.items.length, type).toBeGreaterThan(0);
      expect(new Set(page.items.map((i) => i.kind)), type).toEqual(new Set([kind]));
    }
    // The public members' finishes (the private member's, the disabled one's and the DNF are left out).
    expect((await timeline("results")).items).toHaveLength(publicFinishes());
  });

  it("pages with the cursor without repeating or losing items", async () => {
    const db = t.database.db;
    // 24 more results for Ana on other past courses, all claimed at the same minute (ties on time).
    const more = await db
      .select({ courseId: courses.id, eventId: courses.eventId })
      .from(courses)
      .innerJoin(events, eq(events.id, courses.eventId))
      .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-01"), isNotNull(courses.distance)))
      .orderBy(asc(courses.id))
      .offset(10)
      .limit(24);
    const sameMinute = new Date(Date.UTC(2026, 4, 15, 7, 0));
    await db
      .insert(results)
      .values(
        more.map((c, i) => ({ ...c, name: "Ana Trail", position: i + 1, userId: m.ana.id, claimedAt: sameMinute })),
      );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Timeline = await timeline("results", cursor ? `?cursor=${encodeURIComponent(cursor)}` : "");
      seen.push(...page.items.map((i) => `${i.kind}:${i.id}`));
      cursor = page.next;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(publicFinishes() + more.length);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("shows the member new races near their town, and visitors none", async () => {
    const db = t.database.db;
    const [upcoming] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.status, "active"), gt(events.startDate, "2026-07-01")))
      .orderBy(asc(events.id))
      .limit(1);
    // Ten kilometres or so from Annecy, listed two days before the reference date.
    await db
      .update(events)
      .set({ lat: 45.95, lng: 6.2, cancelled: false, createdAt: new Date("2026-05-30T09:00:00Z") })
      .where(eq(events.id, upcoming.id));
    const near = await timeline("events", "", m.ana.cookie);
    expect(near.near).toBe("Annecy");
    const found = near.items.find((i) => i.event.id === upcoming.id);
    expect(found?.kind).toBe("event");
    expect(found?.distance).toBeGreaterThan(3_000);
    expect(found?.distance).toBeLessThan(20_000);
    for (const item of near.items) expect(item.distance).toBeLessThanOrEqual(50_000);
    const visitor = await timeline("events");
    expect(visitor).toMatchObject({ items: [], near: null });
  });

  it("refuses a malformed cursor and an unknown type", async () => {
    expect((await get("/api/timeline/results?cursor=yesterday")).statusCode).toBe(400);
    expect((await get("/api/timeline/videos")).statusCode).toBe(400);
  });
});

describe("members directory and finishers", () => {
  const directory = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Directory;
  };

  it("lists public, enabled members only, searchable by name and town", async () => {
    const all = await directory("/api/community/users");
    const names = all.members.map((u) => u.displayName);
    expect(names).toEqual(expect.arrayContaining(["Ana Trail", "Bruno Route", "Chloé Ultra"]));
    expect(names).not.toContain("Paul Privé");
    expect(names).not.toContain("Gaston Parti");
    // Accents and case do not matter.
    expect((await directory("/api/community/users?q=CHLOE")).members.map((u) => u.displayName)).toEqual([
      "Chloé Ultra",
    ]);
    const annecy = await directory("/api/community/users/name?city=annecy");
    expect(annecy.members.map((u) => u.displayName)).toEqual(["Ana Trail"]);
    expect(annecy.total).toBe(1);
  });

  it("orders the most active first and refuses an unknown order or sport", async () => {
    const active = await directory("/api/community/users/active");
    const ana = active.members.findIndex((u) => u.displayName === "Ana Trail");
    const bruno = active.members.findIndex((u) => u.displayName === "Bruno Route");
    expect(ana).toBeGreaterThanOrEqual(0);
    expect(ana).toBeLessThan(bruno);
    expect((await get("/api/community/users/oldest")).statusCode).toBe(400);
    expect((await get("/api/community/users?sport=chess")).statusCode).toBe(400);
  });

  it("counts an edition's finishers and names only public members", async () => {
    const response = await get(`/api/community/finishers/${course.week.eventId}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as Finishers;
    // Ana, Bruno, the private member, the disabled member and the unclaimed line.
    expect(body.finishers).toBe(5);
    expect(body.members.map((f) => f.displayName).sort()).toEqual(["Ana Trail", "Bruno Route"]);
    expect(body.privateMembers).toBe(2);
    expect((await get("/api/community/finishers/2147483647")).statusCode).toBe(404);
  });
});
