import { and, asc, desc, eq, gt, isNotNull, lt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { eventOrganizers } from "../editor/editor.tables.ts";
import { events } from "../events/events.tables.ts";
import { COMMENTS_PAGE_SIZE } from "./comments.contract.ts";

let t: TestApp;
let pastId: number;
let otherPastId: number;
let futureId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const past = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-20")))
    .orderBy(desc(events.startDate))
    .limit(2);
  const [future] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.status, "active"), gt(events.startDate, "2026-06-10")))
    .orderBy(asc(events.startDate))
    .limit(1);
  [pastId, otherPastId] = past.map((p) => p.id);
  futureId = future.id;
});
afterAll(() => t?.close());

const json = { ...accessHeaders, "content-type": "application/json" };
const post = (type: string, id: number, body: Record<string, unknown>, cookie?: string, locale = "fr") =>
  t.app.inject({
    method: "POST",
    url: `/api/comment/${type}/${id}`,
    headers: { ...json, "x-locale": locale, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  });
const list = (type: string, id?: number, page?: number) =>
  t.app.inject({ method: "GET", url: `/api/comments/${type}${id ? `/${id}` : ""}${page ? `?page=${page}` : ""}` });
const remove = (id: number, cookie?: string) =>
  t.app.inject({
    method: "DELETE",
    url: `/api/comment/${id}`,
    headers: { ...accessHeaders, ...(cookie ? { cookie } : {}) },
  });
const report = (id: number, cookie?: string, reason = "Insultant") =>
  t.app.inject({
    method: "POST",
    url: `/api/comment/report/${id}`,
    headers: { ...json, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ reason }),
  });

describe("POST /api/comment/{type}/{id}", () => {
  it("answers visitors and unverified members with the spec's messages and stores nothing", async () => {
    const anonymous = await post("event", pastId, { body: "Super course" });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.message).toBe("Identification requise.");
    const unverified = await testMember(t, { verified: false });
    const refused = await post("event", pastId, { body: "Super course" }, unverified.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: "EMAIL_VERIFICATION_REQUIRED",
      message: "Vérification de l'adresse e-mail requise.",
    });
    expect((await list("event", pastId)).json().total).toBe(0);
  });

  it("keeps plain text with its line breaks, refuses empty and too long text, and future races", async () => {
    const member = await testMember(t, { firstName: "Léa" });
    const created = await post(
      "event",
      pastId,
      { body: "  <b>Belle</b> course<script>x</script>\r\n\r\n\r\n\r\nMerci aux bénévoles !  ", rating: 4 },
      member.cookie,
    );
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().comment).toMatchObject({
      body: "Belle coursex\n\nMerci aux bénévoles !",
      rating: 4,
      author: { id: member.id, name: "Léa M." },
      deleted: false,
      editedAt: null,
    });
    expect((await post("event", pastId, { body: "   " }, member.cookie)).json().error.code).toBe("FIELD_REQUIRED");
    const long = await post("event", pastId, { body: "a".repeat(2001) }, member.cookie, "en");
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/2,000 characters/);
    expect((await post("event", pastId, { body: "a".repeat(2000) }, member.cookie)).statusCode).toBe(201);
    const future = await post("event", futureId, { body: "Hâte d'y être" }, member.cookie);
    expect(future.statusCode).toBe(409);
    expect(future.json().error.code).toBe("EVENT_NOT_YET_HELD");
    expect((await post("event", 2_000_000_000, { body: "?" }, member.cookie)).statusCode).toBe(404);
    expect((await post("article", 1, { body: "?" }, member.cookie)).statusCode).toBe(404);
    expect((await post("nope", pastId, { body: "?" }, member.cookie)).statusCode).toBe(400);
    expect((await list("event", futureId)).json().total).toBe(0);
  });

  it("lets the author edit, nobody else", async () => {
    const author = await testMember(t);
    const other = await testMember(t);
    const { comment } = (await post("event", otherPastId, { body: "Premier jet" }, author.cookie)).json();
    const byOther = await post("event", otherPastId, { body: "Piraté", commentId: comment.id }, other.cookie);
    expect(byOther.statusCode).toBe(403);
    const edited = await post("event", otherPastId, { body: "Version corrigée", commentId: comment.id }, author.cookie);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().comment).toMatchObject({ id: comment.id, body: "Version corrigée" });
    expect(edited.json().comment.editedAt).not.toBeNull();
    const shown = (await list("event", otherPastId)).json().comments.find((c: { id: number }) => c.id === comment.id);
    expect(shown.body).toBe("Version corrigée");
  });
});

