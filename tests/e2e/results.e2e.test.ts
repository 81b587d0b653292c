import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { sql } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/client.server.ts";
import { ensureSeeded } from "../../db/seed/index.server.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { startTestSmtpServer, type TestSmtpServer } from "../support/smtp-server.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { journeyDataDir } from "./data-dir.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

/**
 * A runner finds their line in a marathon's results on the event page, says "C'est moi", and finds
 * the marathon's badges and their figures on their public profile — in French on a phone, then in
 * English on a desktop, with axe on each page. The results are written into the server's database
 * before it starts (the import is another journey's business). Screenshots go to SCREENSHOT_DIR.
 */
let browser: Browser;
let smtp: TestSmtpServer;
let server: ServerProcess;
let dataDir: string;
let baseURL: string;
let event: { slug: string; name: string };
const shots = process.env.SCREENSHOT_DIR;
const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  dataDir = journeyDataDir("dossard-e2e-results-");
  const database = await openDatabase({ dataDir: path.join(dataDir, "pgdata") });
  await ensureSeeded(database.db, { demoEvents: 40, log: () => {} });
  // A past, listed edition: its first course becomes a marathon (D+ 300 m) with 60 finishers and 2 DNF.
  const found = (
    await database.db.execute(sql`
      SELECT e.id AS event_id, e.slug, e.name, c.id AS course_id FROM events e
      JOIN courses c ON c.event_id = e.id
      WHERE e.status = 'active' AND NOT e.cancelled AND e.start_date < current_date - 3
      ORDER BY e.start_date DESC, c.position, c.id LIMIT 1`)
  ).rows as { event_id: number; slug: string; name: string; course_id: number }[];
  const target = found[0];
  if (!target) throw new Error("no past demo event");
  event = { slug: target.slug, name: target.name };
  await database.db.execute(
    sql`UPDATE courses SET distance = 42195, elevation_gain = 300 WHERE id = ${target.course_id}`,
  );
  await database.db.execute(sql`
    INSERT INTO results (course_id, event_id, position, rank, sex_rank, category_rank, bib, name, club, sex, category,
      time_ms, pace_s_per_km, status)
    SELECT ${target.course_id}, ${target.event_id}, g, g, g, g, (1000 + g)::text,
      CASE WHEN g = 7 THEN 'Camille DURAND' ELSE 'Coureur ' || g END,
      CASE WHEN g % 3 = 0 THEN 'AC Lyon' END, CASE WHEN g = 7 THEN 'F' ELSE 'M' END, 'SE',
      (2 * 3600 + 40 * 60 + g * 120) * 1000, round((2 * 3600 + 40 * 60 + g * 120) * 1000 / 42195.0), 'finished'
    FROM generate_series(1, 60) g`);
  await database.db.execute(sql`
    INSERT INTO results (course_id, event_id, position, bib, name, sex, status)
    VALUES (${target.course_id}, ${target.event_id}, 61, '1061', 'Abandon Un', 'M', 'dnf'),
      (${target.course_id}, ${target.event_id}, 62, '1062', 'Abandon Deux', 'M', 'dnf')`);
  await database.close();
  server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "40", SMTP_URL: smtp.url });
  baseURL = server.baseURL;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A member registered, verified and with a public profile, through the API: session and slug. */
