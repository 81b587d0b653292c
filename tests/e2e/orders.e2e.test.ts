import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { type FakeStripe, startFakeStripe } from "../support/fake-stripe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { journeyDataDir } from "./data-dir.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

/**
 * Buying poster credits: a member opens the orders tab, buys a pack through the fake Stripe's
 * hosted page, comes back to the check page and sees the payment and the balance grown; the
 * receipt downloads. In French (phone) and English (desktop), with axe on the orders tab. The
 * journey runs its own server, pointed at the fake Stripe (tests/support/fake-stripe.ts).
 */
let browser: Browser;
let stripe: FakeStripe;
let server: ServerProcess;
let dataDir: string;
const SHOTS = process.env.ORDER_SHOTS;
const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };

beforeAll(async () => {
  stripe = await startFakeStripe();
  dataDir = journeyDataDir("dossard-orders-");
  server = await startServer({
    DATA_DIR: dataDir,
    DEMO_EVENTS: "0",
    ...stripe.env,
    LEGAL_PUBLISHER: "Dossard SAS",
    LEGAL_ADDRESS: "12 rue des Coureurs, 74000 Annecy",
  });
  stripe.setWebhookUrl(`${server.baseURL}/ext/payment/webhook`);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function member(): Promise<string> {
  const email = `commande.${Date.now().toString(36)}@example.fr`;
  const password = "départ 2026 !";
  const response = await fetch(`${server.baseURL}/api/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      email,
      password,
      passwordConfirmation: password,
      firstName: "Inès",
      lastName: "Roux",
      terms: true,
    }),
  });
  expect(response.status).toBe(201);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

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
      const cookie = await member();
      const [name, value] = cookie.split("=") as [string, string];
      const context = await browser.newContext({ ...j.device, locale: j.locale });
      await context.addCookies([{ name, value, url: server.baseURL }]);
      const page = await context.newPage();
      await page.goto(`${server.baseURL}${j.path}`);
      await untilHydrated(page);
      await expect.poll(() => page.getByTestId("credit-balance").textContent()).toBe(j.balance[0]);
      expect(await seriousViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/orders-${j.locale}-before.png`, fullPage: true });

      await page.getByRole("link", { name: j.buy }).click();
      await page.waitForURL(`${stripe.base}/checkout/**`);
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
