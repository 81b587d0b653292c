import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { verifiedMember } from "./members.ts";

/**
 * Buying poster credits: a member opens the orders tab, buys a pack through the fake Stripe's
 * hosted page, comes back to the check page and sees the payment and the balance grown; the
 * receipt downloads. In French (phone) and English (desktop), with axe on the orders tab. On the
 * journeys' shared server, which global-setup.ts points at the fake Stripe (tests/support/fake-stripe.ts).
 */
let browser: Browser;
const baseURL = inject("baseURL");
const stripeUrl = inject("stripeUrl");
const SHOTS = process.env.ORDER_SHOTS;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const journeys = [
  {
    locale: "fr",
    path: "/user/commandes",
    device: MOBILE,
    buy: "Acheter 3 crédits pour 12,90\u00a0€",
    balance: ["Il vous reste 1 crédit poster.", "Il vous reste 4 crédits poster."],
    paid: "Paiement reçu\u00a0: 3 crédits ont été ajoutés à votre compte.",
    amount: "12,90\u00a0€",
    status: "Payée",
  },
  {
    locale: "en",
    path: "/en/user/orders",
    device: DESKTOP,
    buy: "Buy 3 credits for €12.90",
    balance: ["You have 1 poster credit left.", "You have 4 poster credits left."],
    paid: "Payment received: 3 credits have been added to your account.",
    amount: "€12.90",
    status: "Paid",
  },
] as const;

describe("buying poster credits", () => {
  for (const j of journeys) {
    it(`${j.locale}: pays through Stripe's page, comes back, and the balance has grown`, async () => {
      const member = await verifiedMember("Ines", { lastName: "Roux" });
      const context = await browser.newContext({ ...j.device, locale: j.locale });
      await context.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
      const page = await context.newPage();
      await page.goto(`${baseURL}${j.path}`);
      await untilHydrated(page);
      await expect.poll(() => page.getByTestId("credit-balance").textContent()).toBe(j.balance[0]);
      expect(await seriousViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/orders-${j.locale}-before.png`, fullPage: true });

      await page.getByRole("link", { name: j.buy }).click();
      await page.waitForURL(`${stripeUrl}/checkout/**`);
      expect(await page.locator("#amount").textContent()).toBe("12.90");
      await page.getByRole("button", { name: "Pay" }).click();
      await page.waitForURL((url) => url.pathname === j.path && url.searchParams.has("order"));
      await untilHydrated(page);
      expect(await page.getByTestId("payment-outcome").textContent()).toContain(j.paid);
      expect(await page.getByTestId("credit-balance").textContent()).toBe(j.balance[1]);
      const row = page.getByTestId("orders").locator("li").first();
      expect(await row.getByTestId("order-amount").textContent()).toBe(j.amount);
      expect(await row.textContent()).toContain(j.status);
      expect(await seriousViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/orders-${j.locale}-after.png`, fullPage: true });

      const download = page.waitForEvent("download");
      await row.getByRole("link", { name: /R-\d{6}/ }).click();
      const file = await (await download).path();
      expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
      await context.close();
    });
  }
});
