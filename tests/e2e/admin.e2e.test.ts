import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { verifiedMember } from "./members.ts";

/**
 * The admin dashboard as the people who run the site see it: the machine's figures, the charts, and
 * a visit made a moment ago in the page views (counted without cookies; the journeys' server writes
 * its counts every second); refused to a member. At 1280 and 360 px, with axe.
 */
let browser: Browser;
const baseURL = inject("baseURL");
/** A phone's browser as people use it (the journeys' headless Chromium names itself a robot). */
const PHONE_BROWSER =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signInAs(context: BrowserContext, address: string, password: string) {
  const response = await context.request.post(`${baseURL}/api/login`, {
    headers: { "x-dossard-access": "dossard-web-1" },
    data: { email: address, password },
  });
  expect(response.status()).toBe(200);
}

describe("the admin dashboard", () => {
  it("shows the server, the traffic and a visit from another site made a moment ago", async () => {
    // A person on a phone arrives from a club's site: only its host is kept. A robot (the
    // headless browser saying so in its user agent) coming from another site is not counted.
    const stamp = Date.now().toString(36);
    const host = `www.club-${stamp}.example`;
    const robotHost = `www.robot-${stamp}.example`;
    const person = await browser.newContext({ ...MOBILE, userAgent: PHONE_BROWSER });
    const visit = await person.newPage();
    const response = await visit.goto(`${baseURL}/page/mentions-legales`, { referer: `https://${host}/agenda?id=42` });
    expect(response?.status()).toBe(200);
    await person.close();
    const robot = await browser.newContext(MOBILE);
    const crawl = await robot.newPage();
    expect((await crawl.goto(`${baseURL}/page/mentions-legales`, { referer: `https://${robotHost}/` }))?.status()).toBe(
      200,
    );
    expect(await crawl.evaluate(() => navigator.userAgent)).toContain("HeadlessChrome");
    await robot.close();

    const context = await browser.newContext(DESKTOP);
    await signInAs(context, E2E_ADMINS.dashboard.email, E2E_ADMINS.dashboard.password);
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("Tableau de bord");
    const machine = page.getByTestId("machine");
    for (const label of [
      "Processeur",
      "Mémoire",
      "Disque (données)",
      "Base de données",
      "Trafic",
      "En service depuis",
    ]) {
      expect(await machine.getByText(label, { exact: true }).count()).toBe(1);
    }
    expect(await machine.textContent()).toMatch(/\d+(,\d)?\s%/);
    // The page views are written every second on this server: the visit shows after a reload or two.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("region", { name: "Sites d'origine" }).textContent();
        },
        { timeout: 15_000 },
      )
      .toContain(host);
    expect(await page.getByRole("region", { name: "Sites d'origine" }).textContent()).not.toContain(robotHost);
    expect(await page.getByRole("figure").first().getByRole("img").getAttribute("aria-label")).toBe(
      "Requêtes par heure, dernières 24 heures",
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "30 jours" }).click();
    await page.waitForURL(`${baseURL}/admin?range=30d`);
    await expect
      .poll(() => page.getByRole("figure").first().locator("figcaption span").first().textContent())
      .toBe("Requêtes par jour, 30 derniers jours");
    await context.close();

    const phone = await browser.newContext(MOBILE);
    await signInAs(phone, E2E_ADMINS.dashboard.email, E2E_ADMINS.dashboard.password);
    const small = await phone.newPage();
    await small.goto(`${baseURL}/en/admin`);
    await untilHydrated(small);
    expect(await small.locator("h1").textContent()).toBe("Dashboard");
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(small)).toEqual([]);
    await phone.close();
  });

  it("is refused to a member, who is told so", async () => {
    const member = await verifiedMember("Nina", { lastName: "Perrin" });
    const context = await browser.newContext(DESKTOP);
    await context.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const page = await context.newPage();
    const response = await page.goto(`${baseURL}/admin`);
    expect(response?.status()).toBe(403);
    expect(await page.locator("h1").textContent()).toBe("Accès réservé");
    expect(await page.content()).not.toContain("Processeur");
    await context.close();
  });
});
