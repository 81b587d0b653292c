import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ELEVATION_BANDS, SPORTS, type SportKey } from "../../shared/constants.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp } from "../../tests/api/harness.ts";
import {
  DISTANCE_SHORTCUTS,
  type MapResult,
  type SearchItem,
  type SearchResult,
  searchResultSchema,
} from "./search.contract.ts";
import { searchService } from "./search.service.server.ts";

const TODAY = "2026-06-01"; // TEST_REFERENCE_DATE in Paris, a Monday
/** The site's host name, which event UIDs carry. */
const HOST = new URL(publicUrl("/")).hostname;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function db<T>(query: SQL): Promise<T[]> {
  return ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: "GET", url, headers });

async function search(params = ""): Promise<SearchResult> {
  const res = await get(`/api/events?${params}`);
  expect(res.statusCode, `${params}: ${res.body}`).toBe(200);
  return res.json();
}

/** Every matching item, page after page. */
async function all(params = ""): Promise<SearchItem[]> {
  const sep = params ? "&" : "";
  const first = await search(`${params}${sep}perPage=60`);
  const items = [...first.items];
  for (let page = 2; page <= first.pages; page++) {
    items.push(...(await search(`${params}${sep}perPage=60&page=${page}`)).items);
  }
  expect(items).toHaveLength(first.total);
  return items;
}

async function expectBad(url: string, field: string) {
  const res = await get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
  expect(res.json().error, url).toMatchObject({ code: "BAD_REQUEST", field });
}

const family = (key: SportKey): SportKey[] => [key, ...SPORTS.filter((s) => s.parent === key).map((s) => s.key)];
const ACTIVE_UPCOMING = sql`status = 'active' AND NOT cancelled AND end_date >= ${TODAY}::date`;

async function count(where: SQL): Promise<number> {
  const [row] = await db<{ n: number }>(sql`SELECT count(*)::int AS n FROM events e WHERE ${where}`);
  return Number(row?.n);
}

function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const chronological = (items: SearchItem[]) => {
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1] as SearchItem, items[i] as SearchItem];
    expect(a.startDate < b.startDate || (a.startDate === b.startDate && a.id < b.id)).toBe(true);
  }
};

