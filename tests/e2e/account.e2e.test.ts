import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { mailbox } from "./mailbox.ts";
import { verifiedMember } from "./members.ts";

/**
 * Account journeys in Chromium against the built server, which delivers its mail through a real
 * SMTP server (mailbox.ts): codes and links are read out of the received messages.
 */
let browser: Browser;
const baseURL = inject("baseURL");

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let counter = 0;
const email = (name: string) => `${name}.${++counter}.${Date.now().toString(36)}@example.fr`;

async function mailTo(address: string, match: RegExp, after: number) {
  return mailbox.waitFor((m) => m.to.includes(address) && match.test(m.text) && m.index >= after, 15_000);
}

async function codeFor(address: string, after: number): Promise<string> {
  const mail = await mailTo(address, /\b\d{5}\b/, after);
  return mail.text.match(/\b(\d{5})\b/)?.[1] ?? "";
}

/** A wrong password on the login page: the form says so above its fields. */
async function signInWrongly(page: Page, address: string) {
  await page.getByLabel("Adresse e-mail").fill(address);
  await page.getByLabel("Mot de passe").fill("pas le bon");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect
    .poll(() => page.getByRole("alert").first().textContent())
    .toContain("Identifiant ou mot de passe incorrect.");
}

async function fillDuration(page: Page, testId: string, h: string, m: string, s: string) {
  const inputs = page.getByTestId(testId).locator("input[inputmode=numeric]");
  await inputs.nth(0).fill(h);
  await inputs.nth(1).fill(m);
  await inputs.nth(2).fill(s);
}

