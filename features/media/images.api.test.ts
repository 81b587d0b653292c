import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../platform/db/rows.server.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { courses, eventHistory, events } from "../events/events.tables.ts";
import { rateLimits, users } from "../identity/identity.tables.ts";
import { LIMITS } from "../identity/rate-limit.server.ts";
import { EVENT_UPLOAD_LIMIT, eventImagesService } from "./images.service.server.ts";

let t: TestApp;
let dataDir: string;
let ipCounter = 0;

beforeAll(async () => {
  // A data folder of its own: files from earlier runs or other test files cannot be cache hits.
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dossard-images-"));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

type Member = { id: number; ip: string; cookie: string };
type Visuals = {
  eventId: number;
  coverImage: string | null;
  headerImage: string | null;
  gallery: {
    id: number;
    url: string;
    previewUrl: string;
    width: number | null;
    height: number | null;
    caption: string | null;
    position: number;
  }[];
};

let memberCounter = 0;
async function member(options: { verified?: boolean } = {}): Promise<Member> {
  const ip = `10.9.${++ipCounter >> 8}.${ipCounter & 255}`;
  const email = `visuals.${++memberCounter}.${Date.now().toString(36)}@example.fr`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: ip,
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email,
      password: "correct horse 42",
      passwordConfirmation: "correct horse 42",
      firstName: "Inès",
      lastName: "Martin",
      pseudo: "",
      terms: true,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const session = response.cookies.find((c) => c.name === "dossard_session");
  const id = response.json().user.id as number;
  if (options.verified !== false) {
    await t.database.db.update(users).set({ emailStatus: "verified" }).where(eq(users.id, id));
  }
  return { id, ip, cookie: `dossard_session=${session?.value}` };
}

/** Active events whose courses are all complete (saved), and ones with an incomplete course. */
async function eventIds(complete: boolean, count: number): Promise<number[]> {
  const found = await rows<{ id: number }>(
    t.database.db,
    complete
      ? sql`SELECT e.id FROM events e WHERE e.status = 'active'
              AND EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id)
              AND NOT EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id AND NOT c.complete)
            ORDER BY e.id LIMIT ${count}`
      : sql`SELECT e.id FROM events e WHERE e.status = 'active'
              AND EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id AND NOT c.complete)
            ORDER BY e.id LIMIT ${count}`,
  );
  expect(found.length).toBe(count);
  return found.map((r) => r.id);
}

async function own(eventId: number, owner: Member) {
  await t.database.db.update(events).set({ ownerId: owner.id }).where(eq(events.id, eventId));
}

async function image(width: number, height: number, format: "png" | "jpeg" | "webp" | "avif" = "png") {
  return sharp({ create: { width, height, channels: 3, background: { r: 240, g: 90, b: 26 } } })
    .composite([
      {
        input: await sharp({
          create: { width: Math.ceil(width / 3), height: Math.ceil(height / 3), channels: 3, background: "#1a4df0" },
        })
          .png()
          .toBuffer(),
        top: Math.floor(height / 3),
        left: Math.floor(width / 3),
      },
    ])
    .toFormat(format)
    .toBuffer();
}

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----dossard${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  who: Member | null,
  eventId: number,
  kind: string,
  data: Buffer,
  name = "photo.png",
  type = "image/png",
) {
  const body = multipart({ eventId: String(eventId), kind }, { name, type, data });
  return t.app.inject({
    method: "POST",
    url: "/api/upload/event-photo",
    remoteAddress: who?.ip ?? "10.9.255.1",
    headers: { ...accessHeaders, "content-type": body.contentType, ...(who ? { cookie: who.cookie } : {}) },
    payload: body.payload,
  });
}

async function json(who: Member | null, method: "POST" | "DELETE", url: string, payload: unknown) {
  return t.app.inject({
    method,
    url,
    remoteAddress: who?.ip ?? "10.9.255.2",
    headers: { ...accessHeaders, "content-type": "application/json", ...(who ? { cookie: who.cookie } : {}) },
    payload: JSON.stringify(payload),
  });
}

async function served(url: string) {
  const response = await t.app.inject({ method: "GET", url });
  return {
    status: response.statusCode,
    meta: response.statusCode === 200 ? await sharp(response.rawPayload).metadata() : null,
  };
}

const onDisk = (url: string) => path.join(dataDir, "uploads", url.replace(/^\/media\//, "").replace(/\?.*$/, ""));

describe("POST /api/upload/event-photo", () => {
  let owner: Member;
  let eventId: number;
  beforeAll(async () => {
    owner = await member();
    [eventId] = (await eventIds(true, 1)) as [number];
    await own(eventId, owner);
  });

  it("stores a cover as a resized WebP under /media/event/<id>/ and the event page shows it", async () => {
    const response = await upload(owner, eventId, "cover", await image(2400, 1600));
    expect(response.statusCode, response.body).toBe(200);
    const visuals: Visuals = response.json();
    expect(visuals.eventId).toBe(eventId);
    expect(visuals.coverImage).toMatch(new RegExp(`^/media/event/${eventId}/[0-9a-f]{20}\\.webp$`));
    expect(response.headers["cache-control"]).toBe("private, no-store");

    const large = await served(visuals.coverImage!);
    expect(large.status).toBe(200);
    expect(large.meta).toMatchObject({ format: "webp", width: 1600, height: 1067 });
    expect(large.meta?.exif).toBeUndefined();
    const medium = await served(visuals.coverImage!.replace(/\.webp$/, "-640.webp"));
    expect(medium.meta).toMatchObject({ format: "webp", width: 640, height: 427 });
    // The card crops: fixed 16:10 frames, whatever the photo's proportions.
    const card = await served(visuals.coverImage!.replace(/\.webp$/, "-960x600.webp"));
    expect(card.meta).toMatchObject({ format: "webp", width: 960, height: 600 });
    const small = await served(visuals.coverImage!.replace(/\.webp$/, "-480x300.webp"));
    expect(small.meta).toMatchObject({ format: "webp", width: 480, height: 300 });

    const page = await t.app.inject({ method: "GET", url: `/api/event/${eventId}` });
    expect(page.statusCode).toBe(200);
    expect(page.json().coverImage).toBe(visuals.coverImage);

    const [entry] = await t.database.db
      .select()
      .from(eventHistory)
      .where(eq(eventHistory.eventId, eventId))
      .orderBy(sql`${eventHistory.id} desc`)
      .limit(1);
    expect(entry).toMatchObject({
      type: "image_upload",
      userId: owner.id,
      data: { kind: "cover", file: visuals.coverImage!.split("/").pop() },
    });
  });

  it("replaces the cover and deletes the previous files", async () => {
    const first: Visuals = (await upload(owner, eventId, "cover", await image(800, 600))).json();
    const second = await upload(owner, eventId, "cover", await image(900, 600, "webp"), "b.webp", "image/webp");
    expect(second.statusCode, second.body).toBe(200);
    const replaced: Visuals = second.json();
    expect(replaced.coverImage).not.toBe(first.coverImage);
    // Smaller than 1600 px: kept at its size, never enlarged.
    expect((await served(replaced.coverImage!)).meta).toMatchObject({ width: 900, height: 600 });
    expect((await served(first.coverImage!)).status).toBe(404);
    expect((await served(first.coverImage!.replace(/\.webp$/, "-480x300.webp"))).status).toBe(404);
    expect(fs.existsSync(onDisk(first.coverImage!.replace(/\.webp$/, "-640.webp")))).toBe(false);
  });

  it("stores a header from a JPEG, upright and without its EXIF", async () => {
    const jpeg = await sharp(await image(3000, 1000, "jpeg"))
      .withExif({ IFD0: { Copyright: "Dossard test", Make: "Camera" } })
      .jpeg()
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const response = await upload(owner, eventId, "header", jpeg, "header.jpg", "image/jpeg");
    expect(response.statusCode, response.body).toBe(200);
    const visuals: Visuals = response.json();
    const header = await served(visuals.headerImage!);
    expect(header.meta).toMatchObject({ format: "webp", width: 1600, height: 533 });
    expect(header.meta?.exif).toBeUndefined();

    const page = (await t.app.inject({ method: "GET", url: `/api/event/${eventId}` })).json();
    expect(page.headerImage).toBe(visuals.headerImage);
  });

  it("turns a photo upright from its EXIF orientation", async () => {
    const [other] = (await eventIds(true, 6)).slice(5) as [number];
    await own(other, owner);
    const sideways = await sharp(await image(1200, 600, "jpeg"))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const response = await upload(owner, other, "cover", sideways, "phone.jpg", "image/jpeg");
    expect(response.statusCode, response.body).toBe(200);
    const cover = await served(response.json().coverImage);
    expect(cover.meta).toMatchObject({ width: 600, height: 1200 });
    expect(cover.meta?.orientation).toBeUndefined();
  });

  it("accepts AVIF by content", async () => {
    const [other] = (await eventIds(true, 4)).slice(3) as [number];
    await own(other, owner);
    const response = await upload(owner, other, "gallery", await image(500, 400, "avif"), "x.avif", "image/avif");
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().gallery[0]).toMatchObject({ width: 500, height: 400, position: 0 });
  });

  it("judges by content: a text file named .jpg is refused with 415", async () => {
    const response = await upload(owner, eventId, "cover", Buffer.from("<svg onload=alert(1)>"), "a.jpg", "image/jpeg");
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe("FILE_TYPE_INVALID");
  });

  it("refuses a file over 10 MB with the file-too-heavy message", async () => {
    const response = await upload(owner, eventId, "cover", Buffer.alloc(10 * 1024 * 1024 + 10, 1), "big.jpg");
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: "FILE_TOO_HEAVY", message: "Fichier trop lourd." });
  });

  it("needs the event saved complete first (409 EVENT_NOT_SAVED)", async () => {
    const [incomplete] = (await eventIds(false, 1)) as [number];
    await own(incomplete, owner);
    const response = await upload(owner, incomplete, "cover", await image(400, 300));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("EVENT_NOT_SAVED");

    // An event without any course is not saved either.
    const [empty] = (await eventIds(true, 3)).slice(2) as [number];
    await own(empty, owner);
    await t.database.db.delete(courses).where(eq(courses.eventId, empty));
    expect((await upload(owner, empty, "cover", await image(400, 300))).json().error.code).toBe("EVENT_NOT_SAVED");
  });

  it("is for the event's editors: 403 for another member, 401 anonymous, 409 unverified", async () => {
    const stranger = await member();
    const forbidden = await upload(stranger, eventId, "cover", await image(400, 300));
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe("FORBIDDEN");
    const anonymous = await upload(null, eventId, "cover", await image(400, 300));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("LOGIN_REQUIRED");
    const unverified = await member({ verified: false });
    await own(eventId, unverified);
    expect((await upload(unverified, eventId, "cover", await image(400, 300))).json().error.code).toBe(
      "EMAIL_VERIFICATION_REQUIRED",
    );
    await own(eventId, owner);
  });

  it("checks the fields", async () => {
    const badKind = await upload(owner, eventId, "poster", await image(400, 300));
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.field).toBe("kind");
    const noFile = multipart({ eventId: String(eventId), kind: "cover" });
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/upload/event-photo",
      remoteAddress: owner.ip,
      headers: { ...accessHeaders, cookie: owner.cookie, "content-type": noFile.contentType },
      payload: noFile.payload,
    });
    expect(missing.json().error).toMatchObject({ code: "FILE_NOT_FOUND", field: "file" });
  });
});