describe("GET /api/events defaults", () => {
  it("answers exactly its documented schema (the route serialises without re-validating)", async () => {
    for (const params of ["", "?sport=trail&page=2", "?place=69123&radius=50", "?elevation=1000-2000&q=lac"]) {
      const response = await get(`/api/events${params}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      // strict: no field beyond the contract leaks out.
      const strict = searchResultSchema.strict().safeParse(body);
      expect(strict.success, JSON.stringify(strict.error?.issues.slice(0, 3))).toBe(true);
      expect(
        body.items.every((item: object) => searchResultSchema.shape.items.element.strict().safeParse(item).success),
      ).toBe(true);
    }
  });

  it("lists active, not cancelled, not finished events, soonest first, with the total and pages", async () => {
    const result = await search();
    expect(result.total).toBe(await count(ACTIVE_UPCOMING));
    expect(result.total).toBeGreaterThan(50);
    expect(result.page).toBe(1);
    expect(result.perPage).toBe(24);
    expect(result.pages).toBe(Math.ceil(result.total / 24));
    expect(result.place).toBeNull();
    const items = await all();
    chronological(items);
    for (const item of items) {
      expect(item.endDate >= TODAY).toBe(true);
      expect(item.state).not.toBe("cancelled");
      expect(item.state).not.toBe("finished");
      expect(item.distanceKm).toBeNull();
    }
    const ids = items.map((i) => i.id);
    const inactive = await db<{ id: number }>(
      sql`SELECT id FROM events WHERE status <> 'active' AND id = ANY(${`{${ids.join(",")}}`}::int[])`,
    );
    expect(inactive).toEqual([]);
  });

  it("gives cards with department names and course distances shortest first", async () => {
    const { items } = await search("perPage=10");
    for (const item of items) {
      const courses = await db<{ distance: number | null }>(
        sql`SELECT distance FROM courses WHERE event_id = ${item.id} AND distance IS NOT NULL ORDER BY distance`,
      );
      expect(item.distances).toEqual(courses.map((c) => c.distance));
      if (item.departmentCode) expect(item.departmentName).toBeTruthy();
    }
  });

  it("paginates: pages follow each other without overlap", async () => {
    const whole = (await search("perPage=30")).items;
    const p1 = (await search("perPage=10&page=1")).items;
    const p2 = (await search("perPage=10&page=2")).items;
    const p3 = (await search("perPage=10&page=3")).items;
    expect([...p1, ...p2, ...p3].map((i) => i.id)).toEqual(whole.map((i) => i.id));
    const last = await search("perPage=10&page=1");
    const lastPage = await search(`perPage=10&page=${last.pages}`);
    expect(lastPage.items.length).toBe(last.total - 10 * (last.pages - 1));
  });

  it("sorts newest first on demand", async () => {
    const oldest = await all("");
    const newest = await all("sort=newest");
    expect(newest.map((i) => i.id)).toEqual([...oldest].reverse().map((i) => i.id));
  });
});

describe("filters", () => {
  it("sport: a parent includes its sub-sports, several sports combine", async () => {
    for (const key of ["trail", "running", "triathlon"] as const) {
      const items = await all(`sport=${key}`);
      const allowed = family(key);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(allowed).toContain(item.sport);
      const ids = SPORTS.filter((s) => allowed.includes(s.key)).map((s) => s.key);
      expect(items.length).toBe(
        await count(
          sql`${ACTIVE_UPCOMING} AND sport_id IN (SELECT id FROM sports WHERE key = ANY(${`{${ids}}`}::text[]))`,
        ),
      );
    }
    const marathons = await all("sport=marathon");
    expect(marathons.every((i) => i.sport === "marathon")).toBe(true);
    const both = await all("sport=swimrun,cycling");
    const repeated = await all("sport=swimrun&sport=cycling");
    expect(both.every((i) => i.sport === "swimrun" || i.sport === "cycling")).toBe(true);
    expect(repeated.map((i) => i.id)).toEqual(both.map((i) => i.id));
    expect(both.length).toBe((await all("sport=swimrun")).length + (await all("sport=cycling")).length);
  });

  it("region and department, by code or slug", async () => {
    const [top] = await db<{ region_code: string; department_code: string }>(
      sql`SELECT region_code, department_code FROM events WHERE ${ACTIVE_UPCOMING}
          GROUP BY 1, 2 ORDER BY count(*) DESC, 2 LIMIT 1`,
    );
    if (!top) throw new Error("no events");
    const [names] = await db<{ region: string; department: string }>(
      sql`SELECT r.slug AS region, d.slug AS department FROM regions r, departments d
          WHERE r.code = ${top.region_code} AND d.code = ${top.department_code}`,
    );
    const byCode = await all(`region=${top.region_code}`);
    const bySlug = await all(`region=${names?.region}`);
    expect(bySlug.map((i) => i.id)).toEqual(byCode.map((i) => i.id));
    expect(byCode.length).toBe(await count(sql`${ACTIVE_UPCOMING} AND region_code = ${top.region_code}`));
    const regionDepartments = (
      await db<{ code: string }>(sql`SELECT code FROM departments WHERE region_code = ${top.region_code}`)
    ).map((d) => d.code);
    for (const item of byCode) expect(regionDepartments).toContain(item.departmentCode);

    const department = await all(`department=${top.department_code}`);
    expect((await all(`department=${names?.department}`)).map((i) => i.id)).toEqual(department.map((i) => i.id));
    expect(department.length).toBeGreaterThan(0);
    expect(department.every((i) => i.departmentCode === top.department_code)).toBe(true);
    // Both together: the department within its region.
    expect((await all(`region=${top.region_code}&department=${top.department_code}`)).length).toBe(department.length);
  });

  it("around a commune, a postal code or coordinates: every result within the radius, nearest first", async () => {
    const grenoble = { lat: 45.182122, lng: 5.721331 };
    const result = await search("place=38185&radius=100&sort=distance&perPage=60");
    expect(result.place).toMatchObject({ code: "38185", name: "Grenoble", radius: 100, kind: "commune" });
    expect(result.total).toBeGreaterThan(0);
    const distances = result.items.map((i) => i.distanceKm as number);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const item of result.items) {
      expect(item.distanceKm).toBeLessThanOrEqual(100);
      expect(haversineKm(grenoble, item as { lat: number; lng: number })).toBeLessThan(100.5);
      expect(
        Math.abs(haversineKm(grenoble, item as { lat: number; lng: number }) - (item.distanceKm as number)),
      ).toBeLessThan(0.5);
    }
    const direct = await count(
      sql`${ACTIVE_UPCOMING} AND earth_distance(ll_to_earth(${grenoble.lat}, ${grenoble.lng}), ll_to_earth(lat, lng)) <= 100000`,
    );
    expect(result.total).toBe(direct);

    // Grenoble's postal code resolves to Grenoble.
    const postal = await search("place=38000&radius=100&sort=distance&perPage=60");
    expect(postal.place).toMatchObject({ code: "38185", kind: "postal_code" });
    expect(postal.items.map((i) => i.id)).toEqual(result.items.map((i) => i.id));

    // Coordinates are named after the nearest commune.
    const coords = await search(`lat=${grenoble.lat}&lng=${grenoble.lng}&radius=100&sort=distance&perPage=60`);
    expect(coords.place).toMatchObject({ name: "Grenoble", kind: "coordinates", lat: grenoble.lat, radius: 100 });
    expect(coords.items.map((i) => i.id)).toEqual(result.items.map((i) => i.id));

    // A wider radius finds at least as many; the default radius is 30 km.
    expect((await search("place=38185&radius=200")).total).toBeGreaterThanOrEqual(result.total);
    expect((await search("place=38185")).place?.radius).toBe(30);
  });

  it("distance shortcuts and range: an event matches when one of its courses does", async () => {
    for (const key of ["10k", "half", "marathon", "ultra"] as const) {
      const [min, max] = DISTANCE_SHORTCUTS[key];
      const items = await all(`distance=${key}`);
      for (const item of items) {
        expect(
          item.distances.some((d) => d >= min && (max === null || d <= max)),
          `${key} ${item.distances}`,
        ).toBe(true);
      }
      const upper = max ?? 1e9;
      expect(items.length).toBe(
        await count(
          sql`${ACTIVE_UPCOMING} AND EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id AND c.distance BETWEEN ${min} AND ${upper})`,
        ),
      );
    }
    const range = await all("distanceMin=20&distanceMax=30");
    expect(range.length).toBeGreaterThan(0);
    for (const item of range) expect(item.distances.some((d) => d >= 20_000 && d <= 30_000)).toBe(true);
    const several = await all("distance=10k,marathon");
    expect(several.length).toBe(
      await count(
        sql`${ACTIVE_UPCOMING} AND EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id
              AND (c.distance BETWEEN 9500 AND 10500 OR c.distance BETWEEN 42000 AND 42300))`,
      ),
    );
  });

  it("elevation bands: a course of the event is in one of the bands", async () => {
    for (const band of ELEVATION_BANDS) {
      const items = await all(`elevation=${band.key}`);
      if (!items.length) continue;
      const ids = `{${items.map((i) => i.id).join(",")}}`;
      const matching = await db<{ event_id: number }>(
        sql`SELECT DISTINCT event_id FROM courses WHERE event_id = ANY(${ids}::int[])
            AND elevation_gain >= ${band.min} AND elevation_gain < ${band.max ?? 1e9}`,
      );
      expect(matching.length, band.key).toBe(items.length);
    }
    const two = await all("elevation=500-1000,1000-2000");
    const each = new Set(
      [...(await all("elevation=500-1000")), ...(await all("elevation=1000-2000"))].map((i) => i.id),
    );
    expect(new Set(two.map((i) => i.id))).toEqual(each);
  });

  it("distance and elevation apply to the same course", async () => {
    const items = await all("distanceMax=15&elevation=500-1000");
    expect(items.length).toBe(
      await count(
        sql`${ACTIVE_UPCOMING} AND EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id
              AND c.distance <= 15000 AND c.elevation_gain >= 500 AND c.elevation_gain < 1000)`,
      ),
    );
  });

  it("date range: events overlapping it, finished ones when it starts in the past", async () => {
    const items = await all("from=2026-07-01&to=2026-07-31");
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.startDate <= "2026-07-31" && item.endDate >= "2026-07-01").toBe(true);
    expect(items.length).toBe(
      await count(sql`${ACTIVE_UPCOMING} AND start_date <= '2026-07-31' AND end_date >= '2026-07-01'`),
    );
    // Starting in the past implies past events: all finished, those postponed to a date now
    // past too (the range holds some).
    const past = await all("from=2026-03-01&to=2026-05-31");
    expect(past.length).toBeGreaterThan(0);
    const postponed = await db<{ id: number }>(
      sql`SELECT id FROM events WHERE status = 'active' AND NOT cancelled AND postponed
            AND start_date <= '2026-05-31' AND end_date >= '2026-03-01'`,
    );
    expect(postponed.length).toBeGreaterThan(0);
    expect(past.map((i) => i.id)).toEqual(expect.arrayContaining(postponed.map((p) => p.id)));
    for (const item of past) {
      expect(item.startDate <= "2026-05-31" && item.endDate >= "2026-03-01").toBe(true);
      expect(item.state).toBe("finished");
    }
    // Unless past=0 says otherwise.
    expect((await search("from=2026-03-01&to=2026-05-31&past=0")).total).toBe(0);
  });

  it("quick ranges: ISO weeks from Monday and calendar months, from the Paris date", async () => {
    const week = await all("range=this_week");
    for (const item of week) expect(item.startDate <= "2026-06-07" && item.endDate >= TODAY).toBe(true);
    expect(week.length).toBe(await count(sql`${ACTIVE_UPCOMING} AND start_date <= '2026-06-07'`));
    const nextWeek = await all("range=next_week");
    for (const item of nextWeek) expect(item.startDate <= "2026-06-14" && item.endDate >= "2026-06-08").toBe(true);
    const nextMonth = await all("range=next_month");
    expect(nextMonth.length).toBeGreaterThan(0);
    for (const item of nextMonth) expect(item.startDate <= "2026-07-31" && item.endDate >= "2026-07-01").toBe(true);
    const previousMonth = await all("range=previous_month");
    expect(previousMonth.length).toBeGreaterThan(0);
    for (const item of previousMonth) {
      expect(item.startDate <= "2026-05-31" && item.endDate >= "2026-05-01").toBe(true);
    }
    // The Paris date decides: 23:30 UTC on Sunday 31 May is already Monday 1 June in Paris.
    const late = await createTestApp({ clock: () => new Date("2026-05-31T23:30:00Z") });
    try {
      const res = await late.app.inject({ method: "GET", url: "/api/events?range=this_week&perPage=60" });
      expect(res.json().total).toBe(week.length);
    } finally {
      await late.close();
    }
  });

  it("scope, cancelled and past", async () => {
    const scoped = await all("scope=national,international");
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((i) => i.scope === "national" || i.scope === "international")).toBe(true);

    const withCancelled = await all("cancelled=1");
    const cancelled = withCancelled.filter((i) => i.state === "cancelled");
    expect(withCancelled.length).toBe((await search()).total + cancelled.length);
    expect(cancelled.length).toBe(await count(sql`status = 'active' AND cancelled AND end_date >= ${TODAY}::date`));

    const past = await search("past=1");
    expect(past.total).toBe(await count(sql`status = 'active' AND NOT cancelled`));
    expect(past.items[0]?.state).toBe("finished");
  });

  it("combines every filter", async () => {
    const params = "sport=trail&region=84&from=2026-06-01&to=2026-12-31&distanceMin=10&elevation=500-1000,1000-2000";
    const items = await all(params);
    expect(items.length).toBeGreaterThan(0);
    const allowed = family("trail");
    for (const item of items) {
      expect(allowed).toContain(item.sport);
      expect(item.startDate <= "2026-12-31").toBe(true);
    }
    expect(items.length).toBe(
      await count(
        sql`${ACTIVE_UPCOMING} AND region_code = '84' AND start_date <= '2026-12-31'
            AND sport_id IN (SELECT id FROM sports WHERE key IN ('trail', 'short_trail', 'ultra_trail'))
            AND EXISTS (SELECT 1 FROM courses c WHERE c.event_id = e.id AND c.distance >= 10000
              AND c.elevation_gain >= 500 AND c.elevation_gain < 2000)`,
      ),
    );
    const around = await all("sport=running&place=75056&radius=50&sort=distance&range=next_month");
    for (const item of around) {
      expect(family("running")).toContain(item.sport);
      expect(item.distanceKm).toBeLessThanOrEqual(50);
      expect(item.startDate <= "2026-07-31" && item.endDate >= "2026-07-01").toBe(true);
    }
  });
});

describe("text search", () => {
  it("finds an event by its name without accents, in another case, with a typo", async () => {
    const [target] = await db<{ id: number; name: string }>(
      sql`SELECT id, name FROM events WHERE ${ACTIVE_UPCOMING} AND name ~ '[éèêàô]' AND name ~ ' .* '
          ORDER BY id LIMIT 1`,
    );
    if (!target) throw new Error("no accented name");
    const plain = target.name.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    const longest = plain.split(/[\s'-]+/).sort((a, b) => b.length - a.length)[0] as string;
    // One typo: two letters swapped in the longest word.
    const typo = `${longest.slice(0, 2)}${longest[3]}${longest[2]}${longest.slice(4)}`;
    for (const q of [target.name, plain.toLowerCase(), plain.toUpperCase(), plain.replace(longest, typo)]) {
      const { items } = await search(`q=${encodeURIComponent(q)}&perPage=60`);
      expect(
        items.map((i) => i.id),
        q,
      ).toContain(target.id);
      const ranked = await search(`q=${encodeURIComponent(q)}&sort=relevance&perPage=3`);
      expect(
        ranked.items.map((i) => i.id),
        `${q} (relevance)`,
      ).toContain(target.id);
    }
  });

  it("forgives two letters swapped inside a long word, without widening the search", async () => {
    // Trigrams alone missed "L'Ecahppee du Mont Lozere" for "L'Échappée du Mont Lozère".
    const targets = await db<{ id: number; name: string }>(
      sql`SELECT id, name FROM events WHERE ${ACTIVE_UPCOMING} AND immutable_unaccent(name) ~ '[[:alpha:]]{8,}'
          ORDER BY id LIMIT 6`,
    );
    expect(targets.length).toBe(6);
    for (const target of targets) {
      const plain = target.name.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      const longest = plain.split(/[^A-Za-z]+/).sort((a, b) => b.length - a.length)[0] as string;
      // Two different neighbouring letters swapped in the middle of the word.
      let i = Math.floor(longest.length / 2) - 1;
      while (longest[i] === longest[i + 1]) i++;
      const typo = `${longest.slice(0, i)}${longest[i + 1]}${longest[i]}${longest.slice(i + 2)}`;
      const q = plain.replace(longest, typo);
      const ranked = await search(`q=${encodeURIComponent(q)}&sort=relevance&perPage=3`);
      expect(
        ranked.items.map((i) => i.id),
        q,
      ).toContain(target.id);
      // The misspelt word alone finds the race, and nothing the right word would not find.
      const misspelt = (await all(`q=${encodeURIComponent(typo)}`)).map((i) => i.id);
      const right = new Set((await all(`q=${encodeURIComponent(longest)}`)).map((i) => i.id));
      expect(misspelt, typo).toContain(target.id);
      expect(
        misspelt.filter((id) => !right.has(id)),
        `${typo} beyond ${longest}`,
      ).toEqual([]);
    }
  });

  it("matches French stems and towns; nonsense matches nothing", async () => {
    const [event] = await db<{ id: number; city: string }>(
      sql`SELECT id, city FROM events WHERE ${ACTIVE_UPCOMING} AND sport_id = (SELECT id FROM sports WHERE key = 'trail')
          AND city !~ '[- ]' ORDER BY id LIMIT 1`,
    );
    if (!event) throw new Error("no trail");
    const byTown = await all(`q=${encodeURIComponent(event.city)}`);
    expect(byTown.map((i) => i.id)).toContain(event.id);
    // Plural and singular share a stem.
    const trails = await search("q=trails");
    const trail = await search("q=trail");
    expect(trails.total).toBe(trail.total);
    // Words that match nothing give nothing, alone or beside a town.
    expect((await search("q=zzqxw")).total).toBe(0);
    expect((await search(`q=${encodeURIComponent(`${event.city} zzqxwvkjyhzzqxwvkjyh`)}`)).total).toBe(0);
  });

  it("answers the next query after a trigram query (no hang)", async () => {
    await search("q=marathn");
    const started = Date.now();
    await search("sport=trail");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("never fails on odd text", async () => {
    for (const q of [
      "'",
      '"',
      "%",
      "_",
      "\\",
      "&|!",
      "a & b | !c",
      "-trail",
      "::",
      "(",
      "🏃‍♀️",
      "de la",
      "é",
      "3km",
      "h2o",
      "İstanbul",
      "ﬁnale",
      "日本語",
    ]) {
      const res = await get(`/api/events?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
    }
    // A NUL cannot be stored or searched: refused at the edge, naming the field.
    const nul = await get(`/api/events?q=${encodeURIComponent("\u0000x")}`);
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error).toMatchObject({ code: "BAD_REQUEST", field: "q" });
  });

  it("« marathon paris » finds one Marathon de Paris a year, in April, and no race twice in a year", async () => {
    // Read as the search box reads it (the home page's redirect), past editions included.
    const understood = await t.app.services.searchText.interpret({ q: "marathon paris" }, TODAY);
    expect(understood?.query).toEqual({ sport: ["marathon"], place: "75056" });
    const around = await all("sport=marathon&place=75056&past=1");
    // And as typed, the words searched in the races' names and places.
    const typed = await all(`q=${encodeURIComponent("marathon paris")}&past=1`);
    for (const items of [around, typed]) {
      const paris = items.filter((item) => item.name === "Marathon de Paris");
      expect(paris.map((item) => item.startDate.slice(0, 4))).toEqual(["2025", "2026", "2027"]);
      for (const item of paris) {
        expect(item.startDate.slice(5, 7)).toBe("04");
        expect(item.city).toBe("Paris");
      }
      const editions = items.map((item) => `${item.name} ${item.startDate.slice(0, 4)}`);
      expect(editions.length).toBe(new Set(editions).size);
    }
    // Paris's marathon is the only one around: the nearest other is 30 km away (from town hall to town hall).
    for (const item of around) if (item.name !== "Marathon de Paris") expect(item.distanceKm).toBeGreaterThan(28);
  });
});

