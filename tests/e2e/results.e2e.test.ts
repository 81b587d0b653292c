import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { verifiedMember } from "./members.ts";
import { daysAgo, importCsv, makePublic, pastEvent, signIn, type TimingLine, timingCsv } from "./results-data.ts";

/**
 * A runner finds their line in a marathon's results on the event page (offered above the table,
 * since it bears their name), says "C'est moi" and confirms, and finds the marathon's badges and
 * their figures on their public profile — in French on a phone, then in English on a desktop, with
 * axe on each page. Another member claims a line of another name: it waits for the organiser, who
 * refuses it beside the results import, and the member reads so on their results page. On the journeys' shared server: an admin lists the
 * past marathon through the editor API and imports its timing company's CSV through the import API
 * (the import screen is results-import.e2e.test.ts's business). Screenshots go to SCREENSHOT_DIR.
 */
let browser: Browser;
const baseURL = inject("baseURL");
let event: { id: number; slug: string; name: string };
const shots = process.env.SCREENSHOT_DIR;

/** 60 finishers from 2:42:00, two minutes apart (Camille DURAND seventh, in 2:54:00), and 2 DNF. */
function marathonFile(): TimingLine[] {
  const lines: TimingLine[] = [];
  for (let g = 1; g <= 60; g++) {
    const camille = g === 7;
    lines.push({
      rank: g,
      bib: 1000 + g,
      lastName: camille ? "DURAND" : "COUREUR",
      firstName: camille ? "Camille" : `N${g}`,
      sex: camille ? "F" : "H",
      category: camille ? "SEF" : "SEH",
      club: g % 3 === 0 ? "AC Lyon" : undefined,
      time: 2 * 3600 + 40 * 60 + g * 120,
    });
  }
  lines.push({ rank: "Abandon", bib: 1061, lastName: "ABANDON", firstName: "Un", sex: "H", category: "SEH" });
  lines.push({ rank: "Abandon", bib: 1062, lastName: "ABANDON", firstName: "Deux", sex: "H", category: "SEH" });
  return lines;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await signIn(E2E_ADMINS.results);
  const name = `Marathon des Canuts ${Date.now().toString(36)}`;
  const listed = await pastEvent(admin, {
    name,
    date: daysAgo(20),
    courses: [{ name: "Marathon", distance: 42_195, elevationGain: 300 }],
  });
  await importCsv(admin, listed.courses[0]!.id, timingCsv(marathonFile()));
  event = { id: listed.id, slug: listed.slug, name };
});
afterAll(async () => {
  await browser?.close();
});

/** A member registered, verified and with a public profile, through the API: session and slug. */
async function publicMember(): Promise<{ session: string; slug: string }> {
  const member = await verifiedMember("Camille", { lastName: "Durand" });
  const slug = await makePublic(member.cookie, { firstName: "Camille", lastName: "Durand" });
  return { session: member.session, slug };
}

/** The page (whole, or the window only: a dialog), or one element. */
async function shot(page: Page, name: string, testId?: string | "window") {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `results-${name}.png`);
  if (testId && testId !== "window") await page.getByTestId(testId).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: !testId });
}

