/**
 * A renamed event or member keeps its old addresses (issue 26 item 6): links from elsewhere —
 * another site, a search engine, a shared message — land on the page with a 301 to its current
 * address, in both languages, with the query kept. Against the built server (the pages' loaders),
 * by plain fetch as a visitor; the sitemap lists the current address only.
 */
import { describe, expect, inject, it } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { verifiedMember } from "./members.ts";
import { signIn } from "./results-data.ts";

const baseURL = inject("baseURL");
const mark = Date.now().toString(36);

function api(cookie: string, method: string, path: string, body?: unknown) {
  return fetch(`${baseURL}${path}`, {
    method,
    headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json", cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Status and Location of a visitor's request, without following it. */
async function visit(path: string): Promise<[number, string | null]> {
  const response = await fetch(`${baseURL}${path}`, { headers: { accept: "text/html" }, redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  return [response.status, location?.startsWith(baseURL) ? location.slice(baseURL.length) : location];
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("a renamed event", () => {
  it("answers its old French and English addresses with a 301 to the new ones, query kept", async () => {
    const admin = await signIn(E2E_ADMINS.renames);
    const date = inDays(90);
    const listing = (name: string) => ({
      name,
      sport: "trail",
      startDate: date,
      endDate: date,
      city: "Annecy",
      zipcode: "74000",
      countryCode: "FR",
      lat: 45.9,
      lng: 6.12,
      courses: [{ name: "Grand parcours", distance: 32_000, date, startTime: "08:00" }],
    });
    const created = await api(admin, "POST", "/api/event/0", listing(`Trail des Anciens Noms ${mark}`));
    expect(created.status, await created.clone().text()).toBe(201);
    const { id, slug: before } = (await created.json()).event as { id: number; slug: string };
    expect(await visit(`/course/${before}`)).toEqual([200, null]);

    // The organiser's editor renames it.
    const saved = await api(admin, "POST", `/api/event/${id}`, listing(`Trail des Nouveaux Noms ${mark}`));
    expect(saved.status, await saved.clone().text()).toBe(200);
    const after = (await saved.json()).event.slug as string;
    expect(after).not.toBe(before);

    expect(await visit(`/course/${after}`)).toEqual([200, null]);
    expect(await visit(`/course/${before}`)).toEqual([301, `/course/${after}`]);
    expect(await visit(`/en/race/${before}`)).toEqual([301, `/en/race/${after}`]);
    expect(await visit(`/course/${before}?tab=results&utm_source=x`)).toEqual([
      301,
      `/course/${after}?tab=results&utm_source=x`,
    ]);
    expect(await visit(`/en/race/${before}?open=contact`)).toEqual([301, `/en/race/${after}?open=contact`]);

    // The sitemap names the current address only.
    const index = await (await fetch(`${baseURL}/sitemap.xml`)).text();
    const parts = [...index.matchAll(/<loc>([^<]*\/sitemaps\/events-\d+\.xml)<\/loc>/g)].map((m) => m[1] as string);
    const sitemaps = (await Promise.all(parts.map(async (part) => (await fetch(part)).text()))).join("\n");
    expect(sitemaps).toContain(`/course/${after}<`);
    expect(sitemaps).not.toContain(`/course/${before}<`);
    expect(sitemaps).not.toContain(`/en/race/${before}"`);
  });
});

describe("a member who changes their name", () => {
  it("keeps their old profile address as a 301 to the new one, in both languages", async () => {
    const member = await verifiedMember("Octave", { lastName: `Ancien${mark}` });
    const profile = {
      firstName: "Octave",
      lastName: `Ancien${mark}`,
      pseudo: "",
      publicProfile: true,
    };
    const me = await (await api(member.cookie, "GET", "/api/me")).json();
    const first = await api(member.cookie, "POST", `/api/user/profile/${me.user.id}`, profile);
    expect(first.status, await first.clone().text()).toBe(200);
    const before = (await first.json()).user.slug as string;
    const renamed = await api(member.cookie, "POST", `/api/user/profile/${me.user.id}`, {
      ...profile,
      lastName: `Nouveau${mark}`,
    });
    expect(renamed.status, await renamed.clone().text()).toBe(200);
    const after = (await renamed.json()).user.slug as string;
    expect(after).not.toBe(before);
    expect(await visit(`/membre/${after}`)).toEqual([200, null]);
    expect(await visit(`/membre/${before}`)).toEqual([301, `/membre/${after}`]);
    expect(await visit(`/en/member/${before}?x=1`)).toEqual([301, `/en/member/${after}?x=1`]);
  });
});