describe("a new member, in French on a phone", () => {
  it("registers, verifies with the mailed code, logs out and in, edits the profile, and is seen publicly", async () => {
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    const address = email("lea");
    const before = await mailbox.count();

    await page.goto(`${baseURL}/`);
    await untilHydrated(page);
    await page.getByTestId("login-link").click();
    await page.waitForURL(`${baseURL}/login`);
    await untilHydrated(page);
    await page.getByRole("link", { name: "Créer un compte" }).click();
    await page.waitForURL(`${baseURL}/inscription`);
    await untilHydrated(page);
    await expect.poll(() => page.title()).toBe("Créer un compte | Dossard");
    expect(await seriousViolations(page)).toEqual([]);

    // Mistakes are shown beside their fields before anything is sent.
    await page.getByLabel("Adresse e-mail").fill("lea@");
    await page.getByLabel("Mot de passe", { exact: true }).fill("court");
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await expect
      .poll(() => page.getByTestId("field-error").allTextContents())
      .toEqual(
        expect.arrayContaining([
          "Indiquez votre prénom.",
          "Adresse e-mail invalide.",
          "Le mot de passe doit contenir au moins 8 caractères.",
          "Vous devez accepter les conditions d'utilisation.",
        ]),
      );
    expect(await page.getByLabel("Adresse e-mail").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Prénom").fill("Léa");
    await page.getByLabel("Nom", { exact: true }).fill("Dubois");
    await page.getByLabel("Adresse e-mail").fill(address);
    await page.getByLabel("Mot de passe", { exact: true }).fill("montagne 2026");
    await page.getByLabel("Confirmation du mot de passe").fill("montagne 2026");
    await page.getByLabel(/J'accepte les/).check();
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await page.waitForURL(`${baseURL}/user/verification`);
    await untilHydrated(page);

    const code = await codeFor(address, before);
    expect(code).toMatch(/^\d{5}$/);
    await page.getByLabel("Code à 5 chiffres").fill(code);
    await page.getByRole("button", { name: "Vérifier" }).click();
    await page.waitForURL(/\/user\/profil\?verified=1$/);
    await untilHydrated(page);
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain("Votre adresse e-mail est vérifiée.");

    // Log out, then back in.
    await page.getByTestId("logout-link").click();
    await page.waitForURL(`${baseURL}/`);
    await expect.poll(() => page.getByTestId("login-link").count()).toBe(1);
    await page.goto(`${baseURL}/user/profil`);
    await page.waitForURL(/\/login\?next=%2Fuser%2Fprofil$/);
    await untilHydrated(page);
    await signInWrongly(page, address);
    await page.getByLabel("Mot de passe").fill("montagne 2026");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(`${baseURL}/user/profil`);
    await untilHydrated(page);

    // Profile with best times through the DurationInput, made public.
    await page.getByLabel("Pseudo ou organisation").fill("LéaTrail");
    await page.getByLabel("Ville", { exact: true }).fill("Chamonix");
    await page.getByLabel("Présentation").fill("Traileuse, amoureuse des sentiers.");
    await page.getByRole("checkbox", { name: "Trail", exact: true }).check();
    await fillDuration(page, "duration-best10k", "0", "42", "35");
    await fillDuration(page, "duration-bestHalf", "1", "33", "5");
    await page.getByRole("checkbox", { name: /Profil public/ }).check();
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain("Profil enregistré.");
    const publicLink = page.getByRole("link", { name: "Voir mon profil public" });
    const href = await publicLink.getAttribute("href");
    expect(href).toMatch(/^\/membre\/leatrail/);

    // A visitor sees the public profile, with the best times as runners write them.
    const visitor = await browser.newContext(DESKTOP);
    const visitorPage = await visitor.newPage();
    const response = await visitorPage.goto(`${baseURL}${href}`);
    expect(response?.status()).toBe(200);
    expect(await visitorPage.locator("h1").textContent()).toBe("LéaTrail");
    const body = await visitorPage.locator("main").textContent();
    expect(body).toContain("Chamonix");
    expect(body).toContain("42:35");
    expect(body).toContain("1:33:05");
    expect(body).toContain("Traileuse, amoureuse des sentiers.");
    expect(body).not.toContain(address);
    expect(await visitorPage.title()).toBe("LéaTrail, coureur sur Dossard | Dossard");
    expect(await seriousViolations(visitorPage)).toEqual([]);
    await visitor.close();

    // Public pages are the members' shared copy: the browser fills the member in from /api/me.
    await page.goto(`${baseURL}/`);
    await untilHydrated(page);
    await expect.poll(() => page.getByTestId("account-link").textContent()).toContain("LéaTrail");
    expect(await page.getByTestId("logout-link").count()).toBe(1);

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(360);
    await context.close();
  });

  it("recovers a forgotten password end to end", async () => {
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    const address = email("marc");
    // An account made through the API, as another browser would.
    const api = await context.request.post(`${baseURL}/api/register`, {
      headers: { "x-dossard-access": "dossard-web-1" },
      data: {
        email: address,
        password: "ancien mot 1",
        passwordConfirmation: "ancien mot 1",
        firstName: "Marc",
        lastName: "Petit",
        terms: true,
      },
    });
    expect(api.status()).toBe(201);
    await context.clearCookies();

    await page.goto(`${baseURL}/login`);
    await untilHydrated(page);
    await page.getByRole("link", { name: "Mot de passe oublié ?" }).click();
    await page.waitForURL(`${baseURL}/mot-de-passe-oublie`);
    await untilHydrated(page);
    const before = await mailbox.count();
    await page.getByLabel("Adresse e-mail").fill(address);
    await page.getByRole("button", { name: "Envoyer le lien" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain(address);

    const mail = await mailTo(address, /token=/, before);
    const link = mail.text.match(/https?:\/\/\S+token=[\w-]+/)?.[0];
    expect(link?.startsWith(`${baseURL}/nouveau-mot-de-passe?token=`)).toBe(true);
    await page.goto(link ?? "");
    await untilHydrated(page);
    await page.getByLabel("Nouveau mot de passe").fill("nouveau mot 2");
    await page.getByLabel("Confirmation du mot de passe").fill("nouveau mot 2");
    await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
    await page.waitForURL(/\/user\/profil\?reset=1$/);
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain("Votre mot de passe a été changé.");

    // The link was single-use.
    await page.goto(link ?? "");
    await untilHydrated(page);
    await page.getByLabel("Nouveau mot de passe").fill("troisieme mot 3");
    await page.getByLabel("Confirmation du mot de passe").fill("troisieme mot 3");
    await page.getByRole("button", { name: "Enregistrer le mot de passe" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("Lien invalide ou expiré : utilisez le lien du dernier e-mail reçu.");

    const login = await context.request.post(`${baseURL}/api/login`, {
      headers: { "x-dossard-access": "dossard-web-1" },
      data: { email: address, password: "nouveau mot 2" },
    });
    expect(login.status()).toBe(200);
    await context.close();
  });
});

describe("the same in English", () => {
  it("registers, verifies, edits the profile and recovers the password on English pages", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const address = email("amy");
    const before = await mailbox.count();
    await page.goto(`${baseURL}/en/register`);
    await untilHydrated(page);
    expect(await page.title()).toBe("Create an account | Dossard");
    await page.getByLabel("First name").fill("Amy");
    await page.getByLabel("Nickname or organisation").fill("AmyRuns");
    await page.getByLabel("Email address").fill(address);
    await page.getByLabel("Password", { exact: true }).fill("hill repeats");
    await page.getByLabel("Confirm password").fill("hill repeatz");
    await page.getByLabel(/I accept the/).check();
    await page.getByRole("button", { name: "Create my account" }).click();
    await expect
      .poll(() => page.getByTestId("field-error").allTextContents())
      .toEqual(["Passwords are not identical."]);
    await page.getByLabel("Confirm password").fill("hill repeats");
    await page.getByRole("button", { name: "Create my account" }).click();
    await page.waitForURL(`${baseURL}/en/user/verification`);
    await untilHydrated(page);

    const mail = await mailTo(address, /\b\d{5}\b/, before);
    expect(mail.subject).toBe("Your Dossard verification code");
    await page.getByLabel("5-digit code").fill(mail.text.match(/\b(\d{5})\b/)?.[1] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/en\/user\/profile\?verified=1$/);
    await untilHydrated(page);

    await fillDuration(page, "duration-bestMarathon", "3", "29", "59");
    await page.getByRole("checkbox", { name: /Public profile/ }).check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain("Profile saved.");
    const href = await page.getByRole("link", { name: "See my public profile" }).getAttribute("href");
    expect(href).toMatch(/^\/en\/member\/amyruns/);
    await page.goto(`${baseURL}${href}`);
    expect(await page.locator("main").textContent()).toContain("3:29:59");

    await page.goto(`${baseURL}/en/user/settings`);
    await untilHydrated(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId("logout-link").click();
    await page.waitForURL(`${baseURL}/en`);

    await page.goto(`${baseURL}/en/forgot-password`);
    await untilHydrated(page);
    const sent = await mailbox.count();
    await page.getByLabel("Email address").fill(address);
    await page.getByRole("button", { name: "Send the link" }).click();
    const reset = await mailTo(address, /token=/, sent);
    expect(reset.subject).toBe("Reset your Dossard password");
    const link = reset.text.match(/https?:\/\/\S+token=[\w-]+/)?.[0] ?? "";
    expect(link.startsWith(`${baseURL}/en/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await untilHydrated(page);
    await page.getByLabel("New password").fill("tempo runs 2");
    await page.getByLabel("Confirm password").fill("tempo runs 2");
    await page.getByRole("button", { name: "Save the password" }).click();
    await page.waitForURL(/\/en\/user\/profile\?reset=1$/);
    await context.close();
  });

  it("has accessible sign-in pages and sends visitors of member pages to log in", async () => {
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/user/settings`);
    await page.waitForURL(/\/en\/login\?next=%2Fen%2Fuser%2Fsettings$/);
    expect(await page.title()).toBe("Sign in | Dossard");
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toMatch(/noindex/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${baseURL}/en/login?error=OAUTH_NO_EMAIL`);
    expect(await page.getByRole("alert").first().textContent()).toContain(
      "connect with another service or create an account",
    );
    await context.close();
  });
});

describe("without JavaScript", () => {
  it("registers, signs in and asks for a reset link with the plain HTML forms", async () => {
    const context = await browser.newContext({ ...MOBILE, javaScriptEnabled: false });
    const page = await context.newPage();
    const address = email("sans-js");
    const password = "sentier 2026";

    // The page's action checks the form and answers with the errors beside their fields.
    await page.goto(`${baseURL}/inscription?next=%2Fuser%2Fparametres`);
    await page.getByLabel("Adresse e-mail").fill("sans-js@");
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await expect
      .poll(() => page.getByTestId("field-error").allTextContents())
      .toEqual(expect.arrayContaining(["Indiquez votre prénom.", "Adresse e-mail invalide."]));
    expect(await page.getByLabel("Adresse e-mail").inputValue()).toBe("sans-js@");
    expect(await page.getByLabel("Adresse e-mail").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Prénom").fill("Inès");
    await page.getByLabel("Nom", { exact: true }).fill("Martin");
    await page.getByLabel("Adresse e-mail").fill(address);
    await page.getByLabel("Mot de passe", { exact: true }).fill(password);
    await page.getByLabel("Confirmation du mot de passe").fill(password);
    await page.getByLabel(/J'accepte les/).check();
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    // Signed in (the verification page is for members only), still headed for `next`.
    await page.waitForURL(`${baseURL}/user/verification?next=%2Fuser%2Fparametres`);

    await context.clearCookies();
    await page.goto(`${baseURL}/login?next=%2Fuser%2Fprofil`);
    await signInWrongly(page, address);
    expect(await page.getByLabel("Mot de passe").inputValue()).toBe("");
    await page.getByLabel("Mot de passe").fill(password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(`${baseURL}/user/profil`);

    await context.clearCookies();
    const before = await mailbox.count();
    await page.goto(`${baseURL}/mot-de-passe-oublie`);
    await page.getByLabel("Adresse e-mail").fill(address);
    await page.getByRole("button", { name: "Envoyer le lien" }).click();
    await expect.poll(() => page.getByRole("status").textContent()).toContain(address);
    await mailTo(address, /token=/, before);
    await context.close();
  });
});

/** Signs the context in through the API, as the login form would. */
async function signInAs(context: BrowserContext, address: string, password: string) {
  const response = await context.request.post(`${baseURL}/api/login`, {
    headers: { "x-dossard-access": "dossard-web-1" },
    data: { email: address, password },
  });
  expect(response.status()).toBe(200);
}

/** Each link of the menu, and whether the whole of it lies inside the window. */
async function menuLinks(page: Page, menu: string) {
  const width = page.viewportSize()?.width ?? 0;
  const links = page.getByRole("navigation", { name: menu }).getByRole("link");
  const shown: { name: string; inside: boolean }[] = [];
  for (const link of await links.all()) {
    if (!(await link.isVisible())) continue;
    const box = await link.boundingBox();
    // A section's count of what waits there (the badge "3") is left out.
    const name = ((await link.getAttribute("data-label")) ?? (await link.textContent()) ?? "").trim();
    shown.push({ name, inside: Boolean(box && box.x >= 0 && box.x + box.width <= width && box.width > 0) });
  }
  return shown;
}

const ACCOUNT_PAGES = [
  "Planning",
  "Favoris",
  "Résultats",
  "Activités",
  "Alertes",
  "Mes événements",
  "Mes posters",
  "Commandes",
  "Profil",
  "Paramètres",
];

describe("the account's and the admin area's menus", () => {
  it("reach every page of the account on a phone, by keyboard, the current one named", async () => {
    const member = await verifiedMember("Noémie");
    const context = await browser.newContext(MOBILE);
    await signInAs(context, member.email, member.password);
    const page = await context.newPage();
    await page.goto(`${baseURL}/user/profil`);
    await untilHydrated(page);
    const menu = page.getByRole("navigation", { name: "Mon compte" });
    // Closed, it names the page shown; Enter on its summary opens it.
    const summary = menu.locator("summary");
    expect(await summary.textContent()).toBe("Mon compteProfil");
    expect(await menuLinks(page, "Mon compte")).toEqual([]);
    await summary.focus();
    await page.keyboard.press("Enter");
    expect(await menuLinks(page, "Mon compte")).toEqual(ACCOUNT_PAGES.map((name) => ({ name, inside: true })));
    expect(await menu.getByRole("link", { name: "Profil" }).getAttribute("aria-current")).toBe("page");
    expect(await seriousViolations(page)).toEqual([]);
    // Tab walks the sections in order; Enter follows one.
    for (let i = 0; i < ACCOUNT_PAGES.indexOf("Paramètres") + 1; i++) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Paramètres");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${baseURL}/user/parametres`);
    await expect.poll(() => summary.textContent()).toBe("Mon compteParamètres");
    await summary.focus();
    await page.keyboard.press("Space");
    expect(await menu.getByRole("link", { name: "Paramètres" }).getAttribute("aria-current")).toBe("page");
    await menu.getByRole("link", { name: "Mes posters" }).click();
    await page.waitForURL(`${baseURL}/user/posters`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });

  it("show every page of the account in a side menu on a wide screen", async () => {
    const member = await verifiedMember("Yanis");
    const context = await browser.newContext(DESKTOP);
    await signInAs(context, member.email, member.password);
    const page = await context.newPage();
    await page.goto(`${baseURL}/user/planning`);
    await untilHydrated(page);
    expect(await menuLinks(page, "Mon compte")).toEqual(ACCOUNT_PAGES.map((name) => ({ name, inside: true })));
    const menu = page.getByRole("navigation", { name: "Mon compte" });
    expect(await menu.getByRole("link", { name: "Planning" }).getAttribute("aria-current")).toBe("page");
    expect(await seriousViolations(page)).toEqual([]);
    await menu.getByRole("link", { name: "Commandes" }).click();
    await page.waitForURL(`${baseURL}/user/commandes`);
    await expect.poll(() => menu.getByRole("link", { name: "Commandes" }).getAttribute("aria-current")).toBe("page");
    await context.close();
  });

  it("give the admin area its own menu, at 1280 and at 360 px", async () => {
    const admin = E2E_ADMINS.menus;
    const wide = await browser.newContext(DESKTOP);
    await signInAs(wide, admin.email, admin.password);
    const page = await wide.newPage();
    await page.goto(`${baseURL}/user/profil`);
    await untilHydrated(page);
    await page
      .getByRole("navigation", { name: "Mon compte" })
      .getByRole("link", { name: "Espace d'administration" })
      .click();
    await page.waitForURL(`${baseURL}/admin`);
    const sections = [
      "Tableau de bord",
      "Événements",
      "Utilisateurs",
      "Commentaires signalés",
      "Activités importées",
      "Demandes de résultats",
      "Ventes et commandes",
      "Journaux",
      "Retour à mon compte",
    ];
    await expect
      .poll(() => menuLinks(page, "Administration"))
      .toEqual(sections.map((name) => ({ name, inside: true })));
    const menu = page.getByRole("navigation", { name: "Administration" });
    expect(await menu.getByRole("link", { name: "Tableau de bord" }).getAttribute("aria-current")).toBe("page");
    // The demo's pending races wait in the events' section: its name says how many.
    expect(await menu.getByRole("link", { name: /^Événements/ }).getAttribute("aria-label")).toMatch(
      /^Événements \(\d+ événements? en attente\)$/,
    );
    // The page an admin lands on says what the demo data is and which settings are left
    // (the journeys' server: a demo catalogue, a mail server, two of the eight legal settings).
    const welcome = page.getByTestId("admin-welcome");
    expect(await welcome.textContent()).toMatch(/catalogue de démonstration \(600 courses générées/);
    expect(await welcome.getByRole("listitem").count()).toBe(6);
    expect(await welcome.textContent()).not.toContain("SMTP_URL");
    expect(await seriousViolations(page)).toEqual([]);
    await menu.getByRole("link", { name: "Ventes et commandes" }).click();
    await page.waitForURL(`${baseURL}/admin/commandes`);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Ventes et commandes");
    await wide.close();

    const phone = await browser.newContext(MOBILE);
    await signInAs(phone, admin.email, admin.password);
    const small = await phone.newPage();
    await small.goto(`${baseURL}/admin/activities`);
    await untilHydrated(small);
    const summary = small.getByRole("navigation", { name: "Administration" }).locator("summary");
    expect(await summary.textContent()).toBe("AdministrationActivités importées");
    await summary.focus();
    await small.keyboard.press("Enter");
    expect(await menuLinks(small, "Administration")).toEqual(sections.map((name) => ({ name, inside: true })));
    expect(await seriousViolations(small)).toEqual([]);
    await small
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: "Commentaires signalés" })
      .click();
    await small.waitForURL(`${baseURL}/admin/commentaires`);
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await phone.close();
  });
});
