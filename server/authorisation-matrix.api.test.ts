import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { eventChangeRequests, eventOrganizers } from "../features/editor/editor.tables.ts";
import { courses, events, tracks } from "../features/events/events.tables.ts";
import type { AccessRule, RouteAccess } from "../features/identity/access.server.ts";
import { users } from "../features/identity/identity.tables.ts";
import type { AccessTargetKind } from "../features/identity/target-editors-port.ts";
import { accessHeaders, createTestApp, type TestApp } from "../tests/api/harness.ts";
import { fillUrl, routesOf, WRITE_METHODS } from "../tests/api/routes.ts";
import { countWrites } from "../tests/api/write-counter.ts";

/**
 * Every route of the app (its own table, app.routeAccess) × every kind of caller: the routes'
 * declared access rules hold. Callers a rule allows never get 401/403; callers it refuses always
 * get 401/403 (409 EMAIL_VERIFICATION_REQUIRED when only the e-mail check is missing) and nothing
 * is written. A route without a rule cannot even be registered (access.server.ts).
 */
const PERSONAS = ["anonymous", "unverified", "member", "organiserElsewhere", "organiser", "admin"] as const;
type Persona = (typeof PERSONAS)[number];

let t: TestApp;
let writes: () => Promise<number>;
const ids = {} as Record<Exclude<Persona, "anonymous">, number>;
/** "The event" and what belongs to it; "the other event" is organised by organiserElsewhere. */
const target = {} as Record<AccessTargetKind, number>;
/**
 * The member the admin's routes on one member (/api/admin/user/:id…) are aimed at: a persona
 * disabled or deleted there would be signed out for the routes after.
 */
let bystander = 0;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const accounts = t.app.services.accounts;
  const [theEvent, otherEvent] = await db
    .select({ id: events.id })
    .from(events)
    .where(sql`(SELECT count(*) FROM ${courses} c WHERE c.event_id = ${events.id}) >= 2`)
    .orderBy(events.id)
    .limit(2);
  if (!theEvent || !otherEvent) throw new Error("the seeded catalogue has no events with two courses");
  const [course] = await db.select({ id: courses.id }).from(courses).where(eq(courses.eventId, theEvent.id)).limit(1);
  if (!course) throw new Error("no course");

  for (const persona of PERSONAS) {
    if (persona === "anonymous") continue;
    const password = "matrix password 1";
    const { user } = await accounts.register(
      {
        email: `matrix.${persona.toLowerCase()}@example.fr`,
        password,
        passwordConfirmation: password,
        firstName: persona,
        lastName: "Matrix",
        pseudo: "",
        terms: true,
        newsletter: false,
        locale: "fr",
      },
      { ip: "192.0.2.1", userAgent: null },
    );
    ids[persona] = user.id;
    const role = persona === "admin" ? "admin" : persona.startsWith("organiser") ? "organiser" : "member";
    const emailStatus = persona === "unverified" ? "unverified" : "verified";
    await db.update(users).set({ role, emailStatus }).where(eq(users.id, user.id));
  }
  await db.insert(eventOrganizers).values([
    { eventId: theEvent.id, userId: ids.organiser, email: "matrix.organiser@example.fr" },
    { eventId: otherEvent.id, userId: ids.organiserElsewhere, email: "matrix.organiserelsewhere@example.fr" },
  ]);
  await db.delete(tracks).where(eq(tracks.courseId, course.id));
  const [track] = await db
    .insert(tracks)
    .values({
      courseId: course.id,
      uploadedBy: ids.organiser,
      name: "Matrix",
      points: [
        [2.35, 48.85, 35],
        [2.36, 48.86, 40],
      ],
      distance: 1300,
      elevationGain: 5,
      elevationLoss: 0,
    })
    .returning({ id: tracks.id });
  const [request] = await db
    .insert(eventChangeRequests)
    .values({ eventId: theEvent.id, userId: ids.member, data: {} })
    .returning({ id: eventChangeRequests.id });
  if (!track || !request) throw new Error("fixtures not created");
  Object.assign(target, { event: theEvent.id, course: course.id, track: track.id, changeRequest: request.id });
  const [member] = await db
    .insert(users)
    .values({ email: "matrix.bystander@example.fr", firstName: "Bystander", slug: "matrix-bystander" })
    .returning({ id: users.id });
  bystander = member?.id ?? 0;
  writes = await countWrites(t.database);
});
afterAll(() => t.close());

