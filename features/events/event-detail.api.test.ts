import { and, asc, eq, gt, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { createTestApp, type TestApp } from "../../tests/api/harness.ts";
import { departments, regions } from "../geo/geo.tables.ts";
import { trackStats } from "../tracks/track-stats.ts";
import {
  courseResponseSchema,
  editionsResponseSchema,
  elevationProfileSchema,
  eventDetailSchema,
  trackCollectionSchema,
  trackFeatureSchema,
} from "./event-detail.contract.ts";
import { coursePrices, courses, eventImages, events, tracks } from "./events.tables.ts";
import { parseGpx } from "./gpx.ts";

let t: TestApp;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });
const today = TEST_REFERENCE_DATE.toISOString().slice(0, 10);

/** Fixtures found in the seeded world rather than hard-coded ids. */
let tracked: { eventId: number; slug: string; courseId: number; trackId: number };
let series: { groupId: number; ids: number[] };
let cancelledId: number;
let postponed: { id: number; originalDate: string };
let postponedPastId: number;
let pendingId: number;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [withTrack] = await db
    .select({ eventId: events.id, slug: events.slug, courseId: courses.id, trackId: tracks.id })
    .from(tracks)
    .innerJoin(courses, eq(courses.id, tracks.courseId))
    .innerJoin(events, eq(events.id, courses.eventId))
    .where(eq(events.status, "active"))
    .orderBy(asc(tracks.id))
    .limit(1);
  tracked = withTrack;
  const [group] = await db
    .select({ groupId: events.groupId, n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(isNotNull(events.groupId), eq(events.status, "active")))
    .groupBy(events.groupId)
    .having(sql`count(*) >= 3 and min(${events.startDate}) < ${today} and max(${events.endDate}) >= ${today}`)
    .orderBy(events.groupId)
    .limit(1);
  const editionRows = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.groupId, group.groupId!), eq(events.status, "active")))
    .orderBy(asc(events.startDate));
  series = { groupId: group.groupId!, ids: editionRows.map((r) => r.id) };
  const [cancelled] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.cancelled, true), eq(events.status, "active")))
    .limit(1);
  cancelledId = cancelled.id;
  const [moved] = await db
    .select({ id: events.id, originalDate: events.originalDate })
    .from(events)
    .where(and(eq(events.postponed, true), eq(events.status, "active"), gt(events.startDate, today)))
    .limit(1);
  postponed = { id: moved.id, originalDate: moved.originalDate! };
  const [ran] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.postponed, true), eq(events.status, "active"), lt(events.endDate, today)))
    .limit(1);
  postponedPastId = ran.id;
  const [pending] = await db.select({ id: events.id }).from(events).where(ne(events.status, "active")).limit(1);
  pendingId = pending.id;
});
afterAll(() => t.close());

