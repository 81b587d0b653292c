import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { type JourneyMember, verifiedMember } from "./members.ts";

/**
 * The admin's Users screen (issue 28) as an admin uses it: search and filter the list, open a
 * member, change their role, disable them (their session ends at once), a bulk action, a GDPR
 * deletion behind its confirmation, the same forms without JavaScript; at 1280 and 360 px with axe;
 * refused to a member and to an organiser.
 */
let browser: Browser;
const baseURL = inject("baseURL");
const admin = E2E_ADMINS.users;
/** Letters only this journey's members have in their name. */
const stamp = `Zq${Date.now().toString(36).replace(/\d/g, "")}`.slice(0, 9);
let leonie: JourneyMember;
let marius: JourneyMember;

beforeAll(async () => {
  browser = await launchBrowser();
  leonie = await verifiedMember("Léonie", { lastName: `Arnaud${stamp}` });
  marius = await verifiedMember("Marius", { lastName: `Bernard${stamp}` });
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(options = DESKTOP, javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({ ...options, javaScriptEnabled });
  const response = await context.request.post(`${baseURL}/api/login`, {
    headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE },
    data: { email: admin.email, password: admin.password },
  });
  expect(response.status()).toBe(200);
  return context;
}

const toast = (page: Page) => page.locator(".Toastify").textContent();
const rowNames = (page: Page) => page.locator("tbody th[scope=row] a").allTextContents();
const me = async (member: JourneyMember) =>
  (await fetch(`${baseURL}/api/me`, { headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, cookie: member.cookie } }))
    .status;