describe("facets", () => {
  it("count per sport, region and elevation band; sport counts add up to the total", async () => {
    const result = await search();
    const sportSum = Object.values(result.facets.sport).reduce((a, b) => a + b, 0);
    expect(sportSum).toBe(result.total);
    const regionSum = Object.values(result.facets.region).reduce((a, b) => a + b, 0);
    expect(regionSum).toBe(result.total);
    for (const [band, n] of Object.entries(result.facets.elevation)) {
      expect((await search(`elevation=${band}`)).total, band).toBe(n);
    }
  });

  it("leave out their own dimension and keep the others", async () => {
    const filtered = await search("sport=trail&region=84&elevation=500-1000");
    // The sport facet ignores the sport filter: each count is the events of exactly that sport,
    // so choosing a sport gives its count plus its sub-sports' counts.
    for (const sport of Object.keys(filtered.facets.sport) as SportKey[]) {
      const expected = family(sport).reduce((sum, key) => sum + (filtered.facets.sport[key] ?? 0), 0);
      expect((await search(`sport=${sport}&region=84&elevation=500-1000`)).total, sport).toBe(expected);
    }
    const trailFamily = family("trail").reduce((sum, key) => sum + (filtered.facets.sport[key] ?? 0), 0);
    expect(trailFamily).toBe(filtered.total);
    // The region facet ignores the region filter.
    for (const [region, n] of Object.entries(filtered.facets.region)) {
      expect((await search(`sport=trail&region=${region}&elevation=500-1000`)).total, region).toBe(n);
    }
    expect(filtered.facets.region["84"]).toBe(filtered.total);
    // The elevation facet ignores the elevation filter.
    for (const [band, n] of Object.entries(filtered.facets.elevation)) {
      expect((await search(`sport=trail&region=84&elevation=${band}`)).total, band).toBe(n);
    }
    // And every facet follows the other filters (dates here).
    const july = await search("from=2026-07-01&to=2026-07-31");
    expect(Object.values(july.facets.sport).reduce((a, b) => a + b, 0)).toBe(july.total);
  });

  it("follow a distance filter in every count", async () => {
    const result = await search("distance=half");
    expect(Object.values(result.facets.sport).reduce((a, b) => a + b, 0)).toBe(result.total);
    for (const [band, n] of Object.entries(result.facets.elevation)) {
      expect((await search(`distance=half&elevation=${band}`)).total, band).toBe(n);
    }
  });
});

