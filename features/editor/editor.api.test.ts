import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { courses, eventHistory, events, tracks } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { mailMessages } from "../mail/mail.tables.ts";
import { nextYearSameWeekday } from "./editor.service.server.ts";
import { eventChangeRequests } from "./editor.tables.ts";

let t: TestApp;
let ip = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Member = { id: number; cookie: string; ip: string };

async function member(role: "member" | "admin" = "member", verified = true): Promise<Member> {
  const address = `10.9.${++ip >> 8}.${ip & 255}`;
  const email = `editor.${ip}.${Date.now().toString(36)}@example.fr`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: address,
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email,
      password: "long enough 1",
      passwordConfirmation: "long enough 1",
      firstName: "Org",
      lastName: `Anizer ${ip}`,
      terms: true,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().user.id as number;
  await t.database.db
    .update(users)
    .set({ role, emailStatus: verified ? "verified" : "unverified" })
    .where(eq(users.id, id));
  const cookie = response.cookies.find((c) => c.name === "dossard_session");
  return { id, cookie: `dossard_session=${cookie?.value}`, ip: address };
}

function call(who: Member | null, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    remoteAddress: who?.ip ?? "10.8.0.1",
    headers: {
      ...accessHeaders,
      ...(who ? { cookie: who.cookie } : {}),
      ...(payload !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

const START = "2026-09-12";
function form(overrides: Record<string, unknown> = {}, course: Record<string, unknown> = {}) {
  return {
    name: "Trail des Crêtes du Vercors",
    sport: "trail",
    isCompetition: true,
    isConnected: false,
    scope: "regional",
    startDate: START,
    endDate: "2026-09-13",
    dateConfirmed: false,
    certified: false,
    communeCode: "38185",
    city: "Grenoble",
    countryCode: "FR",
    organizerName: "Vercors Aventure",
    description: "<p>Un <strong>beau</strong> trail.</p><script>alert(1)</script><img src=x onerror=alert(1)>",
    options: { refuelling: true, meal: true, cloakroom: false, showers: true, reward: false },
    contactEmail: "contact@vercors-aventure.fr",
    website: "www.vercors-aventure.fr",
    courses: [
      {
        name: "Le 42",
        type: "race",
        distance: 42_000,
        elevationGain: 2100,
        date: START,
        startTime: "07:30",
        prices: [
          { label: "Early bird", startsOn: "2026-03-01", endsOn: "2026-05-31", price: 45 },
          { label: "Normal", startsOn: "2026-06-01", endsOn: "2026-09-10", price: 55.5 },
        ],
        ...course,
      },
    ],
    ...overrides,
  };
}

describe("listing a new event", () => {
  it("creates it pending validation, owned by the member, sanitised, with its courses and history", async () => {
    const owner = await member();
    const response = await call(owner, "POST", "/api/event/0", form());
    expect(response.statusCode, response.body).toBe(201);
    const { event } = response.json();
    expect(event).toMatchObject({
      status: "pending",
      checkStatus: "to_check",
      access: "owner",
      name: "Trail des Crêtes du Vercors",
      city: "Grenoble",
      website: "https://www.vercors-aventure.fr",
    });
    expect(event.description).toContain("<strong>beau</strong>");
    expect(event.description).not.toMatch(/script|onerror|<img/);
    expect(event.courses).toHaveLength(1);
    expect(event.courses[0]).toMatchObject({ distance: 42_000, elevationGain: 2100, startTime: "07:30", date: START });
    expect(event.courses[0].prices.map((p: { price: number }) => p.price)).toEqual([45, 55.5]);
    const [row] = await t.database.db.select().from(events).where(eq(events.id, event.id));
    expect(row).toMatchObject({ ownerId: owner.id, departmentCode: "38", regionCode: "84", maxDistance: 42_000 });
    const history = await t.database.db.select().from(eventHistory).where(eq(eventHistory.eventId, event.id));
    expect(history.map((h) => h.type)).toEqual(["creation"]);
    // Visible to its owner only until validated.
    expect((await call(null, "GET", `/api/event/${event.id}`)).statusCode).toBe(404);
    expect((await call(await member(), "GET", `/api/user/event/${event.id}`)).statusCode).toBe(404);
    const mine = await call(owner, "GET", "/api/user/events");
    expect(mine.json().events.map((e: { id: number }) => e.id)).toContain(event.id);
  });

  it.each([
    ["no course", { courses: [] }, {}, "FIELD_REQUIRED", "courses"],
    [
      "a course without distance or duration",
      {},
      { distance: null },
      "DISTANCE_OR_DURATION_REQUIRED",
      "courses.0.distance",
    ],
    ["a course without name", {}, { name: "" }, "FIELD_REQUIRED", "courses.0.name"],
    ["a course outside the event's days", {}, { date: "2026-09-20" }, "DATE_RANGE_INVALID", "courses.0.date"],
    ["an end before the start", { endDate: "2026-09-01" }, {}, "DATE_RANGE_INVALID", "endDate"],
    ["a confirmed date not certified", { dateConfirmed: true }, {}, "CERTIFICATION_REQUIRED", "certified"],
    ["a bad web address", { website: "not a url" }, {}, "URL_INVALID", "website"],
    ["an impossible date", { startDate: "2026-02-30" }, {}, "FIELD_REQUIRED", "startDate"],
    ["a thirteenth month", { endDate: "2026-13-01" }, {}, "FIELD_REQUIRED", "endDate"],
    [
      "overlapping price periods",
      {},
      {
        prices: [
          { label: "A", startsOn: "2026-03-01", endsOn: "2026-06-15", price: 40 },
          { label: "B", startsOn: "2026-06-01", endsOn: "2026-09-10", price: 50 },
        ],
      },
      "PRICE_PERIODS_OVERLAP",
      "courses.0.prices.1.startsOn",
    ],
  ])("refuses %s (%s) and writes nothing", async (_what, overrides, course, code, field) => {
    const owner = await member();
    const before = await t.database.db.$count(events);
    const response = await call(owner, "POST", "/api/event/0", form(overrides, course));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code, field });
    expect(await t.database.db.$count(events)).toBe(before);
  });

  it("says which price periods overlap, in English too", async () => {
    const owner = await member();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/event/0",
      remoteAddress: owner.ip,
      headers: { ...accessHeaders, cookie: owner.cookie, "content-type": "application/json", "x-locale": "en" },
      payload: JSON.stringify(
        form(
          {},
          {
            prices: [
              { label: "A", price: 10 },
              { label: "B", startsOn: "2026-06-01", price: 20 },
            ],
          },
        ),
      ),
    });
    expect(response.json().error.message).toBe("The price periods overlap.");
  });

  it("refuses an unknown country with its field named, writing nothing", async () => {
    const owner = await member();
    const before = await t.database.db.$count(events);
    const response = await call(owner, "POST", "/api/event/0", form({ countryCode: "ZZ" }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.field).toBe("countryCode");
    expect(await t.database.db.$count(events)).toBe(before);
    const badDay = await call(owner, "POST", "/api/event/check-duplicates", {
      name: "Un trail",
      startDate: "2026-13-01",
    });
    expect(badDay.statusCode).toBe(400);
    // An editor's mistake (the owner of event 1 would be refused before their body is read).
    const badPostpone = await call(await member("admin"), "POST", "/api/event/1/status/postpone", {
      startDate: "2026-02-31",
    });
    expect(badPostpone.statusCode).toBe(400);
  });

  it("needs a signed-in member with a verified email", async () => {
    expect((await call(null, "POST", "/api/event/0", form())).statusCode).toBe(401);
    const unverified = await member("member", false);
    const response = await call(unverified, "POST", "/api/event/0", form());
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
  });

  it("finds likely duplicates: similar name, ± 3 days, within 20 km", async () => {
    const [seeded] = await t.database.db
      .select({ id: events.id, name: events.name, startDate: events.startDate, lat: events.lat, lng: events.lng })
      .from(events)
      .where(eq(events.status, "active"))
      .limit(1);
    if (!seeded) throw new Error("no seeded event");
    const who = await member();
    const shifted = new Date(`${seeded.startDate}T00:00:00Z`);
    shifted.setUTCDate(shifted.getUTCDate() + 2);
    const response = await call(who, "POST", "/api/event/check-duplicates", {
      name: seeded.name.toUpperCase(),
      startDate: shifted.toISOString().slice(0, 10),
      lat: seeded.lat,
      lng: seeded.lng,
    });
    expect(response.json().duplicates.map((d: { id: number }) => d.id)).toContain(seeded.id);
    const pendingOwner = await member();
    const pending = (await call(pendingOwner, "POST", "/api/event/0", form({ name: "Foulées de la Bastille" }))).json()
      .event;
    const probe = { name: "Foulées de la Bastille", startDate: START };
    const others = (await call(who, "POST", "/api/event/check-duplicates", probe)).json().duplicates;
    expect(others.map((d: { id: number }) => d.id)).not.toContain(pending.id);
    const own = (await call(pendingOwner, "POST", "/api/event/check-duplicates", probe)).json().duplicates;
    expect(own.map((d: { id: number }) => d.id)).toContain(pending.id);
    const far = await call(who, "POST", "/api/event/check-duplicates", {
      name: seeded.name,
      startDate: shifted.toISOString().slice(0, 10),
      lat: (seeded.lat ?? 45) + 1,
      lng: seeded.lng,
    });
    expect(far.json().duplicates.map((d: { id: number }) => d.id)).not.toContain(seeded.id);
  });
});

