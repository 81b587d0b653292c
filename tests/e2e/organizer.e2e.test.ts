import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { formatLongDate } from "../../shared/dates.ts";
import { seriousViolations } from "./axe.ts";
import { launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { upcomingEditions } from "./catalogue.ts";
import { mailbox } from "./mailbox.ts";
import { verifiedMember } from "./members.ts";

/**
 * The real organiser takes over an imported listing: a member signs in from the event page, claims
 * the event with the code mailed to its contact address (read from the journeys' real SMTP server,
 * mailbox.ts), and postpones it from the organiser tools. Visitors write to the organiser and members
 * invite friends from the same page.
 */
let browser: Browser;
const baseURL = inject("baseURL");
/** Upcoming, ownerless demo events whose page offers to contact the organiser (they have a contact address). */
const withContact: EventDetail[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  // Upcoming days ahead whatever the weekday (catalogue.ts), with the organiser's contact form.
  withContact.push(
    ...(await upcomingEditions(async (event) => {
      if (event.postponed) return false;
      const html = await (await fetch(`${baseURL}/course/${event.slug}`)).text();
      return html.includes('data-testid="contact-organizer"');
    }, 3)),
  );
  if (withContact.length < 3) throw new Error("not enough upcoming demo events with a contact address");
});
afterAll(async () => {
  await browser?.close();
});

let counter = 0;
const email = (name: string) => `${name}.${++counter}.${Date.now().toString(36)}@example.fr`;

const toast = (page: Page) => page.locator(".Toastify").textContent();

