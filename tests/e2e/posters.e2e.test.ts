import fs from "node:fs";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { Browser, Download, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { POSTER_PALETTES } from "../../features/posters/poster.contract.ts";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, untilHydrated } from "./browser.ts";
import { verifiedMember } from "./members.ts";

/**
 * The poster journey, in English: from the page of a race with a track, "Create a poster" → the
 * creator → another style, palette, colour, title and size → PNG and PDF exports (the job's
 * progress shown, then the download) → the files opened: the PNG's pixels are 300 dpi of the
 * chosen paper, the PDF's page (drawn to an image by pdfjs-dist) looks like the PNG. The member's
 * free credit is then spent: the next poster offers to buy credits, a pack is bought through the
 * fake Stripe (global-setup.ts), and the second poster exports. axe on the creator.
 */
let browser: Browser;
const baseURL = inject("baseURL");
const stripeUrl = inject("stripeUrl");
/** Where screenshots and the downloaded files go when POSTER_SHOTS is set (looked at by hand). */
const SHOTS = process.env.POSTER_SHOTS;
let tracked: EventDetail;

beforeAll(async () => {
  browser = await launchBrowser();
  const list = await fetch(`${baseURL}/api/events_group/upcoming?limit=100`);
  const { events } = (await list.json()) as { events: { id: number }[] };
  for (const { id } of events) {
    const event = (await (await fetch(`${baseURL}/api/event/${id}`)).json()) as EventDetail;
    if (event.courses.some((c) => c.track)) {
      tracked = event;
      break;
    }
  }
  if (!tracked) throw new Error("no upcoming event with a track in the demo catalogue");
});
afterAll(async () => {
  await browser?.close();
});

