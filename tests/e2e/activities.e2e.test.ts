import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventDetail } from "../../features/events/event-detail.contract.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { makeRunStreams, type StravaApi, startStravaApi } from "../support/strava-api.ts";
import { seriousViolations } from "./axe.ts";
import { DESKTOP, launchBrowser, MOBILE, untilHydrated } from "./browser.ts";
import { journeyDataDir } from "./data-dir.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

/**
 * Activities, in English: a member connects Strava (the local fake), watches the first sync finish,
 * opens the activity that was a race of the catalogue, links it ("your race") and makes a result of
 * it, finds the race's finisher badge among their results, and starts a poster from the activity:
 * the creator's preview draws the activity's line. Strava's attribution and link are on the page;
 * axe finds nothing serious on the activity page and the creator. Screenshots go to ACTIVITY_SHOTS
 * when it is set (looked at by hand).
 */
let browser: Browser;
let strava: StravaApi;
let server: ServerProcess;
let dataDir: string;
let baseURL: string;
const SHOTS = process.env.ACTIVITY_SHOTS;
const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };
let athlete = 31337;
let race: { eventName: string; courseName: string; courseId: number };
/** The run that was the race, given to a new athlete on each try (a retry connects a new member). */
let raceRun: (athleteId: number) => void;

