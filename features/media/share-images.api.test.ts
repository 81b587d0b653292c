/**
 * Share images (shared/share-image.ts, og:image): the JPEG a page announces is served at its
 * address, of the announced type and size, for an event's uploaded photo, a drawn landscape and a
 * member's photo; nothing for a picture that is not there (or no longer).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, isNotNull, like } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shareImage } from "../../shared/share-image.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { events } from "../events/events.tables.ts";
import { GENERATED_ROOT } from "../illustrations/event-images.ts";

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-share-"));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string) => t.app.inject({ method: "GET", url });

/** What a network reads: status, type, and the picture's own size and format. */
async function fetched(url: string) {
  const response = await get(url);
  expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBe(200);
  const meta = await sharp(response.rawPayload).metadata();
  return { type: response.headers["content-type"], format: meta.format, size: [meta.width, meta.height] };
}

/** A photo as the uploads store it (WebP). */
const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .webp()
    .toBuffer();

describe("GET /media/share/…", () => {
  it("cuts an event's uploaded photo into the JPEG its pages announce, then keeps it", async () => {
    const [event] = await t.database.db.select({ id: events.id }).from(events).limit(1);
    await t.app.storage.put(`event/${event.id}/0123456789abcdef.webp`, await photo(1600, 1067), "image/webp");
    const share = shareImage(`/media/event/${event.id}/0123456789abcdef.webp`);
    expect(share).toMatchObject({ type: "image/jpeg", width: 1200, height: 630 });
    expect(await fetched(share.url)).toEqual({ type: "image/jpeg", format: "jpeg", size: [1200, 630] });
    expect(await t.app.storage.stat(`share/event/${event.id}/0123456789abcdef.webp.jpg`)).not.toBeNull();
    expect(await fetched(share.url)).toEqual({ type: "image/jpeg", format: "jpeg", size: [1200, 630] });
    // The photo deleted: its share image goes with it.
    await t.app.storage.delete(`event/${event.id}/0123456789abcdef.webp`);
    expect((await get(share.url)).statusCode).toBe(404);
    expect(await t.app.storage.stat(`share/event/${event.id}/0123456789abcdef.webp.jpg`)).toBeNull();
  });

  it("a drawn landscape and a member's square photo, with its timestamp", async () => {
    const [event] = await t.database.db
      .select({ header: events.headerImage })
      .from(events)
      .where(and(isNotNull(events.headerImage), like(events.headerImage, `${GENERATED_ROOT}%`)))
      .limit(1);
    expect(await fetched(shareImage(event.header).url)).toEqual({
      type: "image/jpeg",
      format: "jpeg",
      size: [1200, 630],
    });
    await t.app.storage.put("user/12-ab3f.webp", await photo(400, 400), "image/webp");
    const member = shareImage("/media/user/12-ab3f.webp?t=1700000000");
    expect(member.url).toBe("/media/share/user/12-ab3f.webp.jpg?t=1700000000");
    expect(await fetched(member.url)).toEqual({ type: "image/jpeg", format: "jpeg", size: [1200, 630] });
  });

  it("answers 404 for a picture that is not there, and 400 for an address that names none", async () => {
    expect((await get("/media/share/event/1/nothing.webp.jpg")).statusCode).toBe(404);
    expect((await get("/media/share/user/nothing.webp.jpg")).statusCode).toBe(404);
    expect((await get("/media/share/art/nothing.webp.jpg")).statusCode).toBe(404);
    expect((await get("/media/share/event/1/nothing.webp")).statusCode).toBe(404);
    expect((await get("/media/share/event/x/a.webp.jpg")).statusCode).toBe(400);
    expect((await get("/media/share/event/1/..%2f..%2fsecret.jpg")).statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe("the default share image", () => {
  it("is the PNG of the announced size", async () => {
    const share = shareImage(null);
    expect(share).toEqual({ url: "/images/share-default.png", width: 1200, height: 630, type: "image/png" });
    const meta = await sharp(path.join("public", share.url)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1200, 630]);
  });
});
