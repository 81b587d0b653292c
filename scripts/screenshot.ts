/**
 * Screenshots of pages for a look by eye, at phone and desktop widths:
 *
 *   npx tsx scripts/screenshot.ts [--login EMAIL:PASSWORD] [--widths 360,1280] [--base URL] OUTDIR PATH…
 *
 * Each PATH (`/communaute`, `/?place=74010&view=list`) is shot full page at each width, into
 * OUTDIR/<path>-<width>.png; console errors are printed. `--login` signs in through the API first.
 */
import fs from "node:fs";
import path from "node:path";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";
import { launchChromium } from "../tests/support/chromium.ts";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const login = option("--login");
const widths = (option("--widths") ?? "360,1280").split(",").map(Number);
const base = (option("--base") ?? "http://localhost:3000").replace(/\/$/, "");
const [outDir, ...paths] = args;
if (!outDir || paths.length === 0) {
  console.error("usage: screenshot.ts [--login EMAIL:PASSWORD] [--widths 360,1280] [--base URL] OUTDIR PATH…");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });

const browser = await launchChromium();
for (const width of widths) {
  const context = await browser.newContext({
    viewport: { width, height: width < 640 ? 780 : 900 },
    deviceScaleFactor: 1,
    isMobile: width < 640,
  });
  if (login) {
    const [email, password] = [login.slice(0, login.indexOf(":")), login.slice(login.indexOf(":") + 1)];
    const response = await context.request.post(`${base}/api/login`, {
      headers: { [ACCESS_HEADER]: ACCESS_HEADER_VALUE },
      data: { email, password },
    });
    if (!response.ok()) throw new Error(`login: ${response.status()} ${await response.text()}`);
  }
  for (const pagePath of paths) {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${base}${pagePath}`, { waitUntil: "networkidle" });
    const name =
      pagePath
        .replace(/^\/+/, "")
        .replace(/[^a-z0-9]+/gi, "-")
        .replace(/^-|-$/g, "") || "home";
    const out = path.join(outDir, `${name}-${width}.png`);
    await page.screenshot({ path: out, fullPage: true });
    console.log(`${out}${problems.length ? `  console errors: ${problems.join(" | ")}` : ""}`);
    await page.close();
  }
  await context.close();
}
await browser.close();