describe("a course's track fills its empty figures (issue 26 item 3)", () => {
  /** An unattached upload of the member's, as POST /api/upload/track/0 leaves it: 13.2 km, 958 m of D+. */
  async function uploaded(owner: Member): Promise<number> {
    const [row] = await t.database.db
      .insert(tracks)
      .values({
        uploadedBy: owner.id,
        name: "Boucle",
        points: [
          [5.5, 45, 300],
          [5.6, 45.05, 1_258],
        ],
        distance: 13_213,
        elevationGain: 958,
        elevationLoss: 950,
        profile: [],
      })
      .returning({ id: tracks.id });
    return row!.id;
  }

  it("fills the distance and D+ left empty from the track, and keeps what the organiser typed", async () => {
    const owner = await member();
    const [first, second] = [await uploaded(owner), await uploaded(owner)];
    const body = form({}, { distance: undefined, elevationGain: undefined, trackId: first });
    body.courses.push({
      ...body.courses[0],
      name: "Le 21",
      distance: 21_000,
      elevationGain: 900,
      trackId: second,
    } as never);
    const response = await call(owner, "POST", "/api/event/0", body);
    expect(response.statusCode, response.body).toBe(201);
    const eventId = response.json().event.id as number;
    const stored = await t.database.db
      .select({ name: courses.name, distance: courses.distance, elevationGain: courses.elevationGain })
      .from(courses)
      .where(eq(courses.eventId, eventId))
      .orderBy(courses.position);
    expect(stored).toEqual([
      { name: "Le 42", distance: 13_213, elevationGain: 958 },
      { name: "Le 21", distance: 21_000, elevationGain: 900 },
    ]);
    const [row] = await t.database.db.select().from(events).where(eq(events.id, eventId));
    expect(row?.maxDistance).toBe(21_000);
    expect(row?.minDistance).toBe(13_213);

    // A course left without them (saved before this rule) shows its track's, once: the public answer.
    await t.database.db.update(events).set({ status: "active" }).where(eq(events.id, eventId));
    const [course] = await t.database.db
      .update(courses)
      .set({ distance: null, elevationGain: null })
      .where(and(eq(courses.eventId, eventId), eq(courses.name, "Le 42")))
      .returning({ id: courses.id });
    const detail = await call(null, "GET", `/api/course/${course!.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().course).toMatchObject({ distance: 13_213, elevationGain: 958 });
  });

  it("still needs a distance or a duration from a course without a track", async () => {
    const owner = await member();
    const response = await call(owner, "POST", "/api/event/0", form({}, { distance: undefined }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("DISTANCE_OR_DURATION_REQUIRED");
  });
});

describe("editing", () => {
  async function listed() {
    const owner = await member();
    const response = await call(owner, "POST", "/api/event/0", form());
    return { owner, event: response.json().event };
  }

  it("lets the owner edit directly, keeping course ids, and records what changed", async () => {
    const { owner, event } = await listed();
    const next = form(
      { name: event.name, city: "Grenoble", organizerName: "Vercors Aventure SAS" },
      { id: event.courses[0].id, elevationGain: 2250 },
    );
    next.courses.push({
      ...next.courses[0],
      id: undefined,
      name: "Le 21",
      distance: 21_000,
      elevationGain: 900,
    } as never);
    const response = await call(owner, "POST", `/api/event/${event.id}`, next);
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().event;
    expect(saved.courses.map((c: { id: number; name: string }) => c.name)).toEqual(["Le 42", "Le 21"]);
    expect(saved.courses[0].id).toBe(event.courses[0].id);
    const [row] = await t.database.db.select().from(events).where(eq(events.id, event.id));
    expect(row?.minDistance).toBe(21_000);
    const history = await call(owner, "GET", `/api/event/${event.id}/history`);
    const modification = history.json().history.find((h: { type: string }) => h.type === "modification");
    expect(modification.data.fields).toEqual(expect.arrayContaining(["organizerName", "courses"]));
  });

  it("turns another member's edit into a modification request the admin can accept", async () => {
    const { event, owner } = await listed();
    const admin = await member("admin");
    await call(admin, "POST", `/api/event/${event.id}/status/validate`, {});
    const stranger = await member();
    // The organiser's contact details are not shown to other members.
    const seen = (await call(stranger, "GET", `/api/user/event/${event.id}`)).json().event;
    expect(seen).toMatchObject({ access: "member", contactEmail: null, contactPhone: null });
    const proposal = form(
      { name: event.name, organizerName: "Someone Else", contactEmail: null },
      { id: event.courses[0].id },
    );
    const response = await call(stranger, "POST", `/api/event/${event.id}`, proposal);
    expect(response.statusCode).toBe(200);
    const { requestId } = response.json();
    expect(requestId).toBeGreaterThan(0);
    const [live] = await t.database.db.select().from(events).where(eq(events.id, event.id));
    expect(live?.organizerName).toBe("Vercors Aventure");
    // The owner's list counts it; the admin's queue lists it with the diff.
    const mine = (await call(owner, "GET", "/api/user/events")).json().events;
    expect(mine.find((e: { id: number }) => e.id === event.id).pendingRequests).toBe(1);
    const forOwner = await call(owner, "GET", `/api/event/${event.id}/requests`);
    expect(forOwner.json().requests.map((r: { requestId: number }) => r.requestId)).toEqual([requestId]);
    expect((await call(stranger, "GET", `/api/event/${event.id}/requests`)).statusCode).toBe(403);
    const queue = await call(admin, "GET", "/api/admin/events?queue=requests");
    expect(queue.json().items.map((i: { requestId: number }) => i.requestId)).toContain(requestId);
    const diff = await call(admin, "GET", `/api/admin/event-request/${requestId}`);
    expect(diff.json().request.changes).toEqual([
      { field: "organizerName", before: "Vercors Aventure", after: "Someone Else" },
    ]);
    expect((await call(stranger, "GET", `/api/admin/event-request/${requestId}`)).statusCode).toBe(403);
    const accepted = await call(admin, "POST", `/api/admin/event-request/${requestId}/accept`, {});
    expect(accepted.json()).toEqual({ eventId: event.id, status: "accepted" });
    const told = await t.database.db
      .select({ params: mailMessages.params })
      .from(mailMessages)
      .where(and(eq(mailMessages.userId, stranger.id), eq(mailMessages.template, "eventModerated")));
    expect(told.map((m) => (m.params as { decision: string }).decision)).toEqual(["accepted"]);
    const [after] = await t.database.db.select().from(events).where(eq(events.id, event.id));
    expect(after?.organizerName).toBe("Someone Else");
    expect(after?.contactEmail).toBe("contact@vercors-aventure.fr");
    expect(after?.checkStatus).toBe("checked");
    const again = await call(admin, "POST", `/api/admin/event-request/${requestId}/reject`, {});
    expect(again.statusCode).toBe(400);
    const requests = await t.database.db
      .select()
      .from(eventChangeRequests)
      .where(and(eq(eventChangeRequests.eventId, event.id)));
    expect(requests[0]?.status).toBe("accepted");
  });

  it("never removes the last course, and only editors remove courses", async () => {
    const { owner, event } = await listed();
    const stranger = await member();
    const courseId = event.courses[0].id;
    expect((await call(stranger, "DELETE", `/api/course/${courseId}`)).statusCode).toBe(403);
    const last = await call(owner, "DELETE", `/api/course/${courseId}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().error).toMatchObject({
      code: "CANNOT_DELETE_ALL_COURSES",
      message: "Impossible de supprimer toutes les épreuves.",
    });
    const two = form({ name: event.name }, { id: courseId });
    two.courses.push({ ...two.courses[0], id: undefined, name: "Le 10", distance: 10_000 } as never);
    const saved = (await call(owner, "POST", `/api/event/${event.id}`, two)).json().event;
    expect((await call(owner, "DELETE", `/api/course/${saved.courses[1].id}`)).statusCode).toBe(200);
    expect(await t.database.db.$count(courses, eq(courses.eventId, event.id))).toBe(1);
  });
});