describe("GET /api/comments/{type}/{id}", () => {
  it("lists newest first with replies nested one level, page by page", async () => {
    const [target] = await t.database.db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.status, "active"), lt(events.startDate, "2026-05-01")))
      .orderBy(desc(events.startDate))
      .limit(1);
    const member = await testMember(t);
    const ids: number[] = [];
    for (let i = 1; i <= COMMENTS_PAGE_SIZE + 2; i++) {
      ids.push((await post("event", target.id, { body: `Commentaire ${i}` }, member.cookie)).json().comment.id);
    }
    const replier = await testMember(t, { firstName: "Hugo" });
    const reply = await post("event", target.id, { body: "Réponse", parentId: ids[0] }, replier.cookie);
    expect(reply.statusCode).toBe(201);
    // A reply to a reply answers the comment: one level only.
    const nested = await post(
      "event",
      target.id,
      { body: "Réponse à la réponse", parentId: reply.json().comment.id },
      member.cookie,
    );
    expect(nested.json().comment.parentId).toBe(ids[0]);
    // A parent on another target is refused.
    expect((await post("event", pastId, { body: "x", parentId: ids[0] }, member.cookie)).statusCode).toBe(404);

    const first = await list("event", target.id);
    expect(first.headers["cache-control"]).toBe("no-cache");
    const page1 = first.json();
    expect(page1.total).toBe(COMMENTS_PAGE_SIZE + 2);
    expect(page1.hasMore).toBe(true);
    expect(page1.comments.map((c: { body: string }) => c.body).slice(0, 2)).toEqual([
      `Commentaire ${COMMENTS_PAGE_SIZE + 2}`,
      `Commentaire ${COMMENTS_PAGE_SIZE + 1}`,
    ]);
    const page2 = (await list("event", target.id, 2)).json();
    expect(page2.hasMore).toBe(false);
    expect(page2.comments.map((c: { body: string }) => c.body)).toEqual(["Commentaire 2", "Commentaire 1"]);
    expect(page2.comments[1].replies.map((r: { body: string }) => r.body)).toEqual(["Réponse", "Réponse à la réponse"]);
    expect(page2.comments[1].replies[0].author.name).toBe("Hugo M.");
    // Without an id: the latest comments of that type everywhere.
    expect((await list("event")).json().total).toBeGreaterThanOrEqual(COMMENTS_PAGE_SIZE + 2);
  });
});

describe("DELETE /api/comment/{id}", () => {
  it("lets the author, the event's organiser and an admin delete; other members cannot", async () => {
    const author = await testMember(t);
    const stranger = await testMember(t);
    const organiser = await testMember(t);
    const admin = await testMember(t, { role: "admin" });
    await t.database.db
      .insert(eventOrganizers)
      .values({ eventId: pastId, userId: organiser.id, email: organiser.email })
      .onConflictDoNothing();
    const ids = [];
    for (const body of ["un", "deux", "trois"]) {
      ids.push((await post("event", pastId, { body }, author.cookie)).json().comment.id);
    }
    expect((await remove(ids[0])).statusCode).toBe(401);
    expect((await remove(ids[0], stranger.cookie)).statusCode).toBe(403);
    expect((await remove(ids[0], author.cookie)).statusCode).toBe(200);
    expect((await remove(ids[0], author.cookie)).statusCode).toBe(404);
    expect((await remove(ids[1], organiser.cookie)).statusCode).toBe(200);
    expect((await remove(ids[2], admin.cookie)).statusCode).toBe(200);
    const bodies = (await list("event", pastId)).json().comments.map((c: { id: number }) => c.id);
    for (const id of ids) expect(bodies).not.toContain(id);
  });

  it("keeps a deleted comment's replies under a nameless placeholder", async () => {
    const author = await testMember(t);
    const other = await testMember(t);
    const { comment } = (await post("event", pastId, { body: "Question ?" }, author.cookie)).json();
    await post("event", pastId, { body: "Réponse !", parentId: comment.id }, other.cookie);
    await remove(comment.id, author.cookie);
    const shown = (await list("event", pastId)).json().comments.find((c: { id: number }) => c.id === comment.id);
    expect(shown).toMatchObject({ deleted: true, body: "", author: null });
    expect(shown.replies.map((r: { body: string }) => r.body)).toEqual(["Réponse !"]);
  });
});

