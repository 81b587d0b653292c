import { chromium } from "playwright-core";
const [url, cookie] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const ctx = await b.newContext({ viewport: { width: 360, height: 740 } });
if (cookie) { const [n, v] = cookie.split("="); await ctx.addCookies([{ name: n, value: v, url }]); }
const p = await ctx.newPage();
await p.goto(url); await p.waitForTimeout(1500);
console.log(await p.evaluate(() => {
  const out = [document.documentElement.scrollWidth];
  for (const el of document.querySelectorAll("body *")) { const r = el.getBoundingClientRect(); if (r.right > 361 && r.width > 0) { let hidden = false; for (let a = el.parentElement; a; a = a.parentElement) { const s = getComputedStyle(a); if (s.overflowX !== "visible") { hidden = true; break; } } if (!hidden) out.push(`${el.tagName}.${String(el.className).slice(0,80)} right=${Math.round(r.right)}`); } }
  return out.slice(0, 15).join("\n");
}));
await b.close();