describe("gallery, switch-image and DELETE /api/upload/file", () => {
  let owner: Member;
  let eventId: number;
  beforeAll(async () => {
    owner = await member();
    [eventId] = (await eventIds(true, 2)).slice(1) as [number];
    await own(eventId, owner);
  });

  it("appends, reorders, promotes a gallery image to cover and header, and deletes", async () => {
    let visuals!: Visuals;
    for (const [w, h] of [
      [1200, 900],
      [900, 1200],
      [2000, 1000],
    ] as const) {
      const response = await upload(owner, eventId, "gallery", await image(w, h));
      expect(response.statusCode, response.body).toBe(200);
      visuals = response.json();
    }
    expect(visuals.gallery.map((g) => [g.width, g.height, g.position])).toEqual([
      [1200, 900, 0],
      [900, 1200, 1],
      [1600, 800, 2],
    ]);
    const [a, b, c] = visuals.gallery as [Visuals["gallery"][0], Visuals["gallery"][0], Visuals["gallery"][0]];
    expect((await served(a.previewUrl)).meta).toMatchObject({ width: 640, height: 480 });

    // Reorder.
    const reordered = await json(owner, "POST", "/api/event/switch-image", { eventId, order: [c.id, a.id, b.id] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(reordered.json().gallery.map((g: { id: number }) => g.id)).toEqual([c.id, a.id, b.id]);
    const wrongOrder = await json(owner, "POST", "/api/event/switch-image", { eventId, order: [c.id, a.id] });
    expect(wrongOrder.json().error).toMatchObject({ code: "BAD_REQUEST", field: "order" });

    // A gallery image becomes the cover: no cover before, so it leaves the gallery.
    const promoted = await json(owner, "POST", "/api/event/switch-image", {
      eventId,
      from: { kind: "gallery", id: a.id },
      to: "cover",
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    visuals = promoted.json();
    expect(visuals.coverImage).toBe(a.url);
    expect(visuals.gallery.map((g) => g.id)).toEqual([c.id, b.id]);

    // Another becomes the cover: the previous cover takes its place in the gallery.
    visuals = (
      await json(owner, "POST", "/api/event/switch-image", {
        eventId,
        from: { kind: "gallery", id: c.id },
        to: "cover",
      })
    ).json();
    expect(visuals.coverImage).toBe(c.url);
    expect(visuals.gallery[0]).toMatchObject({ id: c.id, url: a.url, width: 1200, height: 900 });

    // Cover to header, then swap them back.
    visuals = (
      await json(owner, "POST", "/api/event/switch-image", { eventId, from: { kind: "cover" }, to: "header" })
    ).json();
    expect(visuals).toMatchObject({ coverImage: null, headerImage: c.url });
    const detail = (await t.app.inject({ method: "GET", url: `/api/event/${eventId}` })).json();
    expect(detail.headerImage).toBe(c.url);
    expect(detail.images.map((i: { url: string }) => i.url)).toEqual(visuals.gallery.map((g) => g.url));

    visuals = (
      await json(owner, "POST", "/api/event/switch-image", {
        eventId,
        from: { kind: "gallery", id: b.id },
        to: "cover",
      })
    ).json();
    visuals = (
      await json(owner, "POST", "/api/event/switch-image", { eventId, from: { kind: "header" }, to: "cover" })
    ).json();
    expect(visuals).toMatchObject({ coverImage: c.url, headerImage: b.url });

    // A cover goes back to the gallery's end.
    visuals = (
      await json(owner, "POST", "/api/event/switch-image", { eventId, from: { kind: "cover" }, to: "gallery" })
    ).json();
    expect(visuals.coverImage).toBeNull();
    expect(visuals.gallery.at(-1)).toMatchObject({ url: c.url, width: 1600, height: 800 });

    const same = await json(owner, "POST", "/api/event/switch-image", {
      eventId,
      from: { kind: "header" },
      to: "header",
    });
    expect(same.statusCode).toBe(400);
    const noId = await json(owner, "POST", "/api/event/switch-image", {
      eventId,
      from: { kind: "gallery" },
      to: "cover",
    });
    expect(noId.statusCode).toBe(400);

    // Delete a gallery image and the header, files included.
    const last = visuals.gallery.at(-1)!;
    const deleted = await json(owner, "DELETE", "/api/upload/file", { eventId, kind: "gallery", id: last.id });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().gallery.map((g: { id: number }) => g.id)).not.toContain(last.id);
    expect((await served(last.url)).status).toBe(404);
    expect((await served(last.previewUrl)).status).toBe(404);

    const header = visuals.headerImage!;
    const noHeader = await json(owner, "DELETE", "/api/upload/file", { eventId, kind: "header" });
    expect(noHeader.json().headerImage).toBeNull();
    expect((await served(header)).status).toBe(404);
    const again = await json(owner, "DELETE", "/api/upload/file", { eventId, kind: "header" });
    expect(again.json().error.code).toBe("FILE_NOT_FOUND");
    const unknown = await json(owner, "DELETE", "/api/upload/file", { eventId, kind: "gallery", id: 999_999 });
    expect(unknown.json().error.code).toBe("ITEM_NOT_FOUND");
  });

  it("holds 20 gallery photos at most", async () => {
    const [other] = (await eventIds(true, 7)).slice(6) as [number];
    await own(other, owner);
    const small = await image(40, 30);
    for (let i = 0; i < 20; i++) {
      expect((await upload(owner, other, "gallery", small)).statusCode).toBe(200);
    }
    const full = await upload(owner, other, "gallery", small);
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toMatchObject({ code: "BAD_REQUEST", field: "gallery" });
    const files = fs.readdirSync(path.join(dataDir, "uploads", "event", String(other)));
    // Each photo: the large and 640 px sizes and the two card crops.
    expect(files.length).toBe(80);
  });

  it("copies the cover and header files to a copied edition's folder", async () => {
    const [source, copy] = (await eventIds(true, 9)).slice(7) as [number, number];
    await own(source, owner);
    const visuals: Visuals = (await upload(owner, source, "cover", await image(300, 200))).json();
    const file = visuals.coverImage!.split("/").pop()!;
    // What the yearly copy does to the columns: the same names, relative to the new event's folder.
    await t.database.db.update(events).set({ coverImage: file, headerImage: null }).where(eq(events.id, copy));
    const images = eventImagesService({ db: t.database.db, clock: () => new Date(), storage: t.app.storage });
    await images.copyVisuals(source, copy);
    const copied = await images.visuals(copy);
    expect(copied.coverImage).toBe(`/media/event/${copy}/${file}`);
    expect((await served(copied.coverImage!)).meta).toMatchObject({ width: 300, height: 200 });
    expect((await served(copied.coverImage!.replace(/\.webp$/, "-640.webp"))).status).toBe(200);
    expect((await served(copied.coverImage!.replace(/\.webp$/, "-960x600.webp"))).status).toBe(200);
  });

  it("keeps switch and delete to the event's editors", async () => {
    const stranger = await member();
    const switched = await json(stranger, "POST", "/api/event/switch-image", { eventId, order: [] });
    expect(switched.statusCode).toBe(403);
    const removed = await json(stranger, "DELETE", "/api/upload/file", { eventId, kind: "cover" });
    expect(removed.statusCode).toBe(403);
    expect((await json(null, "DELETE", "/api/upload/file", { eventId, kind: "cover" })).statusCode).toBe(401);
  });
});

describe("POST /api/thumbnail", () => {
  let owner: Member;
  let eventId: number;
  beforeAll(async () => {
    owner = await member();
    [eventId] = (await eventIds(true, 5)).slice(4) as [number];
    await own(eventId, owner);
    expect((await upload(owner, eventId, "cover", await image(1800, 1200))).statusCode).toBe(200);
  });

  const thumbnail = (who: Member | null, payload: Record<string, unknown>) =>
    json(who, "POST", "/api/thumbnail", payload);

  it("cuts a thumbnail once, then serves it from the cache until a reload is forced", async () => {
    const first = await thumbnail(null, { profile: "event", id: eventId, thumbnails: "cover", reload: false });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["content-type"]).toBe("image/webp");
    expect(first.headers["x-thumbnail-cache"]).toBe("miss");
    expect(first.headers["cache-control"]).toBe("public, max-age=86400");
    expect(await sharp(first.rawPayload).metadata()).toMatchObject({ format: "webp", width: 400, height: 250 });
    const location = String(first.headers["content-location"]);
    expect(location).toMatch(new RegExp(`^/media/event/${eventId}/thumbs/[0-9a-f]{20}-event\\.webp$`));
    const file = onDisk(location);
    const cutAt = fs.statSync(file).mtimeMs;

    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await thumbnail(null, { profile: "event", id: eventId });
    expect(second.headers["x-thumbnail-cache"]).toBe("hit");
    expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
    expect(fs.statSync(file).mtimeMs).toBe(cutAt);

    expect((await thumbnail(null, { profile: "event", id: eventId, reload: true })).statusCode).toBe(401);
    const stranger = await member();
    expect((await thumbnail(stranger, { profile: "event", id: eventId, reload: true })).statusCode).toBe(403);

    const reloaded = await thumbnail(owner, { profile: "event", id: eventId, thumbnails: "cover", reload: true });
    expect(reloaded.statusCode).toBe(200);
    expect(reloaded.headers["x-thumbnail-cache"]).toBe("miss");
    expect(fs.statSync(file).mtimeMs).toBeGreaterThan(cutAt);
  });

  it("has named sizes and refuses what is not there or not public", async () => {
    const header = await thumbnail(null, { profile: "header", id: eventId, thumbnails: "cover" });
    expect(await sharp(header.rawPayload).metadata()).toMatchObject({ width: 1200, height: 400 });
    expect((await thumbnail(null, { profile: "header", id: eventId })).json().error.code).toBe("FILE_NOT_FOUND");
    expect((await thumbnail(null, { profile: "event", id: eventId, thumbnails: "../../secret" })).statusCode).toBe(404);
    expect((await thumbnail(null, { profile: "poster", id: eventId })).statusCode).toBe(400);

    await t.database.db.update(events).set({ status: "pending" }).where(eq(events.id, eventId));
    expect((await thumbnail(null, { profile: "event", id: eventId })).json().error.code).toBe("ITEM_NOT_FOUND");
    const own = await thumbnail(owner, { profile: "event", id: eventId });
    expect(own.statusCode).toBe(200);
    expect(own.headers["cache-control"]).toMatch(/^private/);
    await t.database.db.update(events).set({ status: "active" }).where(eq(events.id, eventId));
  });

  it("cuts member avatars from public profiles' photos", async () => {
    const runner = await member();
    const body = multipart({}, { name: "me.png", type: "image/png", data: await image(900, 600) });
    const photo = await t.app.inject({
      method: "POST",
      url: "/api/upload/user-photo",
      remoteAddress: runner.ip,
      headers: { ...accessHeaders, cookie: runner.cookie, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(photo.statusCode, photo.body).toBe(200);
    expect((await thumbnail(null, { profile: "user", id: runner.id })).statusCode).toBe(404);
    const mine = await thumbnail(runner, { profile: "user", id: runner.id, reload: true });
    expect(await sharp(mine.rawPayload).metadata()).toMatchObject({ width: 160, height: 160 });

    await t.database.db.update(users).set({ publicProfile: true }).where(eq(users.id, runner.id));
    const open = await thumbnail(null, { profile: "user", id: runner.id });
    expect(open.statusCode).toBe(200);
    expect(open.headers["x-thumbnail-cache"]).toBe("hit");
  });
});

describe("uploads are admitted before their body is read", () => {
  const exhaust = (key: string, max: number) =>
    t.database.db
      .insert(rateLimits)
      .values({ key, windowStart: TEST_REFERENCE_DATE, hits: max })
      .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart: TEST_REFERENCE_DATE, hits: max } });
  const hitsOf = async (key: string) =>
    (await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0]?.hits ?? 0;
  /** Files stored for a member's profile photo (named `<id>-<random>.webp`). */
  const photosOf = (member: Member) => {
    const folder = path.join(dataDir, "uploads", "user");
    return fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.startsWith(`${member.id}-`)) : [];
  };
  const photoColumn = async (member: Member) =>
    (await t.database.db.select({ photo: users.photo }).from(users).where(eq(users.id, member.id)))[0]?.photo;
  const uploadsRecorded = async (id: number) =>
    (
      await t.database.db
        .select()
        .from(eventHistory)
        .where(and(eq(eventHistory.eventId, id), eq(eventHistory.type, "image_upload")))
    ).length;
  const eventFiles = (id: number) => {
    const folder = path.join(dataDir, "uploads", "event", String(id));
    return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
  };
  function userPhoto(who: Member, data: Buffer, locale: "fr" | "en" = "fr") {
    const body = multipart({}, { name: "me.png", type: "image/png", data });
    return t.app.inject({
      method: "POST",
      url: "/api/upload/user-photo",
      remoteAddress: who.ip,
      headers: { ...accessHeaders, "x-locale": locale, cookie: who.cookie, "content-type": body.contentType },
      payload: body.payload,
    });
  }
  /** Over the 5 MB limit and not an image: a route that read or decoded it first would answer 413 or 415. */
  const heavyJunk = () => Buffer.alloc(6 * 1024 * 1024, 0x41);

  it("profile photo: an unverified member is refused without the file being read, decoded or written", async () => {
    const unverified = await member({ verified: false });
    const heavy = await userPhoto(unverified, heavyJunk());
    expect(heavy.statusCode).toBe(409);
    expect(heavy.json().error).toMatchObject({
      code: "EMAIL_VERIFICATION_REQUIRED",
      message: "Vérification de l'adresse e-mail requise.",
    });
    const valid = await userPhoto(unverified, await image(600, 600));
    expect(valid.statusCode).toBe(409);
    expect(photosOf(unverified)).toEqual([]);
    expect(await photoColumn(unverified)).toBeNull();
    expect(await hitsOf(`upload:account:${unverified.id}`)).toBe(0);
  });

  it("profile photo: each upload counts, and past the hourly limit the member gets 429 before the file is read", async () => {
    const runner = await member();
    const key = `upload:account:${runner.id}`;
    expect((await userPhoto(runner, await image(500, 500))).statusCode).toBe(200);
    expect(await hitsOf(key)).toBe(1);
    const [stored] = photosOf(runner);
    const column = await photoColumn(runner);
    expect(column).toBe(stored);

    await exhaust(key, LIMITS.uploadAccount.max);
    const refused = await userPhoto(runner, await image(500, 500));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({
      code: "TOO_MANY_UPLOADS",
      message: "Trop de fichiers envoyés : réessayez dans une heure.",
    });
    const heavy = await userPhoto(runner, heavyJunk(), "en");
    expect(heavy.statusCode).toBe(429);
    expect(heavy.json().error.message).toBe("Too many files uploaded: try again in an hour.");
    expect(photosOf(runner)).toEqual([stored]);
    expect(await photoColumn(runner)).toBe(column);
  });

  it("event photo: an unverified or rate-limited member is refused before the file is read or decoded", async () => {
    const owner = await member();
    const [eventId] = (await eventIds(true, 8)).slice(7) as [number];
    await own(eventId, owner);
    const before = eventFiles(eventId);
    const recorded = await uploadsRecorded(eventId);
    const junk = Buffer.from("not an image at all");

    await t.database.db.update(users).set({ emailStatus: "unverified" }).where(eq(users.id, owner.id));
    const unverified = await upload(owner, eventId, "gallery", junk, "a.jpg", "image/jpeg");
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
    await t.database.db.update(users).set({ emailStatus: "verified" }).where(eq(users.id, owner.id));

    await exhaust(`upload:event:${owner.id}`, EVENT_UPLOAD_LIMIT.max);
    const limited = await upload(owner, eventId, "gallery", junk, "a.jpg", "image/jpeg");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe("TOO_MANY_UPLOADS");
    expect(eventFiles(eventId)).toEqual(before);
    expect(await uploadsRecorded(eventId)).toBe(recorded);
  });

  it("event photo: the fields must come before the file", async () => {
    const owner = await member();
    const [eventId] = (await eventIds(true, 9)).slice(8) as [number];
    await own(eventId, owner);
    const before = eventFiles(eventId);
    const boundary = "----dossardorder";
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      await image(300, 200),
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="eventId"\r\n\r\n${eventId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\ncover\r\n--${boundary}--\r\n`,
      ),
    ]);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/upload/event-photo",
      remoteAddress: owner.ip,
      headers: { ...accessHeaders, cookie: owner.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.field).toBe("eventId");
    expect(eventFiles(eventId)).toEqual(before);
  });
});
