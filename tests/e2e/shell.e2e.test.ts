import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, launchBrowser, MOBILE } from "./browser.ts";
import { upcomingEditions } from "./catalogue.ts";

const baseURL = inject("baseURL");
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("home page", () => {
  it("is server-rendered in French with demo races and its meta tags, JavaScript disabled", async () => {
    const context = await browser.newContext({ ...MOBILE, javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(`${baseURL}/`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.title()).toBe("Calendrier des courses à pied, trails et triathlons en France | Dossard");
    expect(await page.locator("h1").textContent()).toBe("Trouvez votre prochaine course");
    const cards = page.locator('[data-testid="event-list"] article');
    expect(await cards.count()).toBeGreaterThanOrEqual(12);
    const firstDate = await cards.first().locator("time").getAttribute("datetime");
    expect(firstDate! >= new Date().toISOString().slice(0, 10)).toBe(true);
    const meta = (selector: string, attr = "content") => page.locator(selector).first().getAttribute(attr);
    expect(await meta('meta[name="description"]')).toMatch(/^Trouvez votre prochaine course/);
    expect((await meta('meta[name="description"]'))!.length).toBeLessThanOrEqual(140);
    expect(await meta('link[rel="canonical"]', "href")).toBe(`${baseURL}/`);
    expect(await meta('link[rel="alternate"][hreflang="en"]', "href")).toBe(`${baseURL}/en`);
    expect(await meta('meta[property="og:title"]')).toBe(
      "Calendrier des courses à pied, trails et triathlons en France",
    );
    expect(await meta('meta[property="og:site_name"]')).toBe("Dossard");
    expect(await meta('meta[property="og:url"]')).toBe(`${baseURL}/`);
    expect(await meta('meta[property="og:locale"]')).toBe("fr_FR");
    const image = await meta('meta[property="og:image"]');
    expect(image).toBe(`${baseURL}/images/share-default.png`);
    expect((await page.request.get(image!)).headers()["content-type"]).toBe("image/png");
    expect(await page.locator('[data-testid="laposte-credit"]').textContent()).toContain("La Poste");
    // The way into the landing pages: by sport and by region, each with its races.
    const browse = page.getByTestId("browse-links");
    expect(await browse.getByRole("link", { name: /^Trail \(\d+\)$/ }).getAttribute("href")).toBe("/courses/trail");
    const regions = browse.getByRole("list", { name: "Par région" }).getByRole("link");
    expect(await regions.count()).toBeGreaterThan(3);
    const region = (await regions.first().getAttribute("href")) ?? "";
    expect(region).toMatch(/^\/courses\/region\/[a-z-]+$/);
    expect((await page.request.get(`${baseURL}${region}`)).status()).toBe(200);
    // Nothing overflows a 360 px wide phone screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(360);
    await context.close();
  });

  it("switches to English and back, keeping the page", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/page/credits`);
    expect(await page.locator("h1").textContent()).toBe("Crédits");
    await page.getByTestId("language-switch").click();
    await page.waitForURL(`${baseURL}/en/page/credits`);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    expect(await page.locator("h1").textContent()).toBe("Credits");
    await page.getByTestId("language-switch").click();
    await page.waitForURL(`${baseURL}/page/credits`);
    expect(await page.locator("h1").textContent()).toBe("Crédits");
    await context.close();
  });

  it("switches language keeping the query: a search's filters, a ranking's period, the poster's course", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/?sport=trail&view=list`);
    // Named by what it shows ("EN"), then what it does.
    const toEnglish = page.getByRole("link", { name: "EN – English version", exact: true });
    expect(await toEnglish.getAttribute("href")).toBe("/en?sport=trail&view=list");
    expect(await page.locator('link[rel="alternate"][hreflang="en"]').getAttribute("href")).toBe(
      `${baseURL}/en?sport=trail&view=list`,
    );
    await toEnglish.click();
    await page.waitForURL(`${baseURL}/en?sport=trail&view=list`);
    expect(await page.locator("[data-layout=list]").count()).toBe(1);
    expect(await page.getByRole("link", { name: "FR – Version française", exact: true }).getAttribute("href")).toBe(
      "/?sport=trail&view=list",
    );

    await page.goto(`${baseURL}/communaute?period=all&order=distance`);
    expect(await page.getByTestId("language-switch").getAttribute("href")).toBe(
      "/en/community?period=all&order=distance",
    );

    const [tracked] = await upcomingEditions((event) => event.courses.some((course) => course.track));
    const course = tracked?.courses.find((c) => c.track);
    await page.goto(`${baseURL}/poster/nouveau?course=${course?.id}`);
    await page.getByTestId("language-switch").click();
    await page.waitForURL(`${baseURL}/en/poster/new?course=${course?.id}`);
    expect(await page.locator("h1").textContent()).toBe("Create a poster");
    await context.close();
  });

  it("renders the English home page under /en with English dates", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en`);
    expect(await page.title()).toBe("Calendar of running, trail and triathlon races in France | Dossard");
    const firstDate = await page.locator('[data-testid="event-list"] time').first().textContent();
    expect(firstDate).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} [A-Z][a-z]+ \d{4}$/);
    await context.close();
  });
});

describe("errors", () => {
  it("shows the translated 404 page with status 404", async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    const fr = await page.goto(`${baseURL}/cette-page-n-existe-pas`);
    expect(fr?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Page introuvable");
    expect(await page.title()).toContain("Page introuvable");
    const en = await page.goto(`${baseURL}/en/no-such-page`);
    expect(en?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Page not found");
    const item = await page.goto(`${baseURL}/page/nope`);
    expect(item?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Élément introuvable");
    await context.close();
  });

  it("hydrates without console errors or CSP violations", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(msg.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${baseURL}/`);
    await page.waitForFunction(
      () => (window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules,
    );
    await page.getByRole("link", { name: /Crédits/ }).click();
    await page.waitForURL(`${baseURL}/page/credits`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
