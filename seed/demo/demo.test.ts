import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackPoint } from "../../features/events/events.tables.ts";
import { GENERATED_ROOT } from "../../features/illustrations/event-images.ts";
import { parseLandscapeName, profileLevels } from "../../features/illustrations/landscape.ts";
import { elevationProfile, trackStats } from "../../features/tracks/track-stats.ts";
import { type Database, openDatabase } from "../../platform/db/client.server.ts";
import { Rng } from "../../platform/prng.ts";
import { SPORTS } from "../../shared/constants.ts";
import { zonedTime } from "../../shared/zoned-time.ts";
import { type EnsureSeededResult, ensureSeeded } from "../index.server.ts";
import { addMonths } from "./dates.ts";
import { FAMOUS_RACES } from "./famous.ts";
import {
  DEFAULT_DEMO_EVENTS,
  DEFAULT_DEMO_SEED,
  type DemoEvent,
  type DemoPlaces,
  generateDemoCatalogue,
} from "./generator.ts";
import { placeCore, withA, withDe } from "./names.ts";
import { loadDemoPlaces } from "./seed.server.ts";
import { haversine, MASSIFS, MOUNTAIN_DEPARTMENTS, terrainAt, WATERS } from "./terrain.ts";
import { synthesizeTrack } from "./track.ts";

const REFERENCE_DATE = new Date("2026-06-01T10:00:00Z");
// Enough for every sport, massif and lake to appear (the default size is checked in memory below).
const COUNT = 1_200;
const SEED = 11;

