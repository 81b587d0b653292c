import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { parseGpx } from "../../features/events/gpx.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { upcomingEditions } from "./catalogue.ts";

const baseURL = inject("baseURL");
let browser: Browser;

const api = async <T>(path: string): Promise<T> => {
  const res = await fetch(`${baseURL}${path}`);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as T;
};

/** An upcoming event with a track, and a cancelled and a postponed one, found through the API. */
let tracked: EventDetail;
let cancelled: EventDetail | undefined;
let postponed: EventDetail | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  // Upcoming whatever the day the suite runs (catalogue.ts): never one held today.
  [tracked] = await upcomingEditions(async ({ id }) => {
    const { tracks } = await api<{ tracks: unknown[] }>(`/api/tracks?event=${id}`);
    return tracks.length > 0;
  });
  for (let id = 1; id <= 400 && !(cancelled && postponed); id++) {
    const res = await fetch(`${baseURL}/api/event/${id}`);
    if (!res.ok) continue;
    const event = (await res.json()) as EventDetail;
    if (event.state === "cancelled") cancelled ??= event;
    if (event.state === "postponed") postponed ??= event;
  }
});
afterAll(() => browser?.close());

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((t) => JSON.parse(t));
}

describe("event page", () => {
  it("is server-rendered in French with its title, status, courses, JSON-LD and meta tags, JavaScript disabled", async () => {
    const context = await browser.newContext({ ...MOBILE, javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(`${baseURL}/course/${tracked.slug}`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.locator("h1").textContent()).toBe(tracked.name);
    expect(await page.title()).toMatch(new RegExp(`^${tracked.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} – `));
    expect(await page.title()).toMatch(/ \| Dossard$/);
    // The status is written, not only coloured.
    expect(await page.locator('header [data-state="upcoming"]').textContent()).toBe("À venir");
    expect(await page.locator("header time").textContent()).toMatch(
      /^(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|du) /,
    );
    expect(await page.getByTestId("course-card").count()).toBe(tracked.courses.length);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${baseURL}/course/${tracked.slug}`);
    expect(await page.locator('link[rel="alternate"][hreflang="en"]').getAttribute("href")).toBe(
      `${baseURL}/en/race/${tracked.slug}`,
    );
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description!.length).toBeLessThanOrEqual(140);

    const [event, breadcrumb] = await jsonLd(page);
    expect(event).toMatchObject({
      "@context": "https://schema.org",
      "@type": "SportsEvent",
      name: tracked.name,
      endDate: tracked.endDate,
      eventStatus: "https://schema.org/EventScheduled",
      url: `${baseURL}/course/${tracked.slug}`,
      location: { "@type": "Place", address: { "@type": "PostalAddress", addressCountry: "FR" } },
    });
    expect(String(event.startDate).startsWith(tracked.startDate)).toBe(true);
    expect((event.location as { geo: unknown }).geo).toEqual({
      "@type": "GeoCoordinates",
      latitude: tracked.place.lat,
      longitude: tracked.place.lng,
    });
    const offers = event.offers as { price: string; priceCurrency: string; validThrough?: string }[];
    expect(offers.length).toBe(tracked.courses.reduce((n, c) => n + c.prices.length, 0));
    for (const offer of offers) {
      expect(offer.priceCurrency).toBe("EUR");
      expect(offer.price).toMatch(/^\d+\.\d{2}$/);
    }
    expect(breadcrumb["@type"]).toBe("BreadcrumbList");

    // Without JavaScript the maps are drawings, the profile an SVG with its text summary.
    const course = tracked.courses.find((c) => c.track)!;
    const card = page.getByTestId("course-card").filter({ has: page.locator(`#course-${course.id}`) });
    expect(await card.locator('svg[role="img"][aria-label^="Carte du parcours"]').count()).toBe(1);
    // The profile says what the card does not (the D+ is beside the distance): D−, lowest and highest points.
    expect(await card.locator("figure figcaption").textContent()).toMatch(/dénivelé négatif ; altitude de .+ à .+\./);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(360);
    await context.close();
  });

  it("downloads the GPX of a course and the event's .ics", async () => {
    const context = await browser.newContext({ ...DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${baseURL}/course/${tracked.slug}`);
    const link = page.getByTestId("gpx-link").first();
    const href = await link.getAttribute("href");
    expect(href).toMatch(/^\/track\/export\/\d+\/gpx$/);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${tracked.slug}-[a-z0-9-]+\\.gpx$`));

    const gpx = await page.request.get(`${baseURL}${href}`);
    expect(gpx.status()).toBe(200);
    expect(gpx.headers()["content-type"]).toBe("application/gpx+xml; charset=utf-8");
    expect(gpx.headers()["content-disposition"]).toMatch(/^attachment; filename=".+\.gpx"$/);
    const parsed = parseGpx(await gpx.text());
    expect(parsed.version).toBe("1.1");
    expect(parsed.points.length).toBeGreaterThan(50);
    expect(parsed.points.every(([lng, lat, ele]) => Number.isFinite(lng) && Number.isFinite(lat) && ele !== null)).toBe(
      true,
    );

    const icsHref = await page.getByTestId("ics-link").getAttribute("href");
    expect(icsHref).toBe(`/api/event/${tracked.id}/ics`);
    const ics = await page.request.get(`${baseURL}${icsHref}`);
    expect(ics.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(ics.headers()["content-disposition"]).toBe(`attachment; filename="${tracked.slug}.ics"`);
    const text = (await ics.text()).replace(/\r\n /g, "");
    expect(text).toContain("BEGIN:VEVENT");
    // One entry per race (decision 022): on its day, or at its start time in UTC.
    expect(text).toMatch(new RegExp(`\r\nDTSTART(;VALUE=DATE)?:${tracked.startDate.replaceAll("-", "")}`));
    expect(text).toContain(`URL:${baseURL}/course/${tracked.slug}`);
    await context.close();
  });

  it("sends external links through the counting redirect", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/course/${tracked.slug}`);
    const hrefs = await page
      .locator("a[data-link-type]")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(hrefs.length).toBe(tracked.links.length);
    for (const href of hrefs) expect(href).toMatch(new RegExp(`^/redirect/[a-z]+/${tracked.id}/${tracked.slug}$`));
    const res = await page.request.get(`${baseURL}${hrefs[0]}`, { maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers().location).toMatch(/^https:\/\//);
    await context.close();
  });

  it("is in English under /en/race/ with English labels, dates and calendar file", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const response = await page.goto(`${baseURL}/en/race/${tracked.slug}`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe(tracked.name);
    expect(await page.locator("#courses-heading").textContent()).toBe("Races");
    expect(await page.locator('header [data-state="upcoming"]').textContent()).toBe("Upcoming");
    expect(await page.locator("header time").textContent()).toMatch(
      /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} /,
    );
    expect(await page.getByTestId("ics-link").getAttribute("href")).toBe(`/api/event/${tracked.id}/ics?_locale=en`);
    const ics = await page.request.get(`${baseURL}/api/event/${tracked.id}/ics?_locale=en`);
    expect((await ics.text()).replace(/\r\n /g, "")).toContain(`URL:${baseURL}/en/race/${tracked.slug}`);
    const [event] = await jsonLd(page);
    expect(event.sport).toBe(tracked.sport.nameEn);
    expect(event.url).toBe(`${baseURL}/en/race/${tracked.slug}`);
    const gpx = await page.request.get(`${baseURL}${await page.getByTestId("gpx-link").first().getAttribute("href")}`);
    expect(gpx.headers()["content-type"]).toBe("application/gpx+xml; charset=utf-8");
    await page.getByTestId("language-switch").click();
    await page.waitForURL(`${baseURL}/course/${tracked.slug}`);
    expect(await page.locator("#courses-heading").textContent()).toBe("Les épreuves");
    await context.close();
  });

  it("says cancelled and postponed in words and in the JSON-LD", async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    if (cancelled) {
      await page.goto(`${baseURL}/course/${cancelled.slug}`);
      expect(await page.locator('header [data-state="cancelled"]').textContent()).toBe("Annulée");
      expect(await page.getByRole("note").textContent()).toContain("Course annulée");
      expect(await page.title()).toMatch(/^Annulé : /);
      expect((await jsonLd(page))[0].eventStatus).toBe("https://schema.org/EventCancelled");
    }
    if (postponed) {
      await page.goto(`${baseURL}/en/race/${postponed.slug}`);
      expect(await page.locator('header [data-state="postponed"]').textContent()).toBe("Postponed");
      expect(await page.getByRole("note").textContent()).toContain("Race postponed");
      const [event] = await jsonLd(page);
      expect(event.eventStatus).toBe("https://schema.org/EventRescheduled");
      expect(event.previousStartDate).toBe(postponed.originalDate);
    }
    expect(cancelled ?? postponed).toBeTruthy();
    await context.close();
  });

  it("gives the item-not-found page with status 404 for an unknown race or link", async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false, locale: "fr-FR" });
    const page = await context.newPage();
    const fr = await page.goto(`${baseURL}/course/cette-course-n-existe-pas-1999`);
    expect(fr?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Élément introuvable");
    const en = await page.goto(`${baseURL}/en/race/no-such-race-1999`);
    expect(en?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Item not found");
    const redirect = await page.goto(`${baseURL}/redirect/website/999999/nothing`);
    expect(redirect?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Élément introuvable");
    const gpx = await page.goto(`${baseURL}/track/export/999999/gpx`);
    expect(gpx?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Élément introuvable");
    await context.close();
    // Server routes have no language in their path: the page follows the browser's language.
    const english = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false, locale: "en-GB" });
    const enPage = await english.newPage();
    const link = await enPage.goto(`${baseURL}/redirect/registration/999999`);
    expect(link?.status()).toBe(404);
    expect(await enPage.locator("h1").textContent()).toBe("Item not found");
    expect(await enPage.getAttribute("html", "lang")).toBe("en");
    await english.close();
  });

  it("hydrates, loads the maps without console errors or CSP violations, and passes axe-core", async () => {
    for (const options of [DESKTOP, MOBILE]) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error") problems.push(msg.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));
      // Not "networkidle": the maps keep fetching tiles, and a busy machine never gives 500 ms of
      // silence before the navigation deadline. Hydration and the maps are waited for below.
      await page.goto(`${baseURL}/course/${tracked.slug}`);
      await untilHydrated(page);
      // The map is an island: its placeholder, then the map, may be swapped while the page settles
      // (once: "Element is not attached to the DOM"), so the scroll is tried again on the new one.
      const trackMap = page.getByTestId("course-card").locator("[data-map-ready]").first();
      await vi.waitFor(() => trackMap.scrollIntoViewIfNeeded({ timeout: 10_000 }), { timeout: 60_000, interval: 250 });
      await page.waitForSelector('[data-map-ready="true"]', { timeout: 60_000 });
      expect(await page.locator(".maplibregl-canvas").count()).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
