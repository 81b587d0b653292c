import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { type ReceivedMail, startTestSmtpServer, type TestSmtpServer } from "../../tests/support/smtp-server.ts";
import { favorites } from "../engagement/engagement.tables.ts";
import { eventHistory, events } from "../events/events.tables.ts";
import { users } from "../identity/identity.tables.ts";
import { MAX_SAVED_SEARCHES } from "./alerts.contract.ts";
import { DIGEST_QUEUE } from "./alerts.service.server.ts";
import { savedSearches } from "./alerts.tables.ts";

let t: TestApp;
let smtp: TestSmtpServer;
let now = new Date(TEST_REFERENCE_DATE);

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ clock: () => now, env: { SMTP_URL: smtp.url }, runJobs: true });
  // The seed's rows were written at the machine's time: every listing is made older than the
  // test clock, so that only what a test publishes is "new".
  await t.database.db.execute(sql`UPDATE events SET created_at = '2026-01-01T00:00:00Z'`);
  await t.database.db.execute(sql`UPDATE event_history SET created_at = '2026-01-01T00:00:00Z'`);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Member = { id: number; cookie: string; email: string };

function request(method: string, url: string, member?: Member | null, body?: unknown, locale = "fr") {
  return t.app.inject({
    method: method as "GET",
    url,
    headers: {
      ...accessHeaders,
      "x-locale": locale,
      ...(member ? { cookie: member.cookie } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}

/** A member whose mails are in `locale`. */
async function member(locale: "fr" | "en" = "fr", options: { verified?: boolean } = {}): Promise<Member> {
  const m = await testMember(t, { verified: options.verified ?? true });
  if (locale === "en") await t.database.db.update(users).set({ locale: "en" }).where(eq(users.id, m.id));
  return m;
}

const used = new Set<number>();
/** An upcoming active event of the seed (not cancelled), its sport key and department. */
async function upcomingEvent() {
  const list = await t.database.db.execute(
    sql`SELECT e.id, e.slug, e.name, e.start_date::text AS start_date, e.department_code, s.key AS sport
        FROM events e JOIN sports s ON s.id = e.sport_id
        WHERE e.status = 'active' AND NOT e.cancelled AND e.start_date > DATE '2026-06-20'
          AND e.department_code IS NOT NULL
        ORDER BY e.id`,
  );
  const rows = (
    list as unknown as {
      rows: { id: number; slug: string; name: string; start_date: string; department_code: string; sport: string }[];
    }
  ).rows;
  const free = rows.find((r) => !used.has(r.id));
  if (!free) throw new Error("no event left");
  used.add(free.id);
  return free;
}

/** Alert mails (they all carry List-Unsubscribe) to `email`; sign-up codes are left out. */
const isAlertTo = (email: string) => (m: ReceivedMail) =>
  m.to.includes(email) && Boolean(m.headers["list-unsubscribe"]);
const mailsTo = (email: string) => smtp.messages.filter(isAlertTo(email));

/** Lets queued mail jobs run, then returns how many mails `email` got in all. */
async function settle(email: string): Promise<number> {
  await t.app.jobs.drain();
  await new Promise((resolve) => setTimeout(resolve, 150));
  return mailsTo(email).length;
}

describe("saved searches API", () => {
  it("needs a signed-in member, and a verified address to save", async () => {
    expect((await request("GET", "/api/user/alerts")).statusCode).toBe(401);
    expect((await request("POST", "/api/user/alerts", null, { query: "sport=trail" })).statusCode).toBe(401);
    const unverified = await member("fr", { verified: false });
    const refused = await request("POST", "/api/user/alerts", unverified, { query: "sport=trail" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
    expect((await request("GET", "/api/user/alerts", unverified)).json().searches).toEqual([]);
  });

  it("normalises the query through the search's parser (junk and page parameters dropped)", async () => {
    const m = await member();
    const created = await request("POST", "/api/user/alerts", m, {
      query: "/?page=3&foo=bar&sport=trail,trail&department=74&sort=newest&view=map",
      label: "  Trail   en Haute-Savoie ",
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ query: "sport=trail&department=74", label: "Trail en Haute-Savoie" });
    // The same search in another spelling is the same alert.
    const again = await request("POST", "/api/user/alerts", m, { query: "department=74&sport=trail" });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(created.json().id);
    const list = (await request("GET", "/api/user/alerts", m)).json();
    expect(list.searches).toHaveLength(1);
    expect(list.max).toBe(MAX_SAVED_SEARCHES);
  });

  it("refuses a search without any filter and bad input with a translated message, saving nothing", async () => {
    const m = await member();
    const empty = await request("POST", "/api/user/alerts", m, { query: "page=2&foo=bar" }, "en");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({ code: "ALERT_NEEDS_FILTER", field: "query" });
    expect(empty.json().error.message).toMatch(/at least one filter/);
    const fr = await request("POST", "/api/user/alerts", m, { query: "" }, "fr");
    expect(fr.json().error.message).toMatch(/au moins un filtre/);
    expect((await request("POST", "/api/user/alerts", m, { query: 42 })).statusCode).toBe(400);
    expect(
      (await request("POST", "/api/user/alerts", m, { query: "sport=trail", label: "x".repeat(121) })).statusCode,
    ).toBe(400);
    expect((await request("GET", "/api/user/alerts", m)).json().searches).toEqual([]);
  });

  it(`keeps at most ${MAX_SAVED_SEARCHES} per member, even under parallel requests`, async () => {
    const m = await member();
    const answers = await Promise.all(
      Array.from({ length: MAX_SAVED_SEARCHES + 4 }, (_, i) =>
        request("POST", "/api/user/alerts", m, { query: `distanceMin=${i + 1}` }, "en"),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(MAX_SAVED_SEARCHES);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(refused).toHaveLength(4);
    expect(refused[0].json().error.code).toBe("ALERT_LIMIT_REACHED");
    expect(refused[0].json().error.message).toMatch(/20 alerts/);
    expect((await request("GET", "/api/user/alerts", m)).json().searches).toHaveLength(MAX_SAVED_SEARCHES);
  });

  it("deletes only the member's own saved searches", async () => {
    const owner = await member();
    const other = await member();
    const { id } = (await request("POST", "/api/user/alerts", owner, { query: "sport=trail&distanceMin=5" })).json();
    const stranger = await request("DELETE", `/api/user/alerts/${id}`, other);
    expect(stranger.statusCode).toBe(404);
    expect((await request("GET", "/api/user/alerts", owner)).json().searches).toHaveLength(1);
    expect((await request("DELETE", `/api/user/alerts/${id}`, owner)).statusCode).toBe(200);
    expect((await request("GET", "/api/user/alerts", owner)).json().searches).toHaveLength(0);
    expect((await request("DELETE", "/api/user/alerts/abc", owner)).statusCode).toBe(400);
  });

  it("turns mail kinds off and on; unknown kinds are refused", async () => {
    const m = await member();
    const bad = await request("PUT", "/api/user/alerts/preferences", m, { muted: ["newsletter"] });
    expect(bad.statusCode).toBe(400);
    const set = await request("PUT", "/api/user/alerts/preferences", m, { muted: ["event_changed", "search_digest"] });
    expect(set.json()).toEqual({ muted: ["search_digest", "event_changed"] });
    expect((await request("GET", "/api/user/alerts", m)).json().muted).toEqual(["search_digest", "event_changed"]);
    await request("PUT", "/api/user/alerts/preferences", m, { muted: [] });
    expect((await request("GET", "/api/user/alerts", m)).json().muted).toEqual([]);
  });

  it("the GDPR export includes saved searches and alert preferences", async () => {
    const m = await member();
    await request("POST", "/api/user/alerts", m, { query: "sport=trail&region=84", label: "Trail AURA" });
    await request("PUT", "/api/user/alerts/preferences", m, { muted: ["registration_opens"] });
    const exported = await request("GET", "/api/me/export", m);
    expect(exported.statusCode).toBe(200);
    expect(JSON.parse(exported.body).alerts).toMatchObject({
      savedSearches: [{ label: "Trail AURA", query: "sport=trail&region=84", lastSentAt: null }],
      mutedKinds: ["registration_opens"],
    });
  });
});

describe("weekly digest", () => {
  it("mails the races published since the alert, once, in the member's language; nothing when nothing is new", async () => {
    const event = await upcomingEvent();
    const fr = await member("fr");
    const en = await member("en");
    const quiet = await member("fr");
    const query = `sport=${event.sport}&department=${event.department_code}`;
    for (const m of [fr, en])
      expect((await request("POST", "/api/user/alerts", m, { query, label: "Mon alerte" })).statusCode).toBe(201);
    // A search nothing new matches.
    await request("POST", "/api/user/alerts", quiet, { query: "sport=trail&department=2A&distanceMin=300" });

    // Nothing published yet: no mail at all.
    now = new Date(now.getTime() + 60_000);
    await t.app.services.alerts.sendDigests();
    expect(await settle(fr.email)).toBe(0);

    // The event is validated (published) after the alerts were made.
    now = new Date(now.getTime() + 3_600_000);
    await t.database.db.insert(eventHistory).values({ eventId: event.id, type: "validation", createdAt: now });
    now = new Date(now.getTime() + 86_400_000);
    // Through the job queue, as the weekly schedule runs it.
    await t.app.jobs.enqueue(DIGEST_QUEUE, {});
    const frMail = await smtp.waitFor(isAlertTo(fr.email), 10_000);
    const enMail = await smtp.waitFor(isAlertTo(en.email), 10_000);
    expect(frMail.subject).toMatch(/nouvelles? courses? pour votre alerte « Mon alerte »/);
    expect(frMail.text).toContain(event.name);
    const day = new Date(`${event.start_date}T12:00:00Z`);
    const frDay = new Intl.DateTimeFormat("fr-FR", {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(day);
    // « samedi 14 juin 2026 » (the first of the month is written "1er").
    expect(frMail.text).toContain(day.getUTCDate() === 1 ? frDay.replace(/ 1 /, " 1er ") : frDay);
    expect(frMail.html).toContain(`/course/${event.slug}`);
    expect(enMail.subject).toMatch(/new races? for your alert “Mon alerte”/);
    expect(enMail.html).toContain(`/en/race/${event.slug}`);
    expect(enMail.text).toContain(
      new Intl.DateTimeFormat("en-GB", {
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        timeZone: "UTC",
      })
        .format(day)
        .replace(",", ""),
    );
    // One-click unsubscribe on every alert mail.
    expect(frMail.headers["list-unsubscribe"]).toMatch(/^<http:\/\/[^>]+\/alertes\/desabonnement\?token=[^>]+>$/);
    expect(frMail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(frMail.html).toMatch(/Se désabonner de ces alertes/);

    // Run again, the same day and a week later: nothing new, nothing sent.
    expect(await t.app.services.alerts.sendDigests()).toBe(0);
    now = new Date(now.getTime() + 7 * 86_400_000);
    expect(await t.app.services.alerts.sendDigests()).toBe(0);
    expect(await settle(fr.email)).toBe(1);
    expect(mailsTo(en.email)).toHaveLength(1);
    expect(await settle(quiet.email)).toBe(0);
    const [saved] = await t.database.db.select().from(savedSearches).where(eq(savedSearches.userId, fr.id));
    expect(saved.lastSentAt).not.toBeNull();
  });

  it("a muted digest is not sent, and its one-click unsubscribe deletes the saved search", async () => {
    const event = await upcomingEvent();
    const muted = await member();
    const subscriber = await member();
    const query = `department=${event.department_code}&sport=${event.sport}&past=1`;
    await request("POST", "/api/user/alerts", muted, { query });
    await request("POST", "/api/user/alerts", subscriber, { query });
    await request("PUT", "/api/user/alerts/preferences", muted, { muted: ["search_digest"] });
    now = new Date(now.getTime() + 60_000);
    await t.database.db.update(events).set({ createdAt: now }).where(eq(events.id, event.id));
    now = new Date(now.getTime() + 60_000);
    await t.app.services.alerts.sendDigests();
    const mail = await smtp.waitFor(isAlertTo(subscriber.email), 10_000);
    expect(await settle(muted.email)).toBe(0);

    const link = new URL(mail.headers["list-unsubscribe"].slice(1, -1));
    // The mail client's POST: no session, no access header, a form body.
    const oneClick = await t.app.inject({
      method: "POST",
      url: link.pathname + link.search,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect((await request("GET", "/api/user/alerts", subscriber)).json().searches).toEqual([]);
  });
});

describe("sending the digest now", () => {
  it("is for admins only", async () => {
    expect((await request("POST", "/api/admin/alerts/digest", null, {})).statusCode).toBe(401);
    expect((await request("POST", "/api/admin/alerts/digest", await member(), {})).statusCode).toBe(403);
    const admin = await testMember(t, { role: "admin" });
    const answer = await request("POST", "/api/admin/alerts/digest", admin, {});
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ queued: expect.any(Number) });
  });
});

describe("registration opens", () => {
  it("mails followers the day before and on the day (Paris days), once each, not when muted", async () => {
    const event = await upcomingEvent();
    const follower = await member("fr");
    const english = await member("en");
    const mutedFollower = await member("fr");
    for (const m of [follower, english, mutedFollower]) {
      await t.database.db.insert(favorites).values({ userId: m.id, eventId: event.id });
    }
    await request("PUT", "/api/user/alerts/preferences", mutedFollower, { muted: ["registration_opens"] });
    // Opens at 00:30 in Paris on 10 June (22:30 UTC on the 9th): the Paris day is what counts.
    await t.database.db
      .update(events)
      .set({ registrationOpensAt: new Date("2026-06-09T22:30:00Z") })
      .where(eq(events.id, event.id));
    now = new Date("2026-06-08T05:00:00Z");
    await t.app.services.alerts.sendRegistrationReminders();
    expect(await settle(follower.email)).toBe(0);

    now = new Date("2026-06-09T05:00:00Z");
    await t.app.services.alerts.sendRegistrationReminders();
    const eve = await smtp.waitFor(isAlertTo(follower.email), 10_000);
    expect(eve.subject).toBe(`Ouverture des inscriptions : ${event.name}`);
    expect(eve.text).toContain("ouvrent demain, mercredi 10 juin 2026 à 0\u00a0h\u00a030");
    const en = await smtp.waitFor(isAlertTo(english.email), 10_000);
    expect(en.text).toContain("opens tomorrow, Wednesday 10 June 2026 at 0:30");
    expect(en.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // The job runs again that day (a retry, a second server): nothing more.
    await t.app.services.alerts.sendRegistrationReminders();
    expect(await settle(follower.email)).toBe(1);

    now = new Date("2026-06-10T05:00:00Z");
    await t.app.services.alerts.sendRegistrationReminders();
    await t.app.services.alerts.sendRegistrationReminders();
    expect(await settle(follower.email)).toBe(2);
    expect(mailsTo(follower.email)[1].text).toContain("ouvrent aujourd'hui");
    expect(await settle(mutedFollower.email)).toBe(0);

    now = new Date("2026-06-11T05:00:00Z");
    await t.app.services.alerts.sendRegistrationReminders();
    expect(await settle(follower.email)).toBe(2);
  });
});

describe("cancelled or postponed favourite", () => {
  it("mails each follower once per change, without delaying the editor; the one-click POST mutes", async () => {
    const event = await upcomingEvent();
    const admin = await testMember(t, { role: "admin" });
    const follower = await member("fr");
    const english = await member("en");
    for (const m of [follower, english])
      await t.database.db.insert(favorites).values({ userId: m.id, eventId: event.id });
    const stranger = await member("fr");

    now = new Date(now.getTime() + 60_000);
    const cancelled = await request("POST", `/api/event/${event.id}/status/cancel`, admin, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const mail = await smtp.waitFor(isAlertTo(follower.email), 10_000);
    expect(mail.subject).toBe(`${event.name} est annulée`);
    const en = await smtp.waitFor(isAlertTo(english.email), 10_000);
    expect(en.subject).toBe(`${event.name} is cancelled`);
    // The job running twice (a retry after a crash) sends nothing more.
    const [job] = (
      (await t.database.db.execute(
        sql`SELECT payload FROM jobs WHERE queue = 'alerts.event-changed' ORDER BY id DESC LIMIT 1`,
      )) as unknown as { rows: { payload: unknown }[] }
    ).rows;
    expect(job).toBeDefined();
    expect(await settle(follower.email)).toBe(1);
    expect(await settle(stranger.email)).toBe(0);

    now = new Date(now.getTime() + 60_000);
    const postponed = await request("POST", `/api/event/${event.id}/status/postpone`, admin, {
      startDate: "2026-10-04",
    });
    expect(postponed.statusCode, postponed.body).toBe(200);
    const second = await smtp.waitFor((m) => isAlertTo(follower.email)(m) && m.subject.includes("reportée"), 10_000);
    expect(second.text).toContain("reporté");
    expect(second.text).toContain("dimanche 4 octobre 2026");
    expect(await settle(follower.email)).toBe(2);

    // One click in the mail client: no more such mails for this member.
    const link = new URL(second.headers["list-unsubscribe"].slice(1, -1));
    const oneClick = await t.app.inject({
      method: "POST",
      url: link.pathname + link.search,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toEqual({ ok: true, kind: "event_changed" });
    expect((await request("GET", "/api/user/alerts", follower)).json().muted).toEqual(["event_changed"]);
    now = new Date(now.getTime() + 60_000);
    await request("POST", `/api/event/${event.id}/status/postpone`, admin, { startDate: "2026-10-11" });
    await smtp.waitFor((m) => isAlertTo(english.email)(m) && m.text.includes("11 October 2026"), 10_000);
    expect(await settle(follower.email)).toBe(2);
  });
});

describe("unsubscribe link", () => {
  it("refuses a forged or altered token and changes nothing", async () => {
    const m = await member();
    const forged = await t.app.inject({
      method: "POST",
      url: `/alertes/desabonnement?token=${m.id}.event_changed.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      headers: { "content-type": "application/x-www-form-urlencoded", "x-locale": "en" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe("INVALID_TOKEN");
    expect((await request("GET", "/api/user/alerts", m)).json().muted).toEqual([]);
  });

  it("the page's button posts to the same address and comes back to the page", async () => {
    const m = await member();
    const token = t.app.services.alerts.tokenFor({ userId: m.id, kind: "registration_opens" });
    const sent = await t.app.inject({
      method: "POST",
      url: `/en/alerts/unsubscribe?token=${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "confirm=1",
    });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`/en/alerts/unsubscribe?token=${encodeURIComponent(token)}&done=1`);
    expect((await request("GET", "/api/user/alerts", m)).json().muted).toEqual(["registration_opens"]);
    // Twice is fine.
    const again = await t.app.inject({ method: "POST", url: `/en/alerts/unsubscribe?token=${token}` });
    expect(again.statusCode).toBe(200);
    // A token names one member: another member's preferences are untouched.
    const other = await member();
    expect((await request("GET", "/api/user/alerts", other)).json().muted).toEqual([]);
  });
});
