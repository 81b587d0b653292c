import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { eventOrganizers } from "../editor/editor.tables.ts";
import { courses, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { relinkClaims } from "./claims.service.server.ts";
import { results } from "./results.tables.ts";

let t: TestApp;
/** A past edition's course with 30 imported lines (a marathon), and a second course without results. */
let marathon: { id: number; eventId: number };
let bare: { id: number; eventId: number };
let futureCourse: number;

type Line = typeof results.$inferInsert;

/** 30 lines: 24 finishers (16 men, 8 women, categories SE/M1), then 3 DNF, 2 DNS, 1 DSQ (men). */
function lines(courseId: number, eventId: number): Line[] {
  const out: Line[] = [];
  for (let i = 1; i <= 24; i++) {
    const woman = i % 3 === 0;
    out.push({
      courseId,
      eventId,
      position: i,
      rank: i,
      sexRank: woman ? i / 3 : i - Math.floor(i / 3),
      categoryRank: Math.ceil(i / 2),
      bib: String(100 + i),
      name: i === 5 ? "Élodie GÉRARD" : i === 7 ? "Jean-François Lemaître" : `Coureur ${String(i).padStart(2, "0")}`,
      club: i % 4 === 0 ? "AC Annecy" : null,
      sex: woman ? "F" : "M",
      country: "FR",
      category: i % 2 ? "SE" : "M1",
      // 2:50:00 for the winner, then a minute a place: #11 runs 3:00:00, #20 3:09:00.
      timeMs: (2 * 3600 + 49 * 60 + i * 60) * 1000,
      paceSPerKm: Math.round(((2 * 3600 + 49 * 60 + i * 60) * 1000) / 42195),
    });
  }
  for (const [n, status] of [
    [25, "dnf"],
    [26, "dnf"],
    [27, "dnf"],
    [28, "dns"],
    [29, "dns"],
    [30, "dsq"],
  ] as const) {
    out.push({ courseId, eventId, position: n, bib: String(100 + n), name: `Abandon ${n}`, sex: "M", status });
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // The reference date is 2026-06-01 (tests/api/fixtures.ts).
  const past = await db
    .select({ id: courses.id, eventId: courses.eventId })
    .from(courses)
    .innerJoin(events, eq(events.id, courses.eventId))
    .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-20")))
    .orderBy(desc(events.startDate), asc(courses.id))
    .limit(40);
  const [first, ...others] = past;
  const second = others.find((c) => c.eventId !== first?.eventId);
  if (!first || !second) throw new Error("no past courses");
  marathon = first;
  bare = second;
  await db.update(courses).set({ distance: 42_195, elevationGain: 400 }).where(eq(courses.id, marathon.id));
  await db.update(courses).set({ distance: 10_000, elevationGain: 50 }).where(eq(courses.id, bare.id));
  await db.insert(results).values(lines(marathon.id, marathon.eventId));
  const [future] = await db
    .select({ id: courses.id })
    .from(courses)
    .innerJoin(events, eq(events.id, courses.eventId))
    .where(and(eq(events.status, "active"), gt(events.startDate, "2026-06-10")))
    .limit(1);
  if (!future) throw new Error("no future course");
  futureCourse = future.id;
});
afterAll(() => t?.close());

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, cookie?: string, body?: unknown, locale = "fr") =>
  t.app.inject({
    method,
    url,
    headers: {
      ...accessHeaders,
      "x-locale": locale,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(cookie ? { cookie } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });

const lineByBib = async (bib: string) => {
  const [row] = await t.database.db
    .select()
    .from(results)
    .where(and(eq(results.courseId, marathon.id), eq(results.bib, bib)));
  if (!row) throw new Error(`no line ${bib}`);
  return row;
};

/** The line of this bib, renamed as a timing company would print a member's name: theirs to claim. */
const lineNamed = async (bib: string, name = "MARTIN Camille") => {
  await t.database.db
    .update(results)
    .set({ name })
    .where(and(eq(results.courseId, marathon.id), eq(results.bib, bib)));
  return lineByBib(bib);
};

describe("GET /api/results/{courseId}", () => {
  it("answers the general ranking by page, finishers first, with totals and categories", async () => {
    const first = await call("GET", `/api/results/${marathon.id}?pageSize=10`);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.totals).toEqual({ entries: 30, finished: 24, dnf: 3, dns: 2, dsq: 1, men: 22, women: 8 });
    expect(body.categories).toEqual(["M1", "SE"]);
    expect(body.matching).toBe(30);
    expect(body.rows.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const last = (await call("GET", `/api/results/${marathon.id}?pageSize=10&page=3`)).json();
    expect(last.rows.map((r: { status: string }) => r.status)).toEqual([
      "finished",
      "finished",
      "finished",
      "finished",
      "dnf",
      "dnf",
      "dnf",
      "dns",
      "dns",
      "dsq",
    ]);
  });

  it("filters women, men and one category, ordered by their own rank", async () => {
    const women = (await call("GET", `/api/results/${marathon.id}?type=women`)).json();
    expect(women.matching).toBe(8);
    expect(women.rows.map((r: { sexRank: number }) => r.sexRank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(women.rows.every((r: { sex: string }) => r.sex === "F")).toBe(true);
    const men = (await call("GET", `/api/results/${marathon.id}?type=men`)).json();
    expect(men.matching).toBe(22);
    const m1 = (await call("GET", `/api/results/${marathon.id}?type=category&category=M1`)).json();
    expect(m1.matching).toBe(12);
    expect(m1.rows[0]).toMatchObject({ category: "M1", categoryRank: 1, rank: 2 });
    const missing = await call("GET", `/api/results/${marathon.id}?type=category`);
    expect(missing.statusCode).toBe(400);
  });

  it("finds a runner by part of the name whatever the accents and case, or by bib", async () => {
    const accent = (await call("GET", `/api/results/${marathon.id}?q=gerard`)).json();
    expect(accent.rows.map((r: { name: string }) => r.name)).toEqual(["Élodie GÉRARD"]);
    const part = (await call("GET", `/api/results/${marathon.id}?q=${encodeURIComponent("françois lem")}`)).json();
    expect(part.rows.map((r: { name: string }) => r.name)).toEqual(["Jean-François Lemaître"]);
    const bib = (await call("GET", `/api/results/${marathon.id}?q=112`)).json();
    expect(bib.rows.map((r: { bib: string }) => r.bib)).toEqual(["112"]);
    const none = (await call("GET", `/api/results/${marathon.id}?q=${encodeURIComponent("100%")}`)).json();
    expect(none.matching).toBe(0);
  });

  it("refuses bad input with a translated message and answers 404 for an unknown course", async () => {
    const bad = await call("GET", `/api/results/${marathon.id}?pageSize=5000`, undefined, undefined, "en");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/[a-z]/);
    expect((await call("GET", `/api/results/${marathon.id}?type=juniors`)).statusCode).toBe(400);
    expect((await call("GET", "/api/results/999999")).statusCode).toBe(404);
  });

  it("summarises an edition's courses with their finishers", async () => {
    const summary = (await call("GET", `/api/results/event/${marathon.eventId}`)).json();
    expect(summary.finishers).toBe(24);
    expect(summary.courses.find((c: { courseId: number }) => c.courseId === marathon.id)).toMatchObject({
      entries: 30,
      finished: 24,
    });
  });
});

describe("one time basis per table", () => {
  /** A course of the marathon's edition with these lines (times in seconds, gun then chip). */
  async function courseWith(name: string, distance: number, lines: [rank: number, gun: number, net: number][]) {
    const db = t.database.db;
    const [course] = await db
      .insert(courses)
      .values({ eventId: marathon.eventId, name, distance })
      .returning({ id: courses.id });
    if (!course) throw new Error("no course");
    await db.insert(results).values(
      lines.map(([rank, gun, net], i) => ({
        courseId: course.id,
        eventId: marathon.eventId,
        position: i + 1,
        rank,
        bib: String(500 + i),
        name: i === 1 ? "MARTIN Camille" : `COUREUR ${name} ${i}`,
        timeMs: gun * 1000,
        netTimeMs: net * 1000,
        // As the demo community stored it: a pace that is neither time's over the distance.
        paceSPerKm: 226,
      })),
    );
    return course.id;
  }

  it("names the time the official ranking follows (gun), and reads the pace from it over the course's distance", async () => {
    // 17:41, then 20:53 and 21:23 by the gun; the third started late: 20:40 on the chip.
    const courseId = await courseWith("5 km", 5_000, [
      [1, 1061, 1059],
      [2, 1253, 1250],
      [3, 1283, 1240],
    ]);
    const answer = (await call("GET", `/api/results/${courseId}`)).json();
    const [event] = await t.database.db
      .select({ date: events.startDate })
      .from(events)
      .where(eq(events.id, marathon.eventId));
    expect(answer).toMatchObject({
      timeBasis: "official",
      course: { name: "5 km", distance: 5_000, date: event?.date },
    });
    expect(answer.rows.map((r: { paceSPerKm: number }) => r.paceSPerKm)).toEqual([212, 251, 257]);
  });

  it("follows the chip time when the file's ranks do, pace and member's result alike", async () => {
    const courseId = await courseWith("10 km", 10_000, [
      [1, 2490, 2400],
      [2, 2435, 2430],
      [3, 2600, 2590],
    ]);
    const answer = (await call("GET", `/api/results/${courseId}`)).json();
    expect(answer.timeBasis).toBe("net");
    expect(answer.rows.map((r: { paceSPerKm: number }) => r.paceSPerKm)).toEqual([240, 243, 259]);

    const runner = await testMember(t);
    const line = answer.rows[1];
    expect((await call("POST", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    const mine = (await call("GET", "/api/results/mine", runner.cookie)).json().results;
    expect(mine[0]).toMatchObject({ timeMs: 2_430_000, paceSPerKm: 243, rank: 2, timeBasis: "net" });
  });
});

describe("claiming a line", () => {
  it("links the line to the member, names them only with a public profile, and refuses a second claimer (409)", async () => {
    const runner = await testMember(t, { publicProfile: true });
    const hidden = await testMember(t, { publicProfile: false });
    const other = await testMember(t);
    const line = await lineNamed("111");
    const claimed = await call("POST", `/api/results/${line.id}/claim`, runner.cookie);
    expect(claimed.statusCode, claimed.body).toBe(200);
    const [slug] = await t.database.db.select({ slug: users.slug }).from(users).where(eq(users.id, runner.id));
    const page = (await call("GET", `/api/results/${marathon.id}?q=111`)).json();
    expect(page.rows[0]).toMatchObject({ claimed: true, memberSlug: slug?.slug });

    const again = await call("POST", `/api/results/${line.id}/claim`, other.cookie, undefined, "en");
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: "RESULT_ALREADY_CLAIMED" });
    expect(again.json().error.message).toContain("Another member has already claimed");

    // A private profile's line is claimed but never named.
    const privateLine = await lineNamed("113");
    expect((await call("POST", `/api/results/${privateLine.id}/claim`, hidden.cookie)).statusCode).toBe(200);
    const hiddenRow = (await call("GET", `/api/results/${marathon.id}?q=113`)).json().rows[0];
    expect(hiddenRow).toMatchObject({ claimed: true, memberSlug: null });
    expect(hiddenRow.memberSlug).toBeNull();
  });

  it("keeps one result per member per course, tells the caller which line is theirs, and unclaims", async () => {
    const runner = await testMember(t);
    const line = await lineNamed("114");
    expect((await call("POST", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    const second = await call("POST", `/api/results/${(await lineNamed("115")).id}/claim`, runner.cookie);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe("RESULT_ALREADY_RECORDED");
    expect((await call("GET", `/api/results/${marathon.id}?q=114`, runner.cookie)).json().mine).toBe(line.id);
    expect((await call("GET", `/api/results/${marathon.id}?q=114`)).json()).not.toHaveProperty("mine");

    const stranger = await testMember(t);
    expect((await call("DELETE", `/api/results/${line.id}/claim`, stranger.cookie)).statusCode).toBe(404);
    expect((await call("DELETE", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    expect((await lineByBib("114")).userId).toBeNull();
  });

  it("asks for a verified e-mail and a session", async () => {
    const unverified = await testMember(t, { verified: false });
    const line = await lineByBib("116");
    expect((await call("POST", `/api/results/${line.id}/claim`, unverified.cookie)).statusCode).toBe(409);
    expect((await call("POST", `/api/results/${line.id}/claim`)).statusCode).toBe(401);
    expect((await lineByBib("116")).userId).toBeNull();
  });
});

describe("claims whose name is not the member's", () => {
  /** A member whose profile bears this name. */
  async function named(firstName: string, lastName: string, options: Parameters<typeof testMember>[1] = {}) {
    const member = await testMember(t, options);
    await t.database.db.update(users).set({ firstName, lastName }).where(eq(users.id, member.id));
    return member;
  }
  const badgesOf = async (userId: number) =>
    (
      (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM user_badges WHERE user_id = ${userId}`))
        .rows[0] as { n: number }
    ).n;

  it("takes a line whose name is the member's at once, accents, word order and initials aside", async () => {
    const elodie = await named("Elodie", "Gérard");
    // Bib 105 is "Élodie GÉRARD": the table offers it to her, above and on its line.
    const page = (await call("GET", `/api/results/${marathon.id}?q=105`, elodie.cookie)).json();
    expect(page.rows[0]).toMatchObject({ name: "Élodie GÉRARD", couldBeYou: true });
    const general = (await call("GET", `/api/results/${marathon.id}?pageSize=3`, elodie.cookie)).json();
    expect(general.suggestions.map((r: { bib: string }) => r.bib)).toEqual(["105"]);
    expect(general.rows.map((r: { couldBeYou: boolean }) => r.couldBeYou)).toEqual([false, false, false]);
    const line = await lineByBib("105");
    const claimed = await call("POST", `/api/results/${line.id}/claim`, elodie.cookie);
    expect(claimed.json()).toEqual({ id: line.id, courseId: marathon.id, status: "confirmed" });
    expect((await lineByBib("105")).userId).toBe(elodie.id);
    const after = (await call("GET", `/api/results/${marathon.id}?pageSize=3`, elodie.cookie)).json();
    expect(after).toMatchObject({ mine: line.id, pending: null, suggestions: [] });

    const initials = await named("Jean-François", "Lemaître");
    const initialled = await lineNamed("123", "LEMAITRE J.-F.");
    const answer = await call("POST", `/api/results/${initialled.id}/claim`, initials.cookie);
    expect(answer.json().status).toBe("confirmed");
  });

  it("keeps another name's line waiting for the organiser: it counts nowhere, one per course, withdrawn at will", async () => {
    // The audit's case: a stranger's 6th place (Coureur 06), claimed by Camille Martin.
    const runner = await testMember(t, { publicProfile: true });
    const line = await lineByBib("106");
    const claimed = await call("POST", `/api/results/${line.id}/claim`, runner.cookie);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toEqual({ id: line.id, courseId: marathon.id, status: "pending" });
    // Not theirs: no line, no badge, no rank among their results, nobody named on the table.
    expect((await lineByBib("106")).userId).toBeNull();
    expect(await badgesOf(runner.id)).toBe(0);
    const mine = (await call("GET", "/api/results/mine", runner.cookie)).json();
    expect(mine.results).toEqual([]);
    expect(mine.claims).toEqual([
      expect.objectContaining({
        status: "pending",
        line: expect.objectContaining({ id: line.id, name: "Coureur 06" }),
      }),
    ]);
    expect((await call("GET", "/api/me/stats", runner.cookie)).json().stats).toMatchObject({ races: 0, badges: 0 });
    const row = (await call("GET", `/api/results/${marathon.id}?q=106`)).json().rows[0];
    expect(row).toMatchObject({ claimed: false, memberSlug: null });
    expect((await call("GET", `/api/results/${marathon.id}?q=106`, runner.cookie)).json()).toMatchObject({
      mine: null,
      pending: line.id,
      suggestions: [],
    });
    // The same claim again answers the same; another line of the course waits for this one.
    expect((await call("POST", `/api/results/${line.id}/claim`, runner.cookie)).json().status).toBe("pending");
    const other = await call(
      "POST",
      `/api/results/${(await lineByBib("108")).id}/claim`,
      runner.cookie,
      undefined,
      "en",
    );
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatchObject({ code: "RESULT_CLAIM_PENDING" });
    expect(other.json().error.message).toContain("wait for the organiser");
    // Withdrawn: nothing left.
    const undo = await call("DELETE", `/api/results/${line.id}/claim`, runner.cookie);
    expect(undo.json()).toEqual({ ok: true, withdrawn: true });
    expect((await call("GET", "/api/results/mine", runner.cookie)).json().claims).toEqual([]);
  });

  it("lets the edition's organiser and admins approve or refuse, tells the member, and refuses anyone else", async () => {
    const db = t.database.db;
    const organiser = await testMember(t);
    await db
      .insert(eventOrganizers)
      .values({ eventId: marathon.eventId, userId: organiser.id, email: "o3@example.fr" });
    const admin = await testMember(t, { role: "admin" });
    const stranger = await testMember(t);
    const first = await named("Lucie", "Bonnet");
    const second = await named("Paul", "Roche");
    const lineA = await lineByBib("109");
    const lineB = await lineByBib("112");
    expect((await call("POST", `/api/results/${lineA.id}/claim`, first.cookie)).json().status).toBe("pending");
    expect((await call("POST", `/api/results/${lineB.id}/claim`, second.cookie)).json().status).toBe("pending");

    const listUrl = `/api/results/event/${marathon.eventId}/claims`;
    expect((await call("GET", listUrl, stranger.cookie)).statusCode).toBe(403);
    const listed = await call("GET", listUrl, organiser.cookie);
    expect(listed.statusCode, listed.body).toBe(200);
    const claims = listed.json().claims as {
      id: number;
      member: { name: string };
      line: { id: number; name: string; rank: number };
    }[];
    const claimA = claims.find((c) => c.line.id === lineA.id);
    const claimB = claims.find((c) => c.line.id === lineB.id);
    expect(claimA).toMatchObject({ member: { name: "Lucie Bonnet" }, line: { name: "Coureur 09", rank: 9 } });
    if (!claimA || !claimB) throw new Error("claims not listed");
    const adminList = (await call("GET", "/api/admin/result-claims", admin.cookie)).json().claims;
    expect(adminList.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([claimA.id, claimB.id]));
    expect((await call("GET", "/api/admin/result-claims", organiser.cookie)).statusCode).toBe(403);

    const decide = (claimId: number, body: unknown, cookie: string, locale = "fr") =>
      call("POST", `/api/results/event/${marathon.eventId}/claims/${claimId}`, cookie, body, locale);
    // Bad input: a translated 400, nothing written.
    const bad = await decide(claimA.id, { decision: "maybe" }, organiser.cookie, "en");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/[a-z]/);
    expect((await decide(claimA.id, { decision: "approve" }, stranger.cookie)).statusCode).toBe(403);
    expect((await lineByBib("109")).userId).toBeNull();

    const approved = await decide(claimA.id, { decision: "approve" }, organiser.cookie);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({ id: claimA.id, status: "approved" });
    expect((await lineByBib("109")).userId).toBe(first.id);
    expect(await badgesOf(first.id)).toBeGreaterThan(0);
    const again = await decide(claimA.id, { decision: "refuse" }, admin.cookie, "en");
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: "RESULT_CLAIM_DECIDED",
      message: expect.stringContaining("already"),
    });

    expect((await decide(claimB.id, { decision: "refuse" }, admin.cookie)).json().status).toBe("refused");
    expect((await lineByBib("112")).userId).toBeNull();
    const refused = (await call("GET", "/api/results/mine", second.cookie)).json().claims;
    expect(refused).toEqual([expect.objectContaining({ status: "refused" })]);
    const retry = await call("POST", `/api/results/${lineB.id}/claim`, second.cookie);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error.code).toBe("RESULT_CLAIM_REFUSED");

    // Each member heard of the decision, in a mail.
    const mails = (
      await db.execute(
        sql`SELECT user_id, template, params->>'decision' AS decision FROM mail_messages
            WHERE template = 'resultClaimDecided' AND user_id IN (${first.id}, ${second.id}) ORDER BY id`,
      )
    ).rows;
    expect(mails).toEqual([
      { user_id: first.id, template: "resultClaimDecided", decision: "approved" },
      { user_id: second.id, template: "resultClaimDecided", decision: "refused" },
    ]);
    expect((await call("GET", listUrl, organiser.cookie)).json().claims).toEqual([]);
  });

  it("follows its line through a re-import (same bib) and goes with it when the line is deleted", async () => {
    const db = t.database.db;
    const [course] = await db
      .insert(courses)
      .values({ eventId: marathon.eventId, name: "Relais", distance: 8_000 })
      .returning({ id: courses.id });
    if (!course) throw new Error("no course");
    const line = (bib: string, name: string) => ({
      courseId: course.id,
      eventId: marathon.eventId,
      rank: Number(bib),
      position: Number(bib),
      bib,
      name,
      timeMs: 1_800_000 + Number(bib) * 1000,
    });
    const [claimed] = await db
      .insert(results)
      .values([line("1", "ROUX Hugo"), line("2", "BLANC Lou")])
      .returning({ id: results.id });
    const runner = await named("Zoé", "Perrin");
    expect((await call("POST", `/api/results/${claimed?.id}/claim`, runner.cookie)).json().status).toBe("pending");
    // A corrected file: the course's lines replaced, bib 1 among them.
    await db.delete(results).where(eq(results.courseId, course.id));
    const [fresh] = await db
      .insert(results)
      .values([line("1", "ROUX Hugo (corrigé)"), line("2", "BLANC Lou")])
      .returning({ id: results.id });
    await relinkClaims(db, course.id);
    const mine = (await call("GET", "/api/results/mine", runner.cookie)).json().claims;
    expect(mine).toEqual([expect.objectContaining({ line: expect.objectContaining({ id: fresh?.id }) })]);
    const admin = await testMember(t, { role: "admin" });
    expect((await call("DELETE", `/api/results/${fresh?.id}`, admin.cookie)).statusCode).toBe(200);
    expect((await call("GET", "/api/results/mine", runner.cookie)).json().claims).toEqual([]);
  });
});

describe("badges, best times and stats follow the member's results", () => {
  it("awards finisher, marathon and sub-3 h badges on claim, fills the stats, and takes them back on unclaim", async () => {
    const runner = await testMember(t, { publicProfile: true });
    const [{ slug } = { slug: "" }] = await t.database.db
      .select({ slug: users.slug })
      .from(users)
      .where(eq(users.id, runner.id));
    const before = (await call("GET", `/api/user/${slug}/stats`)).json().stats;
    expect(before).toMatchObject({ badges: 0, races: 0, totalDistance: 0 });

    // Bib 110: rank 10 in 2:59:00, a marathon under 3 h.
    const line = await lineNamed("110");
    expect((await call("POST", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    const stats = (await call("GET", `/api/user/${slug}/stats`)).json().stats;
    expect(stats).toMatchObject({
      races: 1,
      results: 1,
      totalDistance: 42.2,
      maxDistance: 42.2,
      totalElevation: 400,
    });
    const codes = (
      await t.database.db.execute(sql`SELECT code FROM user_badges WHERE user_id = ${runner.id} ORDER BY code`)
    ).rows.map((r) => (r as { code: string }).code);
    expect(codes).toEqual(
      expect.arrayContaining([
        `finisher-course-${marathon.id}`,
        "distance-marathon",
        "marathon-sub-3h",
        "marathon-sub-3h30",
        "marathon-sub-4h",
      ]),
    );
    expect(codes).not.toContain("first-ultra");
    expect(stats.badges).toBe(codes.length);
    const me = (await call("GET", "/api/me/stats", runner.cookie)).json().stats;
    expect(me).toEqual(stats);
    const profile = (await call("GET", `/api/user/${slug}`)).json().profile;
    expect(profile.bestMarathon).toBe(2 * 3600 + 59 * 60);

    expect((await call("DELETE", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    const after = (await call("GET", `/api/user/${slug}/stats`)).json().stats;
    expect(after).toMatchObject({ badges: 0, races: 0, results: 0 });
    expect((await call("GET", `/api/user/${slug}`)).json().profile.bestMarathon).toBeNull();
  });

  it("keeps a better best time typed in the profile", async () => {
    const runner = await testMember(t, { publicProfile: true });
    await t.database.db
      .update(users)
      .set({ bestMarathon: 2 * 3600 + 30 * 60 })
      .where(eq(users.id, runner.id));
    const line = await lineNamed("120");
    expect((await call("POST", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    const [row] = await t.database.db.select({ best: users.bestMarathon }).from(users).where(eq(users.id, runner.id));
    expect(row?.best).toBe(2 * 3600 + 30 * 60);
  });
});

describe("recording a result by hand", () => {
  it("records a finished result on a past course without results, with pace, and lists it with the badges", async () => {
    const runner = await testMember(t);
    const response = await call("POST", "/api/results/manual", runner.cookie, {
      courseId: bare.id,
      timeMs: (42 * 60 + 30) * 1000,
      rank: 12,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      source: "manual",
      status: "finished",
      timeMs: 2_550_000,
      paceSPerKm: 255,
      rank: 12,
      percentile: null,
      course: { id: bare.id, distance: 10_000 },
    });
    const mine = (await call("GET", "/api/results/mine", runner.cookie)).json();
    expect(mine.results.map((r: { id: number }) => r.id)).toEqual([response.json().id]);
    const stats = (await call("GET", "/api/me/stats", runner.cookie)).json().stats;
    expect(stats).toMatchObject({ races: 1, totalDistance: 10, totalElevation: 50 });
    const [user] = await t.database.db.select({ best: users.best10k }).from(users).where(eq(users.id, runner.id));
    expect(user?.best).toBe(42 * 60 + 30);

    const twice = await call("POST", "/api/results/manual", runner.cookie, { courseId: bare.id, timeMs: 3_000_000 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe("RESULT_ALREADY_RECORDED");

    const edited = await call("PUT", `/api/results/manual/${response.json().id}`, runner.cookie, {
      status: "dnf",
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ status: "dnf", timeMs: null });
    expect((await call("GET", "/api/me/stats", runner.cookie)).json().stats).toMatchObject({ races: 0, results: 1 });

    expect((await call("DELETE", `/api/results/${response.json().id}`, runner.cookie)).statusCode).toBe(200);
    expect((await call("GET", "/api/results/mine", runner.cookie)).json().results).toEqual([]);
  });

  it("refuses a course with imported results, a future edition, and a finished result without time", async () => {
    const runner = await testMember(t);
    const imported = await call("POST", "/api/results/manual", runner.cookie, { courseId: marathon.id, timeMs: 1e7 });
    expect(imported.statusCode).toBe(409);
    expect(imported.json().error).toMatchObject({ code: "COURSE_HAS_RESULTS", field: "courseId" });
    expect(imported.json().error.message).toContain("C’est moi");
    const future = await call(
      "POST",
      "/api/results/manual",
      runner.cookie,
      { courseId: futureCourse, timeMs: 1e7 },
      "en",
    );
    expect(future.statusCode).toBe(409);
    expect(future.json().error.message).toContain("has not taken place yet");
    const noTime = await call("POST", "/api/results/manual", runner.cookie, { courseId: bare.id });
    expect(noTime.statusCode).toBe(400);
    expect(noTime.json().error.field).toBe("timeMs");
    const [count] = (
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM results WHERE user_id = ${runner.id}`)
    ).rows as { n: number }[];
    expect(count?.n).toBe(0);
  });
});

describe("the member's own results", () => {
  it("lists the past courses of the planning without a result, and whether they have results to claim", async () => {
    const runner = await testMember(t);
    for (const courseId of [marathon.id, bare.id]) {
      const planned = await call("POST", `/api/user/calendar/${courseId}`, runner.cookie, { status: "registered" });
      expect(planned.statusCode, planned.body).toBeLessThan(300);
    }
    const before = (await call("GET", "/api/results/mine", runner.cookie)).json();
    expect(before.results).toEqual([]);
    const byId = new Map(before.recordable.map((c: { id: number; hasResults: boolean }) => [c.id, c.hasResults]));
    expect(byId.get(marathon.id)).toBe(true);
    expect(byId.get(bare.id)).toBe(false);
    // Claimed: the course leaves the list and the result comes with its rank among 24 finishers.
    const line = await lineNamed("103");
    expect((await call("POST", `/api/results/${line.id}/claim`, runner.cookie)).statusCode).toBe(200);
    const after = (await call("GET", "/api/results/mine", runner.cookie)).json();
    expect(after.recordable.map((c: { id: number }) => c.id)).not.toContain(marathon.id);
    expect(after.results[0]).toMatchObject({ source: "import", rank: 3, finishers: 24, percentile: 13 });
    // An imported line is given back, never deleted by the member.
    expect((await call("DELETE", `/api/results/${line.id}`, runner.cookie)).statusCode).toBe(403);
    expect((await call("GET", "/api/results/mine")).statusCode).toBe(401);
    // A course planned ahead counts among the upcoming races of the stats.
    expect((await call("GET", "/api/me/stats", runner.cookie)).json().stats.upcomingRaces).toBe(0);
    expect(
      (await call("POST", `/api/user/calendar/${futureCourse}`, runner.cookie, { status: "planned" })).statusCode,
    ).toBeLessThan(300);
    expect((await call("GET", "/api/me/stats", runner.cookie)).json().stats.upcomingRaces).toBe(1);
  });

  it("lets nobody else correct a hand-recorded result, and asks for a verified e-mail to record one", async () => {
    const owner = await testMember(t);
    const recorded = await call("POST", "/api/results/manual", owner.cookie, { courseId: bare.id, timeMs: 3_000_000 });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const other = await testMember(t);
    const edit = await call("PUT", `/api/results/manual/${recorded.json().id}`, other.cookie, { timeMs: 1_000_000 });
    expect(edit.statusCode).toBe(404);
    expect((await call("DELETE", `/api/results/${recorded.json().id}`, other.cookie)).statusCode).toBe(403);
    const unverified = await testMember(t, { verified: false });
    const refused = await call("POST", "/api/results/manual", unverified.cookie, { courseId: bare.id, timeMs: 3e6 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
    const [row] = await t.database.db.select().from(results).where(eq(results.id, recorded.json().id));
    expect(row?.timeMs).toBe(3_000_000);
    // The list of the course shows the hand-recorded line, not claimable by others.
    const listed = (await call("GET", `/api/results/${bare.id}`, other.cookie)).json();
    expect(listed).toMatchObject({ manualOnly: true, mine: null });
    expect(listed.rows).toEqual([expect.objectContaining({ source: "manual", claimed: true })]);
  });
});

describe("deleting results", () => {
  it("lets the edition's organiser and admins delete a line, not another member", async () => {
    const member = await testMember(t);
    const organiser = await testMember(t);
    const admin = await testMember(t, { role: "admin" });
    await t.database.db
      .insert(eventOrganizers)
      .values({ eventId: marathon.eventId, userId: organiser.id, email: "orga@example.fr" });
    const line = await lineByBib("121");
    expect((await call("DELETE", `/api/results/${line.id}`, member.cookie)).statusCode).toBe(403);
    expect((await call("DELETE", `/api/results/${line.id}`, organiser.cookie)).statusCode).toBe(200);
    const other = await lineByBib("122");
    expect((await call("DELETE", `/api/results/${other.id}`, admin.cookie)).statusCode).toBe(200);
    expect((await call("DELETE", `/api/results/${other.id}`, admin.cookie)).statusCode).toBe(404);
  });

  it("deletes a course's imported results (organiser), keeps hand-recorded ones, and takes claimers' badges", async () => {
    const db = t.database.db;
    const [course] = await db
      .insert(courses)
      .values({ eventId: marathon.eventId, name: "Semi test", distance: 21_100 })
      .returning({ id: courses.id });
    if (!course) throw new Error("no course");
    await db.insert(results).values(
      Array.from({ length: 5 }, (_, i) => ({
        courseId: course.id,
        eventId: marathon.eventId,
        position: i + 1,
        rank: i + 1,
        bib: String(i + 1),
        name: i === 0 ? "Camille MARTIN" : `Semi ${i + 1}`,
        timeMs: (80 + i) * 60_000,
      })),
    );
    const runner = await testMember(t);
    const [first] = await db
      .select()
      .from(results)
      .where(and(eq(results.courseId, course.id), eq(results.bib, "1")));
    expect((await call("POST", `/api/results/${first?.id}/claim`, runner.cookie)).statusCode).toBe(200);
    expect((await call("GET", "/api/me/stats", runner.cookie)).json().stats.badges).toBeGreaterThan(0);

    const member = await testMember(t);
    expect((await call("DELETE", `/api/results/course/${course.id}`, member.cookie)).statusCode).toBe(403);
    const organiser = await testMember(t);
    await db
      .insert(eventOrganizers)
      .values({ eventId: marathon.eventId, userId: organiser.id, email: "o2@example.fr" });
    const gone = await call("DELETE", `/api/results/course/${course.id}`, organiser.cookie);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ deleted: 5, members: 1 });
    expect((await call("GET", `/api/results/${course.id}`)).json().totals.entries).toBe(0);
    expect((await call("GET", "/api/me/stats", runner.cookie)).json().stats).toMatchObject({ badges: 0, races: 0 });
  });
});
