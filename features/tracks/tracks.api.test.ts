import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { gpx as togeojsonGpx } from "@tmcw/togeojson";
import { and, asc, eq, sql } from "drizzle-orm";
import { Geodesic } from "geographiclib-geodesic";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rows } from "../../platform/db/rows.server.ts";
import { EDITION_COPY_QUEUE } from "../../server/app.server.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { eventHistory, events, type TrackPoint, tracks } from "../events/events.tables.ts";
import { toGpx } from "../events/gpx.ts";
import { rateLimits, users } from "../identity/identity.tables.ts";
import { gpxWorkers } from "./gpx-workers.server.ts";
import {
  processGpx,
  TRACK_MAX_BYTES,
  TRACK_MAX_POINTS,
  type TrackResult,
  type TrackUploadResponse,
} from "./track-processing.ts";
import { TRACK_UPLOAD_LIMIT, UNATTACHED_TRACK_GRACE_MS, UNATTACHED_TRACKS_KEPT } from "./tracks.service.server.ts";

let t: TestApp;
let ipCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Member = { id: number; ip: string; cookie: string };

let memberCounter = 0;
async function member(options: { verified?: boolean; role?: "admin" } = {}): Promise<Member> {
  const ip = `10.7.${++ipCounter >> 8}.${ipCounter & 255}`;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/register",
    remoteAddress: ip,
    headers: { ...accessHeaders, "content-type": "application/json" },
    payload: JSON.stringify({
      email: `tracks.${++memberCounter}.${Date.now().toString(36)}@example.fr`,
      password: "correct horse 42",
      passwordConfirmation: "correct horse 42",
      firstName: "Lou",
      lastName: "Bernard",
      pseudo: "",
      terms: true,
    }),
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().user.id as number;
  const session = response.cookies.find((c) => c.name === "dossard_session");
  const changes = {
    ...(options.verified !== false ? { emailStatus: "verified" as const } : {}),
    ...(options.role ? { role: options.role } : {}),
  };
  if (Object.keys(changes).length) await t.database.db.update(users).set(changes).where(eq(users.id, id));
  return { id, ip, cookie: `dossard_session=${session?.value}` };
}

type Course = { id: number; eventId: number };

/** Courses of distinct active events, each event with at least `perEvent` courses; hands out new ones each call. */
const usedEvents = new Set<number>();
async function freshEvent(owner: Member | null, perEvent = 1): Promise<Course[]> {
  const found = await rows<{ event_id: number }>(
    t.database.db,
    sql`SELECT c.event_id FROM courses c JOIN events e ON e.id = c.event_id WHERE e.status = 'active'
        GROUP BY c.event_id HAVING count(*) >= ${perEvent} ORDER BY c.event_id LIMIT 200`,
  );
  const eventId = found.map((r) => r.event_id).find((id) => !usedEvents.has(id));
  if (eventId === undefined) throw new Error("no event left");
  usedEvents.add(eventId);
  if (owner) await t.database.db.update(events).set({ ownerId: owner.id }).where(eq(events.id, eventId));
  const list = await rows<{ id: number }>(
    t.database.db,
    sql`SELECT id FROM courses WHERE event_id = ${eventId} ORDER BY id LIMIT ${perEvent}`,
  );
  return list.map((c) => ({ id: c.id, eventId }));
}

const METRES_PER_DEGREE = 111_195;
/** A 10 km line heading north from 45°N 6°E, a point every 10 m: 3 km flat, a 300 m climb over 3 km, flat. */
function climbPoints(): TrackPoint[] {
  const points: TrackPoint[] = [];
  for (let d = 0; d <= 10_000; d += 10) {
    const ele = 500 + Math.min(300, Math.max(0, d - 3_000) / 10);
    points.push([6, 45 + d / METRES_PER_DEGREE, Math.round(ele * 10) / 10]);
  }
  return points;
}
const climbGpx = (name = "Montée du Semnoz") => toGpx({ name, points: climbPoints() });

function multipart(file: { name: string; type?: string; data: Buffer | string; field?: string }) {
  const boundary = `----dossard${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? "application/gpx+xml"}\r\n\r\n`,
    ),
    typeof file.data === "string" ? Buffer.from(file.data) : file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

const headersOf = (who: Member | null, locale: "fr" | "en" = "fr") => ({
  ...accessHeaders,
  "x-locale": locale,
  ...(who ? { cookie: who.cookie } : {}),
});

