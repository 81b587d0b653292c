import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Ranking } from "../../features/community/community.contract.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { verifiedMember } from "./members.ts";
import {
  claim,
  daysAgo,
  findResults,
  importCsv,
  makePublic,
  pastEvent,
  signIn,
  type TimingLine,
  timingCsv,
} from "./results-data.ts";

/**
 * A visitor opens the community from the main navigation: the rankings (switching period and order
 * by plain links), the activity feed and its older page, the members directory's search form —
 * in French on a phone and in English on a desktop, with axe on each page. On the journeys' shared
 * server: an admin lists a past edition of five courses and imports each course's results file
 * through the import API; six members registered through the API, with public profiles, each claim
 * their line in every course (30 results in the feed, ranked in the period).
 */
let browser: Browser;
const baseURL = inject("baseURL");
const shots = process.env.SCREENSHOT_DIR;
const MEMBERS = [
  ["Camille", "Morel"],
  ["Hugo", "Bernard"],
  ["Léa", "Dubois"],
  ["Lucas", "Petit"],
  ["Manon", "Leroy"],
  ["Théo", "Moreau"],
] as const;
const COURSES = [
  { name: "5 km", distance: 5_000, elevationGain: 20 },
  { name: "10 km", distance: 10_000, elevationGain: 60 },
  { name: "Semi-marathon", distance: 21_097, elevationGain: 150 },
  { name: "Trail 30 km", distance: 30_000, elevationGain: 1_200 },
  { name: "Marathon", distance: 42_195, elevationGain: 300 },
];
let slugs: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await signIn(E2E_ADMINS.communityPages);
  const event = await pastEvent(admin, {
    name: `Festival des Traboules ${Date.now().toString(36)}`,
    date: daysAgo(15),
    courses: COURSES,
  });
  // Each course's file: the six members and two other runners, in a different order each time.
  for (const [c, course] of event.courses.entries()) {
    const runners = [...MEMBERS, ["Jean", "Autre"], ["Paul", "Autre"]] as const;
    const lines: TimingLine[] = runners
      .map((_, i) => runners[(i + c) % runners.length] as (typeof runners)[number])
      .map(([firstName, lastName], i) => ({
        rank: i + 1,
        bib: 100 * (c + 1) + i,
        lastName: lastName.toUpperCase(),
        firstName,
        sex: ["Léa", "Manon", "Camille"].includes(firstName) ? "F" : "H",
        category: "SE",
        time: Math.round(((COURSES[c]?.distance ?? 10_000) / 1000) * 300 + i * 40),
      }));
    await importCsv(admin, course.id, timingCsv(lines));
  }
  const members = await Promise.all(
    MEMBERS.map(async ([firstName, lastName]) => {
      const member = await verifiedMember(firstName, { lastName });
      const slug = await makePublic(member.cookie, { firstName, lastName });
      return { ...member, slug, firstName, lastName };
    }),
  );
  slugs = members.map((m) => m.slug);
  for (const course of event.courses) {
    for (const member of members) {
      const [line] = await findResults(course.id, `${member.lastName} ${member.firstName}`);
      if (!line) throw new Error(`${member.firstName} ${member.lastName} not in ${course.name}`);
      // Each line bears its member's name ("MOREL Camille"): theirs at once, no organiser needed.
      expect((await claim(member.cookie, line.id)).status).toBe("confirmed");
    }
  }
  // The server keeps a ranked list for a minute: wait until the one the page shows first has them.
  const deadline = Date.now() + 70_000;
  for (;;) {
    const ranking = (await (await fetch(`${baseURL}/api/rankings/1y/races`)).json()) as Ranking;
    if (ranking.entries.filter((entry) => slugs.includes(entry.slug)).length === MEMBERS.length) break;
    if (Date.now() > deadline) throw new Error("the members' results never reached the rankings");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
});
afterAll(async () => {
  await browser?.close();
});

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
    // Followed on a hydrated page, the link navigates in the page: the address changes before React
    // has drawn the new page, so the old heading can still be there for a moment.
    await page.locator("h1", { hasText: "La communauté" }).waitFor();
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
    // The URL changes before the new list is rendered: French format, decimal comma and a no-break
    // space before the unit.
    await expect
      .poll(() => rows.first().locator("td").last().textContent())
      .toMatch(/^\d[\d\u202f\u00a0]*(,\d)?\u00a0km$/);
    // Beside the distances, every name can be read whole: wrapped, never cut with an ellipsis.
    const cut = await page
      .getByTestId("ranking-table")
      .locator("tbody a > span > span")
      .evaluateAll((spans) =>
        spans
          .filter((span) => getComputedStyle(span).textOverflow === "ellipsis" || span.scrollWidth > span.clientWidth)
          .map((span) => span.textContent),
      );
    expect(cut).toEqual([]);
    await page.getByRole("link", { name: "Depuis toujours" }).click();
    await page.waitForURL(/period=all/);
    expect(page.url()).toMatch(/order=distance/);
    await expect
      .poll(() => page.getByRole("link", { name: "Depuis toujours" }).getAttribute("aria-current"))
      .toBe("page");

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
    // The URL changes before the older page is rendered.
    await expect.poll(() => items.first().textContent()).not.toBe(firstPage[0]);
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
