import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { precompressAssets } from "./precompress.server.ts";
import { loadStaticFiles } from "./static-files.server.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-static-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("static files", () => {
  const css = `body{color:#132238}\n${".card{margin:0}\n".repeat(200)}`;
  fs.mkdirSync(path.join(root, "assets"));
  fs.writeFileSync(path.join(root, "assets", "root-abc123.css"), css);
  fs.writeFileSync(path.join(root, "favicon.svg"), "<svg/>");

  it("are read once with their type, ETag, caching rule and compressed copies", () => {
    const files = loadStaticFiles(root);
    expect([...files.keys()].sort()).toEqual(["/assets/root-abc123.css", "/favicon.svg"]);
    const asset = files.get("/assets/root-abc123.css")!;
    expect(asset.type).toBe("text/css; charset=utf-8");
    expect(asset.cacheControl).toBe("public, max-age=31536000, immutable");
    expect(asset.etag).toMatch(/^"[\w-]{27}"$/);
    expect(zlib.brotliDecompressSync(asset.br!).toString()).toBe(css);
    expect(zlib.gunzipSync(asset.gzip!).toString()).toBe(css);
    // Too small to gain from compression; not a hashed asset: may change between deployments.
    const icon = files.get("/favicon.svg")!;
    expect(icon.br).toBeUndefined();
    expect(icon.cacheControl).toBe("public, max-age=3600");
  });

  it("compresses each file once, and again only when it changes", () => {
    expect(precompressAssets(root)).toBe(0);
    const file = path.join(root, "assets", "root-abc123.css");
    fs.writeFileSync(file, `${css}/* changed */`);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    expect(precompressAssets(root)).toBe(2);
    expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toContain("changed");
  });
});
