import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { mailbox } from "./mailbox.ts";
import { verifiedMember } from "./members.ts";

/**
 * Alerts: a visitor asks to be alerted about a search, signs in, comes back to the same search
 * with the alert saved; a race is published; the digest reaches the test SMTP server, and its
 * unsubscribe link works. The alerts tab is checked in French and English.
 */
let browser: Browser;
const baseURL = inject("baseURL");
const ADMIN = E2E_ADMINS.alerts;
/** Where screenshots go when ALERT_SHOTS is set (looked at by hand). */
const SHOTS = process.env.ALERT_SHOTS;
const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function api<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, { ...init, headers: { ...headers, ...init.headers } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/login`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return (response.headers.get("set-cookie") ?? "").split(";")[0];
}

const toast = (page: Page) => page.locator(".Toastify").textContent();

describe("alert me", () => {
  it("a visitor saves a search as an alert through the login page, then receives its digest", async () => {
    const { events } = await api<{ events: { id: number }[] }>("/api/events_group/upcoming?limit=20");
    const event = await api<EventDetail>(`/api/event/${events[events.length - 1].id}`);
    const member = await verifiedMember("Julie", { lastName: "Morel" });
    // Its sport and department: on the journeys' shared server, other races keep being published
    // (next year's editions, other journeys' events), and the digest lists the newest ten.
    const search = `sport=${event.sport.key}${event.place.department ? `&department=${event.place.department.code}` : ""}`;

    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    await page.goto(`${baseURL}/?${search}`);
    await untilHydrated(page);
    await page.getByTestId("alert-me").click();
    await page.waitForURL(`${baseURL}/login?next=${encodeURIComponent(`/?${search}&alert=1`)}`);
    await untilHydrated(page);
    await page.getByLabel("Adresse e-mail").fill(member.email);
    await page.getByLabel("Mot de passe").fill(member.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    // Back on the same search; the alert is saved and the one-shot parameter dropped.
    await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("sport") === event.sport.key);
    await untilHydrated(page);
    await expect.poll(() => toast(page), { timeout: 15_000 }).toContain("Alerte créée");
    await expect.poll(() => new URL(page.url()).searchParams.has("alert")).toBe(false);
    const saved = await api<{ searches: { query: string; label: string }[] }>("/api/user/alerts", {
      headers: { cookie: member.cookie },
    });
    expect(saved.searches.map((s) => s.query)).toEqual([search]);

    // The alerts tab lists it, with the mail switches.
    await page.goto(`${baseURL}/user/alertes`);
    await untilHydrated(page);
    await expect.poll(() => page.getByTestId("saved-searches").textContent()).toContain(saved.searches[0].label);
    expect(await page.getByLabel("Nouvelles courses de mes recherches").isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/alerts-tab-360.png`, fullPage: true });

    // A race is published (taken down, then back up by an admin): the digest, sent now, lists it.
    const admin = await signIn(ADMIN.email, ADMIN.password);
    for (const type of ["deactivate", "activate"]) {
      await api(`/api/event/${event.id}/status/${type}`, { method: "POST", headers: { cookie: admin }, body: "{}" });
    }
    const sent = await api<{ queued: number }>("/api/admin/alerts/digest", {
      method: "POST",
      headers: { cookie: admin },
      body: "{}",
    });
    expect(sent.queued).toBeGreaterThanOrEqual(1);
    const digest = await mailbox.waitFor(
      (m) => m.to.includes(member.email) && Boolean(m.headers["list-unsubscribe"]),
      20_000,
    );
    expect(digest.subject).toMatch(/nouvelles? courses? pour votre alerte/);
    expect(digest.text).toContain(event.name);
    expect(digest.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // The mail as a reader sees it, on a phone and a desktop.
    for (const [name, options] of [
      ["360", MOBILE],
      ["1280", DESKTOP],
    ] as const) {
      const mailContext = await browser.newContext(options);
      const mailPage = await mailContext.newPage();
      await mailPage.setContent(digest.html);
      expect(await mailPage.getByRole("link", { name: event.name }).count()).toBeGreaterThan(0);
      if (SHOTS) await mailPage.screenshot({ path: `${SHOTS}/digest-mail-${name}.png`, fullPage: true });
      await mailContext.close();
    }

    // Its unsubscribe link: a page that asks, then deletes the alert.
    const link = digest.headers["list-unsubscribe"].slice(1, -1);
    await page.goto(link);
    await untilHydrated(page);
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/unsubscribe-360.png`, fullPage: true });
    await page.getByRole("button", { name: "Me désabonner" }).click();
    await expect.poll(() => page.getByTestId("unsubscribed").textContent()).toContain("cette alerte est supprimée");
    const after = await api<{ searches: unknown[] }>("/api/user/alerts", { headers: { cookie: member.cookie } });
    expect(after.searches).toEqual([]);
    await context.close();
  });

  it("in English: the alert is saved from the search and shown in the Alerts tab", async () => {
    const member = await verifiedMember("Julie", { lastName: "Morel" });
    const context = await browser.newContext(DESKTOP);
    await context.addCookies([{ name: member.cookie.split("=")[0], value: member.cookie.split("=")[1], url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en?sport=trail`);
    await untilHydrated(page);
    await page.getByTestId("alert-me").click();
    await expect.poll(() => toast(page), { timeout: 15_000 }).toContain("Alert created");
    await page.goto(`${baseURL}/en/user/alerts`);
    await untilHydrated(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("My alerts");
    expect(await page.getByRole("link", { name: "Alerts" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByTestId("saved-searches").locator("li").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/alerts-tab-1280.png`, fullPage: true });
    // Turning a kind of mail off is saved.
    await page.getByLabel("Race cancelled or postponed").uncheck();
    await expect.poll(() => toast(page)).toContain("Preferences saved.");
    const alerts = await api<{ muted: string[] }>("/api/user/alerts", { headers: { cookie: member.cookie } });
    expect(alerts.muted).toEqual(["event_changed"]);
    // A link whose token was altered says so, and offers no button.
    await page.goto(`${baseURL}/en/alerts/unsubscribe?token=${member.cookie.length}.event_changed.forged`);
    await untilHydrated(page);
    expect(await page.getByText("This unsubscribe link is not valid.").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Unsubscribe" }).count()).toBe(0);
    await context.close();
  });
});