describe("the admin's Users screen", () => {
  it("searches, filters and sorts the members, with exports that keep the filters", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin/utilisateurs`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("Utilisateurs");
    await page.getByLabel("Nom, e-mail ou pseudo").fill(stamp.toLowerCase());
    await page.locator("select[name=role]").selectOption("member");
    await page.locator("select[name=verified]").selectOption("yes");
    await page.getByRole("button", { name: "Filtrer" }).click();
    await page.waitForURL(/q=/);
    await expect.poll(() => rowNames(page)).toHaveLength(2);
    expect(new URL(page.url()).searchParams.get("role")).toBe("member");

    // Sorted by name, then the other way.
    await page.getByRole("link", { name: /^Nom/ }).click();
    await expect.poll(() => rowNames(page)).toEqual([`Léonie Arnaud${stamp}`, `Marius Bernard${stamp}`]);
    await page.getByRole("link", { name: /^Nom/ }).click();
    await expect.poll(() => rowNames(page)).toEqual([`Marius Bernard${stamp}`, `Léonie Arnaud${stamp}`]);
    expect(await page.locator("th[aria-sort=descending]").textContent()).toContain("Nom");

    // The exports carry the same filters and sort; the CSV lists the two members.
    const csv = await page.getByRole("link", { name: "CSV" }).getAttribute("href");
    expect(csv).toMatch(/^\/api\/admin\/users\/csv\?/);
    expect(csv).toContain(`q=${stamp.toLowerCase()}`);
    expect(csv).toContain("role=member");
    const file = await context.request.get(`${baseURL}${csv}`);
    expect(file.headers()["content-type"]).toMatch(/^text\/csv/);
    expect((await file.text()).match(new RegExp(stamp, "g"))).toHaveLength(2);
    const xlsx = await page.getByRole("link", { name: "Excel (XLSX)" }).getAttribute("href");
    expect((await context.request.get(`${baseURL}${xlsx}`)).headers()["content-type"]).toContain("spreadsheetml");

    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("opens a member, changes their role and disables them: their session ends at once", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin/utilisateurs?q=${encodeURIComponent(stamp)}`);
    await untilHydrated(page);
    await page.getByRole("link", { name: `Léonie Arnaud${stamp}` }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(`Léonie Arnaud${stamp}`);
    expect(page.url()).toMatch(/\/admin\/utilisateurs\/\d+$/);
    expect(await page.getByRole("region", { name: "Profil" }).textContent()).toContain(leonie.email);
    expect(await page.getByRole("region", { name: "Sessions ouvertes" }).locator("tbody tr").count()).toBeGreaterThan(
      0,
    );

    await page.locator("select[name=role]").selectOption("organiser");
    await page.getByRole("button", { name: "Changer le rôle" }).click();
    await expect.poll(() => toast(page), { timeout: 15_000 }).toContain("Rôle changé : Organisateur.");
    await expect.poll(() => page.locator("h1 + p, h1 ~ p").first().textContent()).toContain("Organisateur");

    expect(await me(leonie)).toBe(200);
    await page.getByRole("button", { name: "Désactiver le compte" }).click();
    await expect
      .poll(() => toast(page), { timeout: 15_000 })
      .toContain("Compte désactivé : le membre est déconnecté partout.");
    expect(await me(leonie)).toBe(401);
    await expect.poll(() => page.getByRole("button", { name: "Réactiver le compte" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("enables the members ticked in the list", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin/utilisateurs?q=${encodeURIComponent(stamp)}&sort=name&dir=asc`);
    await untilHydrated(page);
    await page.getByLabel(`Sélectionner Léonie Arnaud${stamp}`).check();
    await page.getByLabel("Action sur la sélection").selectOption("enable");
    await page.getByRole("button", { name: "Appliquer" }).click();
    await expect.poll(() => toast(page), { timeout: 15_000 }).toContain("1 compte réactivé.");
    await expect.poll(() => page.locator("tbody tr").first().textContent()).toContain("Actif");
    await context.close();
  });

  it("deletes a member after a confirmation naming what is erased and what is kept", async () => {
    const context = await signedIn();
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin/utilisateurs?q=${encodeURIComponent(`Marius Bernard${stamp}`)}`);
    await untilHydrated(page);
    await page.getByRole("link", { name: `Marius Bernard${stamp}` }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(`Marius Bernard${stamp}`);
    await page.getByText("Supprimer le compte…").click();
    const confirm = page.getByTestId("delete-member");
    expect(await confirm.textContent()).toContain("Effacé");
    expect(await confirm.textContent()).toContain("Ses commandes et reçus, pour la comptabilité");
    await confirm.getByLabel("Je confirme la suppression définitive de ce compte").check();
    await confirm.getByRole("button", { name: "Supprimer définitivement" }).click();
    await expect.poll(() => toast(page), { timeout: 15_000 }).toContain("Compte supprimé.");
    await expect.poll(() => page.locator("h1").textContent()).toMatch(/^Membre supprimé n° \d+$/);
    expect(await me(marius)).toBe(401);
    await context.close();
  });

  it("works without JavaScript: a role changed by the plain form says so on the page", async () => {
    const context = await signedIn(DESKTOP, false);
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin/utilisateurs?q=${encodeURIComponent(`Léonie Arnaud${stamp}`)}`);
    await page.getByRole("link", { name: `Léonie Arnaud${stamp}` }).click();
    await page.waitForURL(/\/admin\/utilisateurs\/\d+$/);
    await page.locator("select[name=role]").selectOption("member");
    await page.getByRole("button", { name: "Changer le rôle" }).click();
    await page.waitForLoadState();
    expect(await page.getByRole("status").first().textContent()).toBe("Rôle changé : Membre.");
    await context.close();
  });

  it("fits a phone at 360 px, in English too", async () => {
    const context = await signedIn(MOBILE);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/admin/users?q=${encodeURIComponent(stamp)}`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("Users");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: `Léonie Arnaud${stamp}` }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe(`Léonie Arnaud${stamp}`);
    expect(await page.getByRole("heading", { name: "Actions" }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("is refused to a member and to an organiser", async () => {
    const member = await verifiedMember("Nadia", { lastName: "Refus" });
    const organiser = await verifiedMember("Oscar", { lastName: "Refus" });
    // The organiser is made one by the admin's own API.
    const adminContext = await signedIn();
    const list = await adminContext.request.get(`${baseURL}/api/admin/users?q=${encodeURIComponent(organiser.email)}`);
    const [{ id }] = (await list.json()).users as { id: number }[];
    const promoted = await adminContext.request.post(`${baseURL}/api/admin/user/${id}/role`, {
      headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE },
      data: { role: "organiser" },
    });
    expect(promoted.status()).toBe(200);
    await adminContext.close();
    for (const who of [member, organiser]) {
      const context = await browser.newContext(DESKTOP);
      await context.addCookies([{ name: "dossard_session", value: who.session, url: baseURL }]);
      const page = await context.newPage();
      for (const path of ["/admin/utilisateurs", `/admin/utilisateurs/${id}`]) {
        const response = await page.goto(`${baseURL}${path}`);
        expect(response?.status(), path).toBe(403);
        expect(await page.locator("h1").textContent()).toBe("Accès réservé");
        expect(await page.content()).not.toContain(organiser.email);
      }
      await context.close();
    }
  });
});
