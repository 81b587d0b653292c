/**
 * Former slugs (issue 26 item 6): a rename through the editor keeps the old address for its event
 * (a trigger on events.slug, migration 0022), no other event is given it, the event takes it back
 * when renamed back; the sitemap lists the current address only. The same for members' profile
 * addresses. The pages' 301s are journeys (tests/e2e/renamed-pages.e2e.test.ts).
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import { userFormerSlugs } from "../accounts/accounts.tables.ts";
import { eventFormerSlugs, events } from "./events.tables.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const call = (cookie: string, method: "GET" | "POST", url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { ...accessHeaders, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const DAY = "2027-05-15";
const listing = (name: string) => ({
  name,
  sport: "trail",
  startDate: DAY,
  endDate: DAY,
  city: "Annecy",
  zipcode: "74000",
  countryCode: "FR",
  courses: [{ name: "Grand parcours", distance: 32_000, date: DAY }],
});

async function save(cookie: string, id: number, name: string): Promise<{ id: number; slug: string }> {
  const response = await call(cookie, "POST", `/api/event/${id}`, listing(name));
  expect(response.statusCode, response.body).toBe(id === 0 ? 201 : 200);
  return response.json().event;
}

const formerOf = async (id: number) =>
  (await t.database.db.select().from(eventFormerSlugs).where(eq(eventFormerSlugs.eventId, id)))
    .map((r) => r.slug)
    .sort();

/** Every address of the sitemap's event files. */
async function sitemapUrls(): Promise<string> {
  const index = (await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body;
  const parts = [...index.matchAll(/<loc>[^<]*(\/sitemaps\/events-\d+\.xml)<\/loc>/g)].map((m) => m[1] as string);
  const bodies = await Promise.all(parts.map(async (url) => (await t.app.inject({ method: "GET", url })).body));
  return bodies.join("\n");
}

describe("an event renamed through the editor", () => {
  it("keeps its old slug as a former one, leading to the current slug; the sitemap lists the current only", async () => {
    const admin = await testMember(t, { role: "admin" });
    const event = await save(admin.cookie, 0, "Trail des Anciens Noms");
    expect(event.slug).toBe("trail-des-anciens-noms-2027");
    const renamed = await save(admin.cookie, event.id, "Trail des Nouveaux Noms");
    expect(renamed.slug).toBe("trail-des-nouveaux-noms-2027");
    expect(await formerOf(event.id)).toEqual(["trail-des-anciens-noms-2027"]);
    const details = t.app.services.eventDetails;
    expect(await details.currentSlug("trail-des-anciens-noms-2027")).toBe("trail-des-nouveaux-noms-2027");
    expect(await details.currentSlug("trail-des-nouveaux-noms-2027")).toBeNull();
    expect(await details.currentSlug("aucune-course")).toBeNull();

    const urls = await sitemapUrls();
    expect(urls).toContain("/course/trail-des-nouveaux-noms-2027<");
    expect(urls).not.toContain("/course/trail-des-anciens-noms-2027<");

    // Another race of the old name gets a slug of its own: the old address stays the first one's.
    const other = await save(admin.cookie, 0, "Trail des Anciens Noms");
    expect(other.slug).toBe("trail-des-anciens-noms-2027-2");
    expect(await details.currentSlug("trail-des-anciens-noms-2027")).toBe("trail-des-nouveaux-noms-2027");

    // Renamed back: it takes its old slug again, and the one it leaves becomes former.
    const back = await save(admin.cookie, event.id, "Trail des Anciens Noms");
    expect(back.slug).toBe("trail-des-anciens-noms-2027");
    expect(await formerOf(event.id)).toEqual(["trail-des-nouveaux-noms-2027"]);
    expect(await details.currentSlug("trail-des-nouveaux-noms-2027")).toBe("trail-des-anciens-noms-2027");

    // Whatever renames it, a script included.
    await t.database.db.update(events).set({ slug: "trail-renomme-a-la-main" }).where(eq(events.id, event.id));
    expect(await formerOf(event.id)).toEqual(["trail-des-anciens-noms-2027", "trail-des-nouveaux-noms-2027"]);
    // An event deleted takes its former slugs along.
    await t.database.db.delete(events).where(eq(events.id, event.id));
    expect(await formerOf(event.id)).toEqual([]);
  });

  it("a new edition (the yearly copy) leaves the source's address alone", async () => {
    const admin = await testMember(t, { role: "admin" });
    const event = await save(admin.cookie, 0, "Trail de la Copie 2027");
    const copied = await call(admin.cookie, "POST", `/api/admin/events/${event.id}/copy`, {});
    expect(copied.statusCode, copied.body).toBeLessThan(300);
    expect(await formerOf(event.id)).toEqual([]);
    const [row] = await t.database.db.select({ slug: events.slug }).from(events).where(eq(events.id, event.id));
    expect(row?.slug).toBe(event.slug);
  });
});

describe("a member who changes their name", () => {
  it("keeps their old profile address as a former one; no one else is given it", async () => {
    const member = await testMember(t, { firstName: "Octave", publicProfile: true });
    const profile = { firstName: "Octave", lastName: "Ancien", pseudo: "", publicProfile: true };
    const first = await call(member.cookie, "POST", `/api/user/profile/${member.id}`, profile);
    expect(first.statusCode, first.body).toBe(200);
    const before = first.json().user.slug as string;
    const renamed = await call(member.cookie, "POST", `/api/user/profile/${member.id}`, {
      ...profile,
      lastName: "Nouveau",
    });
    const after = renamed.json().user.slug as string;
    expect(after).not.toBe(before);
    const former = await t.database.db.select().from(userFormerSlugs).where(eq(userFormerSlugs.userId, member.id));
    expect(former.map((r) => r.slug)).toContain(before);
    expect(await t.app.services.accounts.currentSlug(before)).toBe(after);
    // Another Octave Ancien gets another address.
    const namesake = await testMember(t, { firstName: "Octave" });
    const taken = await call(namesake.cookie, "POST", `/api/user/profile/${namesake.id}`, profile);
    expect(taken.json().user.slug).not.toBe(before);
    expect(await t.app.services.accounts.currentSlug(before)).toBe(after);
    const [{ n }] = (
      await t.database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE slug = ${before}`)
    ).rows;
    expect(n).toBe(0);
  });
});
