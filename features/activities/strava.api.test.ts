import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { type FakeActivity, makeRunStreams, type StravaApi, startStravaApi } from "../../tests/support/strava-api.ts";
import { secretBox } from "../identity/secrets.server.ts";
import { jobs } from "../jobs/jobs.tables.ts";
import { STRAVA_ATHLETE_EVENT_LIMIT, STRAVA_WEBHOOK_LIMIT } from "./activities.service.server.ts";
import { activities, stravaConnections } from "./activities.tables.ts";
import { INTERACTIVE_RESERVE, SHORT_WINDOW_MS } from "./rate-budget.server.ts";

/**
 * The Strava side of activities against a local server that plays Strava's API
 * (tests/support/strava-api.ts): connect with activity:read_all, sealed tokens and their refresh,
 * the history paged in background jobs with progress, streams, the push subscription (handshake,
 * create/update/delete, deauthorization), rate limits that make jobs wait, and disconnect.
 */
const SECRET = "a test secret of at least thirty-two characters";
let now = TEST_REFERENCE_DATE.getTime();
let t: TestApp;
let strava: StravaApi;
const box = secretBox(SECRET, "strava-tokens");
let athleteSeq = 9000;
let activitySeq = 700_000;

function activity(options: { start: Date; km: number; name?: string; sport?: string; manual?: boolean }): FakeActivity {
  return {
    id: ++activitySeq,
    name: options.name ?? `Run ${activitySeq}`,
    sport_type: options.sport ?? "Run",
    start_date: options.start.toISOString(),
    distance: options.km * 1000,
    moving_time: Math.round(options.km * 330),
    elapsed_time: Math.round(options.km * 330),
    total_elevation_gain: 12,
    start_latlng: options.manual ? [] : [45.9, 6.12],
    manual: options.manual ?? false,
    private: false,
  };
}

/** An athlete on the fake Strava with `n` runs, one a day back from the reference date; the first `withStreams` recorded. */
function athleteWith(n: number, withStreams: number) {
  const id = ++athleteSeq;
  strava.addAthlete(id);
  const made: FakeActivity[] = [];
  for (let i = 0; i < n; i++) {
    const run = activity({ start: new Date(TEST_REFERENCE_DATE.getTime() - (i + 1) * 86_400_000), km: 3 });
    strava.addActivity(
      id,
      run,
      i < withStreams ? makeRunStreams({ lat: 45.9, lng: 6.12, distanceKm: 3, stepS: 10, heartRate: true }) : undefined,
    );
    made.push(run);
  }
  return { id, activities: made };
}

const member = (cookie: string) => ({ ...accessHeaders, cookie });

/** The whole connect flow as a browser goes through it: our link, Strava's page, our callback. */
async function connect(cookie: string, athleteId: number, on: TestApp = t): Promise<string> {
  strava.signInAs(athleteId);
  const start = await on.app.inject({ method: "GET", url: "/api/strava/connect", headers: member(cookie) });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(String(start.headers.location));
  expect(authorize.searchParams.get("scope")).toBe("read,activity:read_all");
  const atStrava = await fetch(authorize, { redirect: "manual" });
  const back = new URL(String(atStrava.headers.get("location")));
  const done = await on.app.inject({ method: "GET", url: `${back.pathname}${back.search}`, headers: member(cookie) });
  expect(done.statusCode).toBe(302);
  return String(done.headers.location);
}

