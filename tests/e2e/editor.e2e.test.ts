import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { formatLongDate } from "../../shared/dates.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { mailbox } from "./mailbox.ts";

/**
 * The event form end to end: a member lists an event through the four steps (with a GPX track
 * and a poster), finds it pending in "my events", an admin validates it in the events manager,
 * and the event is then found by the search and shown on its page with what was entered.
 */
const ACCESS = { "x-dossard-access": "dossard-web-1" };
const ADMIN = E2E_ADMINS.editor;

let browser: Browser;
const baseURL = inject("baseURL");

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A verified member signed in within this browser context. */
async function verifiedMember(context: BrowserContext, firstName: string): Promise<string> {
  const email = `${firstName.toLowerCase()}.${Date.now().toString(36)}@example.fr`;
  const before = await mailbox.count();
  const registered = await context.request.post(`${baseURL}/api/register`, {
    headers: ACCESS,
    data: {
      email,
      password: "sentiers 2026",
      passwordConfirmation: "sentiers 2026",
      firstName,
      lastName: "Martin",
      terms: true,
    },
  });
  expect(registered.status()).toBe(201);
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && m.index >= before, 15_000);
  const code = mail.text.match(/\b(\d{5})\b/)?.[1] ?? "";
  const verified = await context.request.post(`${baseURL}/api/user/verify-account`, {
    headers: ACCESS,
    data: { code },
  });
  expect(verified.status()).toBe(200);
  return email;
}

async function signIn(context: BrowserContext, email: string, password: string) {
  const response = await context.request.post(`${baseURL}/api/login`, { headers: ACCESS, data: { email, password } });
  expect(response.status()).toBe(200);
}

