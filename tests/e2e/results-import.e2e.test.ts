import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { E2E_ADMINS } from "./accounts.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { daysAgo, type PastEvent, pastEvent, signIn, type TimingLine, timingCsv } from "./results-data.ts";

/**
 * An organiser (an admin of the shared server) imports a timing company's results file into a past
 * edition: the preview with the columns it recognised, one column chosen by hand (the category
 * column is titled "Cat. FFA", which no timing vocabulary names), the import's progress, then the
 * results on the event page — overall, women, a category, a name search. In French on a phone;
 * then in English on a desktop, a corrected file replaces the first after a confirmation and a bib
 * search finds the corrected line. axe on the import screen and on the event page's results.
 */
let browser: Browser;
let event: PastEvent;
let session: string;
const baseURL = inject("baseURL");
const shots = process.env.SCREENSHOT_DIR;

const LAST = [
  "BERTRAND",
  "MOREL",
  "FONTAINE",
  "LEROY",
  "ROUX",
  "GIRARD",
  "BONNET",
  "DUPONT",
  "LAMBERT",
  "FRANÇOIS",
  "MARTINEZ",
  "LEGRAND",
  "GARNIER",
  "FAURE",
  "ROUSSEL",
  "BLANC",
  "GUERIN",
  "MULLER",
  "HENRY",
  "ROUSSEAU",
  "NICOLAS",
  "PERRIN",
  "MORIN",
  "MATHIEU",
];
const FIRST_MEN = ["Hugo", "Nicolas", "Julien", "Théo", "Mathieu", "Antoine", "Rémi", "Lucas"];
const FIRST_WOMEN = ["Léa", "Chloé", "Anaïs", "Manon"];
/** 24 finishers (every third a woman), categories SE/M0 for men and SE/M1 for women, then a DNF. */
function lines(): TimingLine[] {
  const list: TimingLine[] = [];
  for (let i = 1; i <= 24; i++) {
    const woman = i % 3 === 0;
    const time = 35 * 60 + i * 45;
    list.push({
      rank: i,
      bib: 100 + i,
      lastName: LAST[i - 1] as string,
      firstName: woman ? (FIRST_WOMEN[(i / 3) % 4] as string) : (FIRST_MEN[i % 8] as string),
      sex: woman ? "F" : "H",
      category: woman ? (i % 2 === 0 ? "M1F" : "SEF") : i % 2 === 0 ? "M0H" : "SEH",
      club: i % 4 === 0 ? "AC Villeurbanne" : undefined,
      time,
      net: time - (i % 5),
    });
  }
  list.push({ rank: "Abandon", bib: 199, lastName: "PERROT", firstName: "Cécile", sex: "F", category: "M1F" });
  return list;
}
const FILE = lines();
const women = FILE.filter((l) => l.sex === "F" && l.time !== undefined);
const firstWoman = women[0] as TimingLine;
const m1f = FILE.filter((l) => l.category === "M1F" && l.time !== undefined);

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await signIn(E2E_ADMINS.resultsImport);
  session = admin.split("=").slice(1).join("=");
  event = await pastEvent(admin, {
    name: `Les 10 km de la Croix-Rousse ${Date.now().toString(36)}`,
    date: daysAgo(9),
    courses: [{ name: "10 km", distance: 10_000, elevationGain: 80 }],
  });
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `results-import-${name}.png`), fullPage: true });
}

const rowsText = (page: Page) => page.getByTestId("event-results").getByTestId("result-row").allTextContents();