function upload(
  who: Member | null,
  target: number | string,
  data: Buffer | string = climbGpx(),
  options: { name?: string; type?: string; field?: string; locale?: "fr" | "en" } = {},
) {
  const body = multipart({ name: options.name ?? "trace.gpx", type: options.type, data, field: options.field });
  return t.app.inject({
    method: "POST",
    url: `/api/upload/track/${target}`,
    remoteAddress: who?.ip ?? "10.7.255.1",
    headers: { ...headersOf(who, options.locale), "content-type": body.contentType },
    payload: body.payload,
  });
}

function setTrack(who: Member | null, type: string, body: unknown) {
  return t.app.inject({
    method: "POST",
    url: `/api/set-track/${type}`,
    remoteAddress: who?.ip ?? "10.7.255.1",
    headers: { ...headersOf(who), "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

function deleteTrack(who: Member | null, id: number | string) {
  return t.app.inject({
    method: "DELETE",
    url: `/api/track/${id}`,
    remoteAddress: who?.ip ?? "10.7.255.1",
    headers: headersOf(who),
  });
}

const tracksOf = (courseId: number) =>
  t.database.db.select().from(tracks).where(eq(tracks.courseId, courseId)).orderBy(asc(tracks.id));
const trackRow = async (id: number) => (await t.database.db.select().from(tracks).where(eq(tracks.id, id)))[0];
const historyOf = (eventId: number) =>
  t.database.db
    .select({ type: eventHistory.type, data: eventHistory.data, userId: eventHistory.userId })
    .from(eventHistory)
    .where(and(eq(eventHistory.eventId, eventId), sql`${eventHistory.data} ? 'track'`))
    .orderBy(asc(eventHistory.id));

function expectClimb(track: TrackResult) {
  expect(track.distance).toBeGreaterThanOrEqual(9_990);
  expect(track.distance).toBeLessThanOrEqual(10_010);
  expect(track.elevationGain).toBeGreaterThanOrEqual(295);
  expect(track.elevationGain).toBeLessThanOrEqual(302);
  expect(track.elevationLoss).toBeLessThan(5);
  expect(track.minElevation).toBe(500);
  expect(track.maxElevation).toBe(800);
}

describe("POST /api/upload/track/{id}", () => {
  it("puts the track on a course the member owns, replacing the one it had, and records it", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const before = await tracksOf(course.id);

    const response = await upload(owner, course.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, no-store");
    const body = response.json() as TrackUploadResponse;
    expectClimb(body.track);
    expect(body.track).toMatchObject({ courseId: course.id, name: "Montée du Semnoz", start: { lat: 45, lng: 6 } });
    expect(body.suggestions).toEqual({ distance: body.track.distance, elevationGain: body.track.elevationGain });
    expect(body.track.points.length).toBeGreaterThanOrEqual(2);
    expect(body.track.points.length).toBeLessThanOrEqual(1_500);
    expect(body.track.points[0]).toEqual([6, 45, 500]);
    expect(body.track.profile[0]).toEqual([0, 500]);
    expect(body.track.profile.at(-1)![0]).toBe(body.track.distance);
    expect(body.track.bounds).toEqual([6, 45, 6, expect.closeTo(45 + 10_000 / METRES_PER_DEGREE, 5)]);

    const stored = await tracksOf(course.id);
    expect(stored.map((r) => r.id)).toEqual([body.track.id]);
    expect(stored[0]).toMatchObject({ uploadedBy: owner.id, distance: body.track.distance, startLat: 45, startLng: 6 });
    for (const old of before) expect(await trackRow(old.id)).toBeUndefined();
    expect(await historyOf(course.eventId)).toEqual([
      {
        type: "modification",
        data: { track: "added", courseId: course.id, trackId: body.track.id },
        userId: owner.id,
      },
    ]);

    // The public track routes see it at once.
    const feature = await t.app.inject({ method: "GET", url: `/api/track/${body.track.id}` });
    expect(feature.statusCode).toBe(200);
    expect(feature.json().properties).toMatchObject({ courseId: course.id, elevationGain: body.track.elevationGain });

    // A second upload replaces the first.
    const again = await upload(owner, course.id, climbGpx("Version 2"));
    expect(again.statusCode).toBe(200);
    expect((await tracksOf(course.id)).map((r) => r.name)).toEqual(["Version 2"]);
  });

  it("reads elevations written with a decimal comma; refuses an unreadable one in French and English, storing nothing", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const comma = climbGpx("Virgule").replace(
      /<ele>(\d+)(?:\.(\d))?<\/ele>/g,
      (_, whole: string, tenths?: string) => `<ele>${whole},${tenths ?? "0"}</ele>`,
    );
    expect(comma).toMatch(/<ele>\d+,\d<\/ele>/);
    const read = await upload(owner, course.id, comma);
    expect(read.statusCode, read.body).toBe(200);
    expectClimb(read.json().track);

    const unreadable = climbGpx("Illisible").replace(/<ele>[^<]*<\/ele>/, "<ele>n/a</ele>");
    for (const [locale, message] of [
      [
        "fr",
        "Ce fichier GPX contient une altitude illisible : chaque <ele> doit être un nombre de mètres, comme 1234,5 ou 1234.5. Rien n'a été enregistré.",
      ],
      [
        "en",
        "This GPX file holds an unreadable elevation: each <ele> must be a number of metres, such as 1234.5. Nothing was saved.",
      ],
    ] as const) {
      const refused = await upload(owner, course.id, unreadable, { locale });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toEqual({ code: "GPX_ELEVATION_INVALID", message, field: "file" });
      const unattached = await upload(owner, 0, unreadable, { locale });
      expect(unattached.statusCode).toBe(400);
    }
    // The course keeps the track it had; no unattached track was stored.
    expect((await tracksOf(course.id)).map((r) => r.name)).toEqual(["Virgule"]);
    expect(
      await t.database.db
        .select({ id: tracks.id })
        .from(tracks)
        .where(and(eq(tracks.uploadedBy, owner.id), sql`${tracks.courseId} IS NULL`)),
    ).toEqual([]);
  });

  it("reports the D+ of a file without elevations as unknown (null), not 0, in the answer and the database", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const flat = toGpx({ name: "Sans altitude", points: climbPoints().map(([lng, lat]) => [lng, lat, null]) });
    const response = await upload(owner, course.id, flat);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as TrackUploadResponse;
    expect(body.track).toMatchObject({
      elevationGain: null,
      elevationLoss: null,
      minElevation: null,
      maxElevation: null,
      profile: [],
    });
    expect(body.suggestions.elevationGain).toBeNull();
    expect(body.suggestions.distance).toBe(body.track.distance);
    expect(await trackRow(body.track.id)).toMatchObject({ elevationGain: null, elevationLoss: null });
  });

  it("stores an unattached track for a course not saved yet (id 0), named after the file when the GPX has no name", async () => {
    const uploader = await member();
    const gpx = climbGpx().replace(/<name>[^<]*<\/name>/g, "");
    const response = await upload(uploader, 0, gpx, { name: "Ma boucle.gpx" });
    expect(response.statusCode, response.body).toBe(200);
    const { track } = response.json() as TrackUploadResponse;
    expect(track).toMatchObject({ courseId: null, name: "Ma boucle" });
    expectClimb(track);
    expect(await trackRow(track.id)).toMatchObject({ courseId: null, uploadedBy: uploader.id });
  });

  it(`keeps at most ${UNATTACHED_TRACKS_KEPT} unattached tracks per member`, async () => {
    const uploader = await member();
    const short = toGpx({
      name: "Court",
      points: [
        [6, 45, 100],
        [6, 45.01, 110],
      ],
    });
    const ids: number[] = [];
    for (let i = 0; i < UNATTACHED_TRACKS_KEPT + 2; i++) {
      const response = await upload(uploader, 0, short);
      expect(response.statusCode).toBe(200);
      ids.push(response.json().track.id);
    }
    const kept = await t.database.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(eq(tracks.uploadedBy, uploader.id))
      .orderBy(asc(tracks.id));
    expect(kept.map((r) => r.id)).toEqual(ids.slice(2));
  });

  it("lets an admin upload to any course", async () => {
    const admin = await member({ role: "admin" });
    const [course] = await freshEvent(null);
    const response = await upload(admin, course.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().track.courseId).toBe(course.id);
  });

  it("answers 401 to anonymous callers, 409 to unverified members, 403 on someone else's course, 404 on an unknown one", async () => {
    const [course] = await freshEvent(await member());
    const before = await tracksOf(course.id);

    const anonymous = await upload(null, course.id);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("LOGIN_REQUIRED");
    expect((await upload(null, "abc")).statusCode).toBe(401);

    const unverified = await upload(await member({ verified: false }), 0);
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");

    const stranger = await upload(await member(), course.id);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.code).toBe("FORBIDDEN");

    const someone = await member();
    const unknown = await upload(someone, 99_999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: "ITEM_NOT_FOUND", field: "id" });
    const badId = await upload(someone, "abc");
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.field).toBe("id");

    expect((await tracksOf(course.id)).map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it("refuses malformed, empty, binary and missing files with the catalogue's messages, leaving the course's track as it was", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const first = await upload(owner, course.id);
    expect(first.statusCode).toBe(200);
    const trackId = first.json().track.id;

    const malformed = await upload(owner, course.id, '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg>');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toEqual({
      code: "GPX_INVALID",
      message: "Ce fichier n'est pas un GPX lisible.",
      field: "file",
    });
    const english = await upload(owner, course.id, "not xml at all", { locale: "en" });
    expect(english.json().error).toMatchObject({ code: "GPX_INVALID", message: "This file is not a readable GPX." });

    const empty = await upload(owner, course.id, '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg/></trk></gpx>');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toEqual({
      code: "GPX_EMPTY",
      message: "Ce fichier GPX ne contient aucun point de trace.",
      field: "file",
    });

    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#f05a1a" } })
      .png()
      .toBuffer();
    const image = await upload(owner, course.id, png, { name: "trace.gpx" });
    expect(image.statusCode).toBe(400);
    expect(image.json().error.code).toBe("GPX_INVALID");

    const otherField = await upload(owner, course.id, climbGpx(), { field: "track" });
    expect(otherField.statusCode).toBe(400);
    expect(otherField.json().error).toMatchObject({ code: "FIELD_REQUIRED", field: "file" });

    const notMultipart = await t.app.inject({
      method: "POST",
      url: `/api/upload/track/${course.id}`,
      remoteAddress: owner.ip,
      headers: { ...headersOf(owner), "content-type": "application/json" },
      payload: "{}",
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().error).toMatchObject({ code: "FIELD_REQUIRED", field: "file" });

    expect((await tracksOf(course.id)).map((r) => r.id)).toEqual([trackId]);
  });

  it("refuses a file over 15 MB with 413 GPX_TOO_LARGE, whether its length is declared or it streams in", async () => {
    const owner = await member();
    const before = gpxWorkers.stats();
    const response = await upload(owner, 0, Buffer.alloc(TRACK_MAX_BYTES + 10, 0x20));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toEqual({
      code: "GPX_TOO_LARGE",
      message: "Ce fichier GPX dépasse la limite : 15 Mo et 200 000 points au plus.",
      field: "file",
    });

    // Without Content-Length (chunked), the multipart parser stops the file at the limit.
    const body = multipart({ name: "big.gpx", data: Buffer.alloc(TRACK_MAX_BYTES + 10, 0x20) });
    const streamed = await t.app.inject({
      method: "POST",
      url: "/api/upload/track/0",
      remoteAddress: owner.ip,
      headers: { ...headersOf(owner, "en"), "content-type": body.contentType },
      payload: Readable.from([body.payload]),
    });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json().error).toMatchObject({
      code: "GPX_TOO_LARGE",
      message: "This GPX file is over the limit: 15 MB and 200,000 points at most.",
    });
    expect(gpxWorkers.stats().completed + gpxWorkers.stats().failed).toBe(before.completed + before.failed);
  });
});

describe("GPX uploads in worker threads", () => {
  const tooManyPoints = () =>
    `<gpx version="1.1"><trk><trkseg>${'<trkpt lat="45" lon="6"/>'.repeat(TRACK_MAX_POINTS + 1)}</trkseg></trk></gpx>`;
  const exhaust = (key: string, max: number) =>
    t.database.db
      .insert(rateLimits)
      .values({ key, windowStart: TEST_REFERENCE_DATE, hits: max })
      .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart: TEST_REFERENCE_DATE, hits: max } });
  const hitsOf = async (key: string) =>
    (await t.database.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0]?.hits ?? 0;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("computes the track in a worker, with the same result as in place", async () => {
    const uploader = await member();
    const gpx = climbGpx("Par le worker");
    const before = gpxWorkers.stats();
    const response = await upload(uploader, 0, gpx);
    expect(response.statusCode, response.body).toBe(200);
    expect(gpxWorkers.stats().completed).toBe(before.completed + 1);
    expect(gpxWorkers.stats().started).toBeGreaterThanOrEqual(1);

    const expected = processGpx(gpx);
    const { track, suggestions } = response.json() as TrackUploadResponse;
    expect(track).toMatchObject({
      name: expected.name,
      distance: expected.distance,
      elevationGain: expected.elevationGain,
      elevationLoss: expected.elevationLoss,
      minElevation: expected.minElevation,
      maxElevation: expected.maxElevation,
      start: expected.start,
      points: expected.points,
      profile: expected.profile,
    });
    expect(suggestions).toEqual({ distance: expected.distance, elevationGain: expected.elevationGain });
  });

  it("answers a malformed file, refused in the worker, with the same translated 400", async () => {
    const uploader = await member();
    const before = gpxWorkers.stats();
    const french = await upload(uploader, 0, '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg>');
    expect(french.statusCode).toBe(400);
    expect(french.json().error).toEqual({
      code: "GPX_INVALID",
      message: "Ce fichier n'est pas un GPX lisible.",
      field: "file",
    });
    const english = await upload(uploader, 0, "<gpx>", { locale: "en" });
    expect(english.statusCode).toBe(400);
    expect(english.json().error).toEqual({
      code: "GPX_INVALID",
      message: "This file is not a readable GPX.",
      field: "file",
    });
    expect(gpxWorkers.stats().failed).toBe(before.failed + 2);
  });

  it(`refuses more than ${TRACK_MAX_POINTS} points with 413 GPX_TOO_LARGE`, async () => {
    const uploader = await member();
    const response = await upload(uploader, 0, tooManyPoints(), { locale: "en" });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toEqual({
      code: "GPX_TOO_LARGE",
      message: "This GPX file is over the limit: 15 MB and 200,000 points at most.",
      field: "file",
    });
    expect(await t.database.db.select().from(tracks).where(eq(tracks.uploadedBy, uploader.id))).toEqual([]);
  });

  it(`counts each member's uploads and refuses any more in the hour with 429 once ${TRACK_UPLOAD_LIMIT.max} are spent, before reading the file`, async () => {
    const uploader = await member();
    const key = `upload:track:${uploader.id}`;
    expect((await upload(uploader, 0)).statusCode).toBe(200);
    expect((await upload(uploader, 0, "not a gpx")).statusCode).toBe(400);
    expect(await hitsOf(key)).toBe(2);

    await exhaust(key, TRACK_UPLOAD_LIMIT.max);
    const before = gpxWorkers.stats();
    const refused = await upload(uploader, 0);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({
      code: "TOO_MANY_UPLOADS",
      message: "Trop de fichiers envoyés : réessayez dans une heure.",
    });
    // Refused before the body is read: neither its size nor its content is looked at.
    const oversized = await upload(uploader, 0, Buffer.alloc(TRACK_MAX_BYTES + 10, 0x20), { locale: "en" });
    expect(oversized.statusCode).toBe(429);
    expect(oversized.json().error.message).toBe("Too many files uploaded: try again in an hour.");
    const after = gpxWorkers.stats();
    expect(after.completed + after.failed).toBe(before.completed + before.failed);
    expect(await t.database.db.select().from(tracks).where(eq(tracks.uploadedBy, uploader.id))).toHaveLength(1);

    // Another member is not held back.
    expect((await upload(await member(), 0)).statusCode).toBe(200);
  });

  it("refuses an unverified member before reading the file", async () => {
    const unverified = await member({ verified: false });
    const before = gpxWorkers.stats();
    const response = await upload(unverified, 0, Buffer.alloc(TRACK_MAX_BYTES + 10, 0x20));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("EMAIL_VERIFICATION_REQUIRED");
    expect(await hitsOf(`upload:track:${unverified.id}`)).toBe(0);
    const after = gpxWorkers.stats();
    expect(after.completed + after.failed).toBe(before.completed + before.failed);
  });

  it("answers 503 SERVER_BUSY, translated, when the workers' queue is full", async () => {
    const uploader = await member();
    vi.spyOn(gpxWorkers, "saturated").mockReturnValue(true);
    const response = await upload(uploader, 0);
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toEqual({
      code: "SERVER_BUSY",
      message: "Le serveur est très occupé : réessayez dans un instant.",
    });
  });
});