async function status(cookie: string) {
  const response = await t.app.inject({ method: "GET", url: "/api/user/activity/strava", headers: member(cookie) });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function list(cookie: string, query = "") {
  const response = await t.app.inject({ method: "GET", url: `/api/user/activities${query}`, headers: member(cookie) });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function connection(userId: number, on: TestApp = t) {
  const [row] = await on.database.db.select().from(stravaConnections).where(eq(stravaConnections.userId, userId));
  return row;
}

/** A push event as Strava (or anyone on the Internet) posts it, from `remoteAddress`. */
const webhook = (body: object, options: { on?: TestApp; remoteAddress?: string } = {}) =>
  (options.on ?? t).app.inject({
    method: "POST",
    url: "/api/strava/webhook",
    // Strava sends neither a session nor the site's access header.
    headers: { "content-type": "application/json" },
    payload: JSON.stringify(body),
    remoteAddress: options.remoteAddress,
  });

const deauthorization = (athleteId: number, extra: object = {}) => ({
  ...event(athleteId, athleteId, "update", { updates: { authorized: "false" } }),
  object_type: "athlete",
  ...extra,
});

/** The member's Strava activities' external ids, straight from the table. */
async function stravaIds(userId: number, on: TestApp = t) {
  const found = await on.database.db
    .select({ externalId: activities.externalId })
    .from(activities)
    .where(eq(activities.userId, userId));
  return found.map((a) => a.externalId).sort();
}

/** Strava event jobs not done yet, with why (status, attempts, last error). */
async function pendingEventJobs() {
  const found = await t.database.db
    .select({ status: jobs.status, attempts: jobs.attempts, runAt: jobs.runAt, error: jobs.lastError })
    .from(jobs)
    .where(sql`${jobs.queue} = 'activities.strava-event' AND ${jobs.status} <> 'done'`);
  return found;
}

/** Requests the app made to Strava since `before` (an index into strava.requests). */
const stravaCallsSince = (before: number) => strava.requests.slice(before).map((r) => `${r.method} ${r.path}`);

const event = (owner: number, object: number, aspect: "create" | "update" | "delete", extra: object = {}) => ({
  object_type: "activity",
  object_id: object,
  aspect_type: aspect,
  owner_id: owner,
  subscription_id: 77,
  event_time: Math.floor(now / 1000),
  updates: {},
  ...extra,
});

beforeAll(async () => {
  strava = await startStravaApi({ now: () => now });
  t = await createTestApp({
    clock: () => new Date(now),
    env: {
      ...strava.env,
      SESSION_SECRET: SECRET,
      STRAVA_WEBHOOK_VERIFY_TOKEN: "verify-me-please",
      STRAVA_SUBSCRIPTION_ID: "77",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await strava?.close();
});
beforeEach(async () => {
  now = TEST_REFERENCE_DATE.getTime();
  // Each test starts with Strava's quota unspent: every test runs in the same 15-minute window of
  // the fixed clock, and a test's count of Strava calls must not depend on what the tests before it
  // spent (one run on a loaded machine saw 14 calls where 60 were due; cause not confirmed).
  Object.assign(strava.usage, { window: 0, short: 0, day: 0, daily: 0 });
  await t.database.db.execute(
    sql`UPDATE provider_rate_limits SET short_usage = 0, daily_usage = 0, refused = 0,
          short_window = ${new Date(Math.floor(now / SHORT_WINDOW_MS) * SHORT_WINDOW_MS).toISOString()}::timestamptz`,
  );
});

describe("connecting Strava and the first sync", () => {
  it("connects with activity:read_all, seals the tokens, and reads the history page by page with progress", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(120, 4);
    const before = strava.requests.length;
    expect(await connect(me.cookie, athlete.id)).toBe("/user/activity/strava?connected=1");

    const row = await connection(me.id);
    expect(row?.athleteId).toBe(athlete.id);
    expect(row?.scope).toBe("read,activity:read_all");
    // At rest the tokens are sealed: not the token, yet it opens to one Strava accepts.
    const token = box.open(row!.accessToken);
    expect(row!.accessToken).not.toContain(token);
    expect(strava.tokenValid(token)).toBe(true);
    expect((await status(me.cookie)).syncState).toBe("queued");

    // The background job reads one page, then books the next.
    await t.app.jobs.drain();
    const done = await status(me.cookie);
    expect(done).toMatchObject({
      connected: true,
      syncState: "idle",
      syncDone: 120,
      historyDone: true,
      activityCount: 120,
    });
    const made = strava.requests.slice(before);
    const pages = made.filter((r) => r.path === "/api/v3/athlete/activities");
    expect(pages.map((p) => [p.query.page, p.query.per_page])).toEqual([
      ["1", "50"],
      ["2", "50"],
      ["3", "50"],
    ]);
    const streams = made.filter((r) => r.path.endsWith("/streams"));
    expect(streams).toHaveLength(120);
    expect(streams[0]?.query).toMatchObject({ keys: "latlng,altitude,time,heartrate", key_by_type: "true" });

    const page = await list(me.cookie);
    expect(page.total).toBe(120);
    expect(page.activities[0].name).toBe(athlete.activities[0].name);
    expect(page.activities[0].stravaUrl).toBe(`https://www.strava.com/activities/${athlete.activities[0].id}`);
    // Newest first.
    const starts = page.activities.map((a: { startedAt: string }) => a.startedAt);
    expect([...starts].sort().reverse()).toEqual(starts);

    // A recorded one has its track, splits and heart rate from the streams.
    const detail = await t.app.inject({
      method: "GET",
      url: `/api/user/activity/${page.activities[0].id}`,
      headers: member(me.cookie),
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const body = detail.json();
    expect(body.points.length).toBeGreaterThan(10);
    expect(body.splits.map((s: { km: number }) => s.km)).toEqual([1, 2, 3]);
    expect(Math.abs(body.splits[0].seconds - 330)).toBeLessThanOrEqual(3);
    expect(body.averageHeartRate).toBeGreaterThan(130);
    expect(body.heartRate.length).toBeGreaterThan(5);
  });

  it("refuses a grant without activity:read_all, keeping nothing", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(1, 0);
    strava.grantScope("read");
    try {
      expect(await connect(me.cookie, athlete.id)).toBe("/user/activity/strava?error=STRAVA_SCOPE_MISSING");
    } finally {
      strava.grantScope(null);
    }
    expect(await connection(me.id)).toBeUndefined();
  });

  it("refuses a callback whose state another member started", async () => {
    const me = await testMember(t);
    const other = await testMember(t);
    const athlete = athleteWith(1, 0);
    strava.signInAs(athlete.id);
    const start = await t.app.inject({ method: "GET", url: "/api/strava/connect", headers: member(me.cookie) });
    const atStrava = await fetch(String(start.headers.location), { redirect: "manual" });
    const back = new URL(String(atStrava.headers.get("location")));
    const done = await t.app.inject({
      method: "GET",
      url: `${back.pathname}${back.search}`,
      headers: member(other.cookie),
    });
    expect(done.headers.location).toBe("/user/activity/strava?error=INVALID_TOKEN");
    expect(await connection(other.id)).toBeUndefined();
  });

  it("refreshes the access token before it expires, and keeps the new one sealed", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(2, 0);
    strava.setTokenLifetime(120);
    try {
      await connect(me.cookie, athlete.id);
    } finally {
      strava.setTokenLifetime(21_600);
    }
    const first = box.open((await connection(me.id))!.accessToken);
    const before = strava.requests.length;
    await t.app.jobs.drain();
    const refreshed = strava.requests.slice(before).filter((r) => r.path === "/oauth/token");
    expect(refreshed.map((r) => r.form.grant_type)).toEqual(["refresh_token"]);
    const row = await connection(me.id);
    const second = box.open(row!.accessToken);
    expect(second).not.toBe(first);
    expect(strava.tokenValid(second)).toBe(true);
    expect(row!.expiresAt.getTime()).toBeGreaterThan(now + 21_000_000);
    expect((await status(me.cookie)).activityCount).toBe(2);
  });
});

describe("Strava's rate limits", () => {
  it("makes the sync wait for the next window on a 429, then go on", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(3, 0);
    await connect(me.cookie, athlete.id);
    strava.force429(1);
    await t.app.jobs.drain();
    const waiting = await status(me.cookie);
    expect(waiting.syncState).toBe("waiting");
    const windowEnd = Math.floor(now / SHORT_WINDOW_MS) * SHORT_WINDOW_MS + SHORT_WINDOW_MS;
    expect(Date.parse(waiting.resumeAt)).toBe(windowEnd + 1000);
    // The job waits (pending, due then), it has not failed.
    const [job] = await t.database.db
      .select()
      .from(jobs)
      .where(sql`${jobs.queue} = 'activities.strava-sync' AND ${jobs.status} = 'pending'`);
    expect(job?.runAt.getTime()).toBe(windowEnd + 1000);
    expect(await t.app.jobs.drain()).toBe(0);
    now = windowEnd + 2000;
    await t.app.jobs.drain();
    expect(await status(me.cookie)).toMatchObject({ syncState: "idle", activityCount: 3 });
  });

  it("counts each activity once in the progress when a page stopped by the limit is read again", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(4, 4);
    await connect(me.cookie, athlete.id);
    // Two requests left for background jobs in this window: the list, then one activity's streams.
    const window = new Date(Math.floor(now / SHORT_WINDOW_MS) * SHORT_WINDOW_MS).toISOString();
    await t.database.db.execute(
      sql`UPDATE provider_rate_limits SET short_usage = short_limit - ${INTERACTIVE_RESERVE} - 2, short_window = ${window}::timestamptz`,
    );
    await t.app.jobs.drain();
    expect(await status(me.cookie)).toMatchObject({ syncState: "waiting", syncDone: 1 });
    now = Math.floor(now / SHORT_WINDOW_MS) * SHORT_WINDOW_MS + SHORT_WINDOW_MS + 5_000;
    await t.app.jobs.drain();
    expect(await status(me.cookie)).toMatchObject({ syncState: "idle", syncDone: 4, activityCount: 4 });
  });

  it("holds jobs back from the shared budget before asking Strava, and reads Strava's usage headers", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(2, 0);
    await connect(me.cookie, athlete.id);
    // Another instance spent the window: this one must not send a request.
    await t.database.db.execute(
      sql`UPDATE provider_rate_limits SET short_usage = short_limit, short_window = ${new Date(Math.floor(now / SHORT_WINDOW_MS) * SHORT_WINDOW_MS).toISOString()}::timestamptz`,
    );
    const before = strava.requests.length;
    await t.app.jobs.drain();
    expect(strava.requests.length).toBe(before);
    expect((await status(me.cookie)).syncState).toBe("waiting");
    now = Math.floor(now / SHORT_WINDOW_MS) * SHORT_WINDOW_MS + SHORT_WINDOW_MS + 5_000;
    await t.app.jobs.drain();
    expect((await status(me.cookie)).activityCount).toBe(2);
    // Strava's own count (headers) is what the budget now holds.
    const state = await t.app.services.activities.budget.state();
    expect(state.shortUsage).toBe(strava.usage.short);
    expect(state.dailyUsage).toBe(strava.usage.daily);
  });
});

describe("the push subscription", () => {
  it("answers the validation handshake only with our verify token", async () => {
    const ok = await t.app.inject({
      method: "GET",
      url: "/api/strava/webhook?hub.mode=subscribe&hub.verify_token=verify-me-please&hub.challenge=15f7d1a91c1f40f8a748fd134752feb3",
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ "hub.challenge": "15f7d1a91c1f40f8a748fd134752feb3" });
    const wrong = await t.app.inject({
      method: "GET",
      url: "/api/strava/webhook?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=abc",
    });
    expect(wrong.statusCode).toBe(403);
    const missing = await t.app.inject({ method: "GET", url: "/api/strava/webhook?hub.mode=subscribe" });
    expect(missing.statusCode).toBe(400);
  });

  it("applies create, update and delete events to the member's activities, each read again from Strava", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(1, 0);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    const fresh = activity({ start: new Date(now - 3_600_000), km: 2, name: "Footing du soir" });
    strava.addActivity(athlete.id, fresh, makeRunStreams({ lat: 45.9, lng: 6.12, distanceKm: 2, stepS: 10 }));
    expect((await webhook(event(athlete.id, fresh.id, "create"))).statusCode).toBe(200);
    await t.app.jobs.drain();
    let page = await list(me.cookie);
    expect(page.activities[0]).toMatchObject({ name: "Footing du soir", distance: 2000 });
    const id = page.activities[0].id;
    const detail = await t.app.inject({ method: "GET", url: `/api/user/activity/${id}`, headers: member(me.cookie) });
    expect(detail.json().splits).toHaveLength(2);

    fresh.name = "Footing du soir avec Lou";
    await webhook(event(athlete.id, fresh.id, "update", { updates: { title: fresh.name } }));
    await t.app.jobs.drain();
    page = await list(me.cookie);
    expect(page.activities[0]).toMatchObject({ id, name: "Footing du soir avec Lou" });

    // Deleted on Strava: the event is answered at once, the copy goes once Strava answers 404.
    strava.removeActivity(athlete.id, fresh.id);
    const before = strava.requests.length;
    expect((await webhook(event(athlete.id, fresh.id, "delete"))).statusCode).toBe(200);
    expect(strava.requests.length).toBe(before);
    await t.app.jobs.drain();
    expect(stravaCallsSince(before)).toEqual([`GET /api/v3/activities/${fresh.id}`]);
    page = await list(me.cookie);
    expect(page.activities.map((a: { id: number }) => a.id)).not.toContain(id);
    expect(page.total).toBe(1);
  });

  it("ignores events of another subscription and of athletes not connected here", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(1, 0);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    const [only] = (await list(me.cookie)).activities;
    const before = strava.requests.length;
    for (const forged of [
      { ...event(athlete.id, athlete.activities[0].id, "delete"), subscription_id: 78 },
      deauthorization(athlete.id, { subscription_id: 78 }),
      { ...event(athlete.id, 123, "create"), subscription_id: 78 },
    ]) {
      const refused = await webhook(forged);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe("FORBIDDEN");
    }
    expect((await webhook(event(424242, athlete.activities[0].id, "delete"))).statusCode).toBe(200);
    await t.app.jobs.drain();
    expect(stravaCallsSince(before)).toEqual([]);
    expect(await connection(me.id)).toBeDefined();
    expect((await list(me.cookie)).activities.map((a: { id: number }) => a.id)).toEqual([only.id]);
    const bad = await webhook({ object_type: "club", object_id: 1 });
    expect(bad.statusCode).toBe(400);
  });

  it("keeps an activity Strava still has when told it was deleted", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(2, 0);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    const [kept] = athlete.activities;
    const before = strava.requests.length;
    expect((await webhook(event(athlete.id, kept!.id, "delete"))).statusCode).toBe(200);
    await t.app.jobs.drain();
    expect(stravaCallsSince(before)[0]).toBe(`GET /api/v3/activities/${kept!.id}`);
    expect(await stravaIds(me.id)).toEqual(athlete.activities.map((a) => String(a.id)).sort());
  });

  it("deletes everything of a member who deauthorized Dossard on Strava, once Strava confirms it", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(3, 1);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    expect((await status(me.cookie)).activityCount).toBe(3);
    strava.revoke(athlete.id);
    const before = strava.requests.length;
    const response = await webhook(deauthorization(athlete.id));
    expect(response.statusCode).toBe(200);
    await t.app.jobs.drain();
    expect(stravaCallsSince(before)).toEqual(["GET /api/v3/athlete"]);
    expect(await connection(me.id)).toBeUndefined();
    expect((await list(me.cookie)).total).toBe(0);
  });

  it("keeps the connection and the activities when Strava says the member is still authorised", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(3, 1);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    const before = strava.requests.length;
    // Anyone can post this: the subscription id is no secret, the athlete id is public.
    expect((await webhook(deauthorization(athlete.id))).statusCode).toBe(200);
    await t.app.jobs.drain();
    expect(stravaCallsSince(before)).toEqual(["GET /api/v3/athlete"]);
    expect((await connection(me.id))?.athleteId).toBe(athlete.id);
    expect(await status(me.cookie)).toMatchObject({ connected: true, activityCount: 3 });
  });

  it("limits the events one address may post", async () => {
    const from = "203.0.113.7";
    for (let i = 0; i < STRAVA_WEBHOOK_LIMIT.max; i++) {
      expect((await webhook(event(424_000 + i, i, "create"), { remoteAddress: from })).statusCode).toBe(200);
    }
    const refused = await webhook(event(424_999, 1, "create"), { remoteAddress: from });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("TOO_MANY_ATTEMPTS");
    // Another address (Strava's other servers) is not held back.
    expect((await webhook(event(424_999, 1, "create"), { remoteAddress: "203.0.113.8" })).statusCode).toBe(200);
  });

  it("spends a bounded share of Strava's quota on one athlete's events", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(1, 0);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    const before = strava.requests.length;
    const first = 800_000;
    for (let i = 0; i <= STRAVA_ATHLETE_EVENT_LIMIT.max; i++) {
      const answer = await webhook(event(athlete.id, first + i, "create"), { remoteAddress: "203.0.113.20" });
      expect(answer.statusCode).toBe(200);
    }
    await t.app.jobs.drain();
    // A job that had to wait (a busy machine once left most of them waiting, cause not seen) runs
    // later: move the clock past any retry or rate-limit window until none is left.
    for (let step = 0; step < 4 && (await pendingEventJobs()).length > 0; step++) {
      now += SHORT_WINDOW_MS;
      await t.app.jobs.drain();
    }
    expect(await pendingEventJobs(), "event jobs left waiting").toEqual([]);
    const asked = new Set(
      stravaCallsSince(before)
        .filter((call) => call.startsWith("GET /api/v3/activities/"))
        .map((call) => Number(call.slice("GET /api/v3/activities/".length))),
    );
    // Each of the first STRAVA_ATHLETE_EVENT_LIMIT.max events cost one read; the one beyond, none.
    expect([...asked].sort()).toEqual(Array.from({ length: STRAVA_ATHLETE_EVENT_LIMIT.max }, (_, i) => first + i));
    expect(stravaCallsSince(before).length).toBeLessThanOrEqual(STRAVA_ATHLETE_EVENT_LIMIT.max + 4);
    expect(await stravaIds(me.id)).toEqual([String(athlete.activities[0]!.id)]);
  });
});

