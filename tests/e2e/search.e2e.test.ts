import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SPORTS } from "../../shared/constants.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE } from "./browser.ts";

const baseURL = inject("baseURL");
let browser: Browser;
/** Department code → region code, from the API. */
let regionOf: Record<string, string> = {};
beforeAll(async () => {
  browser = await launchBrowser();
  const response = await fetch(`${baseURL}/api/departments`);
  const body = (await response.json()) as { departments: { code: string; regionCode: string }[] };
  regionOf = Object.fromEntries(body.departments.map((d) => [d.code, d.regionCode]));
});
afterAll(() => browser?.close());

type Card = { sport: string; department: string; date: string; endDate: string; distanceKm: number | null };

/** What each result says about itself (data attributes of the result list). */
async function cards(page: Page): Promise<Card[]> {
  return page.locator('[data-testid="event-list"] > li').evaluateAll((items) =>
    items.map((li) => {
      const d = (li as HTMLElement).dataset;
      return {
        sport: d.sport ?? "",
        department: d.department ?? "",
        date: d.date ?? "",
        endDate: d.endDate ?? "",
        distanceKm: d.distanceKm === undefined ? null : Number(d.distanceKm),
      };
    }),
  );
}

async function total(page: Page): Promise<number> {
  return Number(await page.getByTestId("result-count").getAttribute("data-total"));
}

/** The sport and the sports grouped under it (choosing trail gives short and ultra trails too). */
function sportFamily(key: string): string[] {
  return [key, ...SPORTS.filter((s) => s.parent === key).map((s) => s.key)];
}

/** The results shown once the URL settles on `expected` and the page shows that search. */
async function waitForSearch(page: Page, expected: RegExp) {
  await page.waitForURL(expected);
  const search = new URL(page.url()).search.replace(/^\?/, "");
  await page.locator(`section[data-search="${search}"][aria-busy="false"]`).waitFor();
}