describe("GET /api/event/{type?}/{id}", () => {
  it("returns an event with its sport, place names, options, links, courses, prices and tracks", async () => {
    const res = await get(`/api/event/${tracked.eventId}`);
    expect(res.statusCode).toBe(200);
    const event = eventDetailSchema.parse(res.json());
    expect(event.id).toBe(tracked.eventId);
    expect(event.slug).toBe(tracked.slug);
    expect(event.sport.nameFr).toBeTruthy();
    const [row] = await t.database.db
      .select({ department: departments.name, region: regions.name, lat: events.lat })
      .from(events)
      .innerJoin(departments, eq(departments.code, events.departmentCode))
      .innerJoin(regions, eq(regions.code, events.regionCode))
      .where(eq(events.id, tracked.eventId));
    expect(event.place.department?.name).toBe(row.department);
    expect(event.place.region?.name).toBe(row.region);
    expect(event.place.lat).toBe(row.lat);
    expect(event.place.country).toEqual({ code: "FR", nameFr: "France", nameEn: "France" });
    expect(Object.keys(event.options).sort()).toEqual(["cloakroom", "meal", "refuelling", "reward", "showers"]);
    for (const link of event.links) {
      expect(link.url).toMatch(/^https:\/\//);
      expect(link.redirect).toBe(`/redirect/${link.type}/${event.id}/${event.slug}`);
    }
    const course = event.courses.find((c) => c.id === tracked.courseId)!;
    expect(course.track).toMatchObject({ id: tracked.trackId, gpx: `/track/export/${tracked.trackId}/gpx` });
    expect(course.track!.distance).toBeGreaterThan(0);
    expect(event.courses.map((c) => c.id)).toEqual(
      (
        await t.database.db
          .select({ id: courses.id })
          .from(courses)
          .where(eq(courses.eventId, event.id))
          .orderBy(asc(courses.position))
      ).map((c) => c.id),
    );
    for (const c of event.courses) {
      expect(c.prices.filter((p) => p.current).length).toBeLessThanOrEqual(1);
      for (const p of c.prices) {
        const open = (!p.startsOn || p.startsOn <= today) && (!p.endsOn || today <= p.endsOn);
        if (p.current) expect(open).toBe(true);
      }
    }
  });

  it("flags the price period open today", async () => {
    const [open] = await t.database.db
      .select({ courseId: coursePrices.courseId, eventId: courses.eventId, id: coursePrices.id })
      .from(coursePrices)
      .innerJoin(courses, eq(courses.id, coursePrices.courseId))
      .innerJoin(events, eq(events.id, courses.eventId))
      .where(
        and(
          eq(events.status, "active"),
          sql`${coursePrices.startsOn} <= ${today} and ${coursePrices.endsOn} >= ${today}`,
        ),
      )
      .limit(1);
    const event = (await get(`/api/event/${open.eventId}`)).json();
    const prices = event.courses.find((c: { id: number }) => c.id === open.courseId).prices;
    expect(prices.find((p: { id: number }) => p.id === open.id).current).toBe(true);
    expect(typeof prices[0].price).toBe("number");
  });

  it("gives image addresses under the event's media folder", async () => {
    const db = t.database.db;
    // Demo events show a drawn landscape: this one gets a plain file name and no cover instead.
    const [original] = await db
      .select({ headerImage: events.headerImage, coverImage: events.coverImage })
      .from(events)
      .where(eq(events.id, tracked.eventId));
    await db.update(events).set({ headerImage: "header.jpg", coverImage: null }).where(eq(events.id, tracked.eventId));
    await db.insert(eventImages).values({ eventId: tracked.eventId, path: "depart.jpg", caption: "Le départ" });
    try {
      const event = (await get(`/api/event/${tracked.eventId}`)).json();
      expect(event.headerImage).toBe(`/media/event/${tracked.eventId}/header.jpg`);
      expect(event.coverImage).toBeNull();
      expect(event.images).toEqual([
        expect.objectContaining({ url: `/media/event/${tracked.eventId}/depart.jpg`, caption: "Le départ" }),
      ]);
    } finally {
      await db.update(events).set(original).where(eq(events.id, tracked.eventId));
      await db.delete(eventImages).where(eq(eventImages.eventId, tracked.eventId));
    }
  });

  it("finds the same event by slug and by typed id", async () => {
    const byId = (await get(`/api/event/${tracked.eventId}`)).json();
    expect((await get(`/api/event/slug/${tracked.slug}`)).json()).toEqual(byId);
    expect((await get(`/api/event/id/${tracked.eventId}`)).json()).toEqual(byId);
  });

  it("derives the state: cancelled, postponed with its original date, finished once its new date has passed", async () => {
    expect((await get(`/api/event/${cancelledId}`)).json().state).toBe("cancelled");
    const moved = (await get(`/api/event/${postponed.id}`)).json();
    expect(moved.state).toBe("postponed");
    expect(moved.originalDate).toBe(postponed.originalDate);
    const ran = (await get(`/api/event/${postponedPastId}`)).json();
    expect(ran.postponed).toBe(true);
    expect(ran.originalDate).toBeTruthy();
    expect(ran.state).toBe("finished");
  });

  it("lists the other editions of the series, oldest first, without the event itself", async () => {
    const [first, ...others] = series.ids;
    const event = (await get(`/api/event/${first}`)).json();
    expect(event.group.id).toBe(series.groupId);
    expect(event.editions.map((e: { id: number }) => e.id)).toEqual(others);
    const dates = event.editions.map((e: { startDate: string }) => e.startDate);
    expect(dates).toEqual([...dates].sort());
  });

  it("answers 400 naming the field for a non-numeric id or an unknown type, in the caller's language", async () => {
    const fr = await get("/api/event/abc");
    expect(fr.statusCode).toBe(400);
    expect(fr.json()).toEqual({
      error: { code: "BAD_REQUEST", message: "Identifiant non valable : un nombre entier positif.", field: "id" },
    });
    const en = await get("/api/event/id/abc", { "accept-language": "en" });
    expect(en.statusCode).toBe(400);
    expect(en.json().error).toMatchObject({ code: "BAD_REQUEST", field: "id" });
    expect(en.json().error.message).toMatch(/id/);
    expect(en.json().error.message).not.toBe(fr.json().error.message);
    const type = await get("/api/event/uuid/1");
    expect(type.statusCode).toBe(400);
    expect(type.json().error.field).toBe("type");
    expect((await get("/api/event/0")).statusCode).toBe(400);
    expect((await get("/api/event/12345678901")).statusCode).toBe(400);
  });

  it("answers 404 item-not-found for an unknown id or slug and for events that are not active", async () => {
    const unknown = await get("/api/event/999999", { "x-locale": "en" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: "ITEM_NOT_FOUND", message: expect.any(String) } });
    expect(unknown.json().error.message).not.toBe((await get("/api/event/999999")).json().error.message);
    expect((await get("/api/event/slug/no-such-race-1999")).statusCode).toBe(404);
    expect((await get(`/api/event/${pendingId}`)).statusCode).toBe(404);
    const [pending] = await t.database.db.select({ slug: events.slug }).from(events).where(eq(events.id, pendingId));
    expect((await get(`/api/event/slug/${pending.slug}`)).statusCode).toBe(404);
  });

  it("hides an event once it is deactivated, and its tracks with it", async () => {
    const db = t.database.db;
    await db.update(events).set({ status: "inactive" }).where(eq(events.id, tracked.eventId));
    try {
      expect((await get(`/api/event/${tracked.eventId}`)).statusCode).toBe(404);
      expect((await get(`/api/track/${tracked.trackId}`)).statusCode).toBe(404);
      expect((await get(`/track/export/${tracked.trackId}/gpx`)).statusCode).toBe(404);
      expect((await get(`/api/course/${tracked.courseId}`)).statusCode).toBe(404);
      expect((await get(`/api/tracks?event=${tracked.eventId}`)).statusCode).toBe(404);
      expect((await get(`/api/event/${tracked.eventId}/ics`)).statusCode).toBe(404);
    } finally {
      await db.update(events).set({ status: "active" }).where(eq(events.id, tracked.eventId));
    }
  });
});