describe("the push subscription when STRAVA_SUBSCRIPTION_ID is not set", () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({
      clock: () => new Date(now),
      env: { ...strava.env, SESSION_SECRET: SECRET, STRAVA_WEBHOOK_VERIFY_TOKEN: "verify-me-please" },
    });
  });
  afterAll(() => bare?.close());

  it("acts on no event: no deauthorization, no deletion, no request to Strava", async () => {
    const me = await testMember(bare);
    const athlete = athleteWith(2, 0);
    await connect(me.cookie, athlete.id, bare);
    await bare.app.jobs.drain();
    const ids = await stravaIds(me.id, bare);
    expect(ids).toHaveLength(2);
    const before = strava.requests.length;
    for (const forged of [
      deauthorization(athlete.id),
      event(athlete.id, athlete.activities[0]!.id, "delete"),
      event(athlete.id, 123, "create"),
    ]) {
      const refused = await webhook(forged, { on: bare });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe("FORBIDDEN");
    }
    await bare.app.jobs.drain();
    expect(stravaCallsSince(before)).toEqual([]);
    expect((await connection(me.id, bare))?.athleteId).toBe(athlete.id);
    expect(await stravaIds(me.id, bare)).toEqual(ids);
  });
});

describe("disconnecting", () => {
  it("revokes the grant at Strava and deletes the imported activities, keeping uploaded files", async () => {
    const me = await testMember(t);
    const athlete = athleteWith(2, 1);
    await connect(me.cookie, athlete.id);
    await t.app.jobs.drain();
    const token = box.open((await connection(me.id))!.accessToken);
    await t.database.db.insert(activities).values({
      userId: me.id,
      provider: "file",
      fileKind: "gpx",
      name: "Mon fichier",
      sport: "run",
      startedAt: new Date(now),
      distance: 1000,
    });
    const response = await t.app.inject({
      method: "DELETE",
      url: "/api/user/activity/strava",
      headers: member(me.cookie),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ revoked: true, deleted: 2 });
    expect(strava.tokenValid(token)).toBe(false);
    expect(strava.requests.at(-1)).toMatchObject({ path: "/oauth/deauthorize", form: { access_token: token } });
    const page = await list(me.cookie);
    expect(page.activities.map((a: { name: string }) => a.name)).toEqual(["Mon fichier"]);
    expect(await status(me.cookie)).toMatchObject({ connected: false, activityCount: 0 });
    const again = await t.app.inject({
      method: "DELETE",
      url: "/api/user/activity/strava",
      headers: member(me.cookie),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("STRAVA_NOT_CONNECTED");
  });
});
