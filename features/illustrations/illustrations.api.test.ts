import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNotNull } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { events } from "../events/events.tables.ts";
import { GENERATED_ROOT, generatedImagePath } from "./event-images.ts";
import { LANDSCAPE_VERSION } from "./generated-images.service.server.ts";

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-art-"));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ method: "GET", url });

describe("GET /media/art/<landscape>.webp", () => {
  it("draws a demo event's landscape in the card crops and the header size, then keeps it on disk", async () => {
    const [event] = await t.database.db
      .select({ id: events.id, cover: events.coverImage, header: events.headerImage })
      .from(events)
      .where(and(eq(events.status, "active"), isNotNull(events.coverImage)))
      .limit(1);
    expect(event.cover).toMatch(new RegExp(`^${GENERATED_ROOT}[0-9a-z]{20}\\.webp$`));
    expect(event.header).toBe(event.cover);

    const sizes: [string, number, number][] = [
      [event.cover!, 1600, 900],
      [event.cover!.replace(/\.webp$/, "-960x600.webp"), 960, 600],
      [event.cover!.replace(/\.webp$/, "-480x300.webp"), 480, 300],
    ];
    for (const [url, width, height] of sizes) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toBe("image/webp");
      expect(response.headers["cache-control"]).toBe("public, max-age=86400");
      expect(await sharp(response.rawPayload).metadata()).toMatchObject({ format: "webp", width, height });
    }
    const kept = path.join(dataDir, "uploads", "art", LANDSCAPE_VERSION, path.basename(sizes[2][0]));
    expect(fs.existsSync(kept)).toBe(true);
    // Served again from the kept file, byte for byte.
    const again = await get(sizes[2][0]);
    expect(Buffer.compare(again.rawPayload, fs.readFileSync(kept))).toBe(0);
  });

  it("draws only what an event shows: a valid name that no event uses, or any other name, is not found", async () => {
    const unused = generatedImagePath({
      sport: "swimrun",
      terrain: "lake",
      seed: 1,
      profile: [35, 0, 35, 0, 35, 0, 35, 0, 35, 0, 35, 0, 35, 0, 35, 0],
    });
    for (const url of [
      unused,
      unused.replace(/\.webp$/, "-480x300.webp"),
      `${GENERATED_ROOT}not-a-landscape.webp`,
      `${GENERATED_ROOT}..%2Fsecret.webp`,
      unused.replace(/\.webp$/, "-123x45.webp"),
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe("FILE_NOT_FOUND");
    }
    expect(fs.existsSync(path.join(dataDir, "uploads", "art", LANDSCAPE_VERSION, path.basename(unused)))).toBe(false);
  });
});
