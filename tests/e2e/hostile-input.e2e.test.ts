/**
 * Hostile input against the built site (no browser: the server-rendered HTML is what counts).
 * - Script payloads the API rightly accepts as text (a race named "<script>…", a member who calls
 *   themself '"><img onerror>') come back escaped in every page that shows them: the event page
 *   (body, title, meta, JSON-LD, loader data), the search card, the member's profile.
 * - Page addresses with hostile paths and query strings (NUL, lone surrogates, ids past int4,
 *   year 9999, traversal) answer a 4xx or a page, never a 5xx.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { journeyDataDir } from "./data-dir.ts";
import { type ServerProcess, startServer } from "./server-process.ts";

const ADMIN = { email: "admin.hostile@example.fr", password: "admin hostile 1" };
const MARK = "Zorglub";
const PAYLOADS = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</script><svg onload=alert(1)>"];
/** What must never appear in a page: each payload's markup, as written. */
const RAW = ["<script>alert(1)", "<img src=x onerror", "<svg onload"];

let server: ServerProcess;
let dataDir: string;
let baseURL: string;
let cookie: string;

beforeAll(async () => {
  dataDir = journeyDataDir("dossard-e2e-hostile-");
  // PGlite takes one process per data folder: the admin is made before the server starts.
  const made = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/create-admin.ts", "--email", ADMIN.email, "--password", ADMIN.password],
    { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" }, encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`create-admin failed: ${made.stderr}${made.stdout}`);
  server = await startServer({ DATA_DIR: dataDir, DEMO_EVENTS: "0", PAGE_CACHE_SECONDS: "0" });
  baseURL = server.baseURL;
  const login = await api("POST", "/api/login", { email: ADMIN.email, password: ADMIN.password });
  expect(login.status).toBe(200);
  cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] as string;
});
afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function api(method: string, path: string, body?: unknown) {
  return fetch(`${baseURL}${path}`, {
    method,
    headers: {
      [ACCESS_HEADER]: ACCESS_HEADER_VALUE,
      "content-type": "application/json",
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function page(path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${baseURL}${path}`, { headers: { accept: "text/html" }, redirect: "manual" });
  return { status: response.status, html: await response.text() };
}

function expectEscaped(html: string, where: string) {
  expect(html, `${where} shows the marked text`).toContain(MARK);
  for (const raw of RAW) expect(html.includes(raw), `${where} contains ${raw} unescaped`).toBe(false);
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("script payloads accepted as text", () => {
  let slug: string;

  it("are accepted by the API as an event's name, organiser, places and description", async () => {
    const response = await api("POST", "/api/event/0", {
      name: `${MARK} ${PAYLOADS[0]} ${PAYLOADS[1]}`,
      sport: "trail",
      startDate: day(60),
      endDate: day(60),
      city: `${MARK} ${PAYLOADS[1]}`,
      place: PAYLOADS[2],
      address: PAYLOADS[0],
      organizerName: `${MARK} ${PAYLOADS[2]}`,
      description: `<p>${MARK}</p>${PAYLOADS.join(" ")}`,
      courses: [{ name: `${MARK} ${PAYLOADS[1]}`, distance: 21_000, date: day(60), description: PAYLOADS[0] }],
    });
    expect(response.status, await response.clone().text()).toBe(201);
    slug = (await response.json()).event.slug;
    expect(slug).toBeTruthy();
  });

  it("come back escaped in the event page, in both languages", async () => {
    for (const path of [`/course/${slug}`, `/en/race/${slug}`]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      expectEscaped(html, path);
    }
  });

  it("come back escaped in the search card", async () => {
    const { status, html } = await page(`/?q=${MARK}`);
    expect(status).toBe(200);
    expectEscaped(html, "search");
  });

  it("come back escaped in a member's public profile", async () => {
    const me = await (await api("GET", "/api/me")).json();
    const saved = await api("POST", `/api/user/profile/${me.user.id}`, {
      firstName: `${MARK} ${PAYLOADS[1]}`,
      lastName: PAYLOADS[0],
      pseudo: `${MARK} ${PAYLOADS[0]}`,
      city: PAYLOADS[2],
      presentation: `${MARK} ${PAYLOADS.join(" ")}`,
      objectives: PAYLOADS[1],
      publicProfile: true,
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const { user } = await saved.json();
    const { status, html } = await page(`/membre/${user.slug}`);
    expect(status).toBe(200);
    expectEscaped(html, "profile");
  });
});

describe("hostile page addresses", () => {
  it("answer a 4xx or a page, never a 5xx", async () => {
    const paths = [
      "/?q=a%00b",
      "/?q=%ED%A0%80",
      "/?from=9999-12-31&to=0000-01-01",
      "/?page=2147483648&perPage=1e308&lat=NaN&lng=1e308&radius=-1",
      "/?place=..%2F..%2Fetc%2Fpasswd&sport=__proto__",
      "/?__proto__[x]=1&constructor[prototype][x]=1",
      "/course/a%00b",
      "/course/%ED%A0%80",
      "/course/..%2F..%2Fetc%2Fpasswd",
      `/course/${"x".repeat(5000)}`,
      "/membre/a%00b",
      "/membre/__proto__",
      "/courses/trail?page=99999999999",
      "/courses/region/%00",
      "/page/..%2F..%2Fetc%2Fpasswd",
      "/nouveau-mot-de-passe?token=%00",
      "/login?next=%00&error=%ED%A0%80",
      "/track/export/2147483648/gpx",
      "/redirect/website/9999999999/x",
      "/sitemaps/%00",
    ];
    const failures: string[] = [];
    for (const path of paths) {
      const { status, html } = await page(path);
      if (status >= 500) failures.push(`${path}: ${status} ${html.slice(0, 120)}`);
    }
    // Signed in: the editor and the admin's queue read ids and query strings too.
    for (const path of [
      "/user/evenement/2147483648",
      "/user/evenement/1e3",
      "/admin/evenements?q=a%00b&page=NaN",
      "/admin/evenements?queue=__proto__&page=99999999999",
    ]) {
      const response = await fetch(`${baseURL}${path}`, {
        headers: { accept: "text/html", cookie },
        redirect: "manual",
      });
      if (response.status >= 500) failures.push(`${path}: ${response.status}`);
    }
    expect(failures).toEqual([]);
  });
});
