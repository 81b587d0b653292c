import { type Browser, type BrowserContextOptions, chromium } from "playwright-core";

/** Debian's chromium, as on CI; CHROMIUM_PATH overrides it. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export const MOBILE: BrowserContextOptions = {
  viewport: { width: 360, height: 780 },
  deviceScaleFactor: 2,
  isMobile: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
