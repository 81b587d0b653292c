/**
 * What a results file may not do to the server or the database (issue 25 §2): a character
 * PostgreSQL cannot store is a 400 naming its line, with nothing written.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testMember } from "../../../tests/api/harness.ts";
import { countWrites } from "../../../tests/api/write-counter.ts";
import { courses, events } from "../../events/events.tables.ts";
import { parseResults } from "./import-api.fixture.ts";
import type { ImportErrorBody } from "./results-import.contract.ts";

let t: TestApp;
let writes: () => Promise<number>;
let organiser: { id: number; cookie: string };
let courseId: number;

beforeAll(async () => {
  t = await createTestApp();
  organiser = await testMember(t, { firstName: "Chronométreuse" });
  const [course] = await t.database.db
    .select({ id: courses.id, eventId: courses.eventId })
    .from(courses)
    .orderBy(asc(courses.id))
    .limit(1);
  await t.database.db.update(events).set({ ownerId: organiser.id }).where(eq(events.id, course!.eventId));
  courseId = course!.id;
  writes = await countWrites(t.database);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("a results file with a character PostgreSQL cannot store", () => {
  const csv = ["Clt;Nom;Temps", "1;DUPONT Jean;0:40:00", "2;MAR\u0000TIN Paul;0:41:00", "3;PETIT Léa;0:42:00"].join(
    "\n",
  );

  it("is refused with 400 naming its line, in French and English, and nothing is written", async () => {
    const before = await writes();
    const fr = await parseResults(t, organiser, courseId, { file: "nul.csv", data: csv });
    expect(fr.statusCode, fr.body).toBe(400);
    const body = fr.json() as ImportErrorBody;
    expect(body.error).toMatchObject({ code: "RESULTS_FILE_INVALID", field: "file" });
    expect(body.error.message).toMatch(/^Ligne 3 : le fichier contient un caractère nul/);
    expect(body.problems?.[0]).toMatchObject({ line: 3 });
    const en = await parseResults(t, organiser, courseId, { file: "nul.csv", data: csv }, "en");
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json().error.message).toMatch(/^Line 3: the file contains a null or invalid character/);
    expect(await writes()).toBe(before);
  });

  it("is refused the same way in an HTML table", async () => {
    const html =
      "<table><tr><th>Clt</th><th>Nom</th><th>Temps</th></tr><tr><td>1</td><td>A\u0000B</td><td>0:40:00</td></tr></table>";
    const before = await writes();
    const response = await parseResults(t, organiser, courseId, { file: "nul.html", data: html });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.message).toMatch(/^Ligne 2 : /);
    expect(await writes()).toBe(before);
  });
});
