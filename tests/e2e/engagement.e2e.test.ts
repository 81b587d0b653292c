import ICAL from "ical.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { upcomingEditions } from "./catalogue.ts";

/**
 * A runner's season: a visitor hearts a race on the search grid, signs in and finds it saved; plans
 * two courses of a race; sees them in the planning's month grid with the totals; subscribes to the
 * planning from a calendar app (read by ical.js).
 */
let browser: Browser;
const baseURL = inject("baseURL");
let context: BrowserContext;
const password = "saison 2027 !";
const address = `saison.${Date.now().toString(36)}@example.fr`;

beforeAll(async () => {
  browser = await launchBrowser();
  const registered = await fetch(`${baseURL}/api/register`, {
    method: "POST",
    headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" },
    body: JSON.stringify({
      email: address,
      password,
      passwordConfirmation: password,
      firstName: "Romane",
      lastName: "Martin",
      terms: true,
    }),
  });
  expect(registered.status).toBe(201);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

const toast = (page: Page) => page.locator(".Toastify").textContent();

describe("a runner's season", () => {
  it("saves a favourite from the search grid after signing in, back on the same search", async () => {
    context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/?sport=trail`);
    await untilHydrated(page);
    const heart = page.locator("[data-layout=grid] [data-testid=favorite-button]").first();
    const eventId = await heart.getAttribute("data-event-id");
    expect(await heart.getAttribute("aria-pressed")).toBe("false");
    expect(await heart.getAttribute("aria-label")).toMatch(/^Ajouter .+ à mes favoris$/);
    await heart.click();

    await page.waitForURL(/\/login\?next=/);
    await untilHydrated(page);
    await page.getByLabel("Adresse e-mail").fill(address);
    await page.getByLabel("Mot de passe").fill(password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.search === "?sport=trail");
    await untilHydrated(page);
    const saved = page.locator(`[data-layout=grid] [data-testid=favorite-button][data-event-id="${eventId}"]`);
    await expect.poll(() => saved.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => toast(page)).toContain("Ajoutée à vos favoris.");
    // The hash that carried it is gone; a reload keeps the heart on.
    expect(new URL(page.url()).hash).toBe("");
    await page.reload();
    await untilHydrated(page);
    await expect.poll(() => saved.getAttribute("aria-pressed")).toBe("true");

    // The favourites tab lists it.
    await page.goto(`${baseURL}/user/favoris`);
    await untilHydrated(page);
    await expect.poll(() => page.locator(`[data-testid=favorite-button][data-event-id="${eventId}"]`).count()).toBe(1);
  });

  it("plans two courses, sees them in the month grid with totals, and subscribes to the planning", async () => {
    const page = await context.newPage();
    // Days ahead whatever the weekday (catalogue.ts): a race held today could not be planned ahead.
    const [event] = await upcomingEditions((detail) => detail.courses.filter((c) => c.distance).length >= 2);
    const [first, second] = event.courses.filter((c) => c.distance);

    await page.goto(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);
    const plan = (courseId: number) => page.locator(`[data-testid=plan-course][data-course-id="${courseId}"]`);
    await expect.poll(() => plan(first.id).isEnabled()).toBe(true);
    await plan(first.id).click();
    const dialog = page.getByTestId("plan-dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel("Inscrit·e").check();
    await dialog.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => toast(page)).toContain("Course ajoutée à votre planning.");
    await expect.poll(() => plan(first.id).textContent()).toContain("Dans mon planning : Inscrit·e");
    // The first dialog is gone before the second opens (on a busy machine it can still be closing).
    await expect.poll(() => dialog.count()).toBe(0);
    await plan(second.id).click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => plan(second.id).textContent()).toContain("Dans mon planning : Prévue");

    await page.goto(`${baseURL}/user/planning`);
    await untilHydrated(page);
    const items = page.getByTestId("planning-list").locator("article");
    expect(await items.count()).toBe(2);
    expect(await page.getByTestId("planning-list").textContent()).toContain("Inscrit·e");
    // The race day is marked in the month grid, with words for screen readers.
    expect(await page.locator(".calendar-marked").count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator(".calendar-marked").first().textContent()).toContain("2 courses ce jour-là");
    expect(await page.getByTestId("planning-month").first().textContent()).toContain("2 courses");
    const km = Math.round(((first.distance ?? 0) + (second.distance ?? 0)) / 1000);
    expect((await page.getByTestId("planning-month").first().textContent())?.replace(/\s/g, " ")).toContain(`${km} km`);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Créer mon adresse d'abonnement" }).click();
    const field = page.getByLabel("Adresse iCalendar de mon planning");
    await expect.poll(() => field.inputValue()).toMatch(/\/api\/user\/calendar\.ics\?token=/);
    const url = new URL(await field.inputValue());
    // One click into a calendar app: webcal:// for Apple's (and the system's), Google's and Outlook's pages.
    const apps = page.getByTestId("planning-feed-apps");
    expect(await apps.getByRole("link", { name: "Apple Calendrier" }).getAttribute("href")).toBe(
      `webcal://${url.host}${url.pathname}${url.search}`,
    );
    expect(await apps.getByRole("link", { name: /^Google Agenda/ }).getAttribute("href")).toBe(
      `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(`webcal://${url.host}${url.pathname}${url.search}`)}`,
    );
    expect(await apps.getByRole("link", { name: /^Outlook/ }).getAttribute("href")).toMatch(
      /^https:\/\/outlook\.live\.com\/calendar\/0\/addfromweb\?url=http/,
    );
    // A calendar app has no session: the address alone opens it.
    const feed = await fetch(`${baseURL}${url.pathname}${url.search}`);
    expect(feed.status).toBe(200);
    const vevents = new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents("vevent");
    expect(vevents.map((v) => new ICAL.Event(v).uid.split("@")[0]).sort()).toEqual(
      [`course-${first.id}`, `course-${second.id}`].sort(),
    );
    await page.close();
  });

  it("shows the planning in English on a phone", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: MOBILE.viewport?.width ?? 360, height: 800 });
    await page.goto(`${baseURL}/en/user/planning`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("My planning");
    expect(await page.getByTestId("planning-list").textContent()).toContain("Registered");
    // Weeks start on Monday in English too (spec §9).
    expect(await page.locator(".react-calendar__month-view__weekdays abbr").first().getAttribute("title")).toBe(
      "Monday",
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
