import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../platform/db/rows.server.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { secretBox } from "../identity/secrets.server.ts";
import { erasedEmail } from "./member-deletion.server.ts";

/**
 * DELETE /api/admin/user/{id} (decision 048): a member with something in every table that names a
 * member is deleted; then every column of users and of each of those tables is checked. A column
 * or a table added tomorrow fails the first two tests until it is listed here with its fate.
 */
const SECRET = "a test secret of at least thirty-two characters";
const box = secretBox(SECRET, "strava-tokens");
let t: TestApp;
let admin: Awaited<ReturnType<typeof testMember>>;

const db = () => t.database.db;
const exec = (query: ReturnType<typeof sql>) => db().execute(query);
const one = async <T>(query: ReturnType<typeof sql>) => (await rows<T>(db(), query))[0] as T;
const count = async (query: ReturnType<typeof sql>) => (await one<{ n: number }>(query)).n;

async function remove(who: { cookie: string }, id: number) {
  return t.app.inject({
    method: "DELETE",
    url: `/api/admin/user/${id}`,
    headers: { ...accessHeaders, cookie: who.cookie },
  });
}

/**
 * What becomes of each column of users: `keep` (not personal: the id, dates the accounts need),
 * or the value it must hold once the member is deleted.
 */
const USER_COLUMNS = (id: number, slug: string): Record<string, unknown> => ({
  id: "keep",
  email: erasedEmail(id),
  email_status: "unverified",
  pending_email: null,
  password_hash: null,
  first_name: "",
  last_name: "",
  pseudo: "",
  slug,
  gender: null,
  city: null,
  country: null,
  presentation: null,
  objectives: null,
  sports: [],
  best_10k: null,
  best_half: null,
  best_marathon: null,
  public_profile: false,
  photo: null,
  role: "member",
  locale: "fr",
  newsletter: false,
  terms_accepted_at: null,
  disabled_at: "set",
  deleted_at: "set",
  last_login_at: null,
  login_count: 0,
  created_at: "keep",
  updated_at: "set",
});

/**
 * Every column that names a member, by foreign key or by convention (`…user_id`, `…_by`,
 * `owner_id`), and what deleting the member does to its rows: `deleted` (none left), `unlinked`
 * (the rows stay, the column no longer names the member) or `kept` (the orders, for the accounts).
 */
const MEMBER_COLUMNS: Record<string, "deleted" | "unlinked" | "kept"> = {
  "activities.user_id": "deleted",
  "alert_deliveries.user_id": "deleted",
  "alert_preferences.user_id": "deleted",
  "calendar_entries.user_id": "deleted",
  "calendar_feeds.user_id": "deleted",
  "comment_reports.user_id": "unlinked",
  "comments.deleted_by": "unlinked",
  "comments.user_id": "unlinked",
  "credit_entries.user_id": "deleted",
  "event_change_requests.decided_by": "unlinked",
  "event_change_requests.user_id": "deleted",
  "event_history.user_id": "unlinked",
  "event_organizers.user_id": "deleted",
  "events.owner_id": "unlinked",
  "favorites.user_id": "deleted",
  "mail_messages.user_id": "deleted",
  "orders.user_id": "kept",
  "organizer_claims.user_id": "deleted",
  "posters.user_id": "deleted",
  "ratings.user_id": "deleted",
  "result_claims.decided_by": "unlinked",
  "result_claims.user_id": "deleted",
  "result_imports.user_id": "unlinked",
  "results.user_id": "unlinked",
  "saved_searches.user_id": "deleted",
  "sessions.user_id": "deleted",
  "strava_connections.user_id": "deleted",
  "tracks.uploaded_by": "unlinked",
  "user_badges.user_id": "deleted",
  "user_former_slugs.user_id": "deleted",
  "user_identities.user_id": "deleted",
  "user_logs.user_id": "deleted",
  "user_tokens.user_id": "deleted",
};

