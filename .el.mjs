import { chromium } from "playwright-core";
const [url, sel, out, width] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const p = await b.newPage({ viewport: { width: Number(width), height: 900 } });
await p.goto(url); await p.locator(sel).first().scrollIntoViewIfNeeded(); await p.waitForTimeout(2500);
await p.locator(sel).first().screenshot({ path: out });
await b.close();