/** Whether the rule lets the persona through (on "the event" and its parts). */
function allows(rule: AccessRule, persona: Persona): boolean {
  // A secret the handler checks (a setup token): no session is enough, and the matrix has none.
  if (rule.secret) return false;
  if (rule.who === "anyone") return true;
  if (persona === "anonymous") return false;
  if (rule.who === "admin") return persona === "admin";
  if (rule.who === "verified" && persona === "unverified") return false;
  if (rule.editorOf?.length) return persona === "organiser" || persona === "admin";
  return true;
}

/** The first option of an enum param (a valid value), from the route's own schema. */
function enumOption(route: RouteAccess, name: string): string | undefined {
  const params = (route.schema?.params ?? null) as { shape?: Record<string, ZodType> } | null;
  let field = params?.shape?.[name] as { options?: unknown[]; unwrap?: () => unknown } | undefined;
  while (field && !field.options && typeof field.unwrap === "function") field = field.unwrap() as typeof field;
  const first = field?.options?.[0];
  return typeof first === "string" ? first : undefined;
}

function urlFor(route: RouteAccess, persona: Persona): string {
  const { access } = route;
  return fillUrl(route.url, (name) => {
    const aimed = access.editorOf?.find((t) => t.in === "params" && t.key === name);
    if (aimed) return String(target[aimed.is]);
    if (access.self === name) return String(persona === "anonymous" ? ids.member : ids[persona]);
    if (name === "id" && route.url.startsWith("/api/admin/user/")) return String(bystander);
    return enumOption(route, name) ?? (name === "provider" ? "google" : "1");
  });
}