async function hydrated(page: Page) {
  await page.waitForFunction(
    () => (window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules,
  );
  // The lazy date picker replaces the native inputs once hydrated (hidden in the closed sheet on phones).
  await page.locator("#search-dates").waitFor({ state: "attached" });
  await page.locator("div#search-sport").waitFor({ state: "attached" });
}

async function pickOption(page: Page, combobox: string, option: string | RegExp) {
  await page.getByRole("combobox", { name: combobox }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describe("search page", () => {
  let context: BrowserContext;
  afterAll(() => context?.close());

  it("filters by sport, region and dates: the URL and every result agree", async () => {
    context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    const before = await total(page);

    await pickOption(page, "Sports", "Trail");
    await page.keyboard.press("Escape");
    await waitForSearch(page, /\?sport=trail$/);
    await pickOption(page, "Région", "Auvergne-Rhône-Alpes");
    await waitForSearch(page, /\?sport=trail&region=84$/);

    // Next month through the picker's quick range.
    await page.getByRole("button", { name: /^Dates/ }).click();
    await page.getByRole("button", { name: "Mois prochain", exact: true }).click();
    await waitForSearch(page, /\?sport=trail&region=84&from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/);
    const url = new URL(page.url());
    const from = url.searchParams.get("from")!;
    const to = url.searchParams.get("to")!;

    const count = await total(page);
    expect(count).toBeLessThan(before);
    const shown = await cards(page);
    if (count === 0) {
      await expect(page.getByTestId("no-results").textContent()).resolves.toContain("Aucun résultat");
    }
    expect(shown.length).toBe(Math.min(count, 24));
    for (const card of shown) {
      const what = `${JSON.stringify(card)} for ${url.search}`;
      expect(sportFamily("trail"), what).toContain(card.sport);
      expect(regionOf[card.department], what).toBe("84");
      expect(card.date <= to && card.endDate >= from, what).toBe(true);
    }
    // The same URL, loaded afresh, renders the same results on the server.
    const reload = await context.newPage();
    await reload.goto(page.url());
    expect(await total(reload)).toBe(count);
    expect(await cards(reload)).toEqual(shown);
    await reload.close();
    expect(errors).toEqual([]);
  });

  it("renders a shared URL's results on the server and pages through them with real links", async () => {
    const ctx = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await ctx.newPage();
    const today = new Date().toISOString().slice(0, 10);
    const inSixMonths = new Date(Date.now() + 183 * 86_400_000).toISOString().slice(0, 10);
    const response = await page.goto(`${baseURL}/?sport=running&from=${today}&to=${inSixMonths}`);
    expect(response?.status()).toBe(200);
    const count = await total(page);
    expect(count).toBeGreaterThan(24);
    for (const card of await cards(page)) {
      expect(sportFamily("running")).toContain(card.sport);
      expect(card.date <= inSixMonths && card.endDate >= today, JSON.stringify(card)).toBe(true);
    }
    // Page 2 is a plain link to a URL of its own.
    const next = page.getByTestId("pagination").getByRole("link", { name: "Page 2" });
    expect(await next.getAttribute("href")).toBe(`/?sport=running&from=${today}&to=${inSixMonths}&page=2`);
    await next.click();
    await page.waitForURL(/page=2$/);
    expect(await page.locator('[aria-current="page"]').last().textContent()).toBe("2");
    // Filtered searches are not for search engines.
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    await ctx.close();
  });

  it("keeps working without JavaScript: the filter panel is a GET form", async () => {
    const ctx = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await page.locator("select#search-sport").selectOption(["triathlon"]);
    await page.locator("select#search-region").selectOption("84");
    await page.getByRole("button", { name: "Rechercher", exact: true }).click();
    await page.waitForURL(/\/\?/);
    const url = new URL(page.url());
    expect(url.searchParams.getAll("sport")).toEqual(["triathlon"]);
    expect(url.searchParams.get("region")).toBe("84");
    for (const card of await cards(page)) {
      expect(sportFamily("triathlon")).toContain(card.sport);
      expect(regionOf[card.department]).toBe("84");
    }
    await ctx.close();
  });

  it("shows the results despite a bad filter in the URL, and says which filter it ignored", async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    const response = await page.goto(`${baseURL}/?sport=curling&region=84&from=2026-09-30&to=2026-01-01`);
    expect(response?.status()).toBe(200);
    const notice = await page.getByTestId("ignored-filters").textContent();
    expect(notice).toContain("Sport");
    expect(await total(page)).toBeGreaterThan(0);
    for (const card of await cards(page)) expect(regionOf[card.department]).toBe("84");
    await ctx.close();
  });

  it("switches between grid, list and map views", async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/?sport=trail`);
    await hydrated(page);
    expect(await page.getByTestId("event-list").getAttribute("data-layout")).toBe("grid");

    await page.getByRole("link", { name: "Liste", exact: true }).click();
    await waitForSearch(page, /\?sport=trail&view=list$/);
    expect(await page.getByTestId("event-list").getAttribute("data-layout")).toBe("list");

    await page.getByRole("link", { name: "Carte", exact: true }).click();
    await waitForSearch(page, /\?sport=trail&view=map$/);
    await page.locator('[data-testid="search-map"] canvas').first().waitFor({ timeout: 20_000 });
    // The list stays under the map, for keyboards and screen readers.
    expect(await page.getByTestId("event-list").getAttribute("data-layout")).toBe("list");

    await page.getByRole("link", { name: "Grille", exact: true }).click();
    await waitForSearch(page, /\?sport=trail$/);
    expect(await page.locator('[data-testid="search-map"]').count()).toBe(0);
    await ctx.close();
  });

  it("searches around a town within a radius, nearest first", async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    await page.getByRole("combobox", { name: "Autour d'un lieu" }).fill("Grenob");
    await page
      .getByRole("option", { name: /Grenoble/ })
      .first()
      .click();
    await waitForSearch(page, /\?place=38185&radius=30$/);
    await pickOption(page, "Dans un rayon de", "100 km");
    await waitForSearch(page, /\?place=38185&radius=100$/);
    await pickOption(page, "Tri des résultats", "Plus près du lieu");
    await waitForSearch(page, /\?place=38185&radius=100&sort=distance$/);

    const shown = await cards(page);
    expect(shown.length).toBeGreaterThan(0);
    const distances = shown.map((c) => c.distanceKm);
    for (const km of distances) {
      expect(km).not.toBeNull();
      expect(km!).toBeLessThanOrEqual(100);
    }
    expect(distances).toEqual([...distances].sort((a, b) => a! - b!));
    expect(await page.getByRole("combobox", { name: "Autour d'un lieu" }).inputValue()).toContain("Grenoble");
    await ctx.close();
  });

  it("finds the place around me, and says so when geolocation is refused", async () => {
    const allowed = await browser.newContext({
      ...DESKTOP,
      permissions: ["geolocation"],
      geolocation: { latitude: 45.1885, longitude: 5.7245 },
    });
    const page = await allowed.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    await page.getByRole("button", { name: "Autour de moi", exact: true }).click();
    await waitForSearch(page, /\?place=38185&radius=30$/);
    await allowed.close();

    const refused = await browser.newContext(DESKTOP);
    const other = await refused.newPage();
    await other.goto(`${baseURL}/`);
    await hydrated(other);
    await other.getByRole("button", { name: "Autour de moi", exact: true }).click();
    await other.getByText("La géolocalisation n'est pas autorisée.").waitFor();
    await refused.close();
  });

  it("opens the filters as a sheet on phones", async () => {
    const ctx = await browser.newContext(MOBILE);
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    expect(await page.locator("#search-filters").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Filtres", exact: true }).click();
    expect(await page.locator("#search-filters").isVisible()).toBe(true);
    // The sheet keeps the keyboard focus inside it, both ways.
    const inSheet = () =>
      page.evaluate(() => document.getElementById("search-filters")?.contains(document.activeElement));
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      expect(await inSheet()).toBe(true);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await inSheet()).toBe(true);
    }
    await page.getByRole("button", { name: "Fermer les filtres", exact: true }).click();
    expect(await page.locator("#search-filters").isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await ctx.close();
  });

  it("lists the races around a place on a phone, list and map alike, with whole words and rows of one height", async () => {
    const ctx = await browser.newContext(MOBILE);
    const page = await ctx.newPage();
    for (const view of ["list", "map"]) {
      await page.goto(`${baseURL}/?place=74010&radius=50&view=${view}`);
      await hydrated(page);
      const rows = await page.locator('[data-layout="list"] > li').evaluateAll((items) =>
        items.map((li) => {
          const title = li.querySelector("h3") as HTMLElement;
          // A word cut across two lines has a box on each (a line may end after a hyphen: "Saint-").
          const cut: string[] = [];
          const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of (node.textContent ?? "").matchAll(/[^\s-]+/g)) {
              const range = document.createRange();
              range.setStart(node, word.index ?? 0);
              range.setEnd(node, (word.index ?? 0) + word[0].length);
              if (range.getClientRects().length > 1) cut.push(word[0]);
            }
          }
          return {
            cut,
            titleShare: title.getBoundingClientRect().width / li.getBoundingClientRect().width,
            height: li.getBoundingClientRect().height,
            away: /^à \d+(,\d)? km$/.test(li.querySelector("[data-testid=away]")?.textContent ?? ""),
          };
        }),
      );
      expect(rows.length).toBeGreaterThan(3);
      for (const row of rows) {
        expect(row.cut).toEqual([]);
        // The name has most of the row, not what a badge beside it leaves.
        expect(row.titleShare).toBeGreaterThan(0.55);
        expect(row.away).toBe(true);
      }
      const heights = rows.map((row) => row.height);
      expect(Math.max(...heights) / Math.min(...heights)).toBeLessThan(1.25);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await ctx.close();
  });

  it("works in English", async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/en`);
    await hydrated(page);
    await pickOption(page, "Sports", "Mountain bike");
    await page.keyboard.press("Escape");
    await waitForSearch(page, /\/en\?sport=mtb$/);
    expect(await page.getByTestId("result-count").textContent()).toMatch(/^\d[\d,]* races?$/);
    for (const card of await cards(page)) expect(card.sport).toBe("mtb");
    await ctx.close();
  });
});