describe("elevation band mask (events.elevation_bands)", () => {
  /** Events whose mask differs from the bands of their courses. */
  async function stale(): Promise<number> {
    const [row] = await db<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM events e WHERE e.elevation_bands <> coalesce((
            SELECT bit_or(1 << width_bucket(c.elevation_gain, ARRAY[100, 500, 1000, 2000, 5000, 10000]))
            FROM courses c WHERE c.event_id = e.id AND c.elevation_gain IS NOT NULL), 0)`,
    );
    return Number(row?.n);
  }

  it("is the bands of each event's courses", async () => {
    expect(await db(sql`SELECT 1 FROM events WHERE elevation_bands <> 0 LIMIT 1`)).toHaveLength(1);
    expect(await stale()).toBe(0);
  });

  it("follows course inserts, updates and deletes in the facet and the filter", async () => {
    // A service without cached counts, on the test app's database and date.
    const service = searchService(t.database.db, () => TEST_REFERENCE_DATE, { countCacheMs: 0 });
    const top = "gt10000" as const;
    const [a, b] = await db<{ id: number }>(
      sql`SELECT id FROM events e WHERE ${ACTIVE_UPCOMING} AND NOT EXISTS (
            SELECT 1 FROM courses c WHERE c.event_id = e.id AND c.elevation_gain >= 10000) ORDER BY id LIMIT 2`,
    );
    const [idA, idB] = [Number(a?.id), Number(b?.id)];
    const state = async () => {
      const facet = (await service.search({})).facets.elevation[top] ?? 0;
      const filtered = await service.search({ elevation: [top], perPage: 60 });
      const markers = (await service.mapMarkers({ elevation: [top] })).markers.map((m) => m.id);
      const ids = filtered.items.map((i) => i.id);
      expect(filtered.total).toBe(facet);
      return { facet, hasA: ids.includes(idA), hasB: ids.includes(idB), markers };
    };
    const before = await state();
    expect(before).toMatchObject({ hasA: false, hasB: false });
    const inserted = await db<{ id: number }>(
      sql`INSERT INTO courses (event_id, name, elevation_gain)
          VALUES (${idA}, 'Mask test A', 12000), (${idB}, 'Mask test B', 15000) RETURNING id`,
    );
    const ids = inserted.map((r) => Number(r.id));
    try {
      expect(await state()).toMatchObject({ facet: before.facet + 2, hasA: true, hasB: true });
      // An update of the gain out of the band, and a course moving to another event.
      await db(sql`UPDATE courses SET elevation_gain = NULL WHERE id = ${ids[0]}`);
      expect(await state()).toMatchObject({ facet: before.facet + 1, hasA: false, hasB: true });
      await db(sql`UPDATE courses SET event_id = ${idA} WHERE id = ${ids[1]}`);
      const moved = await state();
      expect(moved).toMatchObject({ facet: before.facet + 1, hasA: true, hasB: false });
      expect(moved.markers.includes(idA) || !(await count(sql`e.id = ${idA} AND e.lat IS NOT NULL`))).toBe(true);
      expect(await stale()).toBe(0);
    } finally {
      await db(sql`DELETE FROM courses WHERE id = ANY(${`{${ids.join(",")}}`}::int[])`);
    }
    expect(await state()).toEqual(before);
    expect(await stale()).toBe(0);
  });
});

describe("bad input", () => {
  it("answers 400 naming the field, in the caller's language", async () => {
    const cases: [string, string][] = [
      ["sport=skiing", "sport"],
      ["sport=trail,skiing", "sport"],
      ["region=99", "region"],
      ["region=atlantis", "region"],
      ["department=00", "department"],
      ["place=99999", "place"],
      ["place=grenoble", "place"],
      ["from=2026-08-01&to=2026-07-01", "to"],
      ["from=2026-02-30", "from"],
      ["from=01/06/2026", "from"],
      ["radius=30", "radius"],
      ["radius=500&place=38185", "radius"],
      ["radius=0&place=38185", "radius"],
      ["lat=45.1", "lng"],
      ["lng=5.7", "lat"],
      ["lat=north&lng=5", "lat"],
      ["lat=95&lng=5", "lat"],
      ["sort=distance", "sort"],
      ["sort=random", "sort"],
      ["distanceMin=30&distanceMax=10", "distanceMin"],
      ["distance=3k", "distance"],
      ["elevation=everest", "elevation"],
      ["range=tomorrow", "range"],
      ["scope=galactic", "scope"],
      ["cancelled=maybe", "cancelled"],
      ["page=0", "page"],
      ["page=abc", "page"],
      ["page=9999", "page"],
      ["perPage=1000", "perPage"],
      [`q=${"x".repeat(101)}`, "q"],
    ];
    for (const [params, field] of cases) await expectBad(`/api/events?${params}`, field);
    const en = await get("/api/events?sport=skiing", { "accept-language": "en" });
    expect(en.json().error.message).toBe("Choose a sport from the list.");
  });

  it("an empty result has no page past its end", async () => {
    const empty = await search("q=zzqxwzzqxw&page=3");
    expect(empty).toMatchObject({ total: 0, pages: 0, items: [] });
  });

  it("empty values count as absent", async () => {
    const result = await search("lat=&lng=&radius=&page=&distanceMin=&sport=");
    expect(result.total).toBe((await search()).total);
    expect(result.place).toBeNull();
  });
});

describe("GET /api/events/map", () => {
  it("sends a light marker with coordinates for every matching event", async () => {
    const res = await get("/api/events/map?sport=trail");
    expect(res.statusCode).toBe(200);
    const body: MapResult = res.json();
    const items = await all("sport=trail");
    expect(body.truncated).toBe(false);
    expect(body.total).toBe(items.filter((i) => i.lat !== null).length);
    expect(body.markers).toHaveLength(body.total);
    expect(new Set(body.markers.map((m) => m.id))).toEqual(
      new Set(items.filter((i) => i.lat !== null).map((i) => i.id)),
    );
    for (const marker of body.markers) {
      expect(Object.keys(marker).sort()).toEqual(["id", "lat", "lng", "name", "slug", "sport", "startDate"]);
      expect(family("trail")).toContain(marker.sport);
      expect(Math.abs(marker.lat)).toBeLessThanOrEqual(90);
    }
  });

  it("refuses the same bad input as the search, and unknown formats", async () => {
    await expectBad("/api/events/map?sport=skiing", "sport");
    await expectBad("/api/events/pdf", "format");
  });
});

describe("GET /api/events/ics", () => {
  const unfold = (body: string) => body.replace(/\r\n /g, "").split("\r\n").slice(0, -1);
  /** The UIDs of an event's entries: one per course (features/events/race-ics.ts, decision 022). */
  const raceUids = async (eventId: number): Promise<string[]> => {
    const { rows } = await t.database.db.execute<{ id: number }>(
      sql`SELECT id FROM courses WHERE event_id = ${eventId} ORDER BY position, id`,
    );
    return rows.length ? rows.map((r) => `course-${r.id}@${HOST}`) : [`event-${eventId}@${HOST}`];
  };
  /** One VEVENT's lines, by UID. */
  const eventBlock = (lines: string[], uid: string) => {
    const at = lines.indexOf(`UID:${uid}`);
    const start = lines.lastIndexOf("BEGIN:VEVENT", at);
    return lines.slice(start, lines.indexOf("END:VEVENT", at));
  };

  it("is a valid iCalendar feed of the search", async () => {
    const res = await get("/api/events/ics?sport=trail&cancelled=1");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    const body = res.body;
    expect(body.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(body.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(body.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of body.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);

    const lines = unfold(body);
    expect(lines).toContain("VERSION:2.0");
    expect(lines.some((l) => l.startsWith("PRODID:"))).toBe(true);
    const items = await all("sport=trail&cancelled=1");
    const events = lines.filter((l) => l === "BEGIN:VEVENT").length;
    expect(lines.filter((l) => l === "END:VEVENT").length).toBe(events);
    const uids = lines.filter((l) => l.startsWith("UID:"));
    expect(new Set(uids).size).toBe(events);
    // Every race of every event found, and nothing else.
    const expected = (await Promise.all(items.map((item) => raceUids(item.id)))).flat();
    expect(uids.sort()).toEqual(expected.map((uid) => `UID:${uid}`).sort());

    const first = items[0] as SearchItem;
    const block = eventBlock(lines, (await raceUids(first.id))[0] as string);
    const value = (name: string) => block.find((l) => l.startsWith(name))?.replace(/^[^:]*:/, "");
    // The race's day (or start, in UTC) within the event's days.
    const day = value("DTSTART")?.slice(0, 8) ?? "";
    expect(day >= first.startDate.replaceAll("-", "") && day <= first.endDate.replaceAll("-", "")).toBe(true);
    expect(String(value("DTEND")) > String(value("DTSTART"))).toBe(true);
    expect(value("URL")).toMatch(new RegExp(`/course/${first.slug}$`));
    expect(value("SUMMARY")).toBeTruthy();

    const cancelled = items.find((i) => i.state === "cancelled");
    if (cancelled)
      for (const uid of await raceUids(cancelled.id)) expect(eventBlock(lines, uid)).toContain("STATUS:CANCELLED");
    expect(lines.filter((l) => l.startsWith("DTSTAMP:")).length).toBe(events);
  });

  it("gives each race of an event the same UID, STATUS, title and dates as its event's .ics file", async () => {
    const feed = unfold((await get("/api/events/ics?cancelled=1")).body);
    const items = await all("cancelled=1");
    const picks = [items.find((i) => i.state === "cancelled"), items.find((i) => i.state === "postponed"), items[0]];
    for (const item of picks.filter((i): i is SearchItem => Boolean(i))) {
      const own = unfold((await get(`/api/event/${item.id}/ics`)).body);
      for (const uid of await raceUids(item.id)) {
        const fields = (lines: string[]) =>
          eventBlock(lines, uid).filter((l) => /^(UID|STATUS|SUMMARY|DTSTART|DTEND)[:;]/.test(l));
        expect(fields(feed), item.name).toEqual(fields(own));
        expect(fields(own)).toContain(`UID:${uid}`);
      }
    }
  });

  it("says when it holds only part of its search, and pages through the rest", async () => {
    const small = searchService(t.database.db, () => new Date(`${TODAY}T10:00:00Z`), { icsPageSize: 40 });
    const total = (await search("perPage=1")).total;
    expect(total).toBeGreaterThan(80);
    const first = await small.ics({}, "fr");
    expect(first).toMatchObject({ total, page: 1, pages: Math.ceil(total / 40) });
    const lines = unfold(first.body);
    // 40 events, each with all its races.
    expect(lines.filter((l) => l === "BEGIN:VEVENT").length).toBeGreaterThanOrEqual(40);
    expect(lines.find((l) => l.startsWith("X-WR-CALDESC:"))).toContain(`les courses 1 à 40 sur ${total}`);
    const second = unfold((await small.ics({ page: 2 }, "fr")).body);
    const uids = (l: string[]) => l.filter((x) => x.startsWith("UID:"));
    expect(uids(second).length).toBeGreaterThanOrEqual(40);
    expect(uids(second).some((u) => uids(lines).includes(u))).toBe(false);
    await expect(small.ics({ page: 999 }, "fr")).rejects.toMatchObject({ code: "BAD_REQUEST", field: "page" });
    // The whole search in one feed: no "part of" notice, no next link.
    const whole = await get("/api/events/ics");
    expect(whole.headers.link).toBeUndefined();
    expect(whole.headers["x-total-count"]).toBe(String(total));
  });

  it("links to the English pages in English", async () => {
    const res = await get("/api/events/ics?range=this_week", { "accept-language": "en" });
    const lines = unfold(res.body);
    expect(lines.filter((l) => l.startsWith("URL:")).every((l) => l.includes("/en/race/"))).toBe(true);
    expect(lines).toContain("X-WR-CALNAME:Dossard · Race calendar");
  });
});

describe("GET /api/events/around/{req}", () => {
  it("searches around an INSEE code, a postal code or coordinates, nearest first", async () => {
    const byCode = await get("/api/events/around/38185?radius=100&perPage=60");
    expect(byCode.statusCode).toBe(200);
    const result: SearchResult = byCode.json();
    expect(result.place).toMatchObject({ code: "38185", radius: 100 });
    const distances = result.items.map((i) => i.distanceKm as number);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(distances.every((d) => d <= 100)).toBe(true);
    const byPostal: SearchResult = (await get("/api/events/around/38000?radius=100&perPage=60")).json();
    expect(byPostal.items.map((i) => i.id)).toEqual(result.items.map((i) => i.id));
    const byCoords: SearchResult = (await get("/api/events/around/45.182122,5.721331?radius=100&perPage=60")).json();
    expect(byCoords.items.map((i) => i.id)).toEqual(result.items.map((i) => i.id));
    expect((await get("/api/events/around/38185")).json().place.radius).toBe(30);
    // Other filters still apply.
    const trails: SearchResult = (await get("/api/events/around/38185?radius=100&sport=trail&perPage=60")).json();
    expect(trails.items.every((i) => family("trail").includes(i.sport))).toBe(true);
  });

  it("refuses an unknown place as the field req", async () => {
    await expectBad("/api/events/around/99999", "req");
    await expectBad("/api/events/around/grenoble", "req");
    await expectBad("/api/events/around/95,400", "req");
    await expectBad("/api/events/around/38185?radius=900", "radius");
  });
});

describe("GET /api/events_group/{type}", () => {
  const group = async (type: string, limit = 100) => {
    const res = await get(`/api/events_group/${type}?limit=${limit}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { events: SearchItem[]; search: Record<string, unknown> };
  };

  it("keeps upcoming as before", async () => {
    const { events } = await group("upcoming", 5);
    expect(events).toHaveLength(5);
    expect(events.every((e) => e.startDate >= TODAY)).toBe(true);
  });

  it("this weekend and next weekend: events on their Saturday or Sunday", async () => {
    const thisWeekend = await group("this_weekend");
    expect(thisWeekend.search).toEqual({ from: "2026-06-06", to: "2026-06-07" });
    expect(thisWeekend.events.length).toBeGreaterThan(0);
    for (const e of thisWeekend.events) expect(e.startDate <= "2026-06-07" && e.endDate >= "2026-06-06").toBe(true);
    const nextWeekend = await group("next_weekend");
    expect(nextWeekend.search).toEqual({ from: "2026-06-13", to: "2026-06-14" });
    for (const e of nextWeekend.events) expect(e.startDate <= "2026-06-14" && e.endDate >= "2026-06-13").toBe(true);
    expect(thisWeekend.events.length).toBe((await search("from=2026-06-06&to=2026-06-07&perPage=60")).total);
  });

  it("new: the most recently listed events not finished yet", async () => {
    const { events } = await group("new", 10);
    const expected = await db<{ id: number }>(
      sql`SELECT id FROM events WHERE ${ACTIVE_UPCOMING} ORDER BY created_at DESC, id DESC LIMIT 10`,
    );
    expect(events.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });

  it("by sport, sub-sports included; unknown groups refused", async () => {
    const { events, search: query } = await group("sport-trail", 50);
    expect(query).toEqual({ sport: ["trail"] });
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => family("trail").includes(e.sport))).toBe(true);
    chronological(events);
    await expectBad("/api/events_group/sport-skiing", "type");
    await expectBad("/api/events_group/yesterday", "type");
  });
});