describe("GET /api/event/editions/{id}/{reference?}", () => {
  it("lists all, past or upcoming editions around today", async () => {
    const middle = series.ids[1];
    const all = await get(`/api/event/editions/${middle}`);
    expect(all.statusCode).toBe(200);
    const body = editionsResponseSchema.parse(all.json());
    expect(body.event.id).toBe(middle);
    expect(body.group?.id).toBe(series.groupId);
    expect(body.editions.map((e) => e.id)).toEqual(series.ids.filter((id) => id !== middle));
    const past = editionsResponseSchema.parse((await get(`/api/event/editions/${middle}/past`)).json());
    const upcoming = editionsResponseSchema.parse((await get(`/api/event/editions/${middle}/upcoming`)).json());
    expect(past.editions.every((e) => e.endDate < today)).toBe(true);
    expect(upcoming.editions.every((e) => e.endDate >= today)).toBe(true);
    expect(past.editions.length + upcoming.editions.length).toBe(body.editions.length);
  });

  it("gives an empty list for an event without a series", async () => {
    const [single] = await t.database.db
      .select({ id: events.id })
      .from(events)
      .where(and(isNull(events.groupId), eq(events.status, "active")))
      .limit(1);
    const body = (await get(`/api/event/editions/${single.id}`)).json();
    expect(body).toMatchObject({ group: null, editions: [] });
  });

  it("refuses a bad reference or id, and 404s an unknown event", async () => {
    const ref = await get(`/api/event/editions/${series.ids[0]}/someday`);
    expect(ref.statusCode).toBe(400);
    expect(ref.json().error.field).toBe("reference");
    expect((await get("/api/event/editions/abc")).json().error.field).toBe("id");
    expect((await get("/api/event/editions/999999")).statusCode).toBe(404);
  });
});

