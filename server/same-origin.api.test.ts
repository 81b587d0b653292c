import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditBalance } from "../features/orders/credits.service.server.ts";
import { posterNear } from "../features/posters/basemap/poster-api.fixture.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../tests/api/harness.ts";
import { fillUrl, routesOf, WRITE_METHODS } from "../tests/api/routes.ts";
import { countWrites } from "../tests/api/write-counter.ts";
import { EXTERNAL_CALLBACKS } from "./cross-site.server.ts";

/**
 * Every write outside /api (the spec's server routes /ext/…, the pages' forms) obeys the rule /api
 * writes obey: only the site itself may ask (features/identity/auth.server.ts, isSameOriginRequest;
 * issue 25 §2 item 5: a cross-site form could start a poster's export and spend its credit). The
 * routes come from the app's own table, so a route added tomorrow is checked too; other services'
 * callbacks (webhooks, mail providers' one-click unsubscribe) are the listed exceptions.
 */
let t: TestApp;
let writes: () => Promise<number>;
let member: { id: number; cookie: string };
let posterId: number;
let publicOrigin: string;

beforeAll(async () => {
  t = await createTestApp();
  publicOrigin = new URL(t.app.config.PUBLIC_URL).origin;
  member = await testMember(t);
  const poster = await posterNear(t, member.cookie, { lng: 6.87, lat: 45.92, name: "Chamonix" }, {});
  posterId = poster.id as number;
  writes = await countWrites(t.database);
}, 60_000);
afterAll(() => t?.close());

const EVIL = "https://evil.example";

/** Ways another site's page (a form, a fetch, an image) reaches us, as browsers label them. */
const CROSS_SITE: [string, Record<string, string>][] = [
  ["another site's form (Origin and Sec-Fetch-Site)", { origin: EVIL, "sec-fetch-site": "cross-site" }],
  ["another site, from a browser without Sec-Fetch-Site", { origin: EVIL }],
  ["a sibling site", { origin: "https://shop.dossard.example", "sec-fetch-site": "same-site" }],
  ["a sandboxed frame (Origin: null)", { origin: "null" }],
  ["a request that says nothing", {}],
];

/** The site's own ways: its pages' fetches, its forms in a recent browser, in an older one. */
const SAME_ORIGIN = (): [string, Record<string, string>][] => [
  ["the access header (the site's fetches)", { ...accessHeaders }],
  ["the site's own form (Sec-Fetch-Site: same-origin)", { origin: publicOrigin, "sec-fetch-site": "same-origin" }],
  ["the site's own form, from a browser without Sec-Fetch-Site", { origin: publicOrigin }],
];

const writesOutsideApi = () =>
  routesOf(t.app).filter(
    (route) =>
      WRITE_METHODS.has(route.method) &&
      !route.url.startsWith("/api/") &&
      !EXTERNAL_CALLBACKS.has(`${route.method} ${route.url}`),
  );

const urlOf = (pattern: string) =>
  fillUrl(pattern, (name) => (name === "id" ? String(posterId) : name === "format" ? "svg" : "1"));

function call(method: string, url: string, headers: Record<string, string>, locale = "fr") {
  return t.app.inject({
    method: method as "POST",
    url,
    headers: { cookie: member.cookie, "x-locale": locale, "content-type": "application/json", ...headers },
    payload: "{}",
  });
}

describe("writes outside /api", () => {
  it("are found in the route table; only other services' callbacks are left out", () => {
    const routes = writesOutsideApi().map((route) => `${route.method} ${route.url}`);
    expect(routes).toContain("POST /ext/user/poster/:id/export/:format");
    const callbacks = routesOf(t.app)
      .filter((route) => WRITE_METHODS.has(route.method) && !route.url.startsWith("/api/"))
      .map((route) => `${route.method} ${route.url}`)
      .filter((route) => EXTERNAL_CALLBACKS.has(route))
      .sort();
    expect(callbacks).toEqual([
      "POST /alertes/desabonnement",
      "POST /en/alerts/unsubscribe",
      "POST /ext/payment/webhook",
    ]);
  });

  it("refuse every request another site makes: 403 with a translated message, nothing written", async () => {
    const before = await writes();
    const wrong: string[] = [];
    for (const route of writesOutsideApi()) {
      for (const [how, headers] of CROSS_SITE) {
        const response = await call(route.method, urlOf(route.url), headers);
        const error = response.json().error;
        if (response.statusCode !== 403 || error?.code !== "CROSS_SITE_REQUEST") {
          wrong.push(`${route.method} ${route.url}, ${how}: ${response.statusCode} ${error?.code ?? ""}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await writes()).toBe(before);
    const url = urlOf("/ext/user/poster/:id/export/:format");
    const fr = (await call("POST", url, CROSS_SITE[0]![1])).json().error;
    expect(fr.message).toBe("Requête refusée : elle ne vient pas de ce site. Recommencez depuis ses pages.");
    const en = (await call("POST", url, CROSS_SITE[0]![1], "en")).json().error;
    expect(en.message).toBe("Request refused: it did not come from this site. Try again from its own pages.");
  });

  it("accept the same requests from the site itself", async () => {
    const wrong: string[] = [];
    for (const route of writesOutsideApi()) {
      for (const [how, headers] of SAME_ORIGIN()) {
        const response = await call(route.method, urlOf(route.url), headers);
        if (response.statusCode === 403) wrong.push(`${route.method} ${route.url}, ${how}: 403`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("a poster's export (the probe's case)", () => {
  it("spends no credit for another site's form, and starts for the creator's own request", async () => {
    const url = urlOf("/ext/user/poster/:id/export/:format").replace("/svg", "/png");
    const before = await creditBalance(t.database.db, member.id);
    const crossSite = await call("POST", url, { origin: EVIL, "sec-fetch-site": "cross-site" });
    expect(crossSite.statusCode).toBe(403);
    expect(await creditBalance(t.database.db, member.id)).toBe(before);
    // The creator's page posts it with apiFetch (the access header), as PosterCreator does.
    const own = await call("POST", url, { ...accessHeaders, origin: publicOrigin, "sec-fetch-site": "same-origin" });
    expect([200, 202]).toContain(own.statusCode);
  });
});

describe("other services' callbacks", () => {
  it("still reach their routes without a browser's headers, which check their own proof", async () => {
    const before = await writes();
    const stripe = await call("POST", "/ext/payment/webhook", { origin: EVIL, "sec-fetch-site": "cross-site" });
    expect(stripe.json().error.code).toBe("WEBHOOK_SIGNATURE_INVALID");
    for (const path of ["/alertes/desabonnement", "/en/alerts/unsubscribe"]) {
      // A mail provider's one-click (RFC 8058): no Origin, no Sec-Fetch-Site, a bad token here.
      const oneClick = await t.app.inject({
        method: "POST",
        url: `${path}?token=forged`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(oneClick.statusCode, path).not.toBe(403);
      expect(oneClick.statusCode, path).toBeLessThan(500);
    }
    expect(await writes()).toBe(before);
  });
});