let target: Awaited<ReturnType<typeof testMember>>;
let ctx: {
  eventId: number;
  courseId: number;
  otherEventId: number;
  trackId: number;
  resultId: number;
  manualId: number;
};
const files: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_SECRET: SECRET } });
  admin = await testMember(t, { firstName: "Admine", role: "admin" });
  target = await testMember(t, { firstName: "Zoé" });
  const other = await testMember(t, { firstName: "Autre" });
  const id = target.id;

  const [past, second] = await rows<{ event_id: number; course_id: number }>(
    db(),
    sql`SELECT e.id AS event_id, min(c.id) AS course_id FROM events e JOIN courses c ON c.event_id = e.id
        WHERE e.start_date < '2026-05-01' GROUP BY e.id ORDER BY e.id LIMIT 2`,
  );
  if (!past || !second) throw new Error("no past editions in the seeded world");
  const track = await one<{ id: number }>(sql`INSERT INTO tracks (course_id, name, points, distance, elevation_gain,
      elevation_loss, uploaded_by) VALUES (${past.course_id}, 'Trace', '[[2.35,48.85,35],[2.36,48.86,40]]', 1300, 5, 0, ${id})
      RETURNING id`);

  // The profile, a photo, a former profile address, a social link.
  const photo = `${id}-deleteme.webp`;
  await t.app.storage.put(`user/${photo}`, Buffer.from("photo"), "image/webp");
  files.push(`user/${photo}`);
  await exec(sql`UPDATE users SET last_name = 'Durand', pseudo = 'zozo', gender = 'female', city = 'Annecy',
    country = 'FR', presentation = 'Coureuse', objectives = 'Sub 3h', sports = '{trail}', best_10k = 2400,
    best_half = 5400, best_marathon = 11000, public_profile = true, photo = ${photo}, newsletter = true,
    locale = 'en', pending_email = 'zoe.new@example.fr', last_login_at = now(), login_count = 3 WHERE id = ${id}`);
  await exec(sql`UPDATE users SET slug = ${`zoe-durand-${id}`} WHERE id = ${id}`);
  await exec(sql`INSERT INTO user_identities (provider, provider_user_id, user_id, email)
    VALUES ('google', ${`g-${id}`}, ${id}, 'zoe@gmail.example')`);

  // What the member does on the site.
  await exec(sql`INSERT INTO favorites (user_id, event_id) VALUES (${id}, ${past.event_id})`);
  await exec(
    sql`INSERT INTO calendar_entries (user_id, course_id, event_id) VALUES (${id}, ${past.course_id}, ${past.event_id})`,
  );
  await exec(sql`INSERT INTO calendar_feeds (user_id, token) VALUES (${id}, ${`feed-${id}`})`);
  await exec(sql`INSERT INTO saved_searches (user_id, query, label) VALUES (${id}, 'sport=trail', 'Trails')`);
  await exec(sql`INSERT INTO alert_preferences (user_id) VALUES (${id})`);
  await exec(sql`INSERT INTO alert_deliveries (user_id, kind, key) VALUES (${id}, 'search_digest', 'k1')`);
  await exec(sql`INSERT INTO ratings (user_id, event_id, overall) VALUES (${id}, ${past.event_id}, 5)`);
  await exec(sql`INSERT INTO ratings (user_id, event_id, overall) VALUES (${other.id}, ${past.event_id}, 1)`);
  await exec(sql`INSERT INTO comments (target_type, target_id, user_id, body)
    VALUES ('event', ${past.event_id}, ${id}, 'Super course, signé Zoé')`);
  const others = await one<{ id: number }>(sql`INSERT INTO comments (target_type, target_id, user_id, body, deleted_at,
    deleted_by) VALUES ('event', ${past.event_id}, ${other.id}, 'Hors sujet', now(), ${id}) RETURNING id`);
  await exec(sql`INSERT INTO comment_reports (comment_id, user_id, reason) VALUES (${others.id}, ${id}, 'spam')`);
  await exec(sql`INSERT INTO activities (user_id, provider, name, sport, started_at)
    VALUES (${id}, 'file', 'Sortie du dimanche', 'trail', now())`);
  await exec(sql`INSERT INTO strava_connections (user_id, athlete_id, scope, access_token, refresh_token, expires_at)
    VALUES (${id}, 42, 'read', ${box.seal("access")}, ${box.seal("refresh")}, now())`);

  // Results: an imported line claimed, a line recorded by hand, a claim, a badge, an import.
  const line = await one<{
    id: number;
  }>(sql`INSERT INTO results (course_id, event_id, source, name, user_id, claimed_at)
    VALUES (${past.course_id}, ${past.event_id}, 'import', 'DURAND Zoé', ${id}, now()) RETURNING id`);
  const manual = await one<{ id: number }>(sql`INSERT INTO results (course_id, event_id, source, name, first_name,
    last_name, user_id) VALUES (${second.course_id}, ${second.event_id}, 'manual', 'zozo', 'Zoé', 'Durand', ${id}) RETURNING id`);
  await exec(sql`INSERT INTO result_claims (course_id, event_id, user_id, line_name)
    VALUES (${second.course_id}, ${second.event_id}, ${id}, 'Z. Durand')`);
  await exec(sql`INSERT INTO result_claims (course_id, event_id, user_id, line_name, status, decided_by, decided_at)
    VALUES (${past.course_id}, ${past.event_id}, ${other.id}, 'Autre', 'approved', ${id}, now())`);
  await exec(
    sql`INSERT INTO result_imports (course_id, user_id, file_name) VALUES (${past.course_id}, ${id}, 'zoe.csv')`,
  );
  await exec(sql`INSERT INTO user_badges (user_id, code, result_id) VALUES (${id}, 'first-race', ${line.id})`);

  // Posters, credits, an order.
  const poster = await one<{
    id: number;
  }>(sql`INSERT INTO posters (user_id, design, source_type, source_id, track, title)
    VALUES (${id}, '{}', 'course', ${past.course_id}, '[]', 'Mon trail') RETURNING id`);
  const exported = `poster/${poster.id}/1-r1.svg`;
  await t.app.storage.put(exported, Buffer.from("<svg/>"), "image/svg+xml");
  files.push(exported);
  await exec(
    sql`INSERT INTO poster_exports (poster_id, format, revision, status, file) VALUES (${poster.id}, 'svg', 1, 'done', ${exported})`,
  );
  await exec(sql`INSERT INTO credit_entries (user_id, kind, delta) VALUES (${id}, 'free', 1)`);
  await exec(sql`INSERT INTO orders (uid, user_id, product_id, credits, amount_cents, vat_rate_bp)
    VALUES (${`order-${id}`}, ${id}, 'pack-5', 5, 990, 2000)`);

  // The catalogue: an event listed, organiser rights and claims, history, a change request.
  await exec(sql`UPDATE events SET owner_id = ${id} WHERE id = ${second.event_id}`);
  await exec(
    sql`INSERT INTO event_organizers (event_id, user_id, email) VALUES (${past.event_id}, ${id}, 'zoe@club.example')`,
  );
  await exec(sql`INSERT INTO organizer_claims (event_id, user_id, email, secret_hash, expires_at)
    VALUES (${past.event_id}, ${id}, 'zoe@club.example', 'h', now())`);
  await exec(sql`INSERT INTO event_history (event_id, type, user_id) VALUES (${past.event_id}, 'modification', ${id})`);
  await exec(sql`INSERT INTO event_change_requests (event_id, user_id, data) VALUES (${past.event_id}, ${id}, '{}')`);
  await exec(sql`INSERT INTO event_change_requests (event_id, user_id, data, status, decided_by)
    VALUES (${past.event_id}, ${other.id}, '{}', 'accepted', ${id})`);
  // Counters named by the address (registering made one already).
  await exec(
    sql`INSERT INTO rate_limits (key, window_start, hits) VALUES (${`invitation:to:${target.email}`}, now(), 1)`,
  );
  // A mail by address only (an organiser's message to the member's address).
  await exec(sql`INSERT INTO mail_messages (recipient, template, locale, subject, params)
    VALUES (${target.email.toUpperCase()}, 'contactOrganizer', 'fr', 'Bonjour', '{}')`);

  ctx = {
    eventId: past.event_id,
    courseId: past.course_id,
    otherEventId: second.event_id,
    trackId: track.id,
    resultId: line.id,
    manualId: manual.id,
  };
});
afterAll(() => t.close());

