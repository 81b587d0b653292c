import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { courses, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { results } from "../results/results.tables.ts";
import { sports } from "../sports/sports.tables.ts";
import { activities } from "./activities.tables.ts";
import { fixtureRun, toFit, toGpx, toTcx } from "./activity-fixtures.ts";

/**
 * The member side of activities: uploading GPX/TCX/FIT files (several at once, a clear error per
 * broken file), the list with filters and totals, one activity, "your race" and making a result,
 * and the privacy rules: only the owner ever sees an activity (not another member, not an admin,
 * not a public page), disabling the account deletes them, the GDPR export carries them.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Part = { name: string; content: string | Uint8Array } | { field: string; value: string };

function multipart(parts: Part[]) {
  const boundary = "----dossard-activities";
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ("field" in part) {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`),
      );
      continue;
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${part.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(part.content),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(cookie: string, parts: Part[], language = "fr") {
  const body = multipart(parts);
  return t.app.inject({
    method: "POST",
    url: "/api/upload/activities",
    headers: { ...accessHeaders, cookie, "content-type": body.contentType, "accept-language": language },
    payload: body.payload,
  });
}

const get = (cookie: string | null, url: string) =>
  t.app.inject({ method: "GET", url, headers: { ...accessHeaders, ...(cookie ? { cookie } : {}) } });

const post = (cookie: string, url: string, body: object = {}) =>
  t.app.inject({
    method: "POST",
    url,
    headers: { ...accessHeaders, cookie, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });

/**
 * A foot race of the catalogue an activity may be matched to: held before the tests' today (a
 * result can be recorded), 5 to 15 km, placed, without a track or imported results.
 */
async function raceToMatch() {
  const [target] = await t.database.db
    .select({
      courseId: courses.id,
      eventId: events.id,
      distance: courses.distance,
      lat: events.lat,
      lng: events.lng,
      date: events.startDate,
    })
    .from(courses)
    .innerJoin(events, eq(events.id, courses.eventId))
    .innerJoin(sports, eq(sports.id, events.sportId))
    .where(
      and(
        eq(events.status, "active"),
        eq(events.cancelled, false),
        isNotNull(events.lat),
        sql`${sports.key} IN ('running', 'trail', 'half_marathon', 'short_trail')`,
        sql`${courses.distance} BETWEEN 5000 AND 15000`,
        sql`NOT EXISTS (SELECT 1 FROM tracks tr WHERE tr.course_id = ${courses.id})`,
        sql`${events.startDate} < ${TEST_REFERENCE_DATE.toISOString().slice(0, 10)}`,
        sql`NOT EXISTS (SELECT 1 FROM results r WHERE r.course_id = ${courses.id} AND r.source = 'import')`,
      ),
    )
    .orderBy(courses.id)
    .limit(1);
  if (!target?.distance || target.lat === null || target.lng === null) throw new Error("no course to match");
  return { ...target, distance: target.distance, lat: target.lat, lng: target.lng };
}

describe("uploading activity files", () => {
  it("reads GPX, TCX and FIT files sent together, and names what is wrong with each broken one", async () => {
    const me = await testMember(t);
    const run = fixtureRun({ km: 5, start: new Date("2026-05-10T07:00:00Z") });
    const fit = toFit(fixtureRun({ km: 3, start: new Date("2026-05-12T07:00:00Z") }));
    const response = await upload(
      me.cookie,
      [
        { name: "sortie.gpx", content: toGpx(run, "Sortie longue") },
        { name: "fractionne.tcx", content: toTcx(fixtureRun({ km: 4, start: new Date("2026-05-11T07:00:00Z") })) },
        { name: "seuil.fit", content: fit },
        { name: "casse.fit", content: fit.slice(0, 200) },
        { name: "notes.txt", content: "pas une activité" },
      ],
      "fr",
    );
    expect(response.statusCode).toBe(200);
    const files = response.json().files;
    expect(files.map((f: { fileName: string }) => f.fileName)).toEqual([
      "sortie.gpx",
      "fractionne.tcx",
      "seuil.fit",
      "casse.fit",
      "notes.txt",
    ]);
    expect(files[0].activity).toMatchObject({
      name: "Sortie longue",
      provider: "file",
      sport: "run",
      elapsedTime: 1650,
    });
    expect(files[1].activity.name).toBe("fractionne");
    expect(files[2].activity.startedAt).toBe("2026-05-12T07:00:00.000Z");
    expect(files[3].error).toEqual({
      code: "ACTIVITY_FILE_INVALID",
      message: "Ce fichier n'est pas une activité lisible (GPX, TCX ou FIT).",
    });
    expect(files[4].error.code).toBe("ACTIVITY_FILE_INVALID");

    // Nothing readable at all: the upload is refused (400) with that file's message.
    const english = await upload(me.cookie, [{ name: "one.gpx", content: toGpx(run.slice(0, 1)) }], "en");
    expect(english.statusCode).toBe(400);
    expect(english.json().error).toMatchObject({
      code: "ACTIVITY_FILE_EMPTY",
      message: "This file holds no GPS track: at least two located points are needed.",
    });

    const list = (await get(me.cookie, "/api/user/activities")).json();
    expect(list.activities.map((a: { name: string }) => a.name)).toEqual(["seuil", "fractionne", "Sortie longue"]);
  });

  it("refuses more than ten files in one upload, and an upload without files, storing nothing", async () => {
    const me = await testMember(t);
    const gpx = toGpx(fixtureRun({ km: 1 }));
    const eleven = await upload(
      me.cookie,
      Array.from({ length: 11 }, (_, i) => ({ name: `${i}.gpx`, content: gpx })),
    );
    expect(eleven.statusCode).toBe(413);
    expect(eleven.json().error.code).toBe("TOO_MANY_FILES");
    const none = await t.app.inject({
      method: "POST",
      url: "/api/upload/activities",
      headers: { ...accessHeaders, cookie: me.cookie, "content-type": "application/json" },
      payload: "{}",
    });
    expect(none.statusCode).toBe(400);
    const [counted] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activities)
      .where(eq(activities.userId, me.id));
    expect(counted?.n).toBe(0);
  });
});

