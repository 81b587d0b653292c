import { describe, expect, it } from "vitest";
import { cpuMeter } from "./system-stats.server.ts";
import { bucketOf, createTrafficMeter, percentileMs, referrerHostOf, viewedPath } from "./traffic-meter.ts";

describe("the traffic meter", () => {
  it("counts requests by outcome and latency, and starts afresh once taken", () => {
    let now = Date.UTC(2026, 5, 1, 10, 0, 30);
    const meter = createTrafficMeter(() => now);
    meter.record(200, 4);
    meter.record(200, 120);
    meter.record(404, 8);
    meter.record(503, 7000);
    const batch = meter.take();
    expect(batch).toMatchObject({ requests: 4, serverErrors: 1, clientErrors: 1 });
    expect(batch.buckets[bucketOf(4)]).toBe(2); // 4 ms and 8 ms: both under 10 ms
    expect(batch.buckets.at(-1)).toBe(1);
    expect(meter.take().requests).toBe(0);
    // A failed write puts its counts back for the next one.
    meter.putBack(batch);
    expect(meter.take().requests).toBe(4);
    // The live minutes: the current one included, a minute without requests as zero.
    now += 120_000;
    meter.record(200, 3);
    const minutes = meter.lastMinutes(3);
    expect(minutes.map((m) => m.requests)).toEqual([4, 0, 1]);
  });

  it("reads the 95th percentile from the histogram's bounds", () => {
    const buckets = new Array(10).fill(0);
    buckets[bucketOf(20)] = 95;
    buckets[bucketOf(900)] = 5;
    expect(percentileMs(buckets)).toBe(25);
    buckets[bucketOf(900)] = 6;
    expect(percentileMs(buckets)).toBe(1000);
    expect(percentileMs(new Array(10).fill(0))).toBeNull();
  });

  it("keeps a page's path, a navigation's data as its page, and leaves out the admin area and files", () => {
    expect(viewedPath("/course/marathon-de-paris?utm_source=x")).toBe("/course/marathon-de-paris");
    expect(viewedPath("/course/marathon-de-paris.data")).toBe("/course/marathon-de-paris");
    expect(viewedPath("/_root.data")).toBe("/");
    expect(viewedPath("/en/")).toBe("/en");
    expect(viewedPath("/admin")).toBeNull();
    expect(viewedPath("/en/admin/users")).toBeNull();
    expect(viewedPath("/assets/app-1234.js")).toBeNull();
    expect(viewedPath("/favicon.ico")).toBeNull();
    expect(viewedPath(`/${"x".repeat(500)}`)).toHaveLength(200);
  });

  it("keeps only the referring site's host, nothing for this site or a broken header", () => {
    expect(referrerHostOf("https://www.google.com/search?q=trail+annecy", "dossard.fr")).toBe("www.google.com");
    expect(referrerHostOf("https://dossard.fr/courses/trail", "dossard.fr")).toBe("");
    expect(referrerHostOf("not a url", "dossard.fr")).toBe("");
    expect(referrerHostOf(undefined, "dossard.fr")).toBe("");
  });
});

describe("the CPU meter", () => {
  it("gives the busy share of the cores between two readings", () => {
    const readings = [
      { busy: 1000, total: 4000 },
      { busy: 1500, total: 5000 },
      { busy: 1500, total: 5000 },
    ];
    const read = cpuMeter(() => readings.shift() ?? { busy: 0, total: 0 });
    expect(read()).toBe(25);
    expect(read()).toBe(50);
    expect(read()).toBe(0);
  });
});