describe("reports and moderation", () => {
  it("queues a member's report once, and lets an admin dismiss or delete", async () => {
    const author = await testMember(t);
    const reporter = await testMember(t);
    const admin = await testMember(t, { role: "admin" });
    const { comment } = (await post("event", pastId, { body: "Message douteux" }, author.cookie)).json();
    expect((await report(comment.id)).statusCode).toBe(401);
    expect((await report(comment.id, reporter.cookie)).statusCode).toBe(200);
    const again = await report(comment.id, reporter.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe("ALREADY_REPORTED");

    const queue = (cookie?: string) =>
      t.app.inject({ method: "GET", url: "/api/admin/comments", headers: cookie ? { cookie } : {} });
    expect((await queue()).statusCode).toBe(401);
    expect((await queue(reporter.cookie)).statusCode).toBe(403);
    const items = (await queue(admin.cookie)).json().items;
    const item = items.find((i: { comment: { id: number } }) => i.comment.id === comment.id);
    expect(item.reports).toEqual([expect.objectContaining({ reason: "Insultant", reporterId: reporter.id })]);
    expect(item.eventSlug).toEqual(expect.any(String));

    const resolve = (action: string, cookie: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/admin/comments",
        headers: { ...json, cookie },
        payload: JSON.stringify({ commentId: comment.id, action }),
      });
    expect((await resolve("delete", reporter.cookie)).statusCode).toBe(403);
    expect((await resolve("delete", admin.cookie)).statusCode).toBe(200);
    const after = (await queue(admin.cookie)).json().items;
    expect(after.find((i: { comment: { id: number } }) => i.comment.id === comment.id)).toBeUndefined();
    const ids = (await list("event", pastId)).json().comments.map((c: { id: number }) => c.id);
    expect(ids).not.toContain(comment.id);
  });
});

describe("encouragement wall", () => {
  it("takes short messages from verified members before the race, without replies", async () => {
    const fan = await testMember(t, { firstName: "Julie" });
    const cheer = await post("wall", futureId, { body: "Allez Julie ! 💪" }, fan.cookie);
    expect(cheer.statusCode, cheer.body).toBe(201);
    expect(cheer.json().comment).toMatchObject({ targetType: "wall", body: "Allez Julie ! 💪", rating: null });
    const long = await post("wall", futureId, { body: "a".repeat(141) }, fan.cookie);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe("COMMENT_TOO_LONG");
    expect(
      (await post("wall", futureId, { body: "x", parentId: cheer.json().comment.id }, fan.cookie)).statusCode,
    ).toBe(400);
    expect((await post("wall", futureId, { body: "Allez" })).statusCode).toBe(401);
    const wall = (await list("wall", futureId)).json();
    expect(wall.comments.map((c: { body: string }) => c.body)).toEqual(["Allez Julie ! 💪"]);
    // The wall and the comments are apart.
    expect((await list("event", futureId)).json().total).toBe(0);
  });
});