describe("landing pages", () => {
  it("render on the server without JavaScript, with their own title, canonical and hreflang", async () => {
    const ctx = await browser.newContext({ ...MOBILE, javaScriptEnabled: false });
    const page = await ctx.newPage();
    const response = await page.goto(`${baseURL}/courses/trail/auvergne-rhone-alpes`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe("Trail en région Auvergne-Rhône-Alpes");
    expect(await page.title()).toMatch(/^Trail \d{4} en région Auvergne-Rhône-Alpes : le calendrier \| Dossard$/);
    const attr = (selector: string, name: string) => page.locator(selector).first().getAttribute(name);
    expect(await attr('link[rel="canonical"]', "href")).toBe(`${baseURL}/courses/trail/auvergne-rhone-alpes`);
    expect(await attr('link[rel="alternate"][hreflang="en"]', "href")).toBe(
      `${baseURL}/en/races/trail-running/auvergne-rhone-alpes`,
    );
    expect(await attr('meta[name="description"]', "content")).toMatch(/courses? à venir en trail en région/);
    expect(await attr('meta[property="og:title"]', "content")).toContain("Auvergne-Rhône-Alpes");
    expect(await page.locator('meta[name="robots"]').count()).toBe(0);

    const shown = await cards(page);
    expect(shown.length).toBeGreaterThan(0);
    for (const card of shown) {
      expect(sportFamily("trail")).toContain(card.sport);
      expect(regionOf[card.department]).toBe("84");
    }
    // Related landing pages and the way to the search page with the same filters.
    expect(await page.getByTestId("related-departments").getByRole("link", { name: "Isère (38)" }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Affiner cette recherche" }).first().getAttribute("href")).toBe(
      "/?sport=trail&region=84",
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await ctx.close();
  });

  it("the same in English, with English slugs; other slugs redirect, unknown ones are not found", async () => {
    const ctx = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await ctx.newPage();
    const response = await page.goto(`${baseURL}/en/races/trail-running/auvergne-rhone-alpes`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe("Trail running in Auvergne-Rhône-Alpes");
    expect(await page.locator('link[rel="alternate"][hreflang="fr"]').getAttribute("href")).toBe(
      `${baseURL}/courses/trail/auvergne-rhone-alpes`,
    );
    expect(await page.getByTestId("result-count").textContent()).toMatch(/upcoming races?$/);

    // The language switch of the header lands on the French slug through a redirect.
    await page.goto(`${baseURL}/en/races/trail`);
    expect(page.url()).toBe(`${baseURL}/en/races/trail-running`);
    await page.goto(`${baseURL}/courses/region/84`);
    expect(page.url()).toBe(`${baseURL}/courses/region/auvergne-rhone-alpes`);

    const missing = await page.goto(`${baseURL}/en/races/curling`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Item not found");
    const department = await page.goto(`${baseURL}/courses/departement/isere`);
    expect(department?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe("Courses dans le département Isère (38)");
    await ctx.close();
  });
});

describe("accessibility", () => {
  it("home, a search with filters and a landing page have no serious or critical axe violations", async () => {
    const ctx = await browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${baseURL}/?sport=trail,ultra_trail&region=84&elevation=500-1000&view=list`);
    await hydrated(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${baseURL}/courses/region/auvergne-rhone-alpes`);
    expect(await seriousViolations(page)).toEqual([]);
    await ctx.close();

    const phone = await browser.newContext(MOBILE);
    const mobile = await phone.newPage();
    await mobile.goto(`${baseURL}/en?place=38185&radius=50`);
    await hydrated(mobile);
    await mobile.getByRole("button", { name: /^Filters\s*1 active filter$/ }).click();
    expect(await seriousViolations(mobile)).toEqual([]);
    await phone.close();
  });
});