/** A GPX going east from Chamonix for about 12 km, climbing then descending. */
function gpxTrack(): string {
  const points: string[] = [];
  const count = 240;
  for (let i = 0; i <= count; i++) {
    const lng = 6.8694 + (0.155 * i) / count;
    const lat = 45.9237 + 0.01 * Math.sin((i / count) * Math.PI);
    const ele = 1035 + 600 * Math.sin((i / count) * Math.PI);
    points.push(`<trkpt lat="${lat.toFixed(6)}" lon="${lng.toFixed(6)}"><ele>${ele.toFixed(1)}</ele></trkpt>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="dossard-e2e" xmlns="http://www.topografix.com/GPX/1/1">
  <metadata><name>Boucle des Glaciers</name></metadata>
  <trk><name>Boucle des Glaciers</name><trkseg>${points.join("")}</trkseg></trk>
</gpx>`;
}

async function posterPng(): Promise<Buffer> {
  return sharp({ create: { width: 600, height: 840, channels: 3, background: { r: 200, g: 70, b: 20 } } })
    .png()
    .toBuffer();
}

/** Fills a DateField (day, month, year inputs in French order) inside a field box. */
async function fillDate(page: Page, field: string, iso: string) {
  const [year, month, day] = iso.split("-");
  const inputs = page.locator(`[data-field="${field}"] input[inputmode=numeric]`);
  await inputs.nth(0).fill(String(Number(day)));
  await inputs.nth(1).fill(String(Number(month)));
  await inputs.nth(2).fill(year ?? "");
}

function isoIn(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return date.toISOString().slice(0, 10);
}

const current = (page: Page) =>
  page.locator('nav[aria-label="Étapes du formulaire"] [aria-current="step"]').getAttribute("data-step");

describe("listing an event", () => {
  const name = `Trail des Glaciers ${Date.now().toString(36).slice(-4)}`;
  const day = isoIn(75);
  let eventId = 0;
  let slug = "";

  it("a member lists it through the four steps on a phone and sees it pending", async () => {
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    const email = await verifiedMember(context, "Lucie");

    await page.goto(`${baseURL}/user/profil`);
    await untilHydrated(page);
    // On a phone the account's pages are behind its menu.
    const accountMenu = page.getByRole("navigation", { name: "Mon compte" });
    await accountMenu.locator("summary").click();
    await accountMenu.getByRole("link", { name: "Mes événements" }).click();
    await page.waitForURL(`${baseURL}/user/evenements`);
    await untilHydrated(page);
    await expect.poll(() => page.title()).toBe("Mes événements | Dossard");
    await page.getByTestId("new-event").click();
    await page.waitForURL(`${baseURL}/user/evenement/nouveau`);
    await untilHydrated(page);
    expect(await current(page)).toBe("info");
    expect(await seriousViolations(page)).toEqual([]);

    // The keyboard never leaves a field under the Save / Next bar fixed at the bottom of the
    // screen: each field Tab reaches comes into view above it.
    const bar = page.getByTestId("next-step");
    const barTop = await bar.evaluate((button) => button.closest(".fixed")?.getBoundingClientRect().top ?? 0);
    const hidden: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const box = element.getBoundingClientRect();
        return {
          inBar: Boolean(element.closest(".fixed")),
          name:
            element.id || element.getAttribute("aria-label") || element.textContent?.slice(0, 30) || element.tagName,
          top: box.top,
          bottom: box.bottom,
        };
      });
      if (!focused || focused.inBar) break;
      // Seen: the whole of a field, or 40 px of a tall one (a rich text box shows its caret's line).
      const seen = Math.min(focused.bottom, barTop) - focused.top;
      if (seen < Math.min(focused.bottom - focused.top, 40)) hidden.push(focused.name);
    }
    expect(hidden).toEqual([]);

    // Step 1 refuses to move on while required fields are empty, and says which.
    await page.getByTestId("next-step").click();
    await expect.poll(() => page.getByTestId("error-summary").textContent()).toContain("champs sont à corriger");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("ef-name");

    await page.getByLabel(/Nom de l'événement/).fill(name);
    await page.getByRole("combobox", { name: /Sport/ }).click();
    await page.getByRole("option", { name: "Trail", exact: true }).click();
    await page.getByLabel(/Organisateur/).fill("Club des Glaciers");
    await fillDate(page, "startDate", day);
    await expect.poll(() => page.locator('[data-field="endDate"] input').nth(2).inputValue()).toBe(day.slice(0, 4));
    await page.getByRole("combobox", { name: /Commune/ }).fill("Chamonix");
    await page
      .getByRole("option", { name: /Chamonix-Mont-Blanc/ })
      .first()
      .click();
    await expect.poll(() => page.getByTestId("pin-status").textContent()).toMatch(/Repère placé : 45,9\d*, 6,9\d*/);
    await page.getByLabel("Adresse", { exact: true }).fill("Place du Triangle de l'Amitié");
    await page.getByRole("textbox", { name: "Description" }).click();
    await page.keyboard.type("Un trail au pied des glaciers.");
    await page.getByRole("checkbox", { name: "Ravitaillement" }).check();
    await page.getByRole("checkbox", { name: /Date confirmée/ }).check();
    await page.getByTestId("next-step").click();
    // Confirming the date needs the certification.
    await expect
      .poll(() => page.locator('[data-field="certified"]').textContent())
      .toContain("Pour confirmer la date, certifiez que les informations sont exactes.");
    await page.getByRole("checkbox", { name: /Je certifie/ }).check();
    await page.getByTestId("next-step").click();
    await expect.poll(() => current(page)).toBe("communication");

    // Step 2: addresses are checked.
    await page.getByLabel("E-mail de contact").fill("contact@glaciers.example.fr");
    await page.getByLabel("Site web").fill("pas une adresse");
    await page.getByTestId("next-step").click();
    await expect.poll(() => page.locator('[data-field="website"]').textContent()).toContain("Adresse web invalide");
    await page.getByLabel("Site web").fill("www.trail-glaciers.example.fr");
    await page.getByTestId("next-step").click();
    await expect.poll(() => current(page)).toBe("courses");

    // Step 3: one course, its price and its GPX track.
    const card = page.getByTestId("course-card").first();
    await expect.poll(() => card.getByTestId("course-missing").textContent()).toContain("le nom, la distance");
    await card.getByLabel(/Nom de l'épreuve/).fill("Le Grand Tour");
    await card.getByLabel("Heure de départ").fill("08:30");
    await card.getByRole("button", { name: /Ajouter un tarif/ }).click();
    await card.getByLabel(/Intitulé/).fill("Tarif unique");
    await card.getByLabel(/Prix/).fill("35");
    await card.getByTestId("gpx-input").setInputFiles({
      name: "boucle-des-glaciers.gpx",
      mimeType: "application/gpx+xml",
      buffer: Buffer.from(gpxTrack()),
    });
    await expect
      .poll(() => card.getByTestId("gpx-track").textContent(), { timeout: 15_000 })
      .toMatch(/Calculé depuis la trace : 1\d,\d\u00a0km · D\+\u00a0\d/);
    // The track's figures fill the empty fields; one typed otherwise is offered back.
    const distance = await card.getByLabel(/^Distance/).inputValue();
    expect(distance).toMatch(/^1\d,\d+$/);
    expect(Number(await card.getByLabel(/Dénivelé positif/).inputValue())).toBeGreaterThan(300);
    await card.getByLabel(/^Distance/).fill("30");
    await card.getByRole("button", { name: /^La trace donne 1\d,\d\skm : utiliser \?$/ }).click();
    expect(await card.getByLabel(/^Distance/).inputValue()).toBe(distance);
    await expect.poll(() => card.getByTestId("course-completeness").textContent()).toBe("Épreuve complète");

    // Visuals wait for the first save.
    await page.getByTestId("next-step").click();
    await expect.poll(() => current(page)).toBe("visuals");
    expect(await page.getByTestId("visuals-locked").textContent()).toContain(
      "Un événement doit être complet et enregistré avant de pouvoir ajouter des visuels.",
    );

    const saved = page.waitForResponse((r) => r.url().endsWith("/api/event/0") && r.request().method() === "POST");
    await page.getByTestId("save-event").click();
    // Another event may look like this one: if asked, it is a different event.
    const answer = await Promise.race([
      saved,
      page
        .getByRole("button", { name: "C'est un autre événement, continuer" })
        .waitFor({ timeout: 10_000 })
        .then(async () => {
          await page.getByRole("button", { name: "C'est un autre événement, continuer" }).click();
          return saved;
        }),
    ]);
    expect(answer.status()).toBe(201);
    const body = (await answer.json()) as { event: { id: number; slug: string; status: string } };
    eventId = body.event.id;
    slug = body.event.slug;
    expect(body.event.status).toBe("pending");
    await page.waitForURL(`${baseURL}/user/evenement/${eventId}`);
    await untilHydrated(page);
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain("Événement enregistré.");
    expect(await page.getByTestId("pending-notice").textContent()).toContain(
      "En attente de validation par l'équipe Dossard",
    );
    await expect.poll(() => current(page)).toBe("visuals");

    // The acknowledgement mail: what happens next, and a link to the page as it will look.
    const ack = await mailbox.waitFor((m) => m.to.includes(email) && m.subject.includes(name), 15_000);
    expect(ack.subject).toBe(`Nous avons bien reçu « ${name} »`);
    expect(ack.text).toContain("L'équipe Dossard la relit avant de la publier");
    const link = ack.text.match(/https?:\/\/\S+\/course\/[a-z0-9-]+/)?.[0] ?? "";
    expect(new URL(link).pathname).toBe(`/course/${slug}`);
    // Its editor sees the pending page with its banner; never indexed, never kept by a cache.
    const preview = await context.newPage();
    const shown = await preview.goto(`${baseURL}/course/${slug}`);
    expect(shown?.status()).toBe(200);
    expect(shown?.headers()["cache-control"]).toBe("private, no-store");
    expect(await preview.getByTestId("pending-page-notice").textContent()).toContain("En attente de validation");
    expect(await preview.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    await preview.close();
    // Anybody else gets the page of an unknown event, twice (the second from no cache either).
    for (let i = 0; i < 2; i++) {
      const stranger = await fetch(`${baseURL}/course/${slug}`);
      expect(stranger.status).toBe(404);
      expect(await stranger.text()).not.toContain(name);
    }

    // Step 4: the poster.
    await page.getByTestId("upload-cover").setInputFiles({
      name: "affiche.png",
      mimeType: "image/png",
      buffer: await posterPng(),
    });
    await expect
      .poll(() => page.getByTestId("slot-cover").locator("img").getAttribute("src"), { timeout: 15_000 })
      .toMatch(new RegExp(`^/media/event/${eventId}/`));

    // Unsaved edits: kept as a draft, and leaving asks first.
    await page.getByRole("button", { name: /Informations/ }).click();
    await page.getByLabel(/Nom de l'événement/).fill(`${name} (brouillon)`);
    await page.getByRole("link", { name: "Mes événements" }).first().click();
    await expect.poll(() => page.getByRole("alertdialog").textContent()).toContain("Quitter sans enregistrer ?");
    await page.getByRole("button", { name: "Rester sur la page" }).click();
    expect(page.url()).toBe(`${baseURL}/user/evenement/${eventId}`);
    // The draft is written a moment after the last keystroke: wait for it rather than for a fixed time.
    await page.waitForFunction(
      (id) =>
        Object.keys(localStorage).some(
          (key) => key.endsWith(`:${id}`) && localStorage.getItem(key)?.includes("(brouillon)"),
        ),
      eventId,
    );
    await page.reload();
    await untilHydrated(page);
    await page.getByRole("button", { name: "Ignorer" }).click();
    expect(await page.getByLabel(/Nom de l'événement/).inputValue()).toBe(name);

    await page.getByRole("link", { name: "Mes événements" }).first().click();
    await page.waitForURL(`${baseURL}/user/evenements`);
    const row = page.getByTestId("my-event").filter({ hasText: name });
    await expect
      .poll(() => row.locator("[data-badge]").allTextContents())
      .toEqual(["En attente de validation", "Vérifié"]);
    expect(await row.getByRole("link", { name: /Modifier/ }).getAttribute("href")).toBe(`/user/evenement/${eventId}`);
    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(360);
    await context.close();
  });

  it("an admin validates it in the events manager; members who are not admins are turned away", async () => {
    const member = await browser.newContext(DESKTOP);
    await verifiedMember(member, "Paul");
    const memberPage = await member.newPage();
    const refused = await memberPage.goto(`${baseURL}/admin/evenements`);
    expect(refused?.status()).toBe(403);
    expect(await memberPage.locator("h1").textContent()).toBe("Accès réservé");
    await member.close();

    const context = await browser.newContext(DESKTOP);
    await signIn(context, ADMIN.email, ADMIN.password);
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin/evenements?q=${encodeURIComponent(name)}`);
    await untilHydrated(page);
    expect(await page.title()).toBe("Gestion des événements | Dossard");
    const row = page.getByTestId("admin-event").filter({ hasText: name });
    await row.getByRole("button", { name: `Historique ${name}`, exact: true }).click();
    await expect
      .poll(() => row.getByRole("list", { name: "Historique de l'événement" }).textContent())
      .toContain("Création");
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole("button", { name: /^Valider/ }).click();
    await page.getByRole("dialog").getByLabel("Message au membre (facultatif)").fill("Merci, tout est en ordre.");
    await page.getByTestId("confirm-decision").click();
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain(`« ${name} » est validé.`);
    await expect.poll(() => page.getByTestId("admin-event").filter({ hasText: name }).count()).toBe(0);
    await context.close();
  });

  it("is then found by the search and shown on its page with what was entered", async () => {
    const search = await fetch(`${baseURL}/api/events?q=${encodeURIComponent(name)}`, { headers: ACCESS });
    expect(search.status).toBe(200);
    const result = (await search.json()) as {
      items: { id: number; name: string; startDate: string; distances: number[]; coverImage: string | null }[];
    };
    const found = result.items.find((item) => item.id === eventId);
    expect(found).toMatchObject({ name, startDate: day });
    expect(found?.distances[0]).toBeGreaterThan(10_000);
    expect(found?.coverImage).toBeTruthy();

    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    const response = await page.goto(`${baseURL}/course/${slug}`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe(name);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain(formatLongDate(day, "fr"));
    expect(text).toContain("Le Grand Tour");
    expect(text).toMatch(/1\d,\d+\u00a0km/);
    expect(text).toContain("35\u00a0€");
    expect(text).toContain("Chamonix-Mont-Blanc");
    expect(text).toContain("Un trail au pied des glaciers.");
    const images = await page.locator("main img").evaluateAll((list) => list.map((img) => img.getAttribute("src")));
    expect(images.some((src) => src?.includes(`/media/event/${eventId}/`))).toBe(true);
    await context.close();
  });
});
