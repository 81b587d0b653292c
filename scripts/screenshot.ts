/** Screenshots of pages for a look by eye: `npx tsx scripts/screenshot.ts URL OUT.png [width] [fullPage]`. */
import { launchBrowser } from "../tests/e2e/browser.ts";

const [url, out, width = "360", full = "1"] = process.argv.slice(2);
if (!url || !out) {
  console.error("usage: screenshot.ts URL OUT.png [width] [fullPage 0|1]");
  process.exit(2);
}
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: Number(width), height: 800 }, deviceScaleFactor: 1 });
const problems: string[] = [];
page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
page.on("pageerror", (e) => problems.push(e.message));
await page.goto(url, { waitUntil: "networkidle" });
await page.screenshot({ path: out, fullPage: full === "1" });
if (problems.length) console.log(`console errors:\n${problems.join("\n")}`);
await browser.close();
