// @vitest-environment jsdom
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandlers } from "../../platform/http/errors.server.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { seoRoutes } from "./seo.routes.server.ts";

let world: TestApp;
let origin: string;
beforeAll(async () => {
  world = await createTestApp();
  origin = world.app.config.PUBLIC_URL;
});
afterAll(() => world?.close());

const xml = (body: string) => {
  const doc = new DOMParser().parseFromString(body, "application/xml");
  expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
  return doc;
};
const texts = (doc: Document, tag: string) => [...doc.getElementsByTagName(tag)].map((n) => n.textContent ?? "");

async function get(app: FastifyInstance, url: string) {
  return app.inject({ method: "GET", url });
}

/** Every URL of the sitemap, following the index. */
async function allUrls(app: FastifyInstance): Promise<{ files: string[]; urls: string[]; perFile: number[] }> {
  const index = await get(app, "/sitemap.xml");
  expect(index.statusCode).toBe(200);
  const files = texts(xml(index.body), "loc");
  const urls: string[] = [];
  const perFile: number[] = [];
  for (const file of files) {
    const part = await get(app, file.slice(origin.length));
    expect(part.statusCode).toBe(200);
    expect(part.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const locs = texts(xml(part.body), "loc");
    perFile.push(locs.length);
    urls.push(...locs);
  }
  return { files, urls, perFile };
}

async function activeEventCount(): Promise<number> {
  return world.app.services.seo.activeEventCount();
}

describe("GET /robots.txt", () => {
  it("allows pages, disallows the API and points at the sitemap index", async () => {
    const res = await get(world.app, "/robots.txt");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.body).toContain("User-agent: *");
    expect(res.body).toContain("Disallow: /api/");
    expect(res.body).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });
});

describe("GET /sitemap.xml", () => {
  it("is an index of valid files listing every active event in both languages with alternates", async () => {
    const index = await get(world.app, "/sitemap.xml");
    expect(index.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const doc = xml(index.body);
    expect(doc.documentElement.localName).toBe("sitemapindex");
    const { files, urls } = await allUrls(world.app);
    expect(files).toEqual([`${origin}/sitemaps/pages-1.xml`, `${origin}/sitemaps/events-1.xml`]);

    const events = await activeEventCount();
    expect(events).toBeGreaterThan(100);
    const fr = urls.filter((u) => u.startsWith(`${origin}/course/`));
    const en = urls.filter((u) => u.startsWith(`${origin}/en/race/`));
    expect(fr).toHaveLength(events);
    expect(en).toHaveLength(events);
    expect(new Set(urls).size).toBe(urls.length);

    // Home, static pages and landing pages, in both languages.
    expect(urls).toContain(`${origin}/`);
    expect(urls).toContain(`${origin}/en`);
    expect(urls).toContain(`${origin}/page/credits`);
    expect(urls).toContain(`${origin}/communaute`);
    expect(urls).toContain(`${origin}/en/community/members`);
    expect(urls.some((u) => u.startsWith(`${origin}/courses/region/`))).toBe(true);
    expect(urls.some((u) => u.startsWith(`${origin}/en/races/department/`))).toBe(true);
    expect(urls.some((u) => /\/courses\/[a-z-]+\/[a-z-]+$/.test(u) && !u.includes("/region/"))).toBe(true);
  });

  it("gives each event URL its language alternates and a lastmod", async () => {
    const res = await get(world.app, "/sitemaps/events-1.xml");
    const doc = xml(res.body);
    const url = doc.getElementsByTagName("url")[0];
    const loc = url.getElementsByTagName("loc")[0].textContent!;
    const slug = loc.split("/course/")[1];
    expect(slug).toBeTruthy();
    const links = [...url.getElementsByTagNameNS("http://www.w3.org/1999/xhtml", "link")].map((l) => [
      l.getAttribute("hreflang"),
      l.getAttribute("href"),
    ]);
    expect(links).toEqual([
      ["fr", `${origin}/course/${slug}`],
      ["en", `${origin}/en/race/${slug}`],
      ["x-default", `${origin}/course/${slug}`],
    ]);
    expect(url.getElementsByTagName("lastmod")[0].textContent).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("never dates a change after now, even when an event's row says so", async () => {
    const [{ id }] = (
      await world.database.db.execute<{ id: number }>(
        sql`UPDATE events SET updated_at = now() + interval '40 days'
            WHERE id = (SELECT min(id) FROM events WHERE status = 'active') RETURNING id`,
      )
    ).rows;
    expect(id).toBeGreaterThan(0);
    const now = Date.now() + 1000;
    const lastmods = [
      ...texts(xml((await get(world.app, "/sitemaps/events-1.xml")).body), "lastmod"),
      ...texts(xml((await get(world.app, "/sitemap.xml")).body), "lastmod"),
    ];
    expect(lastmods.length).toBeGreaterThan(1);
    for (const lastmod of lastmods) expect(Date.parse(lastmod)).toBeLessThanOrEqual(now);
  });

  it("uses each language's sport slug on landing pages", async () => {
    const res = await get(world.app, "/sitemaps/pages-1.xml");
    const urls = texts(xml(res.body), "loc");
    expect(urls).toContain(`${origin}/courses/trail`);
    expect(urls).toContain(`${origin}/en/races/trail-running`);
    expect(urls).not.toContain(`${origin}/en/races/trail`);
  });

  it("answers 404 for a part that does not exist", async () => {
    expect((await get(world.app, "/sitemaps/events-999.xml")).statusCode).toBe(404);
    expect((await get(world.app, "/sitemaps/pages-2.xml")).statusCode).toBe(404);
    expect((await get(world.app, "/sitemaps/nothing.xml")).statusCode).toBe(404);
  });
});

describe("sitemap split", () => {
  let small: FastifyInstance;
  const PER_FILE = 100;
  beforeAll(async () => {
    small = Fastify();
    small.setValidatorCompiler(validatorCompiler);
    small.setSerializerCompiler(serializerCompiler);
    small.decorate("config", world.app.config);
    small.decorate("services", world.app.services);
    errorHandlers(small);
    await small.register(seoRoutes, { urlsPerFile: PER_FILE });
    await small.ready();
  });
  afterAll(() => small?.close());

  it("splits into files of at most the given number of URLs, losing none", async () => {
    const events = await activeEventCount();
    const { files, urls, perFile } = await allUrls(small);
    const eventFiles = files.filter((f) => f.includes("/events-"));
    expect(eventFiles).toHaveLength(Math.ceil((events * 2) / PER_FILE));
    expect(files.filter((f) => f.includes("/pages-")).length).toBeGreaterThan(1);
    for (const count of perFile) expect(count).toBeLessThanOrEqual(PER_FILE);
    // Every file but the last of its kind is full.
    for (const kind of ["/pages-", "/events-"]) {
      const counts = perFile.filter((_, i) => files[i].includes(kind));
      expect(counts.slice(0, -1).every((count) => count === PER_FILE)).toBe(true);
    }
    expect(urls.filter((u) => u.includes("/course/") || u.includes("/race/"))).toHaveLength(events * 2);
    expect(new Set(urls).size).toBe(urls.length);
    const full = await allUrls(world.app);
    expect(new Set(urls)).toEqual(new Set(full.urls));
  });
});
