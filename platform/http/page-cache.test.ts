import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  createPageCache,
  etagOf,
  isStorable,
  matchesEtag,
  preferredEncoding,
  type RenderedPage,
} from "./page-cache.server.ts";

const page = (text: string, extra: Partial<RenderedPage> = {}): RenderedPage => ({
  status: 200,
  headers: [["content-type", "text/html; charset=utf-8"]],
  body: Buffer.from(text),
  ...extra,
});

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("page cache", () => {
  it("renders a page once and serves it from memory while fresh", async () => {
    const time = clock();
    const cache = createPageCache({ ttlMs: 30_000, now: time.now });
    let renders = 0;
    const render = async () => page(`<p>render ${++renders}</p>`);
    const first = await cache.get("/", render);
    time.advance(29_000);
    const second = await cache.get("/", render);
    expect(renders).toBe(1);
    expect(first.fromCache).toBe(true);
    expect(second.page.body.toString()).toBe("<p>render 1</p>");
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });
  });

  it("serves a stale page at once and renders it again behind, then forgets it after twice the ttl", async () => {
    const time = clock();
    const cache = createPageCache({ ttlMs: 10_000, now: time.now });
    let renders = 0;
    let release: () => void = () => {};
    const render = () =>
      new Promise<RenderedPage>((resolve) => {
        const n = ++renders;
        if (n === 1) resolve(page("v1"));
        else release = () => resolve(page(`v${n}`));
      });
    await cache.get("/", render);
    time.advance(15_000);
    const stale = await cache.get("/", render);
    expect(stale.page.body.toString()).toBe("v1");
    expect(renders).toBe(2);
    release();
    await new Promise((r) => setImmediate(r));
    expect((await cache.get("/", render)).page.body.toString()).toBe("v2");
    time.advance(25_000);
    const next = cache.get("/", render);
    release();
    expect((await next).page.body.toString()).toBe("v3");
  });

  it("shares one render among concurrent misses of a page", async () => {
    const cache = createPageCache({ ttlMs: 30_000 });
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 10));
      return page("once");
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get("/event", render)));
    expect(renders).toBe(1);
    expect(new Set(answers.map((a) => a.page.body.toString()))).toEqual(new Set(["once"]));
  });

  it("keeps nothing rendered before a clear(): a write is seen by the next request", async () => {
    const cache = createPageCache({ ttlMs: 30_000 });
    let release: (p: RenderedPage) => void = () => {};
    const slow = cache.get("/", () => new Promise<RenderedPage>((resolve) => (release = resolve)));
    cache.clear();
    release(page("read before the write"));
    expect((await slow).fromCache).toBe(false);
    const after = await cache.get("/", async () => page("read after the write"));
    expect(after.page.body.toString()).toBe("read after the write");
  });

  it("never keeps errors, redirects, cookies or private answers", async () => {
    expect(isStorable(page("x"))).toBe(true);
    expect(isStorable(page("x", { status: 404 }))).toBe(false);
    expect(isStorable(page("", { status: 302 }))).toBe(false);
    expect(isStorable(page("x", { headers: [["set-cookie", "a=b"]] }))).toBe(false);
    expect(isStorable(page("x", { headers: [["cache-control", "private, max-age=0"]] }))).toBe(false);
    expect(isStorable(page("x", { headers: [["Cache-Control", "no-store"]] }))).toBe(false);
    const cache = createPageCache({ ttlMs: 30_000 });
    let renders = 0;
    const missing = async () => {
      renders++;
      return page("not found", { status: 404 });
    };
    expect((await cache.get("/nope", missing)).fromCache).toBe(false);
    await cache.get("/nope", missing);
    expect(renders).toBe(2);
    expect(cache.stats().entries).toBe(0);
  });

  it("drops the least recently used pages past its entry and byte bounds", async () => {
    const cache = createPageCache({ ttlMs: 30_000, maxEntries: 2, maxBytes: 1_000 });
    await cache.get("/a", async () => page("a"));
    await cache.get("/b", async () => page("b"));
    await cache.get("/a", async () => page("a again"));
    await cache.get("/c", async () => page("c"));
    let renderedB = false;
    await cache.get("/b", async () => {
      renderedB = true;
      return page("b");
    });
    expect(renderedB).toBe(true);
    expect(cache.stats().entries).toBe(2);
    await cache.get("/big", async () => page("x".repeat(600)));
    expect(cache.stats().bytes).toBeLessThanOrEqual(1_000);
  });

  it("compresses a page once per encoding, to bytes that decode to the page", async () => {
    const cache = createPageCache({ ttlMs: 30_000 });
    const html = `<html>${"<p>Trail des Aiguilles</p>".repeat(200)}</html>`;
    const answer = await cache.get("/", async () => page(html));
    if (!answer.fromCache) throw new Error("expected a cached page");
    const br = cache.encoded(answer.page, "br");
    expect(cache.encoded(answer.page, "br")).toBe(br);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(html);
    expect(zlib.gunzipSync(cache.encoded(answer.page, "gzip")).toString()).toBe(html);
    expect(br.length).toBeLessThan(html.length / 10);
    expect(answer.page.etag).toBe(etagOf(Buffer.from(html)));
  });
});

describe("preferredEncoding", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["identity", null],
    ["*", "br"],
    ["*;q=0", null],
    ["deflate", null],
    ["BR", "br"],
  ])("%s → %s", (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe("matchesEtag", () => {
  it.each([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"abcd"', false],
    ["abc", false],
  ])("%s → %s", (header, expected) => {
    expect(matchesEtag(header, '"abc"')).toBe(expected);
  });
});