async function api<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, { ...init, headers: { ...headers, ...init.headers } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  strava = await startStravaApi();
  dataDir = journeyDataDir("dossard-e2e-activities-");
  server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "30", ...strava.env });
  baseURL = server.baseURL;
  browser = await launchBrowser();

  // A race of the catalogue that took place (a result needs that), and a run on Strava that fits
  // it: same day, near its place, its distance.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const { items } = await api<{ items: { id: number }[] }>(`/api/events?from=${day(-360)}&to=${day(-2)}&perPage=50`);
  for (const { id } of items) {
    const event = await api<EventDetail>(`/api/event/${id}`);
    const course = event.courses.find((c) => c.distance && c.distance >= 5_000 && c.distance <= 25_000 && !c.track);
    const { lat, lng } = event.place;
    if (lat === null || lng === null || !course?.distance) continue;
    const distance = course.distance;
    race = { eventName: event.name, courseName: course.name, courseId: course.id };
    raceRun = (athleteId) => {
      strava.addAthlete(athleteId, "Lou", "Runner");
      strava.addActivity(
        athleteId,
        {
          id: 12_345_678_901,
          name: "Morning race",
          sport_type: "Run",
          start_date: `${event.startDate}T07:00:00Z`,
          distance,
          moving_time: Math.round((distance / 1000) * 300),
          elapsed_time: Math.round((distance / 1000) * 300),
          total_elevation_gain: 50,
          start_latlng: [lat + 0.005, lng],
          manual: false,
          private: true,
        },
        makeRunStreams({
          lat: lat + 0.005,
          lng,
          distanceKm: distance / 1000,
          paceSPerKm: 300,
          stepS: 10,
          heartRate: true,
        }),
      );
    };
    break;
  }
  if (!race) throw new Error("no catalogue race with a place and a distance");
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await strava?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function memberPage(options = DESKTOP): Promise<Page> {
  const email = `activites.${Date.now().toString(36)}@example.fr`;
  const password = "départ 2026 !";
  const registered = await fetch(`${baseURL}/api/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      email,
      password,
      passwordConfirmation: password,
      firstName: "Lou",
      lastName: "Runner",
      pseudo: "",
      terms: true,
    }),
  });
  expect(registered.status).toBe(201);
  const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const [name, value] = cookie.split("=");
  const context = await browser.newContext({ ...options, locale: "en-GB" });
  await context.addCookies([{ name: name ?? "", value: value ?? "", url: baseURL }]);
  return context.newPage();
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe("activities", () => {
  it("connects Strava, syncs with progress, and turns the race it recorded into a result", async () => {
    athlete++;
    raceRun(athlete);
    strava.signInAs(athlete);
    const page = await memberPage();
    await page.goto(`${baseURL}/en/user/activity/strava`);
    await untilHydrated(page);
    await expect.poll(() => page.getByTestId("powered-by-strava").count()).toBe(1);
    // Strava's page (the fake) approves at once and sends the member back.
    await page.getByRole("link", { name: "Connect Strava" }).click();
    await page.waitForURL(/\/user\/activity\/strava\?connected=1/);
    await untilHydrated(page);
    await expect.poll(() => page.getByText("Strava is connected").count()).toBe(1);
    // The sync runs in the background; the page follows its progress.
    await expect
      .poll(async () => page.getByTestId("sync-status").textContent(), { timeout: 60_000, interval: 1000 })
      .toContain("Up to date");
    expect(await page.getByTestId("sync-status").textContent()).toContain("1 activity imported from Strava");
    await shot(page, "strava-1280");

    await page.getByRole("link", { name: "See my activities" }).click();
    await untilHydrated(page);
    await page.getByRole("link", { name: "Morning race" }).click();
    await untilHydrated(page);
    await expect.poll(() => page.getByTestId("matches").count(), { timeout: 15_000 }).toBe(1);
    const stravaLink = page.getByRole("link", { name: "View on Strava" });
    expect(await stravaLink.getAttribute("href")).toBe("https://www.strava.com/activities/12345678901");
    expect(await page.getByTestId("splits").locator("tbody tr").count()).toBeGreaterThan(4);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "activity-1280");

    await page.getByTestId("matches").getByRole("button", { name: "That was this race" }).first().click();
    // A loaded two-core machine can take seconds to answer: the polls wait up to 15 s.
    await expect.poll(() => page.getByTestId("linked-course").count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByTestId("linked-course").textContent()).toContain(race.eventName);
    await page.getByRole("button", { name: "Make it my result" }).click();
    await expect
      .poll(() => page.getByTestId("linked-course").textContent(), { timeout: 15_000 })
      .toContain("Your result on this race is saved.");
    await shot(page, "activity-linked-1280");
    const activityUrl = page.url();

    // The result brings the race's finisher badge, on the member's results page.
    await page.goto(`${baseURL}/en/user/results`);
    await untilHydrated(page);
    const badge = page.getByTestId("member-badges").locator(`[data-badge="finisher-course-${race.courseId}"]`);
    await expect.poll(() => badge.count(), { timeout: 15_000 }).toBe(1);
    expect(await badge.textContent()).toContain(race.eventName);
    await shot(page, "results-badge-1280");

    // A poster of the activity: the creator starts from its line, with the race's name.
    await page.goto(activityUrl);
    await untilHydrated(page);
    await page.getByRole("link", { name: "Make a poster of it" }).click();
    await page.waitForURL(/\/en\/poster\/new\?activity=\d+$/);
    await untilHydrated(page);
    const preview = page.getByRole("img", { name: `Preview of the poster “${race.eventName}”` });
    await expect.poll(() => preview.count(), { timeout: 30_000 }).toBe(1);
    // The track is drawn in the palette's track colour; the run went east and came back 30 m off:
    // a long, flat line of many points.
    const line = await preview.locator('path[stroke="#c2410c"][stroke-linecap="round"]').evaluateAll((paths) =>
      paths.map((p) => {
        const box = (p as SVGPathElement).getBBox();
        return { points: (p.getAttribute("d") ?? "").split("L").length, width: box.width, height: box.height };
      }),
    );
    const track = line.sort((a, b) => b.points - a.points)[0];
    expect(track?.points).toBeGreaterThan(20);
    expect(track!.width).toBeGreaterThan(5 * track!.height);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "poster-activity-1280");
    await page.context().close();
  }, 240_000);

  it("reads well on a phone (list and activity)", async () => {
    const page = await memberPage(MOBILE);
    await page.goto(`${baseURL}/en/user/activities`);
    await untilHydrated(page);
    const file = path.join(dataDir, "run.gpx");
    const points = Array.from({ length: 200 }, (_, i) => {
      const time = new Date(Date.UTC(2026, 4, 1, 7, 0, i * 5)).toISOString();
      return `<trkpt lat="45.9" lon="${(6.1 + i * 0.0002).toFixed(5)}"><ele>${600 + (i % 20)}</ele><time>${time}</time></trkpt>`;
    });
    fs.writeFileSync(
      file,
      `<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Lunch run</name><trkseg>${points.join("")}</trkseg></trk></gpx>`,
    );
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => page.getByTestId("upload-outcomes").textContent()).toContain("run.gpx imported");
    await expect.poll(() => page.getByTestId("activities").textContent()).toContain("Lunch run");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "activities-360");
    await page.getByRole("link", { name: "Lunch run" }).click();
    await untilHydrated(page);
    await expect.poll(() => page.getByTestId("activity-stats").textContent()).toContain("km");
    // Nothing overflows sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, "activity-360");
    await page.context().close();
  }, 120_000);
});
