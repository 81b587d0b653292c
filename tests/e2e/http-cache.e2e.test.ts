/**
 * What a browser or a shared cache in front (CDN, reverse proxy) sees of the page cache
 * (platform/http/page-cache.server.ts, decision 013), against the server as `npm start` runs it.
 */
import { createHash } from "node:crypto";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";
import { inlineScripts } from "../../shared/csp.ts";
import { mailbox } from "./mailbox.ts";

const baseURL = inject("baseURL");
const writeHeaders = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE, "content-type": "application/json" };

/** The 5-digit code of the last message to `email`. */
async function mailedCode(email: string): Promise<string> {
  const mail = await mailbox.waitFor((m) => m.to.includes(email) && /\b\d{5}\b/.test(m.text));
  return mail.text.match(/\b(\d{5})\b/)?.[1] as string;
}

async function register(firstName: string, verify = false): Promise<{ cookie: string; id: number; slug: string }> {
  const password = "Cache-et-course-2026";
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.org`;
  const response = await fetch(`${baseURL}/api/register`, {
    method: "POST",
    headers: writeHeaders,
    body: JSON.stringify({
      email,
      password,
      passwordConfirmation: password,
      firstName,
      lastName: "Cache",
      terms: true,
    }),
  });
  expect(response.status).toBe(201);
  const { user } = (await response.json()) as { user: { id: number; slug: string } };
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0];
  if (verify) {
    const verified = await fetch(`${baseURL}/api/user/verify-account`, {
      method: "POST",
      headers: { ...writeHeaders, cookie },
      body: JSON.stringify({ code: await mailedCode(email) }),
    });
    expect(verified.status).toBe(200);
  }
  return { cookie, id: user.id, slug: user.slug };
}

/** Saves the member's profile (public); answers the page address, which follows the name. */
async function updateProfile(member: { cookie: string; id: number }, firstName: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/user/profile/${member.id}`, {
    method: "POST",
    headers: { ...writeHeaders, cookie: member.cookie },
    body: JSON.stringify({ firstName, lastName: "Cache", publicProfile: true }),
  });
  expect(response.status).toBe(200);
  const { user } = (await response.json()) as { user: { slug: string } };
  return `${baseURL}/membre/${user.slug}`;
}

describe("anonymous pages", () => {
  it("carry an ETag, a shared-cache policy and Vary, and answer 304 to a known ETag", async () => {
    const first = await fetch(`${baseURL}/`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    expect(first.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    const html = await first.text();
    const again = await fetch(`${baseURL}/`);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(html);
    const revalidated = await fetch(`${baseURL}/`, { headers: { "if-none-match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
  });

  it("are sent compressed with brotli to the clients that accept it", async () => {
    const plain = await (await fetch(`${baseURL}/en`)).text();
    // Node's fetch decodes by itself: ask the raw bytes through a plain HTTP request instead.
    const { request } = await import("node:http");
    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      const req = request(`${baseURL}/en`, { headers: { "accept-encoding": "gzip, br" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(raw.encoding).toBe("br");
    expect(brotliDecompressSync(raw.body).toString()).toBe(plain);
    expect(raw.body.length).toBeLessThan(plain.length / 4);
  });

  it("allow exactly their own inline scripts, by hash", async () => {
    const response = await fetch(`${baseURL}/`);
    const csp = response.headers.get("content-security-policy") ?? "";
    const allowed = [...csp.matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]);
    const scripts = inlineScripts(await response.text());
    expect(scripts.length).toBeGreaterThanOrEqual(2);
    for (const script of scripts) {
      expect(allowed).toContain(createHash("sha256").update(script).digest("base64"));
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).not.toContain("nonce-");
  });

  it("show a member's change on the next visit, not the cached page", async () => {
    const member = await register("Zephyrin", true);
    const profileUrl = await updateProfile(member, "Zephyrin");
    const before = await fetch(profileUrl);
    expect(before.status).toBe(200);
    const beforeHtml = await before.text();
    expect(beforeHtml).toContain("Zephyrin");
    // Served from the cache while nothing changes…
    expect((await fetch(profileUrl)).headers.get("etag")).toBe(before.headers.get("etag"));
    const renamedUrl = await updateProfile(member, "Zoltan");
    // …and rendered again after the write, at the old address (same slug or not) and the new one.
    const old = await fetch(profileUrl);
    expect(old.status === 404 || !(await old.text()).includes("Zephyrin")).toBe(true);
    const after = await (await fetch(renamedUrl)).text();
    expect(after).toContain("Zoltan");
    expect(after).not.toContain("Zephyrin");
  });
});

describe("signed-in pages", () => {
  it("share one members' copy of the public pages, private to the browser, with no member in it", async () => {
    const prudence = await register("Prudence");
    const anatole = await register("Anatole");
    const anonymous = await (await fetch(`${baseURL}/`)).text();
    const first = await fetch(`${baseURL}/`, { headers: { cookie: prudence.cookie } });
    const second = await fetch(`${baseURL}/`, { headers: { cookie: anatole.cookie } });
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
      expect(response.headers.get("vary")).toContain("Cookie");
    }
    const [one, two] = [await first.text(), await second.text()];
    // The same copy for every member (so it is rendered once), never the visitors' one…
    expect(one).toBe(two);
    expect(first.headers.get("etag")).toBe(second.headers.get("etag"));
    expect(one).not.toBe(anonymous);
    // …with nothing of the member in it: the browser asks /api/me and fills the header in.
    expect(one).not.toContain("Prudence");
    expect(one).toContain('data-testid="account-link"');
    expect(one).not.toContain('data-testid="login-link"');
    const revalidated = await fetch(`${baseURL}/`, {
      headers: { cookie: prudence.cookie, "if-none-match": first.headers.get("etag") ?? "" },
    });
    expect(revalidated.status).toBe(304);
  });

  it("render the member's own pages for them, private", async () => {
    const member = await register("Philomene");
    const response = await fetch(`${baseURL}/user/profil`, { headers: { cookie: member.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("etag")).toBeNull();
    expect(await response.text()).toContain("Philomene");
  });
});

describe("static files", () => {
  it("are served precompressed, with an ETag and a year of caching for hashed assets", async () => {
    const html = await (await fetch(`${baseURL}/`)).text();
    const css = html.match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
    expect(css).toBeTruthy();
    const response = await fetch(`${baseURL}${css}`, { headers: { "accept-encoding": "br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const etag = response.headers.get("etag")!;
    expect((await fetch(`${baseURL}${css}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await response.text()).length).toBeGreaterThan(1000);
  });
});