describe("the member's activities", () => {
  it("lists newest first with sport and period filters and totals per week, month and year", async () => {
    const me = await testMember(t);
    const day = (iso: string) => new Date(iso);
    const rows = [
      {
        name: "A",
        sport: "run",
        startedAt: day("2026-05-30T07:00:00Z"),
        distance: 10_000,
        movingTime: 3000,
        elevationGain: 100,
      },
      {
        name: "B",
        sport: "ride",
        startedAt: day("2026-05-29T07:00:00Z"),
        distance: 40_000,
        movingTime: 5000,
        elevationGain: 300,
      },
      {
        name: "C",
        sport: "run",
        startedAt: day("2026-05-02T07:00:00Z"),
        distance: 8_000,
        movingTime: 2400,
        elevationGain: 50,
      },
      {
        name: "D",
        sport: "run",
        startedAt: day("2025-11-02T07:00:00Z"),
        distance: 21_100,
        movingTime: 6000,
        elevationGain: 200,
      },
    ];
    await t.database.db
      .insert(activities)
      .values(rows.map((r) => ({ ...r, userId: me.id, provider: "file" as const, fileKind: "gpx" })));
    const all = (await get(me.cookie, "/api/user/activities?totals=year")).json();
    expect(all.activities.map((a: { name: string }) => a.name)).toEqual(["A", "B", "C", "D"]);
    expect(all.totals).toEqual([
      { period: "2026-01-01", count: 3, distance: 58_000, movingTime: 10_400, elevationGain: 450 },
      { period: "2025-01-01", count: 1, distance: 21_100, movingTime: 6000, elevationGain: 200 },
    ]);
    const runs = (await get(me.cookie, "/api/user/activities?sport=run&totals=month")).json();
    expect(runs.activities.map((a: { name: string }) => a.name)).toEqual(["A", "C", "D"]);
    expect(runs.totals.map((x: { period: string; distance: number }) => [x.period, x.distance])).toEqual([
      ["2026-05-01", 18_000],
      ["2025-11-01", 21_100],
    ]);
    // The reference date is 2026-06-01: the last week holds A and B, Monday 2026-05-25.
    const week = (await get(me.cookie, "/api/user/activities?period=week&totals=week")).json();
    expect(week.activities.map((a: { name: string }) => a.name)).toEqual(["A", "B"]);
    expect(week.totals).toEqual([
      { period: "2026-05-25", count: 2, distance: 50_000, movingTime: 8000, elevationGain: 400 },
    ]);
    const bad = await get(me.cookie, "/api/user/activities?sport=chess");
    expect(bad.statusCode).toBe(400);
  });

  it("proposes the race an activity fits, links it on the member's word, and makes a result of it", async () => {
    const me = await testMember(t, { firstName: "Lou" });
    const target = await raceToMatch();
    const run = fixtureRun({
      km: target.distance / 1000,
      start: new Date(`${target.date}T08:00:00Z`),
      lat: target.lat + 0.01,
      lng: target.lng,
    });
    const uploaded = (await upload(me.cookie, [{ name: "course.gpx", content: toGpx(run, "Ma course") }])).json();
    const id = uploaded.files[0].activity.id;
    const detail = (await get(me.cookie, `/api/user/activity/${id}`)).json();
    const match = detail.matches.find((m: { courseId: number }) => m.courseId === target.courseId);
    expect(match).toBeDefined();
    expect(match.startGap).toBeGreaterThan(1000);
    expect(match.startGap).toBeLessThan(1200);
    // Never automatic: nothing is linked until the member says so.
    expect(detail.courseId).toBeNull();

    const early = await post(me.cookie, `/api/user/activity/${id}/result`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe("ACTIVITY_NOT_LINKED");

    const linked = await post(me.cookie, `/api/user/activity/${id}/link`, { courseId: target.courseId });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().activity.course.id).toBe(target.courseId);
    expect(linked.json().activity.matches).toEqual([]);

    const made = await post(me.cookie, `/api/user/activity/${id}/result`);
    expect(made.statusCode).toBe(200);
    const [result] = await t.database.db.select().from(results).where(eq(results.id, made.json().resultId));
    const elapsed = run[run.length - 1].time.getTime() - run[0].time.getTime();
    expect(result).toMatchObject({
      source: "manual",
      userId: me.id,
      courseId: target.courseId,
      eventId: target.eventId,
      timeMs: elapsed,
      name: "Lou Martin",
    });
    expect(made.json().activity.resultId).toBe(result?.id);
    const again = await post(me.cookie, `/api/user/activity/${id}/result`);
    expect(again.json().error.code).toBe("RESULT_ALREADY_RECORDED");

    const unknownCourse = await post(me.cookie, `/api/user/activity/${id}/link`, { courseId: 99_999_999 });
    expect(unknownCourse.statusCode).toBe(404);
    const noCourse = await post(me.cookie, `/api/user/activity/${id}/link`, {});
    expect(noCourse.statusCode).toBe(400);
  });

  it("deletes an activity of the member's", async () => {
    const me = await testMember(t);
    const { files } = (await upload(me.cookie, [{ name: "x.gpx", content: toGpx(fixtureRun({ km: 1 })) }])).json();
    const id = files[0].activity.id;
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/user/activity/${id}`,
      headers: { ...accessHeaders, cookie: me.cookie },
    });
    expect(removed.statusCode).toBe(200);
    expect((await get(me.cookie, `/api/user/activity/${id}`)).statusCode).toBe(404);
  });
});

describe("privacy", () => {
  it("shows an activity to its owner only: not to another member, an admin, anonymous callers or public pages", async () => {
    const owner = await testMember(t, { publicProfile: true });
    const other = await testMember(t);
    const admin = await testMember(t, { role: "admin" });
    const name = "Sortie secrète du mardi";
    const { files } = (
      await upload(owner.cookie, [{ name: "s.gpx", content: toGpx(fixtureRun({ km: 2 }), name) }])
    ).json();
    const id = files[0].activity.id;
    expect((await get(owner.cookie, `/api/user/activity/${id}`)).statusCode).toBe(200);

    for (const cookie of [other.cookie, admin.cookie]) {
      const one = await get(cookie, `/api/user/activity/${id}`);
      expect(one.statusCode).toBe(404);
      expect(one.body).not.toContain(name);
      const list = await get(cookie, "/api/user/activities");
      expect(list.body).not.toContain(name);
      for (const action of ["link", "unlink", "result"]) {
        const write = await post(cookie, `/api/user/activity/${id}/${action}`, { courseId: 1 });
        expect(write.statusCode).toBe(404);
      }
      const removed = await t.app.inject({
        method: "DELETE",
        url: `/api/user/activity/${id}`,
        headers: { ...accessHeaders, cookie },
      });
      expect(removed.statusCode).toBe(404);
    }
    expect((await get(null, `/api/user/activity/${id}`)).statusCode).toBe(401);
    expect((await get(null, "/api/user/activities")).statusCode).toBe(401);

    // The owner's public profile, seen by the admin: nothing of the activity.
    const [row] = await t.database.db.select({ slug: users.slug }).from(users).where(eq(users.id, owner.id));
    const profile = await get(admin.cookie, `/api/user/${row?.slug}`);
    expect(profile.statusCode).toBe(200);
    expect(profile.body).not.toContain(name);
    // The admin's overview counts imports, never their content.
    const overview = await get(admin.cookie, "/api/admin/activities");
    expect(overview.statusCode).toBe(200);
    expect(overview.json().members.find((m: { userId: number }) => m.userId === owner.id)).toMatchObject({
      files: 1,
      strava: 0,
    });
    expect(overview.body).not.toContain(name);
    expect((await get(owner.cookie, "/api/admin/activities")).statusCode).toBe(403);
    // The activity is still there, untouched.
    expect((await get(owner.cookie, `/api/user/activity/${id}`)).json().name).toBe(name);
  });

  it("puts the activities in the GDPR export and deletes them when the account is disabled", async () => {
    const me = await testMember(t);
    await upload(me.cookie, [{ name: "export.gpx", content: toGpx(fixtureRun({ km: 2 }), "À exporter") }]);
    const exported = await get(me.cookie, "/api/me/export");
    expect(exported.statusCode).toBe(200);
    const data = JSON.parse(exported.body);
    expect(data.activities.strava).toBeNull();
    expect(data.activities.activities).toHaveLength(1);
    expect(data.activities.activities[0]).toMatchObject({ name: "À exporter", provider: "file" });
    expect(data.activities.activities[0].track.length).toBeGreaterThan(10);

    const disabled = await post(me.cookie, "/api/user/disable-account", {
      confirm: true,
      currentPassword: "a member's own password 1",
    });
    expect(disabled.statusCode).toBe(200);
    const [left] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(activities)
      .where(eq(activities.userId, me.id));
    expect(left?.n).toBe(0);
  });
});

describe("activities without a time, and of other sports (issue 26 item 5)", () => {
  const count = async (userId: number) =>
    (
      await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(eq(activities.userId, userId))
    )[0]?.n;

  it("asks the member for the day of a file without times, storing nothing until given, never the upload's instant", async () => {
    const me = await testMember(t);
    const untimed = toGpx(fixtureRun({ km: 1 })).replace(/<time>[^<]*<\/time>/g, "");
    const timed = toGpx(fixtureRun({ km: 2, start: new Date("2026-05-03T07:00:00Z") }));
    const files = [
      { name: "plan.gpx", content: untimed },
      { name: "sortie.gpx", content: timed },
    ];
    for (const [language, message] of [
      ["fr", "Ce fichier ne dit pas quand l'activité a eu lieu (ses points n'ont pas d'heure) : indiquez sa date."],
      ["en", "This file does not say when the activity took place (its points have no time): give its date."],
    ]) {
      const refused = await upload(me.cookie, files, language);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: "ACTIVITY_DATE_REQUIRED", field: "date", message });
    }
    // A day still to come, or no day at all.
    for (const value of ["2099-01-01", "2010-02-30", "demain"]) {
      const bad = await upload(me.cookie, [...files, { field: "date", value }]);
      expect(bad.statusCode, value).toBe(400);
      expect(bad.json().error).toMatchObject({ code: "ACTIVITY_DATE_INVALID", field: "date" });
    }
    expect(await count(me.id)).toBe(0);

    const stored = await upload(me.cookie, [...files, { field: "date", value: "2010-06-12" }]);
    expect(stored.statusCode, stored.body).toBe(200);
    const [plan, sortie] = stored.json().files.map((f: { activity: { startedAt: string } }) => f.activity);
    expect(plan).toMatchObject({ startedAt: "2010-06-12T10:00:00.000Z", startPrecision: "day", elapsedTime: null });
    // A file with its own times keeps them.
    expect(sortie).toMatchObject({ startedAt: "2026-05-03T07:00:00.000Z", startPrecision: "time" });
    expect(plan.startedAt).not.toBe(TEST_REFERENCE_DATE.toISOString());
  });

  it('never offers as « your race » an activity whose day is unknown, nor a TCX of Sport="Other", until it is a run with a day', async () => {
    const me = await testMember(t);
    const target = await raceToMatch();
    const run = fixtureRun({
      km: target.distance / 1000,
      start: new Date(`${target.date}T08:00:00Z`),
      lat: target.lat + 0.005,
      lng: target.lng,
    });
    const matched = async (id: number) =>
      ((await get(me.cookie, `/api/user/activity/${id}`)).json().matches as { courseId: number }[]).some(
        (m) => m.courseId === target.courseId,
      );

    // The same run, on the race's day, near its start, at its distance: only the running one is offered.
    const { files } = (
      await upload(me.cookie, [
        { name: "course.tcx", content: toTcx(run) },
        { name: "autre.tcx", content: toTcx(run).replace('Sport="Running"', 'Sport="Other"') },
      ])
    ).json();
    const [running, other] = files.map((f: { activity: { id: number; sport: string } }) => f.activity);
    expect(running.sport).toBe("run");
    expect(other.sport).toBe("other");
    expect(await matched(running.id)).toBe(true);
    expect(await matched(other.id)).toBe(false);

    // Uploaded before the upload asked for a day, it was dated at its upload: no day, no match...
    await t.database.db.update(activities).set({ startPrecision: "none" }).where(eq(activities.id, running.id));
    expect(await matched(running.id)).toBe(false);
    const detail = (await get(me.cookie, `/api/user/activity/${running.id}`)).json();
    expect(detail.startPrecision).toBe("none");
    // ...until the member gives it.
    const dated = await post(me.cookie, `/api/user/activity/${running.id}/date`, { date: target.date });
    expect(dated.statusCode, dated.body).toBe(200);
    expect(dated.json().activity).toMatchObject({ startPrecision: "day" });
    expect(await matched(running.id)).toBe(true);
    const future = await post(me.cookie, `/api/user/activity/${running.id}/date`, { date: "2099-01-01" });
    expect(future.statusCode).toBe(400);
    expect(future.json().error.code).toBe("ACTIVITY_DATE_INVALID");
  });
});