/** The body: every target field of the rule aimed at "the event", as JSON or as a form with a file. */
function bodyFor(route: RouteAccess): { payload: string; headers: Record<string, string> } {
  const fields: Record<string, string | number> = {};
  for (const aimed of route.access.editorOf ?? []) if (aimed.in !== "params") fields[aimed.key] = target[aimed.is];
  const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
  const multipart =
    consumes.includes("multipart/form-data") || route.access.editorOf?.some((a) => a.in === "multipart");
  if (!multipart) {
    return { payload: JSON.stringify({ kind: "cover", ...fields }), headers: { "content-type": "application/json" } };
  }
  const boundary = "----matrix";
  const parts = Object.entries({ kind: "cover", ...fields }).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.gpx"\r\nContent-Type: application/octet-stream\r\n\r\nnot a file\r\n--${boundary}--\r\n`,
  );
  return { payload: parts.join(""), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** One session per persona, made again when a route ends it (signing out). */
const sessionCookies = new Map<Persona, string>();
async function sessionCookie(persona: Exclude<Persona, "anonymous">): Promise<string> {
  let cookie = sessionCookies.get(persona);
  if (!cookie) {
    cookie = `dossard_session=${(await t.app.services.accounts.sessions.create(ids[persona], false)).token}`;
    sessionCookies.set(persona, cookie);
  }
  return cookie;
}

async function call(route: RouteAccess, persona: Persona, options = { countWrites: true }) {
  const cookie = persona === "anonymous" ? undefined : await sessionCookie(persona);
  const write = WRITE_METHODS.has(route.method);
  const body = write ? bodyFor(route) : undefined;
  const before = options.countWrites ? await writes() : 0;
  const response = await t.app.inject({
    method: route.method as "GET",
    url: urlFor(route, persona),
    remoteAddress: `192.0.2.${PERSONAS.indexOf(persona) + 10}`,
    headers: { ...accessHeaders, ...(cookie ? { cookie } : {}), ...body?.headers },
    ...(body ? { payload: body.payload } : {}),
  });
  if (response.cookies.some((c) => c.name === "dossard_session" && !c.value)) sessionCookies.delete(persona);
  let code: string | undefined;
  try {
    code = response.json().error?.code;
  } catch {
    // Not JSON (a page, a file).
  }
  return { status: response.statusCode, code, wrote: options.countWrites ? (await writes()) - before : 0 };
}

const describeRoute = (route: RouteAccess) => `${route.method} ${route.url}`;

describe("the authorisation matrix", () => {
  const refusedSeen: string[] = [];

  it("covers every route of the app, each with a rule", () => {
    const routes = routesOf(t.app);
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) expect(route.access, describeRoute(route)).toBeDefined();
    // Every rule kind is in use, and every persona is refused somewhere.
    const kinds = new Set(
      routes.map((r) =>
        r.access.editorOf?.length ? "editor" : r.access.self ? "self" : r.access.secret ? "secret" : r.access.who,
      ),
    );
    expect([...kinds].sort()).toEqual(["admin", "anyone", "editor", "member", "secret", "self", "verified"]);
  });

  // Refusals first: the allowed callers' writes below (a course removed, an event cancelled) must
  // not change what the refused ones are aimed at.
  it("refuses every caller a route's rule refuses, with 401/403, writing nothing", async () => {
    const wrong: string[] = [];
    for (const route of routesOf(t.app)) {
      for (const persona of PERSONAS) {
        if (allows(route.access, persona)) continue;
        const { status, code, wrote } = await call(route, persona);
        const verification = status === 409 && code === "EMAIL_VERIFICATION_REQUIRED" && persona === "unverified";
        // Without the secret a secret-gated route names what is wrong (SETUP_LINK_INVALID…): any 4xx.
        const refused = route.access.secret
          ? status >= 400 && status < 500
          : status === 401 || status === 403 || verification;
        if (!refused || wrote) {
          wrong.push(
            `${describeRoute(route)} as ${persona}: ${status} ${code ?? ""}${wrote ? `, ${wrote} rows written` : ""}`,
          );
        } else {
          refusedSeen.push(`${describeRoute(route)} ${persona}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    for (const persona of PERSONAS.filter((p) => p !== "admin")) {
      expect(
        refusedSeen.some((r) => r.endsWith(` ${persona}`)),
        persona,
      ).toBe(true);
    }
  });

  it("never answers 401/403 to a caller a route's rule allows", async () => {
    const wrong: string[] = [];
    for (const route of routesOf(t.app)) {
      for (const persona of PERSONAS) {
        if (!allows(route.access, persona)) continue;
        const { status, code } = await call(route, persona, { countWrites: false });
        if (status === 401 || status === 403)
          wrong.push(`${describeRoute(route)} as ${persona}: ${status} ${code ?? ""}`);
      }
    }
    expect(wrong).toEqual([]);
    // Every route × every persona, one after the other: minutes on a busy 2-core machine.
  }, 180_000);

  it("refuses a member's own-account route aimed at another member, writing nothing", async () => {
    const selfRoutes = routesOf(t.app).filter((route) => route.access.self);
    expect(selfRoutes.length).toBeGreaterThan(0);
    for (const route of selfRoutes) {
      for (const persona of ["member", "organiser", "admin"] as const) {
        const other = persona === "member" ? ids.organiser : ids.member;
        const url = fillUrl(route.url, (name) =>
          name === route.access.self ? String(other) : enumOption(route, name),
        );
        const cookie = `dossard_session=${(await t.app.services.accounts.sessions.create(ids[persona], false)).token}`;
        const before = await writes();
        const response = await t.app.inject({
          method: route.method as "POST",
          url,
          headers: { ...accessHeaders, cookie, "content-type": "application/json" },
          payload: JSON.stringify({ firstName: "Changed" }),
        });
        expect(response.statusCode, `${describeRoute(route)} as ${persona}`).toBe(403);
        expect(await writes()).toBe(before);
      }
    }
    const [member] = await t.database.db
      .select()
      .from(users)
      .where(and(eq(users.id, ids.member)));
    expect(member?.firstName).toBe("member");
  });
});
