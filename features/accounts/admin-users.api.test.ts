import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { readSheet } from "read-excel-file/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../platform/db/rows.server.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";

/**
 * The admin's Users API (issue 28): the list's filters, sorts and exports (formula-safe cells),
 * one member's detail, roles, disabling (sessions and feeds end) and the GDPR deletion — every
 * column of users and of every table that names a member checked (decision 048).
 */
let t: TestApp;
let admin: { id: number; cookie: string; email: string };
let member: { id: number; cookie: string; email: string };
let organiser: { id: number; cookie: string; email: string };
/** Letters no other account of the seeded world has: the list's search finds this file's members only. */
const TAG = "Qwzx";

type Member = Awaited<ReturnType<typeof testMember>>;

async function call(who: { cookie: string } | null, method: "GET" | "POST" | "DELETE", url: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: {
      ...accessHeaders,
      ...(who ? { cookie: who.cookie } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

const exec = (query: ReturnType<typeof sql>) => t.database.db.execute(query);
const one = async <T>(query: ReturnType<typeof sql>) => (await rows<T>(t.database.db, query))[0] as T;

/** Members of the list tests: names, roles, addresses, sports and sign-ins chosen to tell the filters apart. */
let listed: Record<"anna" | "bruno" | "chloe" | "david", Member>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await testMember(t, { firstName: "Admine", role: "admin" });
  member = await testMember(t, { firstName: "Membre" });
  organiser = await testMember(t, { firstName: "Orga" });
  await exec(sql`UPDATE users SET role = 'organiser' WHERE id = ${organiser.id}`);

  listed = {
    anna: await testMember(t, { firstName: `Anna${TAG}` }),
    bruno: await testMember(t, { firstName: `Bruno${TAG}`, verified: false }),
    chloe: await testMember(t, { firstName: `Chloé${TAG}` }),
    david: await testMember(t, { firstName: `David${TAG}` }),
  };
  const { anna, bruno, chloe, david } = listed;
  await exec(sql`UPDATE users SET last_name = 'Zed', pseudo = 'annaz', sports = '{trail,running}',
    last_login_at = '2026-05-20T10:00:00Z', login_count = 7 WHERE id = ${anna.id}`);
  await exec(sql`UPDATE users SET last_name = 'Young', sports = '{running}', last_login_at = NULL, login_count = 0
    WHERE id = ${bruno.id}`);
  await exec(sql`UPDATE users SET last_name = 'Xavier', role = 'organiser', sports = '{cycling}',
    last_login_at = '2026-01-10T10:00:00Z', login_count = 2 WHERE id = ${chloe.id}`);
  await exec(sql`UPDATE users SET last_name = 'Walker', disabled_at = now(), last_login_at = '2026-03-01T22:30:00Z',
    login_count = 12, pseudo = ${`pseudo${TAG}`} WHERE id = ${david.id}`);
});
afterAll(() => t.close());

const ids = (body: { users: { id: number }[] }) => body.users.map((u) => u.id);
const list = async (query: string) => {
  const response = await call(admin, "GET", `/api/admin/users?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { users: { id: number; status: string; role: string }[]; total: number; pageSize: number };
};

describe("who may use the Users API", () => {
  it("refuses visitors (401), members and organisers (403) on every route", async () => {
    const routes: ["GET" | "POST" | "DELETE", string, unknown?][] = [
      ["GET", "/api/admin/users"],
      ["GET", "/api/admin/users/csv"],
      ["GET", "/api/admin/users/xlsx"],
      ["GET", `/api/admin/user/${member.id}`],
      ["GET", `/api/admin/user/${member.id}/export`],
      ["POST", `/api/admin/user/${member.id}/role`, { role: "admin" }],
      ["POST", `/api/admin/user/${member.id}/disable`, {}],
      ["POST", `/api/admin/user/${member.id}/enable`, {}],
      ["DELETE", `/api/admin/user/${member.id}`],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(null, method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      for (const who of [member, organiser]) {
        const refused = await call(who, method, url, body);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json().error.code).toBe("FORBIDDEN");
      }
    }
    const still = await one<{ role: string; disabled_at: unknown }>(
      sql`SELECT role, disabled_at FROM users WHERE id = ${member.id}`,
    );
    expect(still).toEqual({ role: "member", disabled_at: null });
  });
});

describe("the list", () => {
  it("searches names, pseudos and addresses, 50 a page", async () => {
    const all = await list(`q=${TAG.toLowerCase()}`);
    expect(new Set(ids(all))).toEqual(new Set(Object.values(listed).map((m) => m.id)));
    expect(all.pageSize).toBe(50);
    expect(ids(await list("q=annaz"))).toEqual([listed.anna.id]);
    expect(ids(await list(`q=${encodeURIComponent(`xavier chloé${TAG}`)}`))).toEqual([listed.chloe.id]);
    expect(ids(await list(`q=${encodeURIComponent(listed.bruno.email.toUpperCase())}`))).toEqual([listed.bruno.id]);
    // LIKE's wildcards are searched as typed.
    expect((await list("q=%25")).total).toBe(0);
    // 60 more members: two pages.
    await exec(sql`INSERT INTO users (email, first_name, last_name, slug)
      SELECT 'page' || n || '@example.fr', 'Page', ${TAG} || n, 'page-qwzx-' || n FROM generate_series(1, 60) n`);
    const first = await list(`q=${TAG}`);
    expect(first.users).toHaveLength(50);
    expect(first.total).toBe(64);
    const second = await list(`q=${TAG}&page=2`);
    expect(second.users).toHaveLength(14);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(64);
    await exec(sql`DELETE FROM users WHERE email LIKE 'page%@example.fr'`);
  });

  it("filters by role, address, status, sport and last sign-in", async () => {
    const q = `q=${TAG}`;
    const { anna, bruno, chloe, david } = listed;
    expect(ids(await list(`${q}&role=organiser`))).toEqual([chloe.id]);
    expect(new Set(ids(await list(`${q}&verified=yes`)))).toEqual(new Set([anna.id, chloe.id, david.id]));
    expect(ids(await list(`${q}&verified=no`))).toEqual([bruno.id]);
    expect(ids(await list(`${q}&status=disabled`))).toEqual([david.id]);
    expect(new Set(ids(await list(`${q}&status=active`)))).toEqual(new Set([anna.id, bruno.id, chloe.id]));
    expect(new Set(ids(await list(`${q}&sport=running`)))).toEqual(new Set([anna.id, bruno.id]));
    expect(ids(await list(`${q}&never=1`))).toEqual([bruno.id]);
    expect(new Set(ids(await list(`${q}&loginAfter=2026-03-01`)))).toEqual(new Set([anna.id, david.id]));
    // 22:30 UTC on 1 March is 23:30 in Paris: still the 1st.
    expect(new Set(ids(await list(`${q}&loginBefore=2026-03-01`)))).toEqual(new Set([chloe.id, david.id]));
    expect(ids(await list(`${q}&loginAfter=2026-02-01&loginBefore=2026-04-30`))).toEqual([david.id]);
    expect((await list(`${q}&sport=running&role=organiser`)).total).toBe(0);
  });

  it("sorts by name, e-mail, sign-ins, last sign-in (never last) and status", async () => {
    const q = `q=${TAG}`;
    const { anna, bruno, chloe, david } = listed;
    expect(ids(await list(`${q}&sort=name&dir=asc`))).toEqual([anna.id, bruno.id, chloe.id, david.id]);
    expect(ids(await list(`${q}&sort=name&dir=desc`))).toEqual([david.id, chloe.id, bruno.id, anna.id]);
    expect(ids(await list(`${q}&sort=logins&dir=desc`))).toEqual([david.id, anna.id, chloe.id, bruno.id]);
    expect(ids(await list(`${q}&sort=lastLogin&dir=desc`))).toEqual([anna.id, david.id, chloe.id, bruno.id]);
    expect(ids(await list(`${q}&sort=lastLogin&dir=asc`))).toEqual([chloe.id, david.id, anna.id, bruno.id]);
    expect((await list(`${q}&sort=status&dir=desc`)).users[0]?.id).toBe(david.id);
    const byEmail = ids(await list(`${q}&sort=email&dir=asc`));
    const emails = Object.values(listed).sort((a, b) => a.email.localeCompare(b.email));
    expect(byEmail).toEqual(emails.map((m) => m.id));
  });

  it("answers 400 to a bad filter, sort, page or format, naming no field it does not have", async () => {
    for (const query of [
      "role=king",
      "verified=maybe",
      "status=gone",
      "sport=chess",
      "never=yes",
      "loginAfter=2026-02-30",
      "loginBefore=yesterday",
      "sort=password",
      "dir=up",
      "page=0",
      "page=abc",
      `q=${"x".repeat(101)}`,
    ]) {
      const response = await call(admin, "GET", `/api/admin/users?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code, query).toBe("BAD_REQUEST");
    }
    expect((await call(admin, "GET", "/api/admin/users/pdf")).statusCode).toBe(400);
  });
});