describe("disabled accounts", () => {
  it("keeps their comments without the author's name", async () => {
    const leaving = await testMember(t, { firstName: "Paul" });
    const { comment } = (await post("event", otherPastId, { body: "Au revoir" }, leaving.cookie)).json();
    const disabled = await t.app.inject({
      method: "POST",
      url: "/api/user/disable-account",
      headers: { ...json, cookie: leaving.cookie },
      payload: JSON.stringify({ confirm: true, currentPassword: "a member's own password 1" }),
    });
    expect(disabled.statusCode, disabled.body).toBeLessThan(300);
    const shown = (await list("event", otherPastId)).json().comments.find((c: { id: number }) => c.id === comment.id);
    expect(shown).toMatchObject({ body: "Au revoir", author: null, deleted: false });
  });

  it("exports the member's ratings and comments (GDPR)", async () => {
    const member = await testMember(t);
    await post("event", pastId, { body: "Mon avis" }, member.cookie);
    await t.app.inject({
      method: "POST",
      url: "/api/rating",
      headers: { ...json, cookie: member.cookie },
      payload: JSON.stringify({ eventId: pastId, overall: 3 }),
    });
    const exported = await t.app.inject({ method: "GET", url: "/api/me/export", headers: { cookie: member.cookie } });
    expect(exported.statusCode, exported.body).toBe(200);
    const data = JSON.parse(exported.body);
    expect(data.ratings).toEqual([
      expect.objectContaining({ overall: 3, event: expect.objectContaining({ id: pastId }) }),
    ]);
    expect(data.comments).toEqual([
      expect.objectContaining({ body: "Mon avis", targetType: "event", targetId: pastId }),
    ]);
  });
});

describe("GET /api/comments/event/{id}?scope=series", () => {
  it("lists the comments of every edition of the event's series, each with the edition it was written for", async () => {
    const db = t.database.db;
    // A series with a past edition (commented) and another edition (the page looked at).
    const editions = await db
      .select({ id: events.id, slug: events.slug, startDate: events.startDate, groupId: events.groupId })
      .from(events)
      .where(and(eq(events.status, "active"), isNotNull(events.groupId)))
      .orderBy(asc(events.groupId), asc(events.startDate));
    const byGroup = new Map<number | null, typeof editions>();
    for (const e of editions) byGroup.set(e.groupId, [...(byGroup.get(e.groupId) ?? []), e]);
    const series = [...byGroup.values()].find((list) => list.length >= 2 && list[0].startDate < "2026-05-20");
    if (!series) throw new Error("the test catalogue has no series with a past edition");
    const [older, newer] = series;
    const member = await testMember(t, { firstName: "Inès" });
    const created = await post("event", older.id, { body: `Édition ${older.startDate} : superbe.` }, member.cookie);
    expect(created.statusCode, created.body).toBe(201);
    const commentId = created.json().comment.id;

    const seriesList = await t.app.inject({ method: "GET", url: `/api/comments/event/${newer.id}?scope=series` });
    expect(seriesList.statusCode, seriesList.body).toBe(200);
    const found = seriesList.json().comments.find((c: { id: number }) => c.id === commentId);
    expect(found).toMatchObject({
      targetId: older.id,
      body: `Édition ${older.startDate} : superbe.`,
      edition: { id: older.id, slug: older.slug, startDate: older.startDate },
    });

    // This edition alone (the default) does not have it; another series does not either.
    const own = await list("event", newer.id);
    expect(own.json().comments.map((c: { id: number }) => c.id)).not.toContain(commentId);
    const outsider = editions.find((e) => e.groupId !== older.groupId) ?? { id: futureId };
    const other = await t.app.inject({ method: "GET", url: `/api/comments/event/${outsider.id}?scope=series` });
    expect(other.json().comments.map((c: { id: number }) => c.id)).not.toContain(commentId);

    // A reply goes to the edition the comment was written for and shows under it in the series.
    const reply = await post("event", older.id, { body: "Je confirme.", parentId: commentId }, member.cookie);
    expect(reply.statusCode, reply.body).toBe(201);
    const again = await t.app.inject({ method: "GET", url: `/api/comments/event/${newer.id}?scope=series` });
    const withReply = again.json().comments.find((c: { id: number }) => c.id === commentId);
    expect(withReply.replies.map((r: { body: string }) => r.body)).toEqual(["Je confirme."]);

    const bad = await t.app.inject({ method: "GET", url: `/api/comments/event/${newer.id}?scope=everything` });
    expect(bad.statusCode).toBe(400);
  });
});