describe("a member claims a result and sees their badges", () => {
  it("claims the line on the event page (French, phone), then shows badges and stats on the public profile in both languages", async () => {
    const member = await publicMember();
    const phone = await browser.newContext(MOBILE);
    await phone.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const page = await phone.newPage();
    await page.goto(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);

    const block = page.getByTestId("event-results");
    expect(await block.getByTestId("results-finishers").textContent()).toBe("60 finishers");
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.getByTestId("result-row").count(), { timeout: 30_000 }).toBe(50);
    // The podium says its medal in words, not by colour alone.
    expect(await block.getByTestId("result-row").first().textContent()).toContain("médaille d’or");
    // The table says which time it shows and names its course.
    expect(await block.getByTestId("time-header").textContent()).toBe("Temps officiel");
    expect(await block.getByTestId("results-course").textContent()).toMatch(
      /^Marathon · 42,195\u00a0km · \d\d\/\d\d\/\d\d$/,
    );
    // "C'est moi" only on the line bearing the member's name, and offered above the table.
    await expect.poll(() => block.getByTestId("claim-result").count()).toBe(1);
    const panel = block.getByTestId("claim-panel");
    expect(await panel.textContent()).toContain("Est-ce vous ?");
    expect(await seriousViolations(page, ['[data-testid="event-results"]'])).toEqual([]);
    await shot(page, "table-360", "event-results");
    await panel.getByRole("button", { name: "C’est moi : DURAND Camille est mon résultat" }).click();
    // It asks first, saying what will happen.
    const dialog = page.getByTestId("claim-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Le nom de cette ligne est celui de votre profil (Camille Durand)");
    expect(await seriousViolations(page, ['[data-testid="claim-dialog"]'])).toEqual([]);
    await shot(page, "dialog-match-360", "window");
    await dialog.getByRole("button", { name: "Oui, c’est moi" }).click();
    await expect.poll(() => block.getByRole("status").textContent()).toContain("Ce résultat est maintenant le vôtre");
    // The line now links to the member's profile and offers to give it back.
    await expect.poll(() => block.getByRole("link", { name: "DURAND Camille" }).count()).toBe(1);
    expect(await block.getByRole("button", { name: "Ce n’est pas moi" }).count()).toBe(1);
    await shot(page, "event-360", "event-results");

    await page.goto(`${baseURL}/membre/${member.slug}`);
    await untilHydrated(page);
    const badges = page.getByTestId("member-badges");
    for (const name of ["Marathon en moins de 3 h", "Marathon en moins de 4 h", "Marathon"]) {
      expect(await badges.getByText(name, { exact: true }).count(), name).toBeGreaterThan(0);
    }
    const stats = page.getByTestId("member-stats");
    expect(await stats.locator('[data-stat="totalDistance"] dd').textContent()).toBe("42,2\u00a0km");
    expect(await stats.locator('[data-stat="totalElevation"] dd').textContent()).toBe("D+\u00a0300\u00a0m");
    expect(await stats.locator('[data-stat="races"] dd').textContent()).toBe("1");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "profile-360");
    await phone.close();

    const desktop = await browser.newContext(DESKTOP);
    await desktop.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const wide = await desktop.newPage();
    await wide.goto(`${baseURL}/en/member/${member.slug}`);
    await untilHydrated(wide);
    expect(await wide.getByTestId("member-badges").getByText("Sub-3 marathon", { exact: true }).count()).toBe(1);
    const enStats = wide.getByTestId("member-stats");
    expect(await enStats.locator('[data-stat="totalDistance"] dd').textContent()).toBe("42.2\u00a0km");
    expect(await enStats.locator('[data-stat="totalElevation"] dd').textContent()).toBe("300\u00a0m\u00a0D+");
    expect(await seriousViolations(wide)).toEqual([]);
    await shot(wide, "profile-1280");

    // The account's results tab: the time, the rank among the finishers and its percentile.
    await wide.goto(`${baseURL}/en/user/results`);
    await untilHydrated(wide);
    const mine = wide.getByTestId("my-results");
    const text = await mine.textContent();
    expect(text).toContain(event.name);
    expect(text).toContain("2:54:00");
    expect(text).toContain("7 of 60");
    expect(text).toContain("top 12%");
    expect(await seriousViolations(wide)).toEqual([]);
    await shot(wide, "account-1280");
    await desktop.close();
  });

  it("sends a claim on another name to the organiser, who refuses it; the member sees so (English, desktop)", async () => {
    const member = await verifiedMember("Hugo", { lastName: "Lambert" });
    const desktop = await browser.newContext(DESKTOP);
    await desktop.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const page = await desktop.newPage();
    await page.goto(`${baseURL}/en/race/${event.slug}`);
    await untilHydrated(page);
    const block = page.getByTestId("event-results");
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.getByTestId("result-row").count(), { timeout: 30_000 }).toBe(50);
    // No line bears his name: no "That's me" on any line until he searches.
    expect(await block.getByTestId("claim-result").count()).toBe(0);
    await shot(page, "table-1280", "event-results");
    await block.getByRole("button", { name: "Search for your name" }).click();
    await block.getByLabel("Search a name or a bib number").fill("N12");
    await block.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => block.getByTestId("result-row").count()).toBe(1);
    await block.getByRole("button", { name: "That's me: COUREUR N12 is my result" }).click();
    const dialog = page.getByTestId("claim-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("This line's name (COUREUR N12) is not the one on your profile");
    await shot(page, "dialog-mismatch-1280", "window");
    await dialog.getByRole("button", { name: "Send the request" }).click();
    await expect.poll(() => block.getByRole("status").textContent()).toContain("Request sent");
    // It counts nowhere: the line names nobody.
    expect(await block.getByRole("link", { name: "COUREUR N12" }).count()).toBe(0);

    // The organiser (here the admin who imported the file) finds it beside the results import.
    const organiser = await browser.newContext(MOBILE);
    const cookie = await signIn(E2E_ADMINS.results);
    await organiser.addCookies([
      { name: "dossard_session", value: cookie.split("=").slice(1).join("="), url: baseURL },
    ]);
    const review = await organiser.newPage();
    await review.goto(`${baseURL}/user/evenement/${event.id}/resultats`);
    await untilHydrated(review);
    const item = review.getByTestId("claims-review").getByRole("listitem").filter({ hasText: "COUREUR N12" });
    expect(await item.textContent()).toContain("Hugo Lambert");
    expect(await seriousViolations(review)).toEqual([]);
    await shot(review, "review-360");
    await item.getByRole("button", { name: "Refuser la demande de Hugo Lambert sur la ligne COUREUR N12" }).click();
    await expect.poll(() => review.getByTestId("claims-review").count()).toBe(0);
    await organiser.close();

    await page.goto(`${baseURL}/en/user/results`);
    await untilHydrated(page);
    expect(await page.getByTestId("my-claims").textContent()).toContain("Refused by the organiser");
    await desktop.close();
  });
});