describe("the exports", () => {
  beforeAll(async () => {
    await exec(sql`UPDATE users SET first_name = ${`=HYPERLINK("http://evil.example","${TAG}")`},
      last_name = '+33 1 23', pseudo = '@cmd' WHERE id = ${listed.anna.id}`);
    await exec(sql`UPDATE users SET last_name = '-2+3' WHERE id = ${listed.chloe.id}`);
  });
  afterAll(async () => {
    await exec(sql`UPDATE users SET first_name = ${`Anna${TAG}`}, last_name = 'Zed', pseudo = 'annaz'
      WHERE id = ${listed.anna.id}`);
    await exec(sql`UPDATE users SET last_name = 'Xavier' WHERE id = ${listed.chloe.id}`);
  });

  it("exports the filtered list as CSV, every cell safe from spreadsheet formulas", async () => {
    const response = await call(admin, "GET", `/api/admin/users/csv?q=${TAG}&sort=name&dir=desc`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/csv/);
    expect(response.headers["content-disposition"]).toContain("dossard-membres.csv");
    const parsed = Papa.parse<string[]>(response.body.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
    const [header, ...lines] = parsed.data;
    expect(header).toEqual([
      "id",
      "email",
      "emailStatus",
      "firstName",
      "lastName",
      "pseudo",
      "role",
      "sports",
      "createdAt",
      "lastLoginAt",
      "loginCount",
      "status",
    ]);
    // The filters and the order of the list; no page.
    expect(lines.map((l) => Number(l[0]))).toEqual(
      [listed.david, listed.chloe, listed.bruno, listed.anna].map((m) => m.id),
    );
    const anna = lines.find((l) => Number(l[0]) === listed.anna.id) as string[];
    expect(anna[3]).toBe(`'=HYPERLINK("http://evil.example","${TAG}")`);
    expect(anna[4]).toBe("'+33 1 23");
    expect(anna[5]).toBe("'@cmd");
    expect(anna[7]).toBe("trail running");
    expect(anna[10]).toBe("7");
    expect(lines.find((l) => Number(l[0]) === listed.chloe.id)?.[4]).toBe("'-2+3");
    for (const line of lines) for (const cell of line) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("exports the same list as XLSX, read back with read-excel-file, formulas neutralised", async () => {
    const response = await call(admin, "GET", `/api/admin/users/xlsx?q=${TAG}&sort=name&dir=asc`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const sheet = (await readSheet(response.rawPayload)) as unknown[][];
    const [header, ...lines] = sheet;
    expect(header?.slice(0, 4)).toEqual(["id", "email", "emailStatus", "firstName"]);
    expect(lines.map((l) => l[0])).toEqual([listed.anna, listed.bruno, listed.chloe, listed.david].map((m) => m.id));
    const anna = lines[0] as unknown[];
    expect(anna[3]).toBe(`'=HYPERLINK("http://evil.example","${TAG}")`);
    expect(anna[4]).toBe("'+33 1 23");
    expect(anna[5]).toBe("'@cmd");
    expect(anna[9]).toBeInstanceOf(Date);
    expect((anna[9] as Date).toISOString().slice(0, 10)).toBe("2026-05-20");
    expect(anna[10]).toBe(7);
    expect(lines[1]?.[9] ?? null).toBeNull();
    for (const line of lines)
      for (const cell of line) if (typeof cell === "string") expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe("one member", () => {
  it("shows the account, open sessions, events, results and orders; 404 unknown, 400 not an id", async () => {
    const response = await call(admin, "GET", `/api/admin/user/${member.id}`);
    expect(response.statusCode).toBe(200);
    const detail = response.json();
    expect(detail.user).toMatchObject({ id: member.id, email: member.email, role: "member", status: "active" });
    expect(detail.user.passwordHash).toBeUndefined();
    expect(detail.sessions.length).toBeGreaterThan(0);
    expect(detail.sessions[0]).toHaveProperty("lastSeenAt");
    expect(detail.overview).toEqual({ events: [], results: [], orders: [], credits: 1 });
    expect((await call(admin, "GET", "/api/admin/user/999999")).statusCode).toBe(404);
    expect((await call(admin, "GET", "/api/admin/user/999999")).json().error.code).toBe("ITEM_NOT_FOUND");
    for (const id of ["abc", "0", "-1", "1e3", "99999999999"])
      expect((await call(admin, "GET", `/api/admin/user/${id}`)).statusCode, id).toBe(400);
  });

  it("exports the member's data as the JSON file they get themselves", async () => {
    const response = await call(admin, "GET", `/api/admin/user/${member.id}/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-disposition"]).toMatch(/attachment; filename="dossard-.+\.json"/);
    const data = response.json();
    expect(data.profile).toMatchObject({ id: member.id, email: member.email });
    expect(data).toHaveProperty("favorites");
    expect(JSON.stringify(data)).not.toContain("passwordHash");
    expect((await call(admin, "GET", "/api/admin/user/999999/export")).statusCode).toBe(404);
  });
});

describe("roles", () => {
  it("gives a member the organiser then the admin role, and back", async () => {
    const target = await testMember(t, { firstName: "Rôle" });
    for (const role of ["organiser", "admin", "member"]) {
      const response = await call(admin, "POST", `/api/admin/user/${target.id}/role`, { role });
      expect(response.statusCode, role).toBe(200);
      expect((await one<{ role: string }>(sql`SELECT role FROM users WHERE id = ${target.id}`)).role).toBe(role);
    }
    const logged = await rows<{ data: { from: string; to: string; by: number } }>(
      t.database.db,
      sql`SELECT data FROM user_logs WHERE user_id = ${target.id} AND type = 'role_changed' ORDER BY id`,
    );
    expect(logged.map((l) => l.data.to)).toEqual(["organiser", "admin", "member"]);
    expect(logged[0]?.data.by).toBe(admin.id);
  });

  it("refuses a bad role (400), an unknown member (404), and an admin removing their own role (409)", async () => {
    expect((await call(admin, "POST", `/api/admin/user/${member.id}/role`, { role: "king" })).statusCode).toBe(400);
    expect((await call(admin, "POST", `/api/admin/user/${member.id}/role`, {})).statusCode).toBe(400);
    expect((await call(admin, "POST", `/api/admin/user/${member.id}/role`, "member")).statusCode).toBe(400);
    expect((await call(admin, "POST", "/api/admin/user/999999/role", { role: "member" })).statusCode).toBe(404);
    const own = await call(admin, "POST", `/api/admin/user/${admin.id}/role`, { role: "member" });
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toMatchObject({
      code: "ADMIN_OWN_ACCOUNT",
      message: expect.stringContaining("administrateur"),
    });
    expect((await one<{ role: string }>(sql`SELECT role FROM users WHERE id = ${admin.id}`)).role).toBe("admin");
  });

  it("keeps the last active admin an admin", async () => {
    const other = await testMember(t, { firstName: "Seconde", role: "admin" });
    const meta = { ip: "192.0.2.9", userAgent: null };
    // Every other admin of the seeded world gone for a moment: `other` is the last one but for the caller.
    const saved = await rows<{ id: number }>(
      t.database.db,
      sql`UPDATE users SET role = 'organiser' WHERE role = 'admin' AND id NOT IN (${admin.id}, ${other.id}) RETURNING id`,
    );
    try {
      await exec(sql`UPDATE users SET disabled_at = now() WHERE id = ${admin.id}`);
      // The caller's own account disabled meanwhile: nobody else would be left.
      await expect(t.app.services.accounts.changeRole(admin, other.id, "member", meta)).rejects.toMatchObject({
        code: "LAST_ADMIN",
      });
      await expect(t.app.services.accounts.disableMember(admin, other.id, meta)).rejects.toMatchObject({
        code: "LAST_ADMIN",
      });
      await expect(t.app.services.accounts.deleteMember(admin, other.id, meta)).rejects.toMatchObject({
        code: "LAST_ADMIN",
      });
      expect((await one<{ role: string }>(sql`SELECT role FROM users WHERE id = ${other.id}`)).role).toBe("admin");
    } finally {
      await exec(sql`UPDATE users SET disabled_at = NULL WHERE id = ${admin.id}`);
      for (const { id } of saved) await exec(sql`UPDATE users SET role = 'admin' WHERE id = ${id}`);
    }
    // With the caller active again, `other` may step down.
    expect((await call(admin, "POST", `/api/admin/user/${other.id}/role`, { role: "member" })).statusCode).toBe(200);
  });
});

describe("disabling and enabling", () => {
  it("ends the member's sessions and planning feed at once, and lets them back in when enabled", async () => {
    const target = await testMember(t, { firstName: "Désactivée" });
    const feed = await call(target, "POST", "/api/user/calendar/feed", {});
    expect(feed.statusCode).toBe(200);
    const token = new URL(feed.json().url).searchParams.get("token");
    expect((await call(null, "GET", `/api/user/calendar.ics?token=${token}`)).statusCode).toBe(200);

    const disabled = await call(admin, "POST", `/api/admin/user/${target.id}/disable`, {});
    expect(disabled.statusCode).toBe(200);
    expect((await call(target, "GET", "/api/me")).statusCode).toBe(401);
    expect((await call(null, "GET", `/api/user/calendar.ics?token=${token}`)).statusCode).toBe(404);
    expect(
      (await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${target.id}`)).n,
    ).toBe(0);
    const listedNow = await list(`q=${encodeURIComponent(target.email)}`);
    expect(listedNow.users[0]?.status).toBe("disabled");
    const mail = await one<{ template: string }>(
      sql`SELECT template FROM mail_messages WHERE user_id = ${target.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(mail.template).toBe("accountDisabled");
    // Twice: nothing more happens.
    expect((await call(admin, "POST", `/api/admin/user/${target.id}/disable`, {})).statusCode).toBe(200);

    const login = () =>
      t.app.inject({
        method: "POST",
        url: "/api/login",
        remoteAddress: "10.251.0.1",
        headers: { ...accessHeaders, "content-type": "application/json" },
        payload: JSON.stringify({ email: target.email, password: "a member's own password 1" }),
      });
    expect((await login()).statusCode).toBe(401);
    expect((await call(admin, "POST", `/api/admin/user/${target.id}/enable`, {})).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
  });

  it("never disables the caller's own account, nor an unknown one", async () => {
    const own = await call(admin, "POST", `/api/admin/user/${admin.id}/disable`, {});
    expect(own.statusCode).toBe(409);
    expect(own.json().error.code).toBe("ADMIN_OWN_ACCOUNT");
    expect((await call(admin, "GET", "/api/me")).statusCode).toBe(200);
    expect((await call(admin, "POST", "/api/admin/user/999999/disable", {})).statusCode).toBe(404);
    expect((await call(admin, "POST", "/api/admin/user/999999/enable", {})).statusCode).toBe(404);
  });
});