describe("GET /api/filters", () => {
  it("lists every option with the count choosing it would give", async () => {
    const res = await get("/api/filters");
    expect(res.statusCode).toBe(200);
    const filters = res.json();
    expect(filters.sports).toHaveLength(11);
    for (const sport of filters.sports) {
      expect((await search(`sport=${sport.key}`)).total, sport.key).toBe(sport.count);
    }
    const region = filters.regions.find((r: { code: string }) => r.code === "84");
    expect(region.count).toBe((await search("region=84")).total);
    const department = filters.departments.find((d: { code: string }) => d.code === "38");
    expect(department).toMatchObject({ name: "Isère", regionCode: "84" });
    expect(department.count).toBe((await search("department=38")).total);
    for (const band of filters.elevation) {
      expect((await search(`elevation=${band.key}`)).total, band.key).toBe(band.count);
    }
    for (const distance of filters.distances) {
      expect((await search(`distance=${distance.key}`)).total, distance.key).toBe(distance.count);
    }
    for (const scope of filters.scopes) expect((await search(`scope=${scope.key}`)).total).toBe(scope.count);
  });

  it("counts with the other current filters", async () => {
    const filters = (await get("/api/filters?sport=trail&range=next_month")).json();
    const department = filters.departments.find((d: { count: number }) => d.count > 0);
    expect((await search(`sport=trail&range=next_month&department=${department.code}`)).total).toBe(department.count);
    const running = filters.sports.find((s: { key: string }) => s.key === "running");
    expect((await search("sport=running&range=next_month")).total).toBe(running.count);
    await expectBad("/api/filters?region=atlantis", "region");
  });
});

