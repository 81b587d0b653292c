import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { launchChromium } from "../support/chromium.ts";
import { CLIENT_ADDRESS } from "./client-address.ts";

/** The last console messages and page errors of each page, shown when a page never hydrates. */
const pageMessages = new WeakMap<Page, string[]>();
function remember(page: Page | null | undefined, message: string) {
  if (!page) return;
  const list = pageMessages.get(page) ?? [];
  list.push(message.slice(0, 300));
  if (list.length > 20) list.shift();
  pageMessages.set(page, list);
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options?: BrowserContextOptions) => {
    // This journey file's own client address (client-address.ts), unless the journey sets one.
    const context = await newContext({
      ...options,
      extraHTTPHeaders: { "x-forwarded-for": CLIENT_ADDRESS, ...options?.extraHTTPHeaders },
    });
    context.on("console", (message) => remember(message.page(), `${message.type()}: ${message.text()}`));
    context.on("weberror", (error) => remember(error.page(), `page error: ${error.error().message}`));
    return context;
  };
  return browser;
}

export const MOBILE: BrowserContextOptions = {
  viewport: { width: 360, height: 780 },
  deviceScaleFactor: 2,
  isMobile: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/**
 * Resolves once React has hydrated the page loaded last (goto, reload, a link followed as a new
 * document): app/root.tsx marks <html data-hydrated> then. Until then a click does nothing (a
 * dialog's button) or submits a form natively, and on a busy machine seconds (tens of seconds when
 * other jobs share the cores) can pass between the load event and hydration.
 */
export async function untilHydrated(page: Page): Promise<void> {
  try {
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 60_000 });
  } catch (error) {
    // A page that never hydrates has failed twice in CI on a busy machine and never alone: say what
    // the page was doing, so that the next failure explains itself.
    const state = await page
      .evaluate(() => ({
        url: location.href,
        readyState: document.readyState,
        scripts: [...document.scripts].map((s) => s.src || `inline ${s.textContent?.length ?? 0}`).slice(0, 12),
        resources: performance
          .getEntriesByType("resource")
          .map((r) => `${Math.round(r.duration)} ms ${r.name}`)
          .slice(-15),
      }))
      .catch((reason: unknown) => ({ evaluateFailed: String(reason) }));
    const messages = pageMessages.get(page) ?? [];
    throw new Error(
      `${(error as Error).message}\npage state: ${JSON.stringify(state, null, 2)}\nconsole: ${JSON.stringify(messages, null, 2)}`,
    );
  }
}
