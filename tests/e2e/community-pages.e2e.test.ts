import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCommunityActivity } from "../../bench/community.ts";
import { openDatabase } from "../../db/client.server.ts";
import { ensureSeeded } from "../../db/seed/index.server.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { journeyDataDir } from "./data-dir.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

/**
 * A visitor opens the community from the main navigation: the rankings (switching period and order
 * by plain links), the activity feed and its older page, the members directory's search form —
 * in French on a phone and in English on a desktop, with axe on each page. The members and their
 * results are written into the data folder before the server starts (bench/community.ts).
 */
let browser: Browser;
let server: ServerProcess;
let dataDir: string;
let baseURL: string;
const shots = process.env.SCREENSHOT_DIR;

beforeAll(async () => {
  dataDir = journeyDataDir("dossard-e2e-community-pages-");
  const database = await openDatabase({ dataDir: path.join(dataDir, "pgdata") });
  await database.migrate();
  await ensureSeeded(database.db, { demoEvents: 80, log: () => {} });
  await seedCommunityActivity(database, {
    members: 40,
    results: 240,
    today: new Date().toISOString().slice(0, 10),
    emailPrefix: "journey.member",
  });
  await database.close();
  server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "80" });
  baseURL = server.baseURL;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function screenshot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

describe("community pages", () => {
  it("in French on a phone: rankings with period and order links, then the activity", async () => {
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    await page.getByTestId("community-link").click();
    await page.waitForURL(/\/communaute$/);
    await untilHydrated(page);
    await expect(page.locator("h1").textContent()).resolves.toBe("La communauté");
    const rows = page.getByTestId("ranking-table").locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(3);
    // The first line is ranked 1 and links to a public profile.
    await expect(rows.first().locator("td").first().textContent()).resolves.toBe("1");
    expect(await rows.first().locator("a").getAttribute("href")).toMatch(/^\/membre\//);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "community-fr-360");

    await page.getByRole("link", { name: "Distance", exact: true }).click();
    await page.waitForURL(/order=distance/);
    const value = await rows.first().locator("td").last().textContent();
    // French format: decimal comma and a no-break space before the unit.
    expect(value).toMatch(/^\d[\d\u202f\u00a0]*(,\d)?\u00a0km$/);
    await page.getByRole("link", { name: "Depuis toujours" }).click();
    await page.waitForURL(/period=all/);
    expect(page.url()).toMatch(/order=distance/);
    await expect(page.getByRole("link", { name: "Depuis toujours" }).getAttribute("aria-current")).resolves.toBe(
      "page",
    );

    await page
      .getByRole("navigation", { name: "Rubriques de la communauté" })
      .getByRole("link", { name: "Activité" })
      .click();
    await page.waitForURL(/\/communaute\/activite$/);
    await page.locator("h1", { hasText: "Activité de la communauté" }).waitFor();
    const items = page.getByTestId("timeline").locator("li");
    expect(await items.count()).toBe(20);
    await expect(items.first().textContent()).resolves.toContain("a terminé");
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("in English on a desktop: the activity's older page and the members search form", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/community/activity?type=results`);
    await untilHydrated(page);
    await expect(page.locator("h1").textContent()).resolves.toBe("Community activity");
    const items = page.getByTestId("timeline").locator("li");
    const firstPage = await items.allTextContents();
    expect(firstPage).toHaveLength(20);
    expect(firstPage.every((text) => text.includes("finished"))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "community-activity-en-1280");
    await page.getByTestId("timeline-more").click();
    await page.waitForURL(/cursor=/);
    const secondPage = await items.allTextContents();
    expect(secondPage.length).toBeGreaterThan(0);
    expect(secondPage.some((text) => firstPage.includes(text))).toBe(false);

    await page.goto(`${baseURL}/en/community/members`);
    await untilHydrated(page);
    await page.getByLabel("Name").fill("camille");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/q=camille/);
    const names = await page.getByTestId("members").locator("li .font-semibold").allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name.toLowerCase()).toContain("camille");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "community-members-en-1280");
    await context.close();
  });
});