describe("the tables that name a member", () => {
  it("lists every column of users with its fate", async () => {
    const columns = await rows<{ column_name: string }>(
      db(),
      sql`SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'users'`,
    );
    expect(columns.map((c) => c.column_name).sort()).toEqual(Object.keys(USER_COLUMNS(0, "")).sort());
  });

  it("lists every column that references users, by foreign key or by name", async () => {
    const referencing = await rows<{ name: string }>(
      db(),
      sql`SELECT c.conrelid::regclass::text || '.' || a.attname AS name
          FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
          WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass
          UNION
          SELECT table_name || '.' || column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name <> 'users' AND data_type = 'integer'
            AND (column_name LIKE '%user_id' OR column_name LIKE '%\\_by' OR column_name = 'owner_id')`,
    );
    expect(referencing.map((r) => r.name).sort()).toEqual(Object.keys(MEMBER_COLUMNS).sort());
  });
});

describe("deleting a member", () => {
  it("is refused to the admin themselves (409) and for an unknown member (404)", async () => {
    const own = await remove(admin, admin.id);
    expect(own.statusCode).toBe(409);
    expect(own.json().error.code).toBe("ADMIN_OWN_ACCOUNT");
    expect((await remove(admin, 999999)).statusCode).toBe(404);
    expect((await remove(admin, 0)).statusCode).toBe(400);
    expect((await remove(target, admin.id)).statusCode).toBe(403);
  });

  it("changes nothing when any part of it fails", async () => {
    const victim = await testMember(t, { firstName: "Intacte" });
    await exec(sql`INSERT INTO favorites (user_id, event_id) VALUES (${victim.id}, ${ctx.eventId})`);
    const photo = `${victim.id}-kept.webp`;
    await t.app.storage.put(`user/${photo}`, Buffer.from("photo"), "image/webp");
    await exec(sql`UPDATE users SET photo = ${photo} WHERE id = ${victim.id}`);
    // The last step (the account row) fails: everything before it must be undone.
    await exec(
      sql.raw(`CREATE FUNCTION planted_failure() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'planted failure'; END $$`),
    );
    await exec(
      sql.raw(`CREATE TRIGGER planted_failure BEFORE UPDATE OF deleted_at ON users FOR EACH ROW
        WHEN (NEW.id = ${victim.id} AND NEW.deleted_at IS NOT NULL) EXECUTE FUNCTION planted_failure()`),
    );
    try {
      expect((await remove(admin, victim.id)).statusCode).toBe(500);
    } finally {
      await exec(sql.raw("DROP TRIGGER planted_failure ON users"));
      await exec(sql.raw("DROP FUNCTION planted_failure()"));
    }
    const me = await t.app.inject({
      method: "GET",
      url: "/api/me",
      headers: { ...accessHeaders, cookie: victim.cookie },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ email: victim.email, firstName: "Intacte" });
    expect(await count(sql`SELECT count(*)::int AS n FROM favorites WHERE user_id = ${victim.id}`)).toBe(1);
    expect(await t.app.storage.read(`user/${photo}`)).not.toBeNull();
  });

  it("erases or unlinks every personal field in one go, keeps result lines anonymous and orders", async () => {
    const id = target.id;
    for (const [name, fate] of Object.entries(MEMBER_COLUMNS)) {
      if (fate === "kept") continue;
      const [table, column] = name.split(".") as [string, string];
      const n = await count(
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${id}`,
      );
      expect(n, `${name} has something before`).toBeGreaterThan(0);
    }

    const response = await remove(admin, id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true, keptResults: 2, keptOrders: 1 });

    // users: each column as listed.
    const row = await one<Record<string, unknown>>(sql`SELECT * FROM users WHERE id = ${id}`);
    for (const [column, expected] of Object.entries(USER_COLUMNS(id, `deleted-${id}`))) {
      if (expected === "keep") continue;
      if (expected === "set") expect(row[column], column).not.toBeNull();
      else expect(row[column], column).toEqual(expected);
    }

    // Every column naming a member.
    for (const [name, fate] of Object.entries(MEMBER_COLUMNS)) {
      const [table, column] = name.split(".") as [string, string];
      const n = await count(
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${id}`,
      );
      expect(n, name).toBe(fate === "kept" ? 1 : 0);
    }
    // The unlinked rows are still there.
    expect(
      await count(sql`SELECT count(*)::int AS n FROM results WHERE id IN (${ctx.resultId}, ${ctx.manualId})`),
    ).toBe(2);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM comments WHERE body = 'Super course, signé Zoé' AND user_id IS NULL`,
      ),
    ).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM comment_reports WHERE reason = 'spam'`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM tracks WHERE id = ${ctx.trackId}`)).toBe(1);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM events WHERE id = ${ctx.otherEventId} AND owner_id IS NULL`),
    ).toBe(1);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM event_change_requests WHERE status = 'accepted' AND decided_by IS NULL`,
      ),
    ).toBeGreaterThan(0);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM result_claims WHERE line_name = 'Autre' AND decided_by IS NULL`),
    ).toBe(1);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM orders WHERE uid = ${`order-${id}`} AND user_id = ${id}`),
    ).toBe(1);

    // The other personal columns of those tables: results.name, mail_messages.recipient,
    // event_organizers.email, organizer_claims.email, and the address in rate_limits.key.
    const manual = await one<{ name: string; first_name: string | null; last_name: string | null }>(
      sql`SELECT name, first_name, last_name FROM results WHERE id = ${ctx.manualId}`,
    );
    expect(manual).toEqual({ name: "", first_name: null, last_name: null });
    // An imported line keeps the name its timing company published.
    expect((await one<{ name: string }>(sql`SELECT name FROM results WHERE id = ${ctx.resultId}`)).name).toBe(
      "DURAND Zoé",
    );
    expect(
      await count(sql`SELECT count(*)::int AS n FROM mail_messages WHERE lower(recipient) = lower(${target.email})`),
    ).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM event_organizers WHERE email = 'zoe@club.example'`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM organizer_claims WHERE email = 'zoe@club.example'`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE ${`%${target.email}`}`)).toBe(0);
    // Nothing left anywhere names them: no former address, no old slug, no photo, no e-mail.
    expect(await count(sql`SELECT count(*)::int AS n FROM user_former_slugs WHERE slug LIKE 'zoe-%'`)).toBe(0);
    const everything = JSON.stringify(await rows(db(), sql`SELECT * FROM users WHERE id = ${id}`));
    for (const personal of [target.email, "Durand", "zozo", "Annecy", "Coureuse", "zoe"])
      expect(everything.toLowerCase()).not.toContain(personal.toLowerCase());

    // Their rating left the edition's average: the other member's alone counts. Their files are gone.
    const after = await one<{ rating_count: number; rating_average: number }>(
      sql`SELECT rating_count, rating_average FROM events WHERE id = ${ctx.eventId}`,
    );
    expect(after).toEqual({ rating_count: 1, rating_average: 1 });
    for (const file of files) expect(await t.app.storage.read(file), file).toBeNull();

    // The admin's own log names the deletion by id only.
    const logged = await one<{ data: { userId: number } }>(
      sql`SELECT data FROM user_logs WHERE user_id = ${admin.id} AND type = 'member_deleted'`,
    );
    expect(logged.data).toEqual({ userId: id });
  });

  it("leaves a deleted account that cannot sign in, is listed apart, and frees its address", async () => {
    const id = target.id;
    expect(
      (await t.app.inject({ method: "GET", url: "/api/me", headers: { ...accessHeaders, cookie: target.cookie } }))
        .statusCode,
    ).toBe(401);
    const list = await t.app.inject({
      method: "GET",
      url: `/api/admin/users?status=deleted`,
      headers: { ...accessHeaders, cookie: admin.cookie },
    });
    expect(list.json().users.map((u: { id: number }) => u.id)).toContain(id);
    const active = await t.app.inject({
      method: "GET",
      url: "/api/admin/users?q=deleted",
      headers: { ...accessHeaders, cookie: admin.cookie },
    });
    expect(active.json().users.map((u: { id: number }) => u.id)).not.toContain(id);
    const detail = await t.app.inject({
      method: "GET",
      url: `/api/admin/user/${id}`,
      headers: { ...accessHeaders, cookie: admin.cookie },
    });
    expect(detail.json().user.status).toBe("deleted");
    expect(detail.json().overview.orders).toHaveLength(1);
    // Gone already: a second deletion, a role, an export find nothing.
    expect((await remove(admin, id)).statusCode).toBe(404);
    // The address may register again.
    const again = await t.app.inject({
      method: "POST",
      url: "/api/register",
      remoteAddress: "10.252.0.1",
      headers: { ...accessHeaders, "content-type": "application/json" },
      payload: JSON.stringify({
        email: target.email,
        password: "a new password 12",
        passwordConfirmation: "a new password 12",
        firstName: "Zoé",
        lastName: "Durand",
        terms: true,
      }),
    });
    expect(again.statusCode, again.body).toBe(201);
  });
});