describe("GET /api/context and the API docs", () => {
  it("gives languages, sports, regions, no user and the map style", async () => {
    const res = await get("/api/context", { "accept-language": "en" });
    expect(res.statusCode).toBe(200);
    const context = res.json();
    expect(context.languages).toEqual([
      { code: "fr", name: "Français" },
      { code: "en", name: "English" },
    ]);
    expect(context.defaultLanguage).toBe("fr");
    expect(context.locale).toBe("en");
    expect(context.sports).toHaveLength(11);
    expect(context.regions.length).toBe(18);
    expect(context.user).toBeNull();
    expect(typeof context.mapStyleUrl).toBe("string");
  });

  it("documents the search and place routes", async () => {
    const doc = (await get("/api/docs/json")).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/events",
        "/api/events/{format}",
        "/api/events/around/{req}",
        "/api/events_group/{type}",
        "/api/filters",
        "/api/context",
        "/api/regions",
        "/api/departments",
        "/api/countries",
        "/api/find-city",
        "/api/geocode-location",
      ]),
    );
    const find = doc.paths["/api/find-city"].post;
    expect(find.requestBody).toBeDefined();
  });

  it("needs no access header to read, and the header to write", async () => {
    expect((await get("/api/events")).statusCode).toBe(200);
    const post = await t.app.inject({
      method: "POST",
      url: "/api/find-city",
      payload: { q: "lyon" },
      headers: accessHeaders,
    });
    expect(post.statusCode).toBe(200);
  });
});