async function publicMember(): Promise<{ session: string; slug: string }> {
  const address = `camille.${Date.now().toString(36)}@example.fr`;
  const password = "marathon 2026 !";
  const after = smtp.messages.length;
  const registered = await fetch(`${baseURL}/api/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      email: address,
      password,
      passwordConfirmation: password,
      firstName: "Camille",
      lastName: "Durand",
      pseudo: "",
      terms: true,
    }),
  });
  expect(registered.status).toBe(201);
  const { user } = (await registered.json()) as { user: { id: number; slug: string } };
  const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const mail = await smtp.waitFor((m) => m.to.includes(address) && smtp.messages.indexOf(m) >= after, 15_000);
  const code = mail.text.match(/\b(\d{5})\b/)?.[1];
  const verified = await fetch(`${baseURL}/api/user/verify-account`, {
    method: "POST",
    headers: { ...headers, cookie },
    body: JSON.stringify({ code }),
  });
  expect(verified.status).toBe(200);
  const profile = await fetch(`${baseURL}/api/user/profile/${user.id}`, {
    method: "POST",
    headers: { ...headers, cookie },
    body: JSON.stringify({ firstName: "Camille", lastName: "Durand", publicProfile: true }),
  });
  expect(profile.status, await profile.text()).toBe(200);
  return { session: cookie.split("=").slice(1).join("="), slug: user.slug };
}

async function violations(page: Page, selector?: string) {
  const builder = new AxeBuilder({ page });
  const results = await (selector ? builder.include(selector) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function shot(page: Page, name: string, testId?: string) {
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  const file = path.join(shots, `results-${name}.png`);
  if (testId) await page.getByTestId(testId).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

describe("a member claims a result and sees their badges", () => {
  it("claims the line on the event page (French, phone), then shows badges and stats on the public profile in both languages", async () => {
    const member = await publicMember();
    const phone = await browser.newContext(MOBILE);
    await phone.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const page = await phone.newPage();
    await page.goto(`${baseURL}/course/${event.slug}`);
    await untilHydrated(page);

    const block = page.getByTestId("event-results");
    expect(await block.getByTestId("results-finishers").textContent()).toBe("60 finishers");
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.getByTestId("result-row").count(), { timeout: 30_000 }).toBe(50);
    // The podium says its medal in words, not by colour alone.
    expect(await block.getByTestId("result-row").first().textContent()).toContain("médaille d’or");
    await block.getByLabel("Rechercher un nom ou un dossard").fill("durand");
    await block.getByRole("button", { name: "Rechercher" }).click();
    await expect.poll(() => block.getByTestId("result-row").count()).toBe(1);
    expect(await block.getByTestId("result-row").textContent()).toContain("Camille DURAND");
    expect(await violations(page, '[data-testid="event-results"]')).toEqual([]);
    await block.getByRole("button", { name: "C’est moi : Camille DURAND est mon résultat" }).click();
    await expect.poll(() => block.getByRole("status").textContent()).toContain("Ce résultat est maintenant le vôtre");
    // The line now links to the member's profile and offers to give it back.
    await expect.poll(() => block.getByRole("link", { name: "Camille DURAND" }).count()).toBe(1);
    expect(await block.getByRole("button", { name: "Ce n’est pas moi" }).count()).toBe(1);
    await shot(page, "event-360", "event-results");

    await page.goto(`${baseURL}/membre/${member.slug}`);
    await untilHydrated(page);
    const badges = page.getByTestId("member-badges");
    for (const name of ["Marathon en moins de 3 h", "Marathon en moins de 4 h", "Marathon"]) {
      expect(await badges.getByText(name, { exact: true }).count(), name).toBeGreaterThan(0);
    }
    const stats = page.getByTestId("member-stats");
    expect(await stats.locator('[data-stat="totalDistance"] dd').textContent()).toBe("42,2\u00a0km");
    expect(await stats.locator('[data-stat="totalElevation"] dd').textContent()).toBe("D+\u00a0300\u00a0m");
    expect(await stats.locator('[data-stat="races"] dd').textContent()).toBe("1");
    expect(await violations(page)).toEqual([]);
    await shot(page, "profile-360");
    await phone.close();

    const desktop = await browser.newContext(DESKTOP);
    await desktop.addCookies([{ name: "dossard_session", value: member.session, url: baseURL }]);
    const wide = await desktop.newPage();
    await wide.goto(`${baseURL}/en/member/${member.slug}`);
    await untilHydrated(wide);
    expect(await wide.getByTestId("member-badges").getByText("Sub-3 marathon", { exact: true }).count()).toBe(1);
    const enStats = wide.getByTestId("member-stats");
    expect(await enStats.locator('[data-stat="totalDistance"] dd').textContent()).toBe("42.2\u00a0km");
    expect(await enStats.locator('[data-stat="totalElevation"] dd').textContent()).toBe("300\u00a0m\u00a0D+");
    expect(await violations(wide)).toEqual([]);
    await shot(wide, "profile-1280");

    // The account's results tab: the time, the rank among the finishers and its percentile.
    await wide.goto(`${baseURL}/en/user/results`);
    await untilHydrated(wide);
    const mine = wide.getByTestId("my-results");
    const text = await mine.textContent();
    expect(text).toContain(event.name);
    expect(text).toContain("2:54:00");
    expect(text).toContain("7 of 60");
    expect(text).toContain("top 12%");
    expect(await violations(wide)).toEqual([]);
    await shot(wide, "account-1280");
    await desktop.close();
  });
});