/**
 * A two-segment file (issue 26 item 4): a 1 km out-and-back north from 45°N 6°E, then, 2 km east,
 * a 1 km climb north; 2,000 m of track with a 2 km gap that no output may cross.
 */
function twoSegmentGpx(): string {
  const east = 2_000 / (METRES_PER_DEGREE * Math.cos((45 * Math.PI) / 180));
  const point = (lng: number, lat: number, ele: number) =>
    `<trkpt lat="${lat.toFixed(7)}" lon="${lng.toFixed(7)}"><ele>${ele.toFixed(1)}</ele></trkpt>`;
  const first: string[] = [];
  for (let d = 0; d <= 1_000; d += 10) first.push(point(6, 45 + (d <= 500 ? d : 1_000 - d) / METRES_PER_DEGREE, 500));
  const second: string[] = [];
  for (let d = 0; d <= 1_000; d += 10) second.push(point(6 + east, 45 + d / METRES_PER_DEGREE, 800 + d / 20));
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <trk><name>Deux morceaux</name>
    <trkseg>${first.join("")}</trkseg>
    <trkseg>${second.join("")}</trkseg>
  </trk>
</gpx>`;
}

/** jsdom ships no types of its own; only its XML parser is used. */
const { JSDOM } = createRequire(import.meta.url)("jsdom") as {
  JSDOM: new (text: string, options: { contentType: string }) => { window: { document: Document } };
};

/** Length of a GPX's tracks as an independent reader sees them: togeojson's geometry, geographiclib's geodesics. */
function independentLength(xml: string): { metres: number; lines: number } {
  const collection = togeojsonGpx(new JSDOM(xml, { contentType: "application/xml" }).window.document);
  let metres = 0;
  let lines = 0;
  for (const feature of collection.features) {
    const geometry = feature.geometry;
    const parts =
      geometry?.type === "LineString"
        ? [geometry.coordinates]
        : geometry?.type === "MultiLineString"
          ? geometry.coordinates
          : [];
    for (const part of parts) {
      lines++;
      for (let i = 1; i < part.length; i++) {
        metres += Geodesic.WGS84.Inverse(part[i - 1][1], part[i - 1][0], part[i][1], part[i][0]).s12 ?? 0;
      }
    }
  }
  return { metres, lines };
}

describe("a track of several segments (issue 26 item 4)", () => {
  it("keeps its segments through storage, the GPX export, the profile and the GeoJSON line", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const response = await upload(owner, course.id, twoSegmentGpx());
    expect(response.statusCode, response.body).toBe(200);
    const track = (response.json() as TrackUploadResponse).track;
    expect(track.distance).toBeGreaterThanOrEqual(1_995);
    expect(track.distance).toBeLessThanOrEqual(2_005);
    expect(track.breaks).toHaveLength(1);
    expect((await trackRow(track.id)).breaks).toEqual(track.breaks);

    // The export: one <trkseg> per segment, read by another parser at the site's distance (±1 %).
    const exported = await t.app.inject({ method: "GET", url: `/track/export/${track.id}/gpx` });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body.match(/<trkseg>/g)).toHaveLength(2);
    const independent = independentLength(exported.body);
    expect(independent.lines).toBe(2);
    expect(Math.abs(independent.metres - track.distance) / track.distance).toBeLessThan(0.01);

    // The profile's axis leaves the gap out, and says where the second segment starts.
    const elevation = await t.app.inject({ method: "GET", url: `/api/track/${track.id}/elevation?points=100` });
    expect(elevation.statusCode, elevation.body).toBe(200);
    const profile = elevation.json() as { points: [number, number][]; breaks: number[] };
    expect(profile.points.at(-1)![0]).toBeGreaterThanOrEqual(track.distance * 0.99);
    expect(profile.points.at(-1)![0]).toBeLessThanOrEqual(track.distance * 1.01);
    expect(profile.breaks).toHaveLength(1);
    const [at] = profile.breaks;
    expect(profile.points[at - 1][1]).toBe(500);
    expect(profile.points[at][1]).toBe(800);

    // Maps get a MultiLineString.
    const feature = await t.app.inject({ method: "GET", url: `/api/track/${track.id}` });
    expect(feature.statusCode, feature.body).toBe(200);
    const geometry = feature.json().geometry as { type: string; coordinates: unknown[] };
    expect(geometry.type).toBe("MultiLineString");
    expect(geometry.coordinates).toHaveLength(2);

    // Run the other way, the segments follow.
    const reversed = await setTrack(owner, "reverse", { trackId: track.id });
    expect(reversed.statusCode, reversed.body).toBe(200);
    const back = (reversed.json() as { track: TrackResult }).track;
    expect(back.breaks).toEqual([track.points.length - track.breaks[0]]);
    const again = independentLength((await t.app.inject({ method: "GET", url: `/track/export/${track.id}/gpx` })).body);
    expect(Math.abs(again.metres - track.distance) / track.distance).toBeLessThan(0.01);
  });
});

describe("POST /api/set-track/{type}", () => {
  it("course: attaches an unattached upload to a course, replacing its track; others may not take it", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const previous = await tracksOf(course.id);
    const uploaded = (await upload(owner, 0)).json().track as TrackResult;

    const stranger = await member();
    const [strangerCourse] = await freshEvent(stranger);
    const stolen = await setTrack(stranger, "course", { trackId: uploaded.id, courseId: strangerCourse.id });
    expect(stolen.statusCode).toBe(403);
    const intoOthers = await setTrack(owner, "course", { trackId: uploaded.id, courseId: strangerCourse.id });
    expect(intoOthers.statusCode).toBe(403);

    const response = await setTrack(owner, "course", { trackId: uploaded.id, courseId: course.id });
    expect(response.statusCode, response.body).toBe(200);
    const { track } = response.json() as { track: TrackResult };
    expect(track).toMatchObject({ id: uploaded.id, courseId: course.id, distance: uploaded.distance });
    expect((await tracksOf(course.id)).map((r) => r.id)).toEqual([uploaded.id]);
    for (const old of previous) expect(await trackRow(old.id)).toBeUndefined();
    expect((await historyOf(course.eventId)).map((h) => h.data)).toEqual([
      { track: "added", courseId: course.id, trackId: uploaded.id },
    ]);

    // Again: nothing changes and no history is written.
    const again = await setTrack(owner, "course", { trackId: uploaded.id, courseId: course.id });
    expect(again.statusCode).toBe(200);
    expect(await historyOf(course.eventId)).toHaveLength(1);
  });

  it("course: moves a track between courses of one event, copies it to another event's course", async () => {
    const owner = await member();
    const [a, b] = await freshEvent(owner, 2);
    const [elsewhere] = await freshEvent(owner);
    const onA = (await upload(owner, a.id)).json().track as TrackResult;

    const moved = await setTrack(owner, "course", { trackId: onA.id, courseId: b.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().track).toMatchObject({ id: onA.id, courseId: b.id });
    expect(await tracksOf(a.id)).toEqual([]);
    expect((await historyOf(a.eventId)).map((h) => h.data.track)).toEqual(["added", "removed", "added"]);

    const copied = await setTrack(owner, "course", { trackId: onA.id, courseId: elsewhere.id });
    expect(copied.statusCode).toBe(200);
    const copy = copied.json().track as TrackResult;
    expect(copy.id).not.toBe(onA.id);
    expect(copy).toMatchObject({ courseId: elsewhere.id, name: onA.name, elevationGain: onA.elevationGain });
    expect((await tracksOf(b.id)).map((r) => r.id)).toEqual([onA.id]);
  });

  it("reverse: runs the track the other way, gain and loss exchanged, recorded on the event", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const original = (await upload(owner, course.id)).json().track as TrackResult;

    const response = await setTrack(owner, "reverse", { trackId: original.id });
    expect(response.statusCode, response.body).toBe(200);
    const { track } = response.json() as { track: TrackResult };
    expect(track).toMatchObject({
      id: original.id,
      distance: original.distance,
      elevationGain: original.elevationLoss,
      elevationLoss: original.elevationGain,
      start: { lat: original.points.at(-1)![1], lng: original.points.at(-1)![0] },
    });
    expect(track.points).toEqual([...original.points].reverse());
    expect(track.profile[0]).toEqual([0, 800]);
    expect(track.profile.at(-1)).toEqual([original.distance, 500]);
    expect(await trackRow(original.id)).toMatchObject({
      elevationGain: original.elevationLoss,
      startLat: track.start!.lat,
    });
    expect((await historyOf(course.eventId)).map((h) => h.data)).toContainEqual({
      track: "reversed",
      courseId: course.id,
      trackId: original.id,
    });

    const stranger = await setTrack(await member(), "reverse", { trackId: original.id });
    expect(stranger.statusCode).toBe(403);
  });

  it("rename: gives the track a new name", async () => {
    const owner = await member();
    const uploaded = (await upload(owner, 0)).json().track as TrackResult;
    const response = await setTrack(owner, "rename", { trackId: uploaded.id, name: "  Parcours 2026 " });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().track.name).toBe("Parcours 2026");
    expect((await trackRow(uploaded.id)).name).toBe("Parcours 2026");
  });

  it("answers 401, 400 with the field named, 404 for unknown ids", async () => {
    expect((await setTrack(null, "reverse", { trackId: 1 })).statusCode).toBe(401);
    expect((await setTrack(null, "nope", {})).statusCode).toBe(401);

    const someone = await member();
    // A seeded course's track is another member's: its editors only get as far as the body's checks.
    const [seeded] = await t.database.db
      .select({ id: tracks.id })
      .from(tracks)
      .where(sql`${tracks.courseId} IS NOT NULL`)
      .orderBy(asc(tracks.id))
      .limit(1);
    expect((await setTrack(someone, "split", { trackId: seeded.id })).statusCode).toBe(403);
    const unknownType = await setTrack(someone, "split", { trackId: 99_999_999 });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json().error.field).toBe("type");

    const badTrackId = await setTrack(someone, "reverse", { trackId: "x" });
    expect(badTrackId.statusCode).toBe(400);
    expect(badTrackId.json().error.field).toBe("trackId");

    const uploaded = (await upload(someone, 0)).json().track as TrackResult;
    const noCourse = await setTrack(someone, "course", { trackId: uploaded.id });
    expect(noCourse.statusCode).toBe(400);
    expect(noCourse.json().error).toMatchObject({ code: "FIELD_REQUIRED", field: "courseId" });
    const noName = await setTrack(someone, "rename", { trackId: uploaded.id, name: " " });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.field).toBe("name");

    const unknownTrack = await setTrack(someone, "reverse", { trackId: 99_999_999 });
    expect(unknownTrack.statusCode).toBe(404);
    expect(unknownTrack.json().error).toMatchObject({ code: "ITEM_NOT_FOUND", field: "trackId" });
    const unknownCourse = await setTrack(someone, "course", { trackId: uploaded.id, courseId: 99_999_999 });
    expect(unknownCourse.statusCode).toBe(404);
    expect(unknownCourse.json().error).toMatchObject({ code: "ITEM_NOT_FOUND", field: "courseId" });
    expect(await trackRow(uploaded.id)).toMatchObject({ courseId: null });
  });
});

describe("DELETE /api/track/{id}", () => {
  it("removes a course's track for an editor of its event, recorded; others get 403, anonymous 401", async () => {
    const owner = await member();
    const [course] = await freshEvent(owner);
    const track = (await upload(owner, course.id)).json().track as TrackResult;

    expect((await deleteTrack(null, track.id)).statusCode).toBe(401);
    const stranger = await deleteTrack(await member(), track.id);
    expect(stranger.statusCode).toBe(403);
    expect(await trackRow(track.id)).toBeDefined();

    const response = await deleteTrack(owner, track.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(await tracksOf(course.id)).toEqual([]);
    expect((await historyOf(course.eventId)).at(-1)).toEqual({
      type: "modification",
      data: { track: "removed", courseId: course.id, trackId: track.id },
      userId: owner.id,
    });
    const gone = await deleteTrack(owner, track.id);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toMatchObject({ code: "ITEM_NOT_FOUND", field: "id" });
    expect((await t.app.inject({ method: "GET", url: `/api/track/${track.id}` })).statusCode).toBe(404);
  });

  it("removes an unattached track for its uploader only", async () => {
    const uploader = await member();
    const track = (await upload(uploader, 0)).json().track as TrackResult;
    expect((await deleteTrack(await member(), track.id)).statusCode).toBe(403);
    expect((await deleteTrack(uploader, track.id)).statusCode).toBe(200);
    expect(await trackRow(track.id)).toBeUndefined();
    expect((await deleteTrack(uploader, "x")).statusCode).toBe(400);
  });
});

describe("the nightly job: uploads never attached to a course", () => {
  it(`deletes an unattached upload older than ${UNATTACHED_TRACK_GRACE_MS / 3_600_000} h; keeps a fresher one and an old attached one`, async () => {
    const uploader = await member();
    const [course] = await freshEvent(uploader);
    const ids: Record<"abandoned" | "fresh" | "attached", number> = {
      abandoned: (await upload(uploader, 0, climbGpx("Abandonnée"))).json().track.id,
      fresh: (await upload(uploader, 0, climbGpx("Récente"))).json().track.id,
      attached: (await upload(uploader, course.id, climbGpx("Sur sa course"))).json().track.id,
    };
    const now = TEST_REFERENCE_DATE.getTime();
    const age = (id: number, ms: number) =>
      t.database.db
        .update(tracks)
        .set({ createdAt: new Date(now - ms) })
        .where(eq(tracks.id, id));
    await age(ids.abandoned, UNATTACHED_TRACK_GRACE_MS + 60_000);
    await age(ids.fresh, UNATTACHED_TRACK_GRACE_MS - 60_000);
    await age(ids.attached, 30 * UNATTACHED_TRACK_GRACE_MS);

    await t.app.jobs.enqueue(EDITION_COPY_QUEUE, {}, { runAt: TEST_REFERENCE_DATE });
    expect(await t.app.jobs.drain()).toBeGreaterThanOrEqual(1);

    expect(await trackRow(ids.abandoned)).toBeUndefined();
    expect(await trackRow(ids.fresh)).toMatchObject({ courseId: null, name: "Récente" });
    expect(await trackRow(ids.attached)).toMatchObject({ courseId: course.id, name: "Sur sa course" });
    // What the event form then sees: the abandoned upload can no longer be put on a course.
    const attach = await setTrack(uploader, "course", { trackId: ids.abandoned, courseId: course.id });
    expect(attach.statusCode).toBe(404);
    expect(attach.json().error).toMatchObject({ code: "ITEM_NOT_FOUND", field: "trackId" });
    const fresh = await setTrack(uploader, "course", { trackId: ids.fresh, courseId: course.id });
    expect(fresh.statusCode, fresh.body).toBe(200);
  });
});