describe("GET /api/course/{id}", () => {
  it("returns a course with its prices, track and event", async () => {
    const res = await get(`/api/course/${tracked.courseId}`);
    expect(res.statusCode).toBe(200);
    const body = courseResponseSchema.parse(res.json());
    expect(body.course.id).toBe(tracked.courseId);
    expect(body.course.track?.id).toBe(tracked.trackId);
    expect(body.event).toMatchObject({ id: tracked.eventId, slug: tracked.slug });
  });

  it("answers 400 for a non-numeric id and 404 for an unknown course", async () => {
    expect((await get("/api/course/ten")).statusCode).toBe(400);
    const res = await get("/api/course/999999");
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("ITEM_NOT_FOUND");
  });
});

describe("tracks", () => {
  it("GET /api/track/{id}: a GeoJSON LineString feature with the stored statistics", async () => {
    const res = await get(`/api/track/${tracked.trackId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/geo\+json/);
    const feature = trackFeatureSchema.parse(res.json());
    const [row] = await t.database.db.select().from(tracks).where(eq(tracks.id, tracked.trackId));
    expect(feature.geometry.coordinates).toHaveLength(row.points.length);
    expect(feature.geometry.coordinates[0]).toEqual(row.points[0].filter((v) => v !== null));
    expect(feature.properties).toMatchObject({
      id: row.id,
      distance: row.distance,
      elevationGain: row.elevationGain,
      eventId: tracked.eventId,
      eventSlug: tracked.slug,
    });
    const [west, south, east, north] = feature.bbox;
    for (const [lng, lat] of feature.geometry.coordinates) {
      expect(lng).toBeGreaterThanOrEqual(west);
      expect(lng).toBeLessThanOrEqual(east);
      expect(lat).toBeGreaterThanOrEqual(south);
      expect(lat).toBeLessThanOrEqual(north);
    }
    expect((await get("/api/track/999999")).statusCode).toBe(404);
    expect((await get("/api/track/x1")).statusCode).toBe(400);
  });

  it("GET /api/tracks/{format?}?event=: summaries or a FeatureCollection", async () => {
    const json = await get(`/api/tracks?event=${tracked.eventId}`);
    expect(json.statusCode).toBe(200);
    expect(json.json().tracks.map((s: { id: number }) => s.id)).toContain(tracked.trackId);
    expect((await get(`/api/tracks/json?event=${tracked.eventId}`)).json()).toEqual(json.json());
    const geo = await get(`/api/tracks/geojson?event=${tracked.eventId}`);
    expect(geo.headers["content-type"]).toMatch(/^application\/geo\+json/);
    const collection = trackCollectionSchema.parse(geo.json());
    expect(collection.features.map((f) => f.id)).toEqual(json.json().tracks.map((s: { id: number }) => s.id));
  });

  it("GET /api/tracks refuses a missing or bad event and an unknown format", async () => {
    const missing = await get("/api/tracks");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.field).toBe("event");
    expect((await get("/api/tracks?event=abc")).json().error.field).toBe("event");
    expect((await get(`/api/tracks/kml?event=${tracked.eventId}`)).json().error.field).toBe("format");
    expect((await get("/api/tracks?event=999999")).statusCode).toBe(404);
  });

  it("GET /api/track/{id}/elevation: evenly spaced samples from start to finish", async () => {
    const res = await get(`/api/track/${tracked.trackId}/elevation?points=50`);
    expect(res.statusCode).toBe(200);
    const profile = elevationProfileSchema.parse(res.json());
    expect(profile.points).toHaveLength(50);
    expect(profile.points[0][0]).toBe(0);
    expect(Math.abs(profile.points[49][0] - profile.distance)).toBeLessThanOrEqual(profile.distance * 0.01 + 1);
    for (const [, ele] of profile.points) {
      expect(ele).toBeGreaterThanOrEqual(profile.minElevation! - 1);
      expect(ele).toBeLessThanOrEqual(profile.maxElevation! + 1);
    }
    expect((await get(`/api/track/${tracked.trackId}/elevation`)).json().points).toHaveLength(200);
    expect((await get(`/api/track/${tracked.trackId}/elevation?points=500`)).json().points).toHaveLength(500);
    for (const bad of ["501", "1", "abc", "2.5"]) {
      const r = await get(`/api/track/${tracked.trackId}/elevation?points=${bad}`);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error.field).toBe("points");
    }
    expect((await get("/api/track/999999/elevation")).statusCode).toBe(404);
  });
});

describe("GET /track/export/{id}/gpx", () => {
  it("downloads a valid GPX 1.1 file whose distance is the track's", async () => {
    const res = await get(`/track/export/${tracked.trackId}/gpx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/gpx+xml; charset=utf-8");
    expect(res.headers["content-disposition"]).toMatch(
      new RegExp(`^attachment; filename="${tracked.slug}-[a-z0-9-]+\\.gpx"$`),
    );
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Dossard"')).toBe(
      true,
    );
    expect(res.body).toContain('xmlns="http://www.topografix.com/GPX/1/1"');
    const gpx = parseGpx(res.body);
    const [row] = await t.database.db.select().from(tracks).where(eq(tracks.id, tracked.trackId));
    expect(gpx.version).toBe("1.1");
    expect(gpx.name).toBe(row.name);
    expect(gpx.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(gpx.points).toHaveLength(row.points.length);
    const stats = trackStats(gpx.points);
    expect(Math.abs(stats.distance - row.distance)).toBeLessThan(row.distance * 0.001 + 1);
    expect(row.elevationGain).not.toBeNull();
    expect(Math.abs(stats.elevationGain - row.elevationGain!)).toBeLessThan(row.elevationGain! * 0.01 + 2);
  });

  it("answers 400 for a non-numeric id and 404 item-not-found for an unknown track", async () => {
    expect((await get("/track/export/abc/gpx")).statusCode).toBe(400);
    const res = await get("/track/export/999999/gpx");
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("ITEM_NOT_FOUND");
  });
});

describe("GET /redirect/{type}/{id}/{slug?}", () => {
  it("counts the click and redirects to the event's link; crawlers are redirected but not counted", async () => {
    const event = (await get(`/api/event/${tracked.eventId}`)).json();
    const link = event.links[0];
    const browser = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140 Safari/537.36" };
    const res = await get(link.redirect, browser);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(link.url);
    expect(res.headers["cache-control"]).toBe("no-store");
    await get(`/redirect/${link.type}/${event.id}`, browser);
    await get(link.redirect, {
      "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    });
    const head = await t.app.inject({ method: "HEAD", url: link.redirect, headers: browser });
    expect(head.statusCode).toBe(302);
    expect(await t.app.services.eventDetails.clickCounts(event.id)).toEqual({ [link.type]: 2 });
  });

  it("gives item-not-found for an unknown type, id, missing link or inactive event", async () => {
    const event = (await get(`/api/event/${tracked.eventId}`)).json();
    const missing = ["website", "registration", "live", "facebook", "instagram", "x", "youtube", "vimeo", "video"].find(
      (type) => !event.links.some((l: { type: string }) => l.type === type),
    );
    for (const url of [
      `/redirect/email/${event.id}/${event.slug}`,
      `/redirect/website/999999/x`,
      `/redirect/website/abc/x`,
      `/redirect/${missing}/${event.id}/${event.slug}`,
      `/redirect/website/${pendingId}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe("ITEM_NOT_FOUND");
    }
  });
});

describe("GET /api/event/{id}/ics", () => {
  const unfold = (body: string) => body.replace(/\r\n /g, "");

  it("is one iCalendar entry per race, with CRLF lines of at most 75 octets", async () => {
    const res = await get(`/api/event/${tracked.eventId}/ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${tracked.slug}.ics"`);
    const body = res.body;
    expect(body.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(body.endsWith("END:VEVENT\r\nEND:VCALENDAR\r\n")).toBe(true);
    for (const line of body.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const event = (await get(`/api/event/${tracked.eventId}`)).json();
    const text = unfold(body);
    // Each course's UID (decision 022), in the courses' order; the title names the event.
    const uids = [...text.matchAll(/\r\nUID:([^\r]+)\r\n/g)].map((m) => m[1]);
    expect(uids).toEqual(
      event.courses.map((c: { id: number }) => expect.stringMatching(new RegExp(`^course-${c.id}@`))),
    );
    expect(text).toContain(`SUMMARY:${event.name.replace(/,/g, "\\,").replace(/;/g, "\\;")} — `);
    // Each starts on one of the event's days, all-day or at its time in UTC.
    const days = [...text.matchAll(/\r\nDTSTART(?:;VALUE=DATE)?:(\d{8})/g)].map((m) => m[1]);
    expect(days).toHaveLength(uids.length);
    for (const day of days)
      expect(day >= event.startDate.replaceAll("-", "") && day <= event.endDate.replaceAll("-", "")).toBe(true);
    expect(text).toMatch(/\r\nURL:http:\/\/[^/]+\/course\//);
    expect(text).toMatch(/\r\nSTATUS:(CONFIRMED|TENTATIVE)\r\n/);
  });

  it("follows the caller's language and marks cancelled events", async () => {
    const en = unfold((await get(`/api/event/${tracked.eventId}/ics?_locale=en`)).body);
    expect(en).toMatch(/\r\nURL:http:\/\/[^/]+\/en\/race\//);
    expect(unfold((await get(`/api/event/${cancelledId}/ics`)).body)).toContain("\r\nSTATUS:CANCELLED\r\n");
    expect((await get("/api/event/abc/ics")).statusCode).toBe(400);
    expect((await get("/api/event/999999/ics")).statusCode).toBe(404);
  });
});

describe("OpenAPI", () => {
  it("documents the event, course and track routes", async () => {
    const doc = (await get("/api/docs/json")).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/event/{id}",
        "/api/event/{type}/{id}",
        "/api/event/{id}/ics",
        // An optional last segment is documented as two paths (server/openapi.server.ts).
        "/api/event/editions/{id}",
        "/api/event/editions/{id}/{reference}",
        "/api/course/{id}",
        "/api/track/{id}",
        "/api/track/{id}/elevation",
        "/api/tracks",
        "/api/tracks/{format}",
        "/track/export/{id}/gpx",
        "/redirect/{type}/{id}",
        "/redirect/{type}/{id}/{slug}",
      ]),
    );
    expect(doc.paths["/api/event/{id}"].get.tags).toEqual(["events"]);
  });
});