describe("building blocks", () => {
  it("mulberry32 is deterministic and uniform enough", () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const xs = Array.from({ length: 10_000 }, () => a.next());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b.next()));
    expect(new Rng(43).next()).not.toBe(xs[0]);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
  });

  it("speaks French prepositions", () => {
    expect(withDe("Nantes")).toBe("de Nantes");
    expect(withDe("Annecy")).toBe("d'Annecy");
    expect(withDe("Le Havre")).toBe("du Havre");
    expect(withDe("Les Sables-d'Olonne")).toBe("des Sables-d'Olonne");
    expect(withDe("Hyères")).toBe("d'Hyères");
    expect(withDe("Haut Valromey")).toBe("de Haut Valromey");
    expect(withDe("Hazebrouck")).toBe("de Hazebrouck");
    expect(withDe("La Rochelle")).toBe("de La Rochelle");
    expect(withDe("Évian-les-Bains")).toBe("d'Évian-les-Bains");
    expect(withA("Le Mans")).toBe("au Mans");
    expect(placeCore("Les Sables-d'Olonne")).toBe("Sables-d'Olonne");
  });

  it("converts local start times to instants in the event's zone", () => {
    expect(zonedTime("2025-06-14", 8, 30, "Europe/Paris").toISOString()).toBe("2025-06-14T06:30:00.000Z");
    expect(zonedTime("2025-01-12", 8, 30, "Europe/Paris").toISOString()).toBe("2025-01-12T07:30:00.000Z");
    expect(zonedTime("2025-06-14", 8, 30, "Indian/Reunion").toISOString()).toBe("2025-06-14T04:30:00.000Z");
  });

  it("measures tracks like a GPX reader", () => {
    const points: TrackPoint[] = [
      [5, 45, 100],
      [5, 45.01, 150],
      [5, 45.02, 120],
      [5, 45.03, 200],
    ];
    const stats = trackStats(points);
    expect(stats.distance).toBeCloseTo(3 * 1111.95, 0);
    expect(stats.elevationGain).toBe(130);
    expect(stats.elevationLoss).toBe(30);
    expect([stats.minElevation, stats.maxElevation]).toEqual([100, 200]);
    const profile = elevationProfile(points, 7);
    expect(profile).toHaveLength(7);
    expect(profile[0]).toEqual([0, 100]);
    expect(profile[6][1]).toBe(200);
  });

  it("synthesises tracks matching the requested distance and climbing", () => {
    const rng = new Rng(3);
    for (const [distance, gain, loop] of [
      [10_000, 20, true],
      [42_195, 2_400, true],
      [170_000, 10_000, false],
      [21_097, 0, false],
    ] as const) {
      const track = synthesizeTrack(rng, {
        lat: 45.9,
        lng: 6.8,
        distance,
        elevationGain: gain,
        baseElevation: 900,
        loop,
      });
      expect(Math.abs(track.stats.distance - distance) / distance).toBeLessThan(0.01);
      expect(Math.abs(track.stats.elevationGain - gain)).toBeLessThanOrEqual(Math.max(2, gain * 0.01));
      expect(track.points[0]).toEqual([expect.closeTo(6.8, 5), expect.closeTo(45.9, 5), expect.any(Number)]);
      expect(track.profile).toHaveLength(200);
      if (loop) expect(track.points.at(-1)![2]).toBeCloseTo(track.points[0][2]!, 0);
      expect(track.stats.minElevation).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("demo catalogue", () => {
  let database: Database;
  let places: DemoPlaces;
  let seeded: EnsureSeededResult;
  const query = async <T>(text: string, params: unknown[] = []) => (await database.pglite!.query<T>(text, params)).rows;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await database.migrate();
    seeded = await ensureSeeded(database.db, { demoEvents: COUNT, seed: SEED, referenceDate: REFERENCE_DATE });
    places = await loadDemoPlaces(database.db);
  }, 180_000);
  afterAll(() => database?.close());

  it("is deterministic: same seed, same rows; another seed, other rows", () => {
    const take = (seed: number) => {
      const out = [];
      for (const series of generateDemoCatalogue(places, { count: 300, seed, referenceDate: REFERENCE_DATE }))
        out.push(...series.editions);
      return out;
    };
    const a = take(5);
    const b = take(5);
    expect(a).toHaveLength(300);
    expect(b).toHaveLength(300);
    expect(JSON.stringify(a.slice(0, 50))).toBe(JSON.stringify(b.slice(0, 50)));
    expect(a.map((e) => e.event.slug)).toEqual(b.map((e) => e.event.slug));
    expect(take(6).map((e) => e.event.slug)).not.toEqual(a.map((e) => e.event.slug));
  });

  it("inserts the requested number of events, with courses and prices", async () => {
    expect(seeded.demo?.events).toBe(COUNT);
    const [{ events, courses, prices }] = await query<{ events: number; courses: number; prices: number }>(
      `SELECT (SELECT count(*)::int FROM events) AS events, (SELECT count(*)::int FROM courses) AS courses,
              (SELECT count(*)::int FROM course_prices) AS prices`,
    );
    expect(events).toBeGreaterThanOrEqual(COUNT);
    expect(courses).toBeGreaterThanOrEqual(COUNT);
    expect(prices).toBeGreaterThanOrEqual(courses);
    const [{ orphans }] = await query<{ orphans: number }>(
      "SELECT count(*)::int AS orphans FROM events e WHERE NOT EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id)",
    );
    expect(orphans).toBe(0);
    const [{ most }] = await query<{ most: number }>(
      "SELECT max(n)::int AS most FROM (SELECT count(*) AS n FROM courses GROUP BY event_id) t",
    );
    expect(most).toBeLessThanOrEqual(5);
  });

  it("is idempotent: a later start adds nothing", async () => {
    const again = await ensureSeeded(database.db, { demoEvents: COUNT, seed: SEED, referenceDate: REFERENCE_DATE });
    expect(again.demo).toBeNull();
    expect(again.reference.geo.skipped).toBe(true);
    const [{ n }] = await query<{ n: number }>("SELECT count(*)::int AS n FROM events");
    expect(n).toBe(COUNT);
  });

  it("represents every sport", async () => {
    const rows = await query<{ key: string; n: number }>(
      "SELECT s.key, count(e.id)::int AS n FROM sports s LEFT JOIN events e ON e.sport_id = s.id GROUP BY s.key",
    );
    expect(rows).toHaveLength(SPORTS.length);
    for (const row of rows) expect(row.n, row.key).toBeGreaterThan(0);
  });

  it("puts trails in the mountains", async () => {
    const mountain = [...MOUNTAIN_DEPARTMENTS];
    const [pop] = await query<{ share: number }>(
      `SELECT (sum(population) FILTER (WHERE department_code = ANY($1)))::float / sum(population) AS share FROM communes`,
      [mountain],
    );
    const [trail] = await query<{ share: number }>(
      `SELECT (count(*) FILTER (WHERE e.department_code = ANY($1)))::float / count(*) AS share
         FROM events e JOIN sports s ON s.id = e.sport_id WHERE s.key IN ('trail', 'short_trail', 'ultra_trail')`,
      [mountain],
    );
    const [road] = await query<{ share: number }>(
      `SELECT (count(*) FILTER (WHERE e.department_code = ANY($1)))::float / count(*) AS share
         FROM events e JOIN sports s ON s.id = e.sport_id WHERE s.key IN ('marathon', 'half_marathon')`,
      [mountain],
    );
    expect(trail.share).toBeGreaterThan(2 * pop.share);
    expect(trail.share).toBeGreaterThan(pop.share + 0.2);
    expect(road.share).toBeLessThan(trail.share / 2);
  });

  it("puts swimruns by the water and marathons in cities", async () => {
    const swimruns = await query<{ lat: number; lng: number; department_code: string }>(
      "SELECT e.lat, e.lng, e.department_code FROM events e JOIN sports s ON s.id = e.sport_id WHERE s.key = 'swimrun'",
    );
    const wet = swimruns.filter((e) => terrainAt(e.lat, e.lng, e.department_code).water > 0.05).length;
    expect(wet / swimruns.length).toBeGreaterThan(0.8);
    const [marathon] = await query<{ median: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY c.population) AS median
         FROM events e JOIN sports s ON s.id = e.sport_id JOIN communes c ON c.code = e.commune_code
        WHERE s.key = 'marathon'`,
    );
    expect(marathon.median).toBeGreaterThan(50_000);
  });

  it("keeps every date within the 24 months before and 12 months after the reference date", async () => {
    const start = addMonths("2026-06-01", -24);
    const end = addMonths("2026-06-01", 12);
    const [range] = await query<{ first: string; last: string; bad: number }>(
      `SELECT min(start_date)::text AS first, max(end_date)::text AS last,
              count(*) FILTER (WHERE end_date < start_date OR (original_date IS NOT NULL
                AND (original_date < $1::date OR original_date >= start_date)))::int AS bad
         FROM events`,
      [start],
    );
    expect(range.first >= start).toBe(true);
    expect(range.last <= end).toBe(true);
    expect(range.bad).toBe(0);
    const [{ past, future }] = await query<{ past: number; future: number }>(
      "SELECT count(*) FILTER (WHERE start_date < '2026-06-01')::int AS past, count(*) FILTER (WHERE start_date >= '2026-06-01')::int AS future FROM events",
    );
    // Most series still run (their next edition is in the coming year); the past holds earlier editions.
    expect(future).toBeGreaterThan(COUNT * 0.6);
    expect(past).toBeGreaterThan(COUNT * 0.2);
  });

  it("starts races at sensible local hours and sells bibs before the race", async () => {
    const [hours] = await query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM courses c JOIN events e ON e.id = c.event_id
        WHERE e.department_code NOT LIKE '97%'
          AND extract(hour FROM c.start_at AT TIME ZONE 'Europe/Paris') NOT BETWEEN 4 AND 23`,
    );
    expect(hours.bad).toBe(0);
    const [prices] = await query<{ bad: number; negative: number }>(
      `SELECT count(*) FILTER (WHERE p.ends_on >= coalesce(e.original_date, e.start_date) OR p.starts_on > p.ends_on)::int AS bad,
              count(*) FILTER (WHERE p.price < 0)::int AS negative
         FROM course_prices p JOIN courses c ON c.id = p.course_id JOIN events e ON e.id = c.event_id`,
    );
    expect(prices).toEqual({ bad: 0, negative: 0 });
  });

  it("fills the event's elevation and distance range from its courses", async () => {
    const [{ bad }] = await query<{ bad: number }>(
      `SELECT count(*)::int AS bad FROM events e JOIN (
          SELECT event_id, max(elevation_gain) AS max_elevation, min(distance) AS min_distance, max(distance) AS max_distance
            FROM courses GROUP BY event_id) c ON c.event_id = e.id
        WHERE e.max_elevation IS DISTINCT FROM c.max_elevation OR e.min_distance IS DISTINCT FROM c.min_distance
           OR e.max_distance IS DISTINCT FROM c.max_distance`,
    );
    expect(bad).toBe(0);
    // Climbing fits the sport: flat roads, steep trails.
    const rates = await query<{ key: string; rate: number }>(
      `SELECT s.key, avg(c.elevation_gain::float / (c.distance / 1000.0)) AS rate
         FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE c.distance >= 5000 AND c.type = 'race' GROUP BY s.key`,
    );
    const rate = Object.fromEntries(rates.map((r) => [r.key, r.rate]));
    expect(rate.marathon).toBeLessThan(10);
    expect(rate.trail).toBeGreaterThan(25);
    expect(rate.ultra_trail).toBeGreaterThan(30);
    const [timed] = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM courses WHERE duration IS NOT NULL AND distance IS NULL",
    );
    expect(timed.n).toBeGreaterThan(0);
  });

  it("gives some trail and running courses a track that matches them", async () => {
    const rows = await query<{
      course_distance: number;
      course_gain: number;
      distance: number;
      elevation_gain: number;
      points: TrackPoint[];
      profile: [number, number][];
      start_lat: number;
      start_lng: number;
      lat: number;
      lng: number;
    }>(
      `SELECT c.distance AS course_distance, c.elevation_gain AS course_gain, t.distance, t.elevation_gain,
              t.points, t.profile, t.start_lat, t.start_lng, e.lat, e.lng
         FROM tracks t JOIN courses c ON c.id = t.course_id JOIN events e ON e.id = c.event_id`,
    );
    const [{ eligible }] = await query<{ eligible: number }>(
      `SELECT count(*)::int AS eligible FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE s.key IN ('running', 'marathon', 'half_marathon', 'trail', 'short_trail', 'ultra_trail')
          AND c.distance IS NOT NULL AND c.type NOT IN ('kids', 'walk', 'virtual')`,
    );
    expect(rows.length / eligible).toBeGreaterThan(0.08);
    expect(rows.length / eligible).toBeLessThan(0.2);
    for (const row of rows) {
      expect(Math.abs(row.distance - row.course_distance) / row.course_distance).toBeLessThan(0.03);
      expect(Math.abs(row.elevation_gain - row.course_gain)).toBeLessThanOrEqual(Math.max(5, row.course_gain * 0.03));
      // What is stored is what a reader of the points would compute.
      const stats = trackStats(row.points);
      expect(Math.abs(stats.distance - row.distance)).toBeLessThanOrEqual(1);
      expect(Math.abs(stats.elevationGain - row.elevation_gain)).toBeLessThanOrEqual(1);
      expect(row.profile.length).toBe(200);
      expect(Math.abs(row.start_lat - row.lat)).toBeLessThan(0.001);
      expect(Math.abs(row.start_lng - row.lng)).toBeLessThan(0.001);
    }
  });

  it("shows each event's landscape, drawn from its main course, the same for the same event", async () => {
    const rows = await query<{ slug: string; sport: string; cover_image: string | null; header_image: string | null }>(
      `SELECT e.slug, s.key AS sport, e.cover_image, e.header_image FROM events e JOIN sports s ON s.id = e.sport_id`,
    );
    expect(rows).toHaveLength(COUNT);
    for (const row of rows) {
      expect(row.cover_image, row.slug).toMatch(new RegExp(`^${GENERATED_ROOT}[0-9a-z]{20}\\.webp$`));
      expect(row.header_image).toBe(row.cover_image);
      const spec = parseLandscapeName(row.cover_image!.slice(GENERATED_ROOT.length, -".webp".length));
      expect(spec?.sport).toBe(row.sport);
    }
    // Mostly different pictures: the seed comes from the slug.
    expect(new Set(rows.map((r) => r.cover_image)).size).toBeGreaterThan(COUNT * 0.95);
    // Ultra-trails in the mountains look like it; road races in town are gentler.
    const relief = (sport: string) => {
      const profiles = rows
        .filter((r) => r.sport === sport)
        .map((r) => parseLandscapeName(r.cover_image!.slice(GENERATED_ROOT.length, -".webp".length))!.profile);
      return profiles.reduce((sum, p) => sum + Math.max(...p), 0) / profiles.length;
    };
    expect(relief("ultra_trail")).toBeGreaterThan(30);
    expect(relief("marathon")).toBeLessThan(relief("ultra_trail") - 8);

    // A tracked course gives its own profile.
    const [tracked] = await query<{ slug: string; cover_image: string; profile: [number, number][] }>(
      `SELECT e.slug, e.cover_image, t.profile FROM events e JOIN courses c ON c.event_id = e.id
         JOIN tracks t ON t.course_id = c.id ORDER BY e.id, c.position LIMIT 1`,
    );
    const spec = parseLandscapeName(tracked.cover_image.slice(GENERATED_ROOT.length, -".webp".length))!;
    expect(spec.profile).toEqual(profileLevels(tracked.profile.map((p) => p[1])));
    // The landscapes draw nothing from the catalogue's random source, and are the same every time.
    const again = [...generateDemoCatalogue(places, { count: 40, seed: SEED, referenceDate: REFERENCE_DATE })]
      .flatMap((series) => series.editions)
      .map((e) => [e.event.slug, e.event.coverImage]);
    const stored = new Map(rows.map((r) => [r.slug, r.cover_image]));
    for (const [slug, cover] of again) expect(cover).toBe(stored.get(slug!));
  });

  it("links yearly editions of a series through their group", async () => {
    const groups = await query<{
      id: number;
      names: string[];
      dates: string[];
      communes: string[];
      postponed: boolean[];
    }>(
      `SELECT g.id, array_agg(DISTINCT e.name) AS names, array_agg(coalesce(e.original_date, e.start_date)::text ORDER BY e.start_date) AS dates,
              array_agg(DISTINCT e.commune_code) AS communes, array_agg(e.postponed) AS postponed
         FROM event_groups g JOIN events e ON e.group_id = g.id GROUP BY g.id`,
    );
    expect(groups.length).toBeGreaterThan(COUNT * 0.05);
    for (const g of groups) {
      expect(g.dates.length).toBeGreaterThanOrEqual(2);
      expect(g.names).toHaveLength(1);
      expect(g.communes).toHaveLength(1);
      const years = g.dates.map((d) => Number(d.slice(0, 4)));
      expect(new Set(years).size).toBe(years.length);
      for (let i = 1; i < g.dates.length; i++) {
        const days = (Date.parse(g.dates[i]) - Date.parse(g.dates[i - 1])) / 86_400_000;
        expect(days).toBe(364);
      }
    }
    const [{ orphanGroups }] = await query<{ orphanGroups: number }>(
      'SELECT count(*)::int AS "orphanGroups" FROM event_groups g WHERE (SELECT count(*) FROM events e WHERE e.group_id = g.id) < 2',
    );
    expect(orphanGroups).toBe(0);
  });

  it("names races in French after a real place, with unique slugs", async () => {
    const rows = await query<{ name: string; city: string; slug: string }>("SELECT name, city, slug FROM events");
    const anchors = [...MASSIFS, ...WATERS].map((a) => a.name.toLowerCase());
    const unnamed = rows.filter(
      (r) => !r.name.includes(placeCore(r.city)) && !anchors.some((a) => r.name.toLowerCase().includes(a)),
    );
    expect(unnamed).toEqual([]);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(rows.length);
    for (const r of rows) expect(r.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const sample = rows.map((r) => r.name).join("\n");
    expect(sample).toMatch(/^(Trail|Semi-marathon|Marathon|Les Foulées|Triathlon|Swimrun) (de|d'|du|des) /m);
  });

  it("fills statuses, links and options like a real catalogue", async () => {
    const [s] = await query<Record<string, number>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE cancelled)::int AS cancelled,
              count(*) FILTER (WHERE postponed)::int AS postponed,
              count(*) FILTER (WHERE postponed AND end_date < '2026-06-01')::int AS postponed_run,
              count(*) FILTER (WHERE postponed AND start_date > '2026-06-01')::int AS postponed_ahead,
              count(*) FILTER (WHERE status = 'active')::int AS active,
              count(*) FILTER (WHERE status = 'pending')::int AS pending,
              count(*) FILTER (WHERE check_status = 'checked' AND date_confirmed)::int AS confirmed,
              count(*) FILTER (WHERE scope IN ('national', 'international'))::int AS big,
              count(*) FILTER (WHERE facebook_url IS NOT NULL)::int AS facebook,
              count(*) FILTER (WHERE website IS NOT NULL AND website NOT LIKE 'https://example.org/%')::int AS real_sites,
              count(*) FILTER (WHERE registration_url IS NOT NULL AND registration_url !~ '^https://[a-z.]*example\\.(com|org|net)/')::int AS real_registrations,
              count(*) FILTER (WHERE description IS NULL OR length(description) < 80)::int AS short_descriptions,
              count(*) FILTER (WHERE organizer_name IS NULL)::int AS no_organizer,
              count(*) FILTER (WHERE (options->>'refuelling')::boolean)::int AS refuelling
         FROM events`,
    );
    expect(s.cancelled / s.total).toBeGreaterThan(0.005);
    expect(s.cancelled / s.total).toBeLessThan(0.04);
    expect(s.postponed / s.total).toBeGreaterThan(0.005);
    expect(s.postponed / s.total).toBeLessThan(0.04);
    // Postponed races still ahead (shown "postponed") and already run at their new date (finished).
    expect(s.postponed_run).toBeGreaterThan(0);
    expect(s.postponed_ahead).toBeGreaterThan(0);
    expect(s.active / s.total).toBeGreaterThan(0.9);
    expect(s.pending).toBeGreaterThan(0);
    expect(s.confirmed / s.total).toBeGreaterThan(0.7);
    expect(s.big / s.total).toBeGreaterThan(0.02);
    expect(s.big / s.total).toBeLessThan(0.2);
    expect(s.facebook).toBeGreaterThan(0);
    expect(s.real_sites).toBe(0);
    expect(s.real_registrations).toBe(0);
    expect(s.short_descriptions).toBe(0);
    expect(s.no_organizer).toBe(0);
    expect(s.refuelling).toBeGreaterThan(0);
    const [trail] = await query<{ itra: number; utmb: number; equipment: number; min_age: number }>(
      `SELECT count(*) FILTER (WHERE itra_points IS NOT NULL)::int AS itra, count(*) FILTER (WHERE utmb_index IS NOT NULL)::int AS utmb,
              count(*) FILTER (WHERE mandatory_equipment IS NOT NULL)::int AS equipment,
              count(*) FILTER (WHERE min_age IS NULL)::int AS min_age
         FROM courses c JOIN events e ON e.id = c.event_id JOIN sports s ON s.id = e.sport_id
        WHERE s.key IN ('trail', 'ultra_trail')`,
    );
    expect(trail.itra).toBeGreaterThan(0);
    expect(trail.utmb).toBeGreaterThan(0);
    expect(trail.equipment).toBeGreaterThan(0);
    expect(trail.min_age).toBe(0);
    const [{ missing }] = await query<{ missing: number }>(
      `SELECT count(*)::int AS missing FROM courses c JOIN events e ON e.id = c.event_id
        WHERE c.distance >= 60000 AND c.type = 'race' AND e.sport_id = (SELECT id FROM sports WHERE key = 'ultra_trail')
          AND c.mandatory_equipment IS NULL`,
    );
    expect(missing).toBe(0);
  });

  it("places events at their commune", async () => {
    const [{ far, missing }] = await query<{ far: number; missing: number }>(
      `SELECT count(*) FILTER (WHERE abs(e.lat - c.lat) > 0.02 OR abs(e.lng - c.lng) > 0.03)::int AS far,
              count(*) FILTER (WHERE e.department_code <> c.department_code OR e.region_code <> c.region_code
                OR e.city <> c.name OR NOT (e.zipcode = ANY(c.postal_codes)))::int AS missing
         FROM events e JOIN communes c ON c.code = e.commune_code`,
    );
    expect(far).toBe(0);
    expect(missing).toBe(0);
  });

  describe("at the default size, as a visitor sees it", () => {
    // The catalogue a server seeds on its first start: default size and seed, "today" fixed.
    let catalogue: DemoEvent[] | undefined;
    const defaultCatalogue = () => {
      catalogue ??= [
        ...generateDemoCatalogue(places, {
          count: DEFAULT_DEMO_EVENTS,
          seed: DEFAULT_DEMO_SEED,
          referenceDate: REFERENCE_DATE,
        }),
      ].flatMap((series) => series.editions);
      return catalogue;
    };
    const TRAILS = new Set(["trail", "short_trail", "ultra_trail"]);
    const ALPS = new Set(["04", "05", "38", "73", "74"]);
    const tracked = () =>
      defaultCatalogue().flatMap((e) =>
        e.courses.flatMap((c) => (c.track ? [{ event: e, course: c.course, points: c.track.points }] : [])),
      );

    it("finds a dozen trails within 50 km of Annecy in June", () => {
      // What the search shows: active, not cancelled, on a day of June, in the trail family.
      const found = defaultCatalogue().filter(
        (e) =>
          TRAILS.has(e.sport) &&
          e.event.status === "active" &&
          !e.event.cancelled &&
          e.event.startDate! <= "2026-06-30" &&
          e.event.endDate! >= "2026-06-01" &&
          haversine(45.899, 6.129, e.event.lat!, e.event.lng!) <= 50_000,
      );
      expect(found.length).toBeGreaterThanOrEqual(10);
      // Not one town's races: villages around the lake and in the massifs.
      expect(new Set(found.map((e) => e.event.communeCode)).size).toBeGreaterThanOrEqual(found.length * 0.7);
    });

    it("runs few trails in the Alps in winter and many in summer", () => {
      const months = new Array(12).fill(0);
      for (const e of defaultCatalogue())
        if (TRAILS.has(e.sport) && ALPS.has(e.event.departmentCode!))
          months[Number(e.event.startDate!.slice(5, 7)) - 1]++;
      const [january, july, august] = [months[0], months[6], months[7]];
      expect(july, months.join(" ")).toBeGreaterThan(30);
      expect(january * 4).toBeLessThan(july);
      expect(january * 4).toBeLessThan(august);
    });

    it("holds one edition a year of each race: a name is never twice in a department and a year", () => {
      // A series is a name in a town; its editions are a year apart (the date it was planned for,
      // when postponed), whatever their group.
      const series = new Map<string, string[]>();
      const named = new Map<string, string[]>();
      for (const { event } of defaultCatalogue()) {
        const key = `${event.name} | ${event.communeCode}`;
        series.set(key, [...(series.get(key) ?? []), event.originalDate ?? event.startDate!]);
        const where = `${event.name} | ${event.departmentCode} | ${event.startDate!.slice(0, 4)}`;
        named.set(where, [...(named.get(where) ?? []), event.startDate!]);
      }
      const tooClose = [...series].filter(([, dates]) =>
        dates.sort().some((d, i) => i > 0 && (Date.parse(d) - Date.parse(dates[i - 1])) / 86_400_000 < 350),
      );
      expect(tooClose.slice(0, 5)).toEqual([]);
      const twice = [...named].filter(([, dates]) => dates.length > 1);
      expect(twice.slice(0, 5)).toEqual([]);
      // « marathon paris »: one Marathon de Paris a year, and no other marathon in Paris.
      const paris = defaultCatalogue().filter((e) => e.sport === "marathon" && e.event.communeCode === "75056");
      expect(new Set(paris.map((e) => e.event.name))).toEqual(new Set(["Marathon de Paris"]));
      expect(paris.map((e) => e.event.startDate!.slice(0, 4))).toEqual(["2025", "2026", "2027"]);
    });

    it("names courses after their distance: a marathon is 42.195 km, a 10 km is 10 km", () => {
      const near = (distance: number | null | undefined, expected: number) =>
        distance != null && Math.abs(distance - expected) <= expected * 0.01;
      const kilometres = (text: string) => Number(text.replace(/\s/g, "").replace(",", ".")) * 1000;
      const wrong: string[] = [];
      for (const { event, courses } of defaultCatalogue()) {
        for (const { course } of courses) {
          const name = course.name;
          const what = `${event.name}: ${name} (${course.distance} m)`;
          // Multisport legs: "(1,9 km / 90 km / 21,097 km)", "(100 m / 2 km / 500 m)".
          const legs = /\(([^()]+ \/ [^()]+)\)/.exec(name)?.[1].split(" / ");
          const stated = /(?:^|– |\s)(\d[\d\s]*(?:,\d+)?) km\b/.exec(name);
          const hours = /^(\d+) heures/.exec(name);
          if (/semi/i.test(name)) {
            if (!near(course.distance, 21_097)) wrong.push(what);
          } else if (/marathon/i.test(name)) {
            if (!near(course.distance, 42_195)) wrong.push(what);
          } else if (legs) {
            const total = legs.reduce((sum, leg) => {
              const [, value, unit] = /^([\d,\s]+) (k?m)$/.exec(leg) ?? [];
              return sum + (unit === "m" ? kilometres(value) / 1000 : kilometres(value ?? "NaN"));
            }, 0);
            if (!near(course.distance, total)) wrong.push(what);
          } else if (hours) {
            if (course.duration !== Number(hours[1]) * 3600) wrong.push(what);
          } else if (stated) {
            if (!near(course.distance, kilometres(stated[1]))) wrong.push(what);
          } else if (course.type === "race" && course.distance !== null) {
            wrong.push(`${what}: no distance in the name`);
          }
          if (/vertical/i.test(name) && (course.elevationGain ?? 0) < 900) wrong.push(`${what}: not vertical`);
          // Labels that promise a length keep it.
          if (/ultra/i.test(name) && (course.distance ?? 0) < 80_000) wrong.push(`${what}: too short for an ultra`);
          if (/petit trail|découverte|initiation/i.test(name) && (course.distance ?? 0) > 25_000)
            wrong.push(`${what}: too long for a short course`);
          if (course.type === "kids" && !legs && (course.distance ?? 0) % 500 !== 0)
            wrong.push(`${what}: odd kids' distance`);
        }
      }
      expect(wrong.slice(0, 10)).toEqual([]);
    });

    it("gives a race the course its name promises", () => {
      const wrong: string[] = [];
      for (const { sport, event, courses } of defaultCatalogue()) {
        const name = event.name!;
        const has = (distance: number) =>
          courses.some((c) => c.course.distance != null && Math.abs(c.course.distance - distance) <= distance * 0.01);
        const what = `${name}: ${courses.map((c) => `${c.course.name} (${c.course.distance})`).join(", ")}`;
        if (/^Marathon(?! VTT)/.test(name) && !(sport === "marathon" && has(42_195))) wrong.push(what);
        if (/^(Le )?Semi/.test(name) && !(sport === "half_marathon" && has(21_097))) wrong.push(what);
        const kilometres = /^Les (\d+) km /.exec(name);
        if (kilometres && !has(Number(kilometres[1]) * 1000)) wrong.push(what);
        const hours = /^Les (\d+) heures /.exec(name);
        if (hours && !courses.some((c) => c.course.duration === Number(hours[1]) * 3600)) wrong.push(what);
        if (/^Ironman 70\.3/.test(name) && !has(112_997)) wrong.push(what);
        if (/^Ironman (?!70\.3)/.test(name) && !courses.some((c) => (c.course.distance ?? 0) >= 220_000))
          wrong.push(what);
        if (/^Kilomètre vertical/.test(name) && !courses.some((c) => (c.course.elevationGain ?? 0) >= 900))
          wrong.push(what);
        // The shortest course of a marathon is no children's run.
        if (sport === "marathon" && courses.some((c) => (c.course.distance ?? 0) < 5_000)) wrong.push(what);
      }
      expect(wrong.slice(0, 10)).toEqual([]);
    });

    it("holds the well-known races in their town, in their month, once a year", () => {
      for (const race of FAMOUS_RACES) {
        const editions = defaultCatalogue().filter((e) => e.event.name === race.name);
        const what = `${race.name}: ${editions.map((e) => `${e.event.city} ${e.event.startDate}`).join(", ")}`;
        expect(editions.length, what).toBeGreaterThanOrEqual(2);
        for (const { sport, event } of editions) {
          expect(sport, what).toBe(race.sport);
          expect(event.communeCode, what).toBe(race.communeCode);
          expect(Number((event.originalDate ?? event.startDate)!.slice(5, 7)), what).toBe(race.date.month);
        }
        const years = editions.map((e) => e.event.startDate!.slice(0, 4));
        expect(new Set(years).size, what).toBe(years.length);
      }
      const utmb = defaultCatalogue().find((e) => e.event.name === "UTMB Mont-Blanc" && !e.event.postponed)!;
      expect(utmb.event.city).toBe("Chamonix-Mont-Blanc");
      expect(Number(utmb.event.startDate!.slice(8, 10))).toBeGreaterThanOrEqual(20);
    });

    it("holds about 5,000 events, most of them in the coming year", () => {
      const events = defaultCatalogue();
      expect(events).toHaveLength(DEFAULT_DEMO_EVENTS);
      const coming = events.filter((e) => e.event.startDate! >= "2026-06-01").length;
      expect(coming / events.length).toBeGreaterThan(0.6);
    });

    it("starts courses at the altitude of their place: high in the mountains, low by the sea", () => {
      const starts = new Map<string, number[]>();
      const tops = new Map<string, number[]>();
      for (const { event, points } of tracked()) {
        const code = event.event.departmentCode!;
        starts.set(code, [...(starts.get(code) ?? []), points[0][2]!]);
        tops.set(code, [...(tops.get(code) ?? []), Math.max(...points.map((p) => p[2]!))]);
      }
      const lowest = (code: string) => Math.min(...(starts.get(code) ?? [Number.POSITIVE_INFINITY]));
      const highest = (code: string) => Math.max(...(tops.get(code) ?? [Number.NEGATIVE_INFINITY]));
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      // Floors of the valleys: Limagne (Puy-de-Dôme) above 300 m, the Léman's shore at 372 m, Gap's basin above 550 m.
      for (const [code, floor] of [
        ["63", 300],
        ["74", 360],
        ["05", 500],
        ["15", 380],
      ] as const) {
        expect(starts.get(code)?.length ?? 0, code).toBeGreaterThan(0);
        expect(lowest(code), code).toBeGreaterThanOrEqual(floor);
      }
      // The Alps climb high; their typical start is far above the Atlantic coast's.
      expect(Math.max(highest("73"), highest("74"), highest("05"))).toBeGreaterThan(2_000);
      expect(median([...(starts.get("74") ?? []), ...(starts.get("73") ?? [])])).toBeGreaterThan(500);
      // Courses on coasts and plains stay below the department's highest point (IGN).
      const summits: [string, number][] = [
        ["75", 131],
        ["17", 173],
        ["33", 165],
        ["40", 227],
        ["44", 115],
        ["85", 290],
        ["59", 271],
        ["62", 212],
        ["35", 256],
        ["29", 385],
      ];
      let checked = 0;
      for (const [code, summit] of summits) {
        if (!tops.has(code)) continue;
        checked += tops.get(code)!.length;
        expect(highest(code), code).toBeLessThanOrEqual(summit);
      }
      expect(checked).toBeGreaterThan(20);
    });

    it("draws courses like real ones: loops back to the start, winding lines, climbs of uneven height", () => {
      const tracks = tracked();
      expect(tracks.length).toBeGreaterThan(300);
      let loops = 0;
      for (const { course, points } of tracks) {
        if (course.finishPlace !== course.startPlace) continue;
        loops++;
        const [first, last] = [points[0], points[points.length - 1]];
        expect(haversine(first[1], first[0], last[1], last[0])).toBeLessThan(100);
        expect(Math.abs(first[2]! - last[2]!)).toBeLessThan(5);
      }
      expect(loops).toBeGreaterThan(tracks.length / 2);
      // Sinuosity: length walked over 1 km of line against the straight distance between its ends.
      const sinuosity = (points: TrackPoint[]) => {
        const along = [0];
        for (let i = 1; i < points.length; i++)
          along.push(along[i - 1] + haversine(points[i - 1][1], points[i - 1][0], points[i][1], points[i][0]));
        const ratios: number[] = [];
        for (let i = 0, j = 0; i < points.length; i += 10) {
          while (j < points.length - 1 && along[j] - along[i] < 1_000) j++;
          if (along[j] - along[i] < 900) break;
          ratios.push((along[j] - along[i]) / haversine(points[i][1], points[i][0], points[j][1], points[j][0]));
        }
        return ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
      };
      const windings = tracks.map((t) => sinuosity(t.points)).sort((a, b) => a - b);
      expect(windings[Math.floor(windings.length / 2)]).toBeGreaterThan(1.08);
      expect(windings[Math.floor(windings.length * 0.9)]).toBeLessThan(2);
      // Climbs (rises of more than 5 % of the course's climbing between two low points): not all alike.
      const spreads: number[] = [];
      for (const { event, points } of tracks) {
        if (!TRAILS.has(event.sport)) continue;
        const elevations = points.map((p) => p[2]!);
        const gain = elevations.reduce((s, z, i) => s + Math.max(0, z - (elevations[i - 1] ?? z)), 0);
        const threshold = Math.max(20, gain * 0.05);
        const climbs: number[] = [];
        let low = elevations[0];
        let high = elevations[0];
        for (const z of elevations) {
          if (z > high) high = z;
          if (high - z > threshold) {
            if (high - low > threshold) climbs.push(high - low);
            low = z;
            high = z;
          }
          if (z < low) low = high = z;
        }
        if (high - low > threshold) climbs.push(high - low);
        if (climbs.length < 3) continue;
        const mean = climbs.reduce((s, c) => s + c, 0) / climbs.length;
        spreads.push(Math.sqrt(climbs.reduce((s, c) => s + (c - mean) ** 2, 0) / climbs.length) / mean);
      }
      expect(spreads.length).toBeGreaterThan(50);
      expect(spreads.sort((a, b) => a - b)[Math.floor(spreads.length / 2)]).toBeGreaterThan(0.3);
    });
  });
});