describe("status, moderation and editions", () => {
  it("postpones (original date kept, courses moved), cancels, and refuses admin-only changes to owners", async () => {
    const owner = await member();
    const admin = await member("admin");
    const { event } = (await call(owner, "POST", "/api/event/0", form())).json();
    expect((await call(owner, "POST", `/api/event/${event.id}/status/validate`, {})).statusCode).toBe(403);
    expect((await call(await member(), "POST", `/api/event/${event.id}/status/cancel`, {})).statusCode).toBe(403);
    const validated = await call(admin, "POST", `/api/event/${event.id}/status/validate`, { message: "Merci !" });
    expect(validated.json().event.status).toBe("active");
    // The submitter is told, with the team's message.
    const notices = await t.database.db
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.userId, owner.id), eq(mailMessages.template, "eventModerated")));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.params).toMatchObject({ decision: "validated", message: "Merci !" });
    const missing = await call(owner, "POST", `/api/event/${event.id}/status/postpone`, {});
    expect(missing.json().error).toMatchObject({ code: "FIELD_REQUIRED", field: "startDate" });
    const postponed = await call(owner, "POST", `/api/event/${event.id}/status/postpone`, { startDate: "2026-10-10" });
    expect(postponed.json().event).toMatchObject({
      postponed: true,
      originalDate: START,
      startDate: "2026-10-10",
      endDate: "2026-10-11",
    });
    expect(postponed.json().event.courses[0]).toMatchObject({ date: "2026-10-10", startTime: "07:30" });
    const page = await call(null, "GET", `/api/event/${event.id}`);
    expect(page.statusCode).toBe(200);
    expect(JSON.stringify(page.json())).toMatch(/postponed/i);
    const cancelled = await call(owner, "POST", `/api/event/${event.id}/status/cancel`, {});
    expect(cancelled.json().event.cancelled).toBe(true);
    const search = await call(
      null,
      "GET",
      `/api/events?q=${encodeURIComponent("Crêtes du Vercors")}&past=1&cancelled=1`,
    );
    const found = search.json().events?.find?.((e: { id: number }) => e.id === event.id);
    if (found) expect(found.cancelled ?? found.state).toBeTruthy();
    const types = (await call(owner, "GET", `/api/event/${event.id}/history`))
      .json()
      .history.map((h: { type: string }) => h.type);
    expect(types).toEqual(expect.arrayContaining(["creation", "validation", "postponement", "cancellation"]));
  });

  it("lists pending events in the admin queue, for admins only", async () => {
    const owner = await member();
    const { event } = (
      await call(owner, "POST", "/api/event/0", form({ name: "Corrida de Noël de Saint-Égrève" }))
    ).json();
    expect((await call(null, "GET", "/api/admin/events")).statusCode).toBe(401);
    expect((await call(owner, "GET", "/api/admin/events")).statusCode).toBe(403);
    const admin = await member("admin");
    const queue = await call(
      admin,
      "GET",
      `/api/admin/events?queue=pending&q=${encodeURIComponent("corrida de noel")}`,
    );
    expect(queue.json().items.map((i: { eventId: number }) => i.eventId)).toContain(event.id);
  });

  it("copies next year's edition on the same weekday, date not confirmed, to be checked", async () => {
    const owner = await member();
    const admin = await member("admin");
    const { event } = (
      await call(
        owner,
        "POST",
        "/api/event/0",
        form({ name: "Marathon du Lac 2026", dateConfirmed: true, certified: true }),
      )
    ).json();
    await call(admin, "POST", `/api/event/${event.id}/status/validate`, {});
    expect((await call(owner, "POST", `/api/admin/events/${event.id}/copy`)).statusCode).toBe(403);
    const response = await call(admin, "POST", `/api/admin/events/${event.id}/copy`);
    expect(response.statusCode).toBe(201);
    const copy = (await call(admin, "GET", `/api/user/event/${response.json().id}`)).json().event;
    expect(copy).toMatchObject({
      name: "Marathon du Lac 2027",
      startDate: "2027-09-11",
      dateConfirmed: false,
      checkStatus: "to_check",
    });
    expect(new Date(`${copy.startDate}T00:00:00Z`).getUTCDay()).toBe(new Date(`${START}T00:00:00Z`).getUTCDay());
    expect(copy.courses[0]).toMatchObject({ name: "Le 42", date: "2027-09-11", startTime: "07:30" });
    expect(copy.courses[0].prices[0]).toMatchObject({ startsOn: "2027-02-28", price: 45 });
    const [source, next] = await t.database.db
      .select({ groupId: events.groupId })
      .from(events)
      .where(eq(events.id, event.id))
      .then(async (a) => [
        a[0],
        (await t.database.db.select({ groupId: events.groupId }).from(events).where(eq(events.id, copy.id)))[0],
      ]);
    expect(source?.groupId).not.toBeNull();
    expect(next?.groupId).toBe(source?.groupId);
  });

  it("moves dates to the same weekday one year on", () => {
    expect(nextYearSameWeekday("2026-09-12")).toBe("2027-09-11");
    expect(nextYearSameWeekday("2027-01-02")).toBe("2028-01-01");
    expect(nextYearSameWeekday("2024-03-02")).toBe("2025-03-01");
    expect(nextYearSameWeekday("2028-02-27")).toBe("2029-02-25");
  });

  it("runs the nightly copy for events that just finished, once even when two run together", async () => {
    const before = await t.database.db.$count(events);
    // Two instances running the job at once copy each event once.
    const [first, second] = await Promise.all([
      t.app.services.editor.copyDueEditions(),
      t.app.services.editor.copyDueEditions(),
    ]);
    const created = [...first, ...second];
    expect(created.length).toBeGreaterThan(0);
    expect(Math.min(first.length, second.length)).toBe(0);
    expect(await t.database.db.$count(events)).toBe(before + created.length);
    // Nothing is copied twice.
    expect(await t.app.services.editor.copyDueEditions()).toEqual([]);
  });
});
