/**
 * The posters' map API tests' common steps: a member's run near a place, uploaded as a GPX
 * activity and saved as a poster with the design changes asked for; and a PNG export run to its end.
 */
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { accessHeaders, type TestApp } from "../../../tests/api/harness.ts";
import { fixtureRun, toGpx } from "../../activities/activity-fixtures.ts";
import type { PosterDesign, PosterView } from "../poster.contract.ts";

const get = (t: TestApp, url: string, cookie: string) =>
  t.app.inject({ method: "GET", url, headers: { ...accessHeaders, "x-locale": "fr", cookie } });

/** A 5 km run around (lng, lat) made a poster; `check` sees the creator's default design first. */
export async function posterNear(
  t: TestApp,
  cookie: string,
  place: { lng: number; lat: number; name: string },
  changes: Partial<PosterDesign>,
  check?: (defaults: PosterDesign) => void,
): Promise<PosterView> {
  const gpx = toGpx(
    fixtureRun({ km: 5, lat: place.lat, lng: place.lng, start: new Date("2026-04-19T08:00:00Z") }),
    place.name,
  );
  const uploaded = await t.app.inject({
    method: "POST",
    url: "/api/upload/activities",
    headers: { ...accessHeaders, cookie, "content-type": "multipart/form-data; boundary=----poster" },
    payload: `------poster\r\nContent-Disposition: form-data; name="file"; filename="run.gpx"\r\nContent-Type: application/octet-stream\r\n\r\n${gpx}\r\n------poster--\r\n`,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const id = (uploaded.json() as { files: { activity: { id: number } }[] }).files[0].activity.id;
  const started = (await get(t, `/api/poster/activity/${id}`, cookie)).json() as { poster: PosterView };
  check?.(started.poster.design);
  const saved = await t.app.inject({
    method: "POST",
    url: "/api/poster",
    headers: { ...accessHeaders, cookie, "content-type": "application/json" },
    payload: JSON.stringify({ design: { ...started.poster.design, ...changes } }),
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return (saved.json() as { poster: PosterView }).poster;
}

/** Starts the poster's PNG export, runs the job queue, and answers the download request. */
export async function exportPng(t: TestApp, cookie: string, id: number): Promise<LightMyRequestResponse> {
  const started = await t.app.inject({
    method: "POST",
    url: `/ext/user/poster/${id}/export/png`,
    headers: { ...accessHeaders, cookie },
  });
  expect(started.statusCode, started.body).toBe(202);
  await t.app.jobs.drain().catch(() => undefined);
  return get(t, `/ext/user/poster/${id}/export/png`, cookie);
}