/** Records every text the page's status regions ([role=status]) show, from now on. */
async function watchStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statusSeen: string[] }).statusSeen = seen;
    const record = () => {
      for (const el of document.querySelectorAll('[role="status"]')) {
        const text = el.textContent?.trim();
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const statusSeen = (page: Page) => page.evaluate(() => (window as unknown as { statusSeen: string[] }).statusSeen);

/** Clicks "Export as FORMAT" and resolves with the file the browser downloads once the job is done. */
async function exportFile(page: Page, format: "PNG" | "PDF"): Promise<{ download: Download; bytes: Buffer }> {
  await watchStatus(page);
  const downloaded = page.waitForEvent("download", { timeout: 120_000 });
  await page.getByRole("button", { name: `Export as ${format}` }).click();
  const download = await downloaded;
  // The job's progress was shown while the file was drawn.
  expect((await statusSeen(page)).some((text) => new RegExp(`^${format} export: \\d+%`).test(text))).toBe(true);
  await expect.poll(() => page.locator(".Toastify").textContent()).toContain(`${format} export ready`);
  const bytes = fs.readFileSync((await download.path()) as string);
  if (SHOTS) fs.writeFileSync(`${SHOTS}/${download.suggestedFilename()}`, bytes);
  return { download, bytes };
}

/** The PDF's first page drawn by pdfjs-dist (an independent PDF reader) at `scale` px per point. */
async function pdfPageImage(bytes: Buffer, scale: number) {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  expect(pdf.numPages).toBe(1);
  const page = await pdf.getPage(1);
  const viewport = page.getViewport({ scale });
  const pageSize = page.getViewport({ scale: 1 });
  // pdfjs-dist's own canvas factory (@napi-rs/canvas in Node).
  const factory = (
    pdf as unknown as {
      canvasFactory: {
        create(w: number, h: number): { canvas: { toBuffer(type: string): Buffer }; context: unknown };
      };
    }
  ).canvasFactory;
  const { canvas, context } = factory.create(Math.round(viewport.width), Math.round(viewport.height));
  await page.render({ canvasContext: context as never, viewport, canvas: canvas as never }).promise;
  const png = canvas.toBuffer("image/png");
  await pdf.destroy();
  return { png, widthPt: pageSize.width, heightPt: pageSize.height };
}

/** Both images scaled to the same small size: the mean and the 99th percentile of |Δ| per channel (0–255). */
async function difference(a: Buffer, b: Buffer): Promise<{ mean: number; p99: number }> {
  const small = (image: Buffer) =>
    sharp(image).flatten({ background: "#ffffff" }).resize(140, 100, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  expect(x.length).toBe(y.length);
  const deltas = Array.from(x, (v, i) => Math.abs(v - (y[i] as number))).sort((p, q) => p - q);
  return {
    mean: deltas.reduce((s, d) => s + d, 0) / deltas.length,
    p99: deltas[Math.floor(deltas.length * 0.99)] as number,
  };
}

/** 300 dpi of a length in millimetres. */
const px300 = (mm: number) => Math.round((mm / 25.4) * 300);

describe("posters", () => {
  it("en: from a race's page, designs a poster, exports PNG and PDF, then buys credits for a second one", async () => {
    const member = await verifiedMember("Lena", { lastName: "Marchand" });
    const course = tracked.courses.find((c) => c.track) as EventDetail["courses"][number];
    const context = await browser.newContext({ ...DESKTOP, locale: "en", acceptDownloads: true });
    await context.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const page = await context.newPage();

    // The race's page: "Create a poster" under the course that has a track.
    await page.goto(`${baseURL}/en/race/${tracked.slug}`);
    await untilHydrated(page);
    const create = page.locator(`a[href="/en/poster/new?course=${course.id}"]`);
    expect(await create.textContent()).toBe("Create a poster");
    await create.click();
    await page.waitForURL(`${baseURL}/en/poster/new?course=${course.id}`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("Create a poster");
    const preview = page.locator("svg[role=img][aria-label^='Preview of the poster']");
    await preview.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("poster-credits").textContent()).toBe("1 credit left");
    expect(await seriousViolations(page)).toEqual([]);

    // Style, colours, text, paper: the preview follows each change.
    const title = `Morning run ${Date.now().toString(36)}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Subtitle").fill("My first trail, finished smiling");
    // Only the styles this site can draw: those whose map data is not set up are not offered.
    const offered = await page.getByLabel("Map style").locator("option").allTextContents();
    expect(offered).toContain("Blue contours");
    expect(offered.filter((text) => /unavailable|^Roads$|^City$|^Satellite$|^Terrain$/i.test(text))).toEqual([]);
    expect(await page.getByLabel("Map style").locator("option[disabled]").count()).toBe(0);
    await page.getByLabel("Map style").selectOption("contours-blue");
    await page.getByRole("radio", { name: "Night" }).check({ force: true });
    await page.getByLabel("Track", { exact: true }).fill("#ff5a1f");
    await page.getByLabel("Size").selectOption("A4");
    await page.getByLabel("Orientation").selectOption("landscape");
    expect(await preview.getAttribute("aria-label")).toBe(`Preview of the poster “${title}”`);
    expect(await preview.getAttribute("viewBox")).toBe("0 0 297 210");
    expect(await preview.locator("rect").first().getAttribute("fill")).toBe(POSTER_PALETTES.night.background);
    expect(await preview.locator('path[stroke="#ff5a1f"]').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/poster-creator-1280.png`, fullPage: true });

    // PNG: saved first (the page becomes the poster's own), drawn by the job, downloaded.
    const png = await exportFile(page, "PNG");
    expect(page.url()).toMatch(new RegExp(`^${baseURL}/en/user/poster/\\d+$`));
    const posterUrl = page.url();
    expect(png.download.suggestedFilename()).toMatch(/\.png$/);
    const meta = await sharp(png.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", px300(297), px300(210)]);
    // Its corner is the night palette's background.
    const { data: corner } = await sharp(png.bytes)
      .extract({ left: 5, top: 5, width: 1, height: 1 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(`#${corner.toString("hex")}`).toBe(POSTER_PALETTES.night.background);

    // PDF: an A4 landscape page that, drawn by pdfjs-dist, looks like the PNG.
    const pdf = await exportFile(page, "PDF");
    expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const drawn = await pdfPageImage(pdf.bytes, 1.5);
    expect(drawn.widthPt).toBeCloseTo((297 / 25.4) * 72, 0);
    expect(drawn.heightPt).toBeCloseTo((210 / 25.4) * 72, 0);
    if (SHOTS) fs.writeFileSync(`${SHOTS}/poster-pdf-page.png`, drawn.png);
    const diff = await difference(png.bytes, drawn.png);
    expect(diff.mean).toBeLessThan(4);
    expect(diff.p99).toBeLessThan(25);
    // And a different poster would not pass that comparison: the check can fail.
    const other = await sharp({ create: { width: 297, height: 210, channels: 3, background: "#f4efe6" } })
      .png()
      .toBuffer();
    expect((await difference(other, drawn.png)).mean).toBeGreaterThan(20);
    // One credit for the poster, whatever its formats: none left, edits counted.
    expect(await page.getByTestId("poster-credits").textContent()).toBe("3 edits left after export");

    // A second poster: no credit left, its export offers to buy some.
    await page.goto(`${baseURL}/en/poster/new?course=${course.id}`);
    await untilHydrated(page);
    await preview.waitFor({ timeout: 30_000 });
    await page.getByLabel("Title", { exact: true }).fill(`${title}, again`);
    await page.getByLabel("Size").selectOption("A4");
    await page.getByRole("button", { name: "Export as PNG" }).click();
    await expect.poll(() => page.locator(".Toastify").textContent()).toContain("You have no poster credit left.");
    const offer = page.getByTestId("buy-credits");
    expect(await offer.textContent()).toContain("No poster credit left: buy a pack of credits to export this poster.");
    await page.waitForURL(/\/en\/user\/poster\/\d+$/);
    const secondUrl = page.url();
    expect(secondUrl).not.toBe(posterUrl);

    // Bought through Stripe's (fake) page, back on the orders tab with the credits.
    await offer.getByRole("link", { name: "Buy credits" }).click();
    await page.waitForURL(`${baseURL}/en/user/orders#buy-credits`);
    await untilHydrated(page);
    await page.getByRole("link", { name: "Buy 3 credits for €12.90" }).click();
    await page.waitForURL(`${stripeUrl}/checkout/**`);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL((url) => url.pathname === "/en/user/orders" && url.searchParams.has("order"));
    await untilHydrated(page);
    expect(await page.getByTestId("credit-balance").textContent()).toBe("You have 3 poster credits left.");

    // The orders tab offers to go back to the second poster: it exports now, A4 portrait at 300 dpi.
    await page.getByTestId("return-after-payment").click();
    await page.waitForURL(secondUrl);
    await untilHydrated(page);
    await preview.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("poster-credits").textContent()).toBe("3 credits left");
    const second = await exportFile(page, "PNG");
    const secondMeta = await sharp(second.bytes).metadata();
    expect([secondMeta.width, secondMeta.height]).toEqual([px300(210), px300(297)]);
    expect(await page.getByTestId("poster-credits").textContent()).toBe("3 edits left after export");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/poster-second-1280.png`, fullPage: true });
    await context.close();
  });

  it("fr: an admin sees the styles whose map data is missing, disabled, and the settings that enable them", async () => {
    const context = await browser.newContext(DESKTOP);
    const login = await context.request.post(`${baseURL}/api/login`, {
      headers: { "x-dossard-access": "dossard-web-1" },
      data: E2E_ADMINS.posters,
    });
    expect(login.status()).toBe(200);
    const page = await context.newPage();
    const course = tracked.courses.find((c) => c.track);
    await page.goto(`${baseURL}/poster/nouveau?course=${course?.id}`);
    await untilHydrated(page);
    const style = page.getByLabel("Style de carte");
    expect(await style.locator("option[disabled]").allTextContents()).toContain("Routes (indisponible)");
    expect(await page.getByTestId("poster-styles-admin").textContent()).toContain("POSTER_TILES_URL");
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    // A visitor on the same page: neither the disabled styles nor the settings' names.
    const visitor = await browser.newPage();
    await visitor.goto(`${baseURL}/poster/nouveau?course=${course?.id}`);
    expect(await visitor.getByLabel("Style de carte").locator("option[disabled]").count()).toBe(0);
    expect(await visitor.locator("body").textContent()).not.toContain("POSTER_");
    await visitor.close();
  });
});
