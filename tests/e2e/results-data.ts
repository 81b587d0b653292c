import { expect, inject } from "vitest";
import type { ClaimAnswer } from "../../features/results/claims.contract.ts";
import type { ImportStatus, PreviewResponse } from "../../features/results/import/results-import.contract.ts";
import type { CourseResults } from "../../features/results/results.contract.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../../shared/constants.ts";

/**
 * Results on the journeys' shared server, put there the way organisers do: an admin lists a past
 * edition through the editor API and validates it, then imports a timing company's CSV built by the
 * journey through the import API (parse, import, wait for the job). The database belongs to the
 * server process: nothing is written into it directly.
 */

const headers = { [ACCESS_HEADER]: ACCESS_HEADER_VALUE };
const json = { ...headers, "content-type": "application/json" };

async function call<T>(url: string, init: RequestInit & { cookie?: string } = {}): Promise<T> {
  const { cookie, ...rest } = init;
  const response = await fetch(`${inject("baseURL")}${url}`, {
    ...rest,
    headers: { ...(rest.body instanceof FormData ? headers : json), ...(cookie ? { cookie } : {}), ...rest.headers },
  });
  if (!response.ok) throw new Error(`${rest.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** `dossard_session=…` of an account signed in through the API. */
export async function signIn(account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${inject("baseURL")}/api/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(account),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

/** A day `days` before today (UTC), as YYYY-MM-DD. */
export function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

export type PastEvent = { id: number; slug: string; name: string; courses: { id: number; name: string }[] };

/**
 * A past edition listed by an admin through the editor (POST /api/event/0), then validated so that
 * it is published. Each course: a name, its distance in metres and its D+.
 */
export async function pastEvent(
  adminCookie: string,
  options: { name: string; date: string; courses: { name: string; distance: number; elevationGain?: number }[] },
): Promise<PastEvent> {
  const saved = await call<{ event: { id: number; slug: string; courses: { id: number; name: string }[] } }>(
    "/api/event/0",
    {
      method: "POST",
      cookie: adminCookie,
      body: JSON.stringify({
        name: options.name,
        sport: "running",
        startDate: options.date,
        endDate: options.date,
        city: "Lyon",
        zipcode: "69003",
        countryCode: "FR",
        lat: 45.76,
        lng: 4.85,
        courses: options.courses.map((course) => ({
          name: course.name,
          distance: course.distance,
          elevationGain: course.elevationGain ?? null,
          date: options.date,
          startTime: "09:00",
        })),
      }),
    },
  );
  await call(`/api/event/${saved.event.id}/status/validate`, { method: "POST", cookie: adminCookie, body: "{}" });
  return {
    id: saved.event.id,
    slug: saved.event.slug,
    name: options.name,
    courses: saved.event.courses.map((c) => ({ id: c.id, name: c.name })),
  };
}

/** One line of a timing company's export. */
export type TimingLine = {
  rank: number | "Abandon";
  bib: number;
  lastName: string;
  firstName: string;
  sex: "H" | "F";
  category: string;
  club?: string;
  /** Seconds; absent for a line that did not finish. */
  time?: number;
  /** The chip time, a few seconds less. */
  net?: number;
};

const hms = (seconds: number) =>
  [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60]
    .map((n) => String(n).padStart(2, "0"))
    .join(":");

/**
 * The CSV a French timing company publishes: semicolons, French titles, H/F, the official time
 * with the chip time in brackets, "Abandon" in the rank column. `categoryTitle` names the category
 * column ("Cat." is recognised; "Cat. FFA" is not and must be chosen by hand).
 */
export function timingCsv(lines: readonly TimingLine[], categoryTitle = "Cat."): string {
  const rows = [`Clt;Doss.;Nom;Prénom;Sexe;${categoryTitle};Club;Temps officiel (réel)`];
  for (const line of lines) {
    const time = line.time === undefined ? "" : `${hms(line.time)} (${hms(line.net ?? line.time)})`;
    rows.push(
      [line.rank, line.bib, line.lastName, line.firstName, line.sex, line.category, line.club ?? "", time].join(";"),
    );
  }
  return `${rows.join("\r\n")}\r\n`;
}

/** Imports a CSV into a course through the API (parse, import, the job to its end): the import's status. */
export async function importCsv(
  cookie: string,
  courseId: number,
  csv: string,
  options: { replace?: boolean } = {},
): Promise<ImportStatus> {
  const form = new FormData();
  form.append("courseId", String(courseId));
  form.append("file", new Blob([csv], { type: "text/csv" }), "resultats.csv");
  const preview = await call<PreviewResponse>("/api/results/parse", { method: "POST", cookie, body: form });
  expect(preview.problems).toEqual([]);
  let status = await call<ImportStatus>("/api/results/import", {
    method: "POST",
    cookie,
    body: JSON.stringify({ courseId, token: preview.token, replace: options.replace }),
  });
  const deadline = Date.now() + 60_000;
  while (status.status === "pending" || status.status === "running") {
    if (Date.now() > deadline) throw new Error(`import ${status.id} still ${status.status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    status = await call<ImportStatus>(`/api/results/import/${status.id}`, { cookie });
  }
  expect(status.status, status.error ?? "").toBe("done");
  return status;
}

/** The lines of a course's results that match a name or bib (GET /api/results/{course}?q=). */
export async function findResults(courseId: number, q: string, cookie?: string): Promise<CourseResults["rows"]> {
  const answer = await call<CourseResults>(`/api/results/${courseId}?q=${encodeURIComponent(q)}`, { cookie });
  return answer.rows;
}

/** "C'est moi" through the API: the line is the member's (its name is theirs) or waits for the organiser. */
export async function claim(cookie: string, resultId: number): Promise<ClaimAnswer> {
  return call<ClaimAnswer>(`/api/results/${resultId}/claim`, { method: "POST", cookie, body: "{}" });
}

/** A member's profile made public (their name shown), through the API. */
export async function makePublic(cookie: string, names: { firstName: string; lastName: string }): Promise<string> {
  const me = await call<{ user: { id: number; slug: string } }>("/api/me", { cookie });
  await call(`/api/user/profile/${me.user.id}`, {
    method: "POST",
    cookie,
    body: JSON.stringify({ ...names, publicProfile: true }),
  });
  return me.user.slug;
}