describe("an organiser imports a results file", () => {
  it("in French on a phone: preview, a column chosen by hand, progress, then the results tab", async () => {
    const context = await browser.newContext(MOBILE);
    await context.addCookies([{ name: "dossard_session", value: session, url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`${baseURL}/user/evenement/${event.id}/resultats`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("Importer des résultats");
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel("Fichier de résultats (CSV, XLSX, HTML)").setInputFiles({
      name: "resultats-10km-scratch.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(timingCsv(FILE, "Cat. FFA"), "utf8"),
    });
    await page.getByRole("button", { name: "Lire les résultats" }).click();
    const preview = page.getByTestId("results-preview");
    await preview.waitFor();
    expect(await preview.textContent()).toContain("25 lignes lues");
    // The columns it recognised, and the one it did not.
    const column = (title: string) => page.getByLabel(`Contenu de la colonne « ${title} »`);
    expect(await column("Clt").inputValue()).toBe("rank");
    expect(await column("Doss.").inputValue()).toBe("bib");
    expect(await column("Nom").inputValue()).toBe("lastName");
    expect(await column("Prénom").inputValue()).toBe("firstName");
    expect(await column("Sexe").inputValue()).toBe("sex");
    expect(await column("Temps officiel (réel)").inputValue()).toBe("time");
    expect(await column("Cat. FFA").inputValue()).toBe("");
    const firstRow = preview.locator("tbody tr").first();
    expect(await firstRow.locator("td").nth(5).textContent()).toBe("");
    // Official and chip times both read from "00:35:45 (00:35:44)".
    expect(await firstRow.textContent()).toContain("BERTRAND Nicolas");
    expect(await firstRow.locator("td").nth(7).textContent()).toBe("0:35:45");
    expect(await firstRow.locator("td").nth(8).textContent()).toBe("0:35:44");
    expect(await preview.getByText("Allure calculée d'après la distance de la course.").count()).toBe(1);

    // The organiser says what "Cat. FFA" holds: the preview is read again with it.
    await column("Cat. FFA").selectOption({ label: "Catégorie" });
    await expect.poll(() => firstRow.locator("td").nth(5).textContent()).toBe("SEH");
    expect(await preview.getByText("Classements par catégorie calculés d'après les temps.").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "preview-360");

    await page.getByRole("button", { name: "Importer 25 lignes" }).click();
    const progress = page.getByLabel("Avancement de l'import");
    await expect.poll(() => preview.getByText("25 résultats importés.").count(), { timeout: 30_000 }).toBe(1);
    expect(await progress.getAttribute("max")).toBe("25");
    expect(await progress.evaluate((bar: HTMLProgressElement) => bar.value)).toBe(25);
    await shot(page, "done-360");

    await page.getByRole("link", { name: "Voir la page de l'épreuve" }).click();
    await page.waitForURL(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);
    const block = page.getByTestId("event-results");
    expect(await block.getByTestId("results-finishers").textContent()).toBe("24 finishers");
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.getByTestId("result-row").count(), { timeout: 30_000 }).toBe(25);
    const general = await rowsText(page);
    expect(general[0]).toContain("médaille d’or");
    expect(general[0]).toContain("BERTRAND Nicolas");
    expect(general[24]).toContain("PERROT Cécile");
    expect(general[24]).toContain("Abandon");

    // Women: their own ranking, from 1.
    await block.getByRole("button", { name: "Femmes", exact: true }).click();
    await expect
      .poll(() => rowsText(page).then((rows) => rows[0]))
      .toContain(`${firstWoman.lastName} ${firstWoman.firstName}`);
    const womenRows = await rowsText(page);
    expect(womenRows.filter((row) => /^\d/.test(row))).toHaveLength(women.length);
    expect(womenRows[0]).toMatch(/^1\s*1er — médaille d’or/);
    for (const line of women) expect(womenRows.join("\n")).toContain(`${line.lastName} ${line.firstName}`);

    // A category: its ranking, computed from the times since the file had none.
    await block.getByRole("button", { name: "Par catégorie" }).click();
    await block.getByLabel("Catégorie", { exact: true }).selectOption("M1F");
    await expect
      .poll(() => rowsText(page).then((rows) => rows.filter((row) => /^\d/.test(row)).length))
      .toBe(m1f.length);
    const categoryRows = await rowsText(page);
    expect(categoryRows[0]).toContain(`${m1f[0]?.lastName} ${m1f[0]?.firstName}`);
    for (const row of categoryRows) expect(row).toContain("M1F");

    // A name search, back on the overall ranking.
    await block.getByRole("button", { name: "Général" }).click();
    await block.getByLabel("Rechercher un nom ou un dossard").fill("girard");
    await block.getByRole("button", { name: "Rechercher", exact: true }).click();
    await expect.poll(() => block.getByTestId("result-row").count()).toBe(1);
    expect(await block.getByTestId("result-row").textContent()).toContain("GIRARD");
    expect(await seriousViolations(page, ['[data-testid="event-results"]'])).toEqual([]);
    await shot(page, "event-360");
    await context.close();
  });

  it("in English on a desktop: a corrected file replaces the results after a confirmation", async () => {
    const context = await browser.newContext(DESKTOP);
    await context.addCookies([{ name: "dossard_session", value: session, url: baseURL }]);
    const page = await context.newPage();
    await page.goto(`${baseURL}/en/user/event/${event.id}/results`);
    await untilHydrated(page);
    expect(await page.locator("h1").textContent()).toBe("Import results");
    // The timing company corrected a bib (113 was given to the wrong runner) and a time.
    const corrected = FILE.map((line) => (line.bib === 113 ? { ...line, bib: 313, time: (line.time ?? 0) - 1 } : line));
    await page.getByLabel("Results file (CSV, XLSX, HTML)").setInputFiles({
      name: "resultats-10km-scratch-v2.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(timingCsv(corrected, "Cat. FFA"), "utf8"),
    });
    await page.getByRole("button", { name: "Read the results" }).click();
    const preview = page.getByTestId("results-preview");
    await preview.waitFor();
    expect(await preview.textContent()).toContain("This race already has 25 imported results");
    await page.getByLabel("Content of the column “Cat. FFA”").selectOption({ label: "Category" });
    await expect.poll(() => preview.locator("tbody tr").first().locator("td").nth(5).textContent()).toBe("SEH");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Import 25 lines" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Replace the results?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("The race “10 km” already has 25 imported results.");
    await dialog.getByRole("button", { name: "Replace" }).click();
    await expect.poll(() => preview.getByText("25 results imported.").count(), { timeout: 30_000 }).toBe(1);
    await shot(page, "replaced-1280");

    await page.goto(`${baseURL}/en/race/${event.slug}`);
    await untilHydrated(page);
    const block = page.getByTestId("event-results");
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.getByTestId("result-row").count(), { timeout: 30_000 }).toBe(25);
    await block.getByLabel("Search a name or a bib number").fill("313");
    await block.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => block.getByTestId("result-row").count()).toBe(1);
    const line = FILE.find((l) => l.bib === 113) as TimingLine;
    const row = block.getByTestId("result-row");
    expect(await row.textContent()).toContain(`${line.lastName} ${line.firstName}`);
    // The desktop table shows the bib, category and club in their own columns.
    expect(await row.locator("td").nth(1).textContent()).toBe("313");
    expect(await row.locator("td").nth(4).textContent()).toBe(line.category);
    // The old bib is gone.
    await block.getByLabel("Search a name or a bib number").fill("113");
    await block.getByRole("button", { name: "Search", exact: true }).click();
    await expect.poll(() => block.getByText("No runner matches your search.").count()).toBe(1);
    await block.getByRole("button", { name: "Women", exact: true }).click();
    await block.getByLabel("Search a name or a bib number").fill("");
    await block.getByRole("button", { name: "Search", exact: true }).click();
    await expect
      .poll(() => rowsText(page).then((rows) => rows[0]))
      .toContain(`${firstWoman.lastName} ${firstWoman.firstName}`);
    expect(await seriousViolations(page, ['[data-testid="event-results"]'])).toEqual([]);
    await shot(page, "event-1280");
    await context.close();
  });
});
