import fs from "node:fs";
import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium headless shell (package chromium-headless-shell) when installed, as on CI: the
 * same Blink and V8 as the full browser without its desktop shell, half the CPU per journey
 * (docs/decisions/041-chromium-headless-shell-for-journeys.md); else Debian's chromium;
 * CHROMIUM_PATH overrides both.
 */
export function chromiumPath(): string {
  const headlessShell = "/usr/lib/chromium/chromium-headless-shell";
  return process.env.CHROMIUM_PATH || (fs.existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium");
}

/** Chromium as the journeys and the screenshot script run it: no sandbox, GPU or background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
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
