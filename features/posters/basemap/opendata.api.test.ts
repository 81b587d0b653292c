/**
 * France's towns and borders through the API (decision 038), with no map source configured: the
 * site's own offline base map over the real open data (the outlines and communes the repository
 * ships, features/maps/data and features/geo/data). The preview's layer, and the export job drawing it into the PNG.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessHeaders, createTestApp, type TestApp, testMember } from "../../../tests/api/harness.ts";
import type { BasemapLayer } from "./layer.ts";
import { exportPng, posterNear } from "./poster-api.fixture.ts";

async function png(cookie: string, id: number): Promise<Buffer> {
  const response = await exportPng(t, cookie, id);
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  return response.rawPayload;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: "GET", url, headers: { ...accessHeaders, "x-locale": "fr", ...(cookie ? { cookie } : {}) } });

const ANNECY = "6.10,45.86,6.16,45.92";

describe("posters' towns and borders from France's open data", () => {
  it("says the open data is there, with no map source configured", async () => {
    const body = (await get("/api/poster/products")).json() as { openData: boolean; styles: { available: boolean }[] };
    expect(body.openData).toBe(true);
  });

  it("answers the preview's layer of towns and borders when asked, and nothing outside France", async () => {
    const asked = await get(`/api/poster/basemap?style=trace&bbox=${ANNECY}&px=800&towns=1`);
    expect(asked.statusCode, asked.body).toBe(200);
    const layer = (asked.json() as { layer: BasemapLayer }).layer;
    expect(layer.style).toBe("trace");
    expect(layer.places?.map((p) => p.name)).toContain("Annecy");
    expect(layer.borders?.some((b) => b.level === "commune" && b.lines.length > 0)).toBe(true);

    const plain = (await get(`/api/poster/basemap?style=trace&bbox=${ANNECY}&px=800`)).json() as { layer: null };
    expect(plain.layer).toBeNull();
    const atSea = (await get("/api/poster/basemap?style=trace&bbox=-20,40,-19,41&towns=1")).json() as { layer: null };
    expect(atSea.layer).toBeNull();
    const bad = await get(`/api/poster/basemap?style=trace&bbox=${ANNECY}&towns=yes`);
    expect(bad.statusCode).toBe(400);
  });

  it("exports the PNG with the towns and borders drawn by the job, and without them when turned off", async () => {
    // A member's first export is free (one credit each).
    const one = await testMember(t);
    const two = await testMember(t);
    const near = { lng: 6.13, lat: 45.9, name: "Tour d'Annecy" };
    const withTowns = await posterNear(t, one.cookie, near, { mapStyle: "trace", towns: true }, (design) =>
      expect(design.towns).toBe(true),
    );
    const without = await posterNear(t, two.cookie, near, { mapStyle: "trace", towns: false });
    const a = await sharp(await png(one.cookie, withTowns.id as number))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const b = await sharp(await png(two.cookie, without.id as number))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([a.info.width, a.info.height]).toEqual([b.info.width, b.info.height]);
    // The map's part differs (borders, names, the credit), the text block at the bottom does not.
    const differing = (y0: number, y1: number) => {
      let n = 0;
      for (let y = Math.floor(a.info.height * y0); y < a.info.height * y1; y++)
        for (let x = 0; x < a.info.width; x += 2) {
          const o = (y * a.info.width + x) * 3;
          if (
            Math.abs(a.data[o] - b.data[o]) +
              Math.abs(a.data[o + 1] - b.data[o + 1]) +
              Math.abs(a.data[o + 2] - b.data[o + 2]) >
            30
          )
            n++;
        }
      return n;
    };
    expect(differing(0.05, 0.6)).toBeGreaterThan(500);
    expect(differing(0.85, 0.95)).toBe(0);
  }, 120_000);
});
