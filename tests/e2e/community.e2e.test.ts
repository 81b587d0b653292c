import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { finishedEditions, upcomingEditions } from "./catalogue.ts";
import { verifiedMember } from "./members.ts";

/**
 * A runner back from a race rates it, tells how it went, answers (and deletes the answer), and
 * cheers the runners of an upcoming edition on its wall — in French, on a phone, in Chromium.
 * Screenshots of the blocks at 360 and 1280 px go to SCREENSHOT_DIR when it is set.
 */
let browser: Browser;
const baseURL = inject("baseURL");
let finished: EventDetail;
let upcoming: EventDetail;
const shots = process.env.SCREENSHOT_DIR;

beforeAll(async () => {
  browser = await launchBrowser();
  // A race finished days ago (comments open) and one days ahead (comments wait): catalogue.ts.
  [finished] = await finishedEditions((event) => !event.cancelled);
  [upcoming] = await upcomingEditions();
});
afterAll(async () => {
  await browser?.close();
});

async function screenshot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  for (const id of ["rating-block", "comments", "wall"]) {
    await page.getByTestId(id).screenshot({ path: path.join(shots, `${name}-${id}.png`) });
  }
}

const toast = (page: Page) => page.locator(".Toastify").textContent();

describe("ratings, comments and the wall, in French on a phone", () => {
  it("rates and comments a finished race, replies, deletes the reply, and cheers on a wall", async () => {
    const { session } = await verifiedMember("Julie");
    const context = await browser.newContext(MOBILE);
    await context.addCookies([{ name: "dossard_session", value: session, url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`${baseURL}/course/${finished.slug}`);
    await untilHydrated(page);

    // Rate: the dialog of stars, then the average, the count and the member's own rating.
    const block = page.getByTestId("rating-block");
    await block.getByRole("button", { name: "Noter cette course" }).click();
    const dialog = page.getByTestId("rating-dialog");
    // The stars are labels around visually hidden radios: a tap lands on the star.
    const star = (group: RegExp, n: number) =>
      dialog
        .getByRole("group", { name: group })
        .locator("label")
        .filter({ has: page.getByRole("radio", { name: `${n} étoiles` }) });
    await star(/Note globale/, 4).click();
    await star(/Ambiance/, 5).click();
    await dialog.getByRole("button", { name: "Enregistrer ma note" }).click();
    await expect.poll(() => toast(page)).toContain("Merci ! Votre note est enregistrée.");
    await expect.poll(() => block.getByTestId("rating-average").textContent()).toContain("4,0");
    expect(await block.getByTestId("rating-count").textContent()).toBe("1 avis");
    expect(await block.getByTestId("my-rating").textContent()).toContain("Votre note : 4 sur 5");
    expect(await block.getByText("5,0 sur 5 (1 avis)").count()).toBe(1);

    // Comment, with a line break kept.
    const comments = page.getByTestId("comments");
    await comments.getByLabel("Votre commentaire").fill("Parcours magnifique.\nBravo aux bénévoles !");
    expect(await comments.getByLabel("Votre commentaire").getAttribute("maxlength")).toBe("2000");
    await comments.getByRole("button", { name: "Publier" }).click();
    const first = comments.getByTestId("comment").first();
    await expect.poll(() => first.textContent()).toContain("Parcours magnifique.");
    expect(await first.locator("p.whitespace-pre-line").innerText()).toBe(
      "Parcours magnifique.\nBravo aux bénévoles !",
    );

    // Reply, then delete the reply.
    await first.getByRole("button", { name: "Répondre" }).click();
    await comments.getByLabel("Votre réponse à Julie D.").fill("Et merci au photographe !");
    await comments.getByRole("button", { name: "Répondre", exact: true }).last().click();
    const reply = comments.getByTestId("comment").filter({ hasText: "Et merci au photographe !" });
    await expect.poll(() => reply.count()).toBe(1);
    expect(
      await seriousViolations(page, [
        '[data-testid="rating-block"]',
        '[data-testid="comments"]',
        '[data-testid="wall"]',
      ]),
    ).toEqual([]);
    await reply.getByRole("button", { name: "Supprimer" }).click();
    await page.getByTestId("delete-comment-dialog").getByRole("button", { name: "Supprimer" }).click();
    await expect.poll(() => reply.count()).toBe(0);
    await expect.poll(() => toast(page)).toContain("Commentaire supprimé.");

    // After a reload the rating and the comment are still there (from the API, on the shared page).
    await page.reload();
    await untilHydrated(page);
    await expect.poll(() => page.getByTestId("my-rating").textContent()).toContain("4 sur 5");
    await expect.poll(() => page.getByTestId("comment").first().textContent()).toContain("Parcours magnifique.");
    await screenshot(page, "finished-360");
    const wide = await browser.newContext(DESKTOP);
    await wide.addCookies([{ name: "dossard_session", value: session, url: baseURL }]);
    const widePage = await wide.newPage();
    await widePage.goto(`${baseURL}/course/${finished.slug}`);
    await untilHydrated(widePage);
    await expect.poll(() => widePage.getByTestId("comment").count()).toBeGreaterThan(0);
    await screenshot(widePage, "finished-1280");
    await wide.close();

    // The wall of an upcoming edition: comments wait for the race, cheers do not.
    await page.goto(`${baseURL}/course/${upcoming.slug}`);
    await untilHydrated(page);
    expect(await page.getByTestId("comments").textContent()).toContain(
      "Les commentaires ouvrent le jour de la course.",
    );
    const wall = page.getByTestId("wall");
    await wall.getByLabel("Votre encouragement").fill("Allez Julie ! 💪");
    expect(await wall.getByLabel("Votre encouragement").getAttribute("maxlength")).toBe("140");
    await wall.getByRole("button", { name: "Encourager" }).click();
    await expect.poll(() => wall.getByTestId("wall-message").first().textContent()).toContain("Allez Julie ! 💪");
    await expect.poll(() => toast(page)).toContain("Merci pour vos encouragements !");
    expect(
      await seriousViolations(page, [
        '[data-testid="rating-block"]',
        '[data-testid="comments"]',
        '[data-testid="wall"]',
      ]),
    ).toEqual([]);

    // A visitor sees the cheer, and is offered to sign in to post one.
    const visitor = await browser.newContext(MOBILE);
    const anonymous = await visitor.newPage();
    await anonymous.goto(`${baseURL}/course/${upcoming.slug}`);
    await untilHydrated(anonymous);
    const publicWall = anonymous.getByTestId("wall");
    await expect.poll(() => publicWall.getByTestId("wall-message").first().textContent()).toContain("Allez Julie");
    expect(await publicWall.getByRole("link", { name: "Connectez-vous pour encourager les coureurs" }).count()).toBe(1);
    await screenshot(page, "upcoming-360");
    await visitor.close();
    await context.close();
  });
  it("lets another member report the comment and an admin delete it from the moderation queue", async () => {
    const { session: reporter } = await verifiedMember("Hugo");
    const context = await browser.newContext(MOBILE);
    await context.addCookies([{ name: "dossard_session", value: reporter, url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`${baseURL}/course/${finished.slug}`);
    await untilHydrated(page);
    const comment = page.getByTestId("comment").filter({ hasText: "Parcours magnifique." });
    await expect.poll(() => comment.count()).toBe(1);
    // Not the author: no edit, no delete, a report.
    expect(await comment.getByRole("button", { name: "Modifier" }).count()).toBe(0);
    await comment.getByRole("button", { name: "Signaler" }).click();
    const dialog = page.getByTestId("report-comment-dialog");
    await dialog.getByLabel("Motif (facultatif)").fill("Publicité déguisée");
    await dialog.getByRole("button", { name: "Envoyer le signalement" }).click();
    await expect.poll(() => toast(page)).toContain("le commentaire a été signalé aux modérateurs");
    await context.close();

    // An administrator of the journeys' server (made by the global setup).
    const signedIn = await fetch(`${baseURL}/api/login`, {
      method: "POST",
      headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" },
      body: JSON.stringify(E2E_ADMINS.moderation),
    });
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    const adminSession = (signedIn.headers.get("set-cookie") ?? "").split(";")[0].split("=").slice(1).join("=");
    const admin = await browser.newContext(DESKTOP);
    await admin.addCookies([{ name: "dossard_session", value: adminSession, url: baseURL }]);
    const queue = await admin.newPage();
    await queue.goto(`${baseURL}/admin/commentaires`);
    await untilHydrated(queue);
    const item = queue
      .getByTestId("reported-comments")
      .locator("li")
      .filter({ hasText: "Parcours magnifique." })
      .first();
    expect(await item.textContent()).toContain("Publicité déguisée");
    expect(await item.textContent()).toContain("1 signalement");
    expect(await seriousViolations(queue)).toEqual([]);
    if (shots) await queue.screenshot({ path: path.join(shots, "admin-comments-1280.png"), fullPage: true });
    await item.getByRole("button", { name: "Supprimer le commentaire" }).click();
    await expect.poll(() => toast(queue)).toContain("Commentaire supprimé.");
    await expect.poll(() => queue.getByText("Aucun signalement en attente.", { exact: false }).count()).toBe(1);
    await admin.close();

    const listed = await (await fetch(`${baseURL}/api/comments/event/${finished.id}`)).json();
    expect(listed.comments.map((c: { body: string }) => c.body)).not.toContain(
      "Parcours magnifique.\nBravo aux bénévoles !",
    );
  });
  it("speaks English under /en/race/, with English numbers", async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/race/${finished.slug}`);
    await untilHydrated(page);
    const block = page.getByTestId("rating-block");
    expect(await block.getByRole("heading", { level: 2 }).textContent()).toBe("Runners' reviews");
    await expect.poll(() => block.getByTestId("rating-average").textContent()).toContain("4.0");
    expect(await block.getByTestId("rating-count").textContent()).toBe("1 review");
    expect(await block.getByRole("link", { name: "Sign in to rate this race" }).count()).toBe(1);
    expect(await page.getByTestId("comments").getByRole("heading", { level: 2 }).textContent()).toBe("Comments");
    expect(await page.getByTestId("wall").getByRole("heading", { level: 2 }).textContent()).toBe("Cheer wall");
    await context.close();
  });
});
