import fs from "node:fs";
import os from "node:os";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../platform/config.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { buildApp } from "../../server/app.server.ts";
import { TEST_REFERENCE_DATE } from "../../tests/api/fixtures.ts";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../tests/api/harness.ts";
import type { Dashboard } from "./admin.contract.ts";

/**
 * The admin dashboard against the truth: the members it counts are the accounts in the table, a
 * burst of requests shows in the hour's traffic, the history outlives a restart, and the machine's
 * figures are the operating system's.
 */
let t: TestApp;
let admin: { id: number; cookie: string };

const asAdmin = () => ({ ...accessHeaders, cookie: admin.cookie });

async function dashboard(on: TestApp["app"] = t.app): Promise<Dashboard> {
  const response = await on.inject({ method: "GET", url: "/api/admin/dashboard", headers: asAdmin() });
  expect(response.statusCode).toBe(200);
  expect(response.headers["cache-control"]).toBe("private, no-store");
  return response.json();
}

/** The current hour's requests as stored (all flushed counts of all instances). */
async function storedRequests(): Promise<number> {
  const hour = new Date(Math.floor(TEST_REFERENCE_DATE.getTime() / 3_600_000) * 3_600_000).toISOString();
  const [row] = await rows<{ requests: number }>(
    t.database.db,
    sql`SELECT requests FROM traffic_hours WHERE hour = ${hour}::timestamptz`,
  );
  return Number(row?.requests ?? 0);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await testMember(t, { role: "admin" });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/admin/dashboard", () => {
  it("is for admins only", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: "/api/admin/dashboard", headers: accessHeaders });
    expect(anonymous.statusCode).toBe(401);
    const member = await testMember(t);
    const refused = await t.app.inject({
      method: "GET",
      url: "/api/admin/dashboard",
      headers: { ...accessHeaders, cookie: member.cookie },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("FORBIDDEN");
  });

  it("names its figures cpu, memory, disk, traffic and uptime, read from the operating system", async () => {
    const data = await dashboard();
    expect(Object.keys(data)).toEqual(expect.arrayContaining(["cpu", "memory", "disk", "traffic", "uptime"]));
    expect(data.cpu.cores).toBe(os.cpus().length);
    expect(data.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(data.cpu.percent).toBeLessThanOrEqual(100);
    expect(data.memory.totalBytes).toBe(os.totalmem());
    expect(data.memory.usedPercent).toBeGreaterThan(0);
    expect(data.memory.processBytes).toBeGreaterThan(10_000_000);
    // The disk holding DATA_DIR (./data/test in tests, or its nearest existing parent).
    const probe = fs.existsSync(t.app.config.dataDir) ? t.app.config.dataDir : ".";
    const disk = fs.statfsSync(probe);
    expect(data.disk.data?.totalBytes).toBe(disk.blocks * disk.bsize);
    expect(data.disk.databaseBytes).toBeGreaterThan(1_000_000);
    expect(data.uptime.processSeconds).toBeCloseTo(process.uptime(), -1);
    expect(data.uptime.systemSeconds).toBeCloseTo(os.uptime(), -1);
    expect(data.version.app).toBe(JSON.parse(fs.readFileSync("package.json", "utf8")).version);
    expect(data.traffic.hours).toHaveLength(24);
    expect(data.traffic.days).toHaveLength(30);
  });

  it("counts the members the table holds, and a new one at once", async () => {
    const truth = async () => {
      const [row] = await rows<{ n: number }>(
        t.database.db,
        sql`SELECT count(*)::int AS n FROM users WHERE disabled_at IS NULL`,
      );
      return Number(row?.n);
    };
    const before = await dashboard();
    expect(before.business.members.total).toBe(await truth());
    await testMember(t);
    const after = await dashboard();
    expect(after.business.members.total).toBe(before.business.members.total + 1);
    expect(after.business.members.total).toBe(await truth());
  });

  it("counts the events waiting for moderation as the menu does", async () => {
    const [row] = await rows<{ n: number }>(
      t.database.db,
      sql`SELECT count(*)::int AS n FROM events WHERE status = 'pending'`,
    );
    const data = await dashboard();
    expect(data.business.events.pending).toBe(Number(row?.n));
    const counts = await t.app.inject({ method: "GET", url: "/api/admin/counts", headers: asAdmin() });
    expect(counts.statusCode).toBe(200);
    expect(counts.json().pendingEvents).toBeGreaterThanOrEqual(Number(row?.n));
    expect(data.counts).toEqual(counts.json());
  });

  it("sees a burst of requests in the hour's traffic, errors apart", async () => {
    await t.app.services.traffic.flush({ sample: false });
    const before = await storedRequests();
    for (let i = 0; i < 30; i++) await t.app.inject({ method: "GET", url: "/healthz" });
    for (let i = 0; i < 4; i++) await t.app.inject({ method: "GET", url: "/api/no-such-thing" });
    await t.app.services.traffic.flush();
    expect((await storedRequests()) - before).toBe(34);
    const data = await dashboard();
    const hour = data.traffic.hours.at(-1);
    expect(hour?.requests).toBe(await storedRequests());
    expect(hour?.clientErrors).toBeGreaterThanOrEqual(4);
    expect(hour?.p95Ms).not.toBeNull();
    expect(hour?.cpuPercent).not.toBeNull();
    // The live figure: this server's last five minutes, the burst included.
    expect(data.traffic.requestsPerMinute).toBeGreaterThanOrEqual(34 / 5);
    expect(data.traffic.days.at(-1)?.requests).toBe(hour?.requests);
  });

  it("keeps the history across a restart", async () => {
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: "./data/test", LOG_LEVEL: "silent", LOG_FORMAT: "json" });
    const first = await buildApp({ config, database: t.database, clock: () => TEST_REFERENCE_DATE });
    await first.ready();
    await first.services.traffic.flush({ sample: false });
    const before = await storedRequests();
    for (let i = 0; i < 12; i++) await first.inject({ method: "GET", url: "/healthz" });
    // Stopping writes what was counted: nothing waits for the next minute.
    await first.close();
    expect((await storedRequests()) - before).toBe(12);
    const second = await buildApp({ config, database: t.database, clock: () => TEST_REFERENCE_DATE });
    await second.ready();
    try {
      const data = await dashboard(second);
      expect(data.traffic.hours.at(-1)?.requests).toBe(await storedRequests());
      expect(data.traffic.hours.at(-1)?.requests).toBeGreaterThanOrEqual(12);
    } finally {
      await second.close();
    }
  });

  it("shows the pages people looked at and the sites they came from, and nothing else of them", async () => {
    const meter = t.app.services.traffic.meter;
    meter.pageView("/", "");
    meter.pageView("/", "www.google.com");
    meter.pageView("/course/marathon-de-test", "www.google.com");
    meter.pageView("/course/marathon-de-test", "");
    meter.pageView("/course/marathon-de-test", "");
    await t.app.services.traffic.flush({ sample: false });
    const { audience } = (await dashboard()).traffic;
    expect(audience.topPages[0]).toEqual({ path: "/course/marathon-de-test", views: 3 });
    expect(audience.topReferrers).toEqual([{ host: "www.google.com", views: 2 }]);
    expect(audience.viewsToday).toBe(5);
    const columns = await rows<{ column_name: string }>(
      t.database.db,
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'page_views' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => c.column_name)).toEqual(["day", "path", "referrer_host", "views"]);
  });
});
