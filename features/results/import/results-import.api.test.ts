import fs from "node:fs";
import path from "node:path";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testMember } from "../../../tests/api/harness.ts";
import { courses, events } from "../../events/events.tables.ts";
import { jobs } from "../../jobs/jobs.tables.ts";
import { resultImports, results } from "../results.tables.ts";
import { type Caller, importHeaders, parseResults } from "./import-api.fixture.ts";
import type { ImportErrorBody, ImportStatus, PreviewResponse } from "./results-import.contract.ts";
import { RESULTS_IMPORT_QUEUE } from "./results-import.service.server.ts";

let t: TestApp;
type Who = Caller;
let owner: { id: number; cookie: string };
let admin: { id: number; cookie: string };
let stranger: { id: number; cookie: string };
let claimant: { id: number; cookie: string };
/** Three courses of one event the owner lists, each with a distance. */
let courseIds: number[];

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name));

beforeAll(async () => {
  t = await createTestApp();
  owner = await testMember(t, { firstName: "Organisatrice" });
  admin = await testMember(t, { role: "admin" });
  stranger = await testMember(t);
  claimant = await testMember(t, { firstName: "Sébastien" });
  // An event with several courses becomes the owner's; each course gets a 10 km distance.
  const [event] = await t.database.db
    .execute<{ event_id: number }>(
      sql`SELECT event_id FROM courses GROUP BY event_id HAVING count(*) >= 3 ORDER BY event_id LIMIT 1`,
    )
    .then((r) => (r as unknown as { rows: { event_id: number }[] }).rows);
  const eventId = Number(event!.event_id);
  await t.database.db.update(events).set({ ownerId: owner.id }).where(eq(events.id, eventId));
  await t.database.db.update(courses).set({ distance: 10_000 }).where(eq(courses.eventId, eventId));
  const list = await t.database.db
    .select({ id: courses.id })
    .from(courses)
    .where(eq(courses.eventId, eventId))
    .orderBy(asc(courses.id));
  courseIds = list.map((c) => c.id);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function parse(
  who: Who,
  courseId: number,
  source: { file: string; data?: Buffer | string } | { text: string },
  locale: "fr" | "en" = "fr",
) {
  const given = "text" in source ? source : { file: source.file, data: source.data ?? fixture(source.file) };
  return parseResults(t, who, courseId, given, locale);
}

function post(who: Who, url: string, body: unknown, locale: "fr" | "en" = "fr") {
  return t.app.inject({
    method: "POST",
    url,
    headers: { ...importHeaders(who, locale), "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

const status = (who: Who, id: number) =>
  t.app.inject({ method: "GET", url: `/api/results/import/${id}`, headers: importHeaders(who) });

async function courseResults(courseId: number) {
  return t.database.db.select().from(results).where(eq(results.courseId, courseId)).orderBy(asc(results.position));
}

async function queuedJobs(): Promise<number> {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(eq(jobs.queue, RESULTS_IMPORT_QUEUE));
  return Number(row!.n);
}

/** Parses then imports a fixture into a course, runs the job, and answers the import's final status. */
async function importFile(courseId: number, file: string, data?: Buffer | string, extra: object = {}) {
  const parsed = await parse(owner, courseId, { file, data });
  expect(parsed.statusCode, parsed.body).toBe(200);
  const { token } = parsed.json() as PreviewResponse;
  const started = await post(owner, "/api/results/import", { courseId, token, ...extra });
  expect(started.statusCode, started.body).toBe(202);
  await t.app.jobs.drain();
  const final = await status(owner, token);
  return final.json() as ImportStatus;
}

describe("POST /api/results/parse", () => {
  it("answers the detected mapping, the first lines read and the row count, and writes no result", async () => {
    const response = await parse(owner, courseIds[0]!, { file: "chronopro-10km-windows-1252.csv" });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json() as PreviewResponse;
    expect(preview).toMatchObject({
      courseId: courseIds[0],
      fileName: "chronopro-10km-windows-1252.csv",
      format: "csv",
      encoding: "windows-1252",
      delimiter: ";",
      headerLine: 1,
      rowCount: 10,
      problems: [],
      problemCount: 0,
      existingResults: 0,
      computed: { rank: false, sexRank: true, categoryRank: false, pace: true },
    });
    expect(preview.columns.map((c) => [c.title, c.field])).toEqual([
      ["Clt", "rank"],
      ["Dossard", "bib"],
      ["Nom", "lastName"],
      ["Prénom", "firstName"],
      ["Sexe", "sex"],
      ["Cat.", "category"],
      ["Pl./Cat.", "categoryRank"],
      ["Club", "club"],
      ["Temps", "time"],
      ["Vitesse", "speed"],
    ]);
    expect(preview.fields).toContain("netTime");
    expect(preview.rows[0]).toMatchObject({ name: "GAUTHIER Sébastien", club: "Foulées d’Alès", timeMs: 2_091_000 });
    expect(preview.rows[8]).toMatchObject({ status: "dnf" });
    expect(await courseResults(courseIds[0]!)).toEqual([]);
  });

  it("reads a pasted HTML table and an XLSX with a title row", async () => {
    const html = fixture("l-chrono-10km.html").toString("utf8");
    const pasted = await parse(owner, courseIds[0]!, { text: html });
    expect(pasted.statusCode, pasted.body).toBe(200);
    expect(pasted.json()).toMatchObject({ format: "html", rowCount: 8, headerLine: 2, fileName: null });
    const xlsx = await parse(admin, courseIds[0]!, { file: "sportinnovation-trail-21km.xlsx" });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.json()).toMatchObject({ format: "xlsx", rowCount: 6, headerLine: 4 });
  });

  it("names the line and column of an unreadable cell, in French and English", async () => {
    const fr = (await parse(owner, courseIds[0]!, { file: "bad-time.csv" })).json() as PreviewResponse;
    expect(fr.problems.map((p) => p.message)).toEqual([
      "Ligne 14, colonne « Temps » : « 1:7x:00 » n'est pas un temps.",
    ]);
    const en = (await parse(owner, courseIds[0]!, { file: "bad-time.csv" }, "en")).json() as PreviewResponse;
    expect(en.problems.map((p) => p.message)).toEqual(["Line 14, column “Temps”: “1:7x:00” is not a time."]);
  });

  it("refuses a file it cannot read with a translated 400", async () => {
    const empty = await parse(owner, courseIds[0]!, { file: "empty.csv", data: "" });
    expect(empty.statusCode).toBe(400);
    expect((empty.json() as ImportErrorBody).error).toMatchObject({
      code: "RESULTS_FILE_INVALID",
      message: "Le fichier est vide.",
    });
    const broken = await parse(
      owner,
      courseIds[0]!,
      { file: "x.xlsx", data: Buffer.from("PK\u0003\u0004broken") },
      "en",
    );
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toBe("This XLSX file cannot be read (is it protected or damaged?).");
  });
});

describe("POST /api/results/import", () => {
  it("refuses a file with a bad cell: 400 naming line and column, nothing written, no job", async () => {
    const courseId = courseIds[1]!;
    const before = await queuedJobs();
    const { token } = (await parse(owner, courseId, { file: "bad-time.csv" })).json() as PreviewResponse;
    const response = await post(owner, "/api/results/import", { courseId, token });
    expect(response.statusCode).toBe(400);
    const body = response.json() as ImportErrorBody;
    expect(body.error).toMatchObject({
      code: "RESULTS_FILE_INVALID",
      message: "Ligne 14, colonne « Temps » : « 1:7x:00 » n'est pas un temps.",
    });
    expect(body.problems).toHaveLength(1);
    expect(await courseResults(courseId)).toEqual([]);
    expect(await queuedJobs()).toBe(before);
    const [row] = await t.database.db.select().from(resultImports).where(eq(resultImports.id, token));
    expect(row).toMatchObject({ status: "pending", totalRows: 0 });
  });

  it("imports with the organiser's corrected mapping (preview first)", async () => {
    const courseId = courseIds[1]!;
    const parsed = (await parse(owner, courseId, { file: "bad-time.csv" })).json() as PreviewResponse;
    const mapping = parsed.columns.map((c) => (c.field === "time" ? null : c.field));
    const preview = await post(owner, "/api/results/preview", { courseId, token: parsed.token, mapping });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ problems: [], rowCount: 14 });
    expect((preview.json() as PreviewResponse).columns.at(-1)).toEqual({ title: "Temps", field: null });

    const started = await post(owner, "/api/results/import", { courseId, token: parsed.token, mapping });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ status: "pending", totalRows: 14, processedRows: 0 });
    await t.app.jobs.drain();
    expect((await status(owner, parsed.token)).json()).toMatchObject({ status: "done", processedRows: 14 });
    const lines = await courseResults(courseId);
    expect(lines).toHaveLength(14);
    expect(lines.every((l) => l.timeMs === null)).toBe(true);
    expect(lines[12]).toMatchObject({ rank: 13, name: "LEGRAND Noé", sex: "M", category: "V3H", source: "import" });
  });

  it("asks for confirmation before replacing results, then replaces them and keeps members' claims", async () => {
    const courseId = courseIds[2]!;
    expect(await importFile(courseId, "chronopro-10km-windows-1252.csv")).toMatchObject({ status: "done" });
    expect(await courseResults(courseId)).toHaveLength(10);
    // A member claimed the line of bib 112.
    await t.database.db
      .update(results)
      .set({ userId: claimant.id, claimedAt: new Date("2026-05-01T08:00:00Z") })
      .where(and(eq(results.courseId, courseId), eq(results.bib, "112")));
    const first = await courseResults(courseId);

    // The corrected file: bib 112's time changed, a line added at the top.
    const corrected = [
      "Clt;Dossard;Nom;Prénom;Sexe;Cat.;Temps",
      "1;500;NOUVEAU;Arthur;H;SEH;0:33:00",
      "2;112;GAUTHIER;Sébastien;H;SEH;0:34:40",
      "3;87;LECŒUR;François;H;V1H;0:36:10",
    ].join("\n");
    const parsed = (await parse(owner, courseId, { file: "corrected.csv", data: corrected })).json() as PreviewResponse;
    expect(parsed.existingResults).toBe(10);
    const refused = await post(owner, "/api/results/import", { courseId, token: parsed.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: "RESULTS_ALREADY_IMPORTED",
      message: "Cette course a déjà des résultats importés : confirmez que le nouveau fichier les remplace.",
    });
    expect(await courseResults(courseId)).toEqual(first);

    const started = await post(owner, "/api/results/import", { courseId, token: parsed.token, replace: true });
    expect(started.statusCode, started.body).toBe(202);
    await t.app.jobs.drain();
    const replaced = await courseResults(courseId);
    expect(replaced.map((r) => [r.bib, r.rank, r.timeMs])).toEqual([
      ["500", 1, 1_980_000],
      ["112", 2, 2_080_000],
      ["87", 3, 2_170_000],
    ]);
    // The claim followed bib 112 to its new line, with its date.
    const claimed = replaced.filter((r) => r.userId !== null);
    expect(claimed).toEqual([
      expect.objectContaining({ bib: "112", userId: claimant.id, claimedAt: new Date("2026-05-01T08:00:00Z") }),
    ]);
    expect(
      await t.database.db
        .select()
        .from(results)
        .where(and(eq(results.courseId, courseId), isNotNull(results.userId))),
    ).toHaveLength(1);
  });

  it("imports 20,000 lines in a background job whose progress goes up to 20,000", { timeout: 180_000 }, async () => {
    const courseId = courseIds[0]!;
    const lines = ["Dossard;Nom;Prénom;Sexe;Cat.;Club;Temps"];
    for (let i = 0; i < 20_000; i++) {
      const seconds = 1800 + ((i * 7919) % 5400);
      const time = `${Math.floor(seconds / 3600)}:${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
      lines.push(
        `${i + 1};COUREUR${i};Prénom${i};${i % 3 ? "H" : "F"};${i % 2 ? "SEH" : "M0F"};Club ${i % 50};${time}`,
      );
    }
    const parsed = await parse(owner, courseId, { file: "big.csv", data: lines.join("\n") });
    expect(parsed.statusCode, parsed.body).toBe(200);
    const preview = parsed.json() as PreviewResponse;
    expect(preview).toMatchObject({ rowCount: 20_000, problems: [] });
    expect(preview.rows).toHaveLength(20);

    const started = await post(owner, "/api/results/import", { courseId, token: preview.token });
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json()).toMatchObject({ status: "pending", totalRows: 20_000, processedRows: 0 });

    // The organiser's page polls while the job runs.
    const seen: ImportStatus[] = [];
    let running = true;
    const polling = (async () => {
      while (running) {
        seen.push((await status(owner, preview.token)).json() as ImportStatus);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await t.app.jobs.drain();
    running = false;
    await polling;
    const final = (await status(owner, preview.token)).json() as ImportStatus;
    expect(final).toMatchObject({ status: "done", totalRows: 20_000, processedRows: 20_000, error: null });
    const progress = [...seen, final].map((s) => s.processedRows);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(seen.every((s) => s.totalRows === 20_000)).toBe(true);

    const [count] = await t.database.db
      .select({
        n: sql<number>`count(*)::int`,
        fastest: sql<number>`min(time_ms)`,
        ranked: sql<number>`count(rank)::int`,
      })
      .from(results)
      .where(eq(results.courseId, courseId));
    expect(count).toMatchObject({ n: 20_000, fastest: 1_800_000, ranked: 20_000 });
    const [winner] = await t.database.db
      .select()
      .from(results)
      .where(and(eq(results.courseId, courseId), eq(results.rank, 1)));
    expect(winner).toMatchObject({ timeMs: 1_800_000, paceSPerKm: 180 });
  });
});

describe("who may import", () => {
  it("refuses visitors (401) and members who do not organise the event (403)", async () => {
    const courseId = courseIds[0]!;
    const { token } = (await parse(owner, courseId, { file: "english-10k.csv" })).json() as PreviewResponse;
    expect((await parse(null, courseId, { file: "english-10k.csv" })).statusCode).toBe(401);
    expect((await parse(stranger, courseId, { file: "english-10k.csv" })).statusCode).toBe(403);
    expect((await post(stranger, "/api/results/import", { courseId, token, replace: true })).statusCode).toBe(403);
    expect((await post(null, "/api/results/import", { courseId, token, replace: true })).statusCode).toBe(401);
    expect((await post(stranger, "/api/results/preview", { courseId, token, mapping: [] })).statusCode).toBe(403);
    expect((await status(stranger, token)).statusCode).toBe(403);
    expect((await status(null, token)).statusCode).toBe(401);
    // The admin may.
    expect((await status(admin, token)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(resultImports).where(eq(resultImports.id, token));
    expect(row?.status).toBe("pending");
  });
});