describe("reused answers (the site's result cache)", () => {
  it("answers the same query from memory until invalidate(), then sees the change", async () => {
    const service = searchService(t.database.db, () => TEST_REFERENCE_DATE, { countCacheMs: 0, resultCacheMs: 60_000 });
    const [event] = await db<{ id: number }>(sql`SELECT id FROM events e WHERE ${ACTIVE_UPCOMING} ORDER BY id LIMIT 1`);
    const first = await service.search({});
    expect(await service.search({})).toBe(first);
    await db(sql`UPDATE events SET status = 'inactive' WHERE id = ${event.id}`);
    try {
      // Still the remembered answer: nothing told the service about the write…
      expect((await service.search({})).total).toBe(first.total);
      service.invalidate();
      // …until it is told.
      expect((await service.search({})).total).toBe(first.total - 1);
    } finally {
      await db(sql`UPDATE events SET status = 'active' WHERE id = ${event.id}`);
    }
  });
});

describe("lenient search (the search pages)", () => {
  const service = () => searchService(t.database.db, () => TEST_REFERENCE_DATE, { countCacheMs: 0 });

  it("leaves out every refused field in one call and names them all", async () => {
    const lenient = service();
    const outcome = await lenient.lenient({
      sport: ["trail"],
      from: "2026-09-01",
      to: "2026-06-01",
      page: 40,
    });
    expect(outcome.query).toEqual({ sport: ["trail"] });
    expect(outcome.ignored).toEqual(["to", "page"]);
    const strict = await lenient.search({ sport: ["trail"] });
    expect(outcome.result.total).toBe(strict.total);
    expect(outcome.result.page).toBe(1);
    expect(outcome.result.items.map((item) => item.id)).toEqual(strict.items.map((item) => item.id));
  });

  it("names schema and reference refusals together, with the fields that go with them left out", async () => {
    const outcome = await service().lenient({
      q: "trail",
      literal: true,
      region: "nowhere",
      place: "00000",
      radius: 5000,
      sort: "distance",
    });
    // The radius fails the schema (then goes with its place), the region and the place the references.
    expect(outcome.ignored).toEqual(["radius", "region", "place"]);
    expect(outcome.query).toEqual({ q: "trail", literal: true });
    expect(outcome.result.total).toBe((await search("q=trail")).total);
  });

  it("falls back to no filter when the refusal names no field of the search", async () => {
    const outcome = await service().lenient({ region: "84", lng: 5.7 });
    expect(outcome.query).toEqual({});
    expect(outcome.ignored).toEqual(["region", "lng"]);
    expect(outcome.result.total).toBe((await search()).total);
  });

  it("answers a valid search as the strict one does, ignoring nothing", async () => {
    const outcome = await service().lenient({ sport: ["trail"], page: 1 });
    expect(outcome.ignored).toEqual([]);
    expect(outcome.result).toEqual(await search("sport=trail&page=1"));
  });
});