/** "YYYY-MM-DD" plus some days. */
function addDays(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

describe("the real organiser, in French on a phone", () => {
  it("signs in from the event page, claims the listing with the mailed code and postpones the race", async () => {
    const event = withContact[0];
    const member = await verifiedMember("Sandrine");
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();

    // A visitor is sent to the login page, and back to the event afterwards.
    await page.goto(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);
    const claim = page.getByTestId("claim-event");
    await expect.poll(() => claim.getByRole("heading").textContent()).toBe("Organisateur ?");
    await claim.getByRole("link", { name: "Se connecter pour gérer cette fiche" }).click();
    await page.waitForURL(`${baseURL}/login?next=${encodeURIComponent(`/course/${event.slug}`)}`);
    await untilHydrated(page);
    await page.getByLabel("Adresse e-mail").fill(member.email);
    await page.getByLabel("Mot de passe").fill(member.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);

    // The claim opens in place: the box to tick, an address, then the code.
    await claim.getByRole("button", { name: "Je suis l'organisateur" }).click();
    await claim.getByRole("button", { name: "Recevoir un code" }).click();
    await expect
      .poll(() => claim.getByTestId("field-error").allTextContents())
      .toEqual(["Cochez cette case si vous faites partie de l'organisation.", "Adresse e-mail invalide."]);
    expect(await seriousViolations(page)).toEqual([]);
    await claim.getByLabel("Je fais partie de l'organisation de cet événement").check();
    await claim.getByLabel("Votre adresse e-mail").fill(member.email);
    const before = await mailbox.count();
    await claim.getByRole("button", { name: "Recevoir un code" }).click();
    await expect
      .poll(() => claim.getByRole("status").first().textContent())
      .toMatch(/^Un code à 5 chiffres a été envoyé à c•••@/);

    // The code went to the event's contact address, not to the member.
    const mail = await mailbox.waitFor(
      (m) => m.subject === `Votre code organisateur pour ${event.name}` && m.index >= before,
      15_000,
    );
    expect(mail.to).not.toContain(member.email);
    // A new, empty field (not the address field reused).
    expect(await claim.getByLabel("Code à 5 chiffres").inputValue()).toBe("");
    expect(mail.to[0]).toMatch(/^c[^@]*@/);
    const code = mail.text.match(/\b(\d{5})\b/)?.[1] ?? "";
    await claim.getByLabel("Code à 5 chiffres").fill(code === "00000" ? "11111" : "00000");
    await claim.getByRole("button", { name: "Valider" }).click();
    await expect.poll(() => claim.getByTestId("field-error").textContent()).toBe("Code incorrect.");
    await claim.getByLabel("Code à 5 chiffres").fill(code);
    await claim.getByRole("button", { name: "Valider" }).click();
    await expect.poll(() => toast(page)).toContain("Vous êtes maintenant organisateur de cet événement.");

    // The organiser tools replace the claim.
    const tools = page.getByTestId("organizer-tools");
    await expect.poll(() => tools.isVisible()).toBe(true);
    expect(await page.getByTestId("claim-event").count()).toBe(0);
    expect(await tools.textContent()).toContain("Vous êtes organisateur de cet événement.");

    // Postpone by two weeks.
    const newDate = addDays(event.startDate, 14);
    const [year, month, day] = newDate.split("-");
    await tools.getByRole("button", { name: "Reporter" }).click();
    const dialog = page.getByTestId("postpone-dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    const field = dialog.getByRole("group", { name: "Nouvelle date" });
    await field.getByLabel("Jour").fill(day);
    await field.getByLabel("Mois").fill(month);
    await field.getByLabel("Année").fill(year);
    await dialog.getByRole("button", { name: "Reporter à cette date" }).click();
    await expect.poll(() => toast(page)).toContain("L'événement est reporté.");

    // The page, reloaded from the server, says so with both dates.
    await page.reload();
    await expect.poll(() => page.locator('header [data-state="postponed"]').textContent()).toBe("Reportée");
    const notice = await page.getByRole("note").first().textContent();
    expect(notice).toContain("Course reportée");
    expect(notice).toContain(
      `Initialement prévue le ${formatLongDate(event.startDate, "fr")}, la course a lieu le ${formatLongDate(newDate, "fr")}.`,
    );
    await context.close();
  });
});

describe("writing to the organiser and inviting friends", () => {
  it("lets a visitor write to the organiser without seeing their address", async () => {
    const event = withContact[1];
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    await page.goto(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);
    const contact = page.getByTestId("contact-organizer");
    await contact.getByRole("button", { name: "Écrire un message" }).click();
    await contact.getByLabel("Votre nom").fill("Marc Lemoine");
    await contact.getByLabel("Votre adresse e-mail").fill("marc.lemoine@example.com");
    await contact.getByLabel("Votre message").fill("Court !");
    await contact.getByRole("button", { name: "Envoyer le message" }).click();
    await expect
      .poll(() => contact.getByTestId("field-error").textContent())
      .toBe("Votre message doit contenir entre 10 et 3000 caractères.");
    expect(await seriousViolations(page)).toEqual([]);
    await contact.getByLabel("Votre message").fill("Bonjour,\nLe parking du départ est-il gratuit ?");
    const before = await mailbox.count();
    await contact.getByRole("button", { name: "Envoyer le message" }).click();
    await expect.poll(() => toast(page)).toContain("Votre message a été envoyé à l'organisateur.");
    const mail = await mailbox.waitFor(
      (m) => m.subject === `Nouveau message à propos de ${event.name}` && m.index >= before,
      15_000,
    );
    expect(mail.headers["reply-to"]).toContain("marc.lemoine@example.com");
    expect(mail.text).toContain("> Le parking du départ est-il gratuit ?");
    expect(await page.content()).not.toContain(mail.to[0]);
    await context.close();
  });

  it("lets a visitor write to the organiser without JavaScript", async () => {
    const event = withContact[1];
    const context = await browser.newContext({ ...MOBILE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}/course/${event.slug}`);
    const contact = page.getByTestId("contact-organizer");
    // The button asks for the page again with the form open.
    await contact.getByRole("button", { name: "Écrire un message" }).click();
    await page.waitForURL(`${baseURL}/course/${event.slug}?open=contact#contact`);
    await contact.getByLabel("Votre nom").fill("Paul Girard");
    await contact.getByLabel("Votre adresse e-mail").fill("paul.girard@example.com");
    await contact.getByLabel("Votre message").fill("Court !");
    await contact.getByRole("button", { name: "Envoyer le message" }).click();
    await expect
      .poll(() => contact.getByTestId("field-error").textContent())
      .toBe("Votre message doit contenir entre 10 et 3000 caractères.");
    expect(await contact.getByLabel("Votre nom").inputValue()).toBe("Paul Girard");
    await contact.getByLabel("Votre message").fill("Bonjour, y a-t-il des vestiaires au départ ?");
    const before = await mailbox.count();
    await contact.getByRole("button", { name: "Envoyer le message" }).click();
    await expect
      .poll(() => contact.getByRole("status").textContent())
      .toBe("Votre message a été envoyé à l'organisateur.");
    const mail = await mailbox.waitFor(
      (m) => m.subject === `Nouveau message à propos de ${event.name}` && m.index >= before,
      15_000,
    );
    expect(mail.headers["reply-to"]).toContain("paul.girard@example.com");
    await context.close();
  });

  it("lets a member invite two friends, in English", async () => {
    const event = withContact[2];
    const member = await verifiedMember("Nina");
    const context = await browser.newContext(MOBILE);
    await context.addCookies([
      { name: "dossard_session", value: member.cookie.split("=")[1], url: baseURL, httpOnly: true, sameSite: "Lax" },
    ]);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/race/${event.slug}`);
    await untilHydrated(page);
    const invite = page.getByTestId("invite-friends");
    await invite.getByRole("button", { name: "Invite friends" }).click();
    const friends = [email("ami"), email("amie")];
    await invite.getByLabel("Friend 1's email address").fill(friends[0]);
    await invite.getByRole("button", { name: "Add a friend" }).click();
    await invite.getByLabel("Friend 2's email address").fill("not-an-address");
    await invite.getByRole("button", { name: "Send the invitation" }).click();
    await expect.poll(() => invite.getByTestId("field-error").textContent()).toBe("Invalid email address.");
    await invite.getByLabel("Friend 2's email address").fill(friends[1]);
    await invite.getByLabel("A word for your friends (optional)").fill("Shall we run it together?");
    const before = await mailbox.count();
    await invite.getByRole("button", { name: "Send the invitation" }).click();
    await expect.poll(() => toast(page)).toContain("Invitation sent to 2 friends.");
    for (const friend of friends) {
      const mail = await mailbox.waitFor((m) => m.to.includes(friend) && m.index >= before, 15_000);
      expect(mail.subject).toBe(`Nina Durand invites you to ${event.name}`);
      expect(mail.text).toContain(`${baseURL}/en/race/${event.slug}`);
    }
    await context.close();
  });
});
