/**
 * What a results file may not do to the server or the database (issue 25 §2): freeze it or fill
 * its memory (a 207 KB XLSX held a 200 MB shared string: 7 s of a blocked event loop, 3.7 GB),
 * keep it busy with one organiser's files sent at once, or write a character PostgreSQL cannot
 * store. Each refusal is translated and writes nothing; ordinary files still read.
 */
import { once } from "node:events";
import zlib from "node:zlib";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testMember } from "../../../tests/api/harness.ts";
import { countWrites } from "../../../tests/api/write-counter.ts";
import { courses, events } from "../../events/events.tables.ts";
import { parseResults } from "./import-api.fixture.ts";
import type { ImportErrorBody, PreviewResponse } from "./results-import.contract.ts";
import { type ZipEntry, zipArchive } from "./zip-entries.server.ts";

let t: TestApp;
let writes: () => Promise<number>;
let organiser: { id: number; cookie: string };
let admin: { id: number; cookie: string };
let courseId: number;

beforeAll(async () => {
  t = await createTestApp();
  organiser = await testMember(t, { firstName: "Chronométreuse" });
  admin = await testMember(t, { role: "admin" });
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

const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** An XML part, deflated, its size and checksum true. */
function xmlPart(name: string, xml: string): ZipEntry {
  const content = Buffer.from(xml);
  return { name, data: zlib.deflateRawSync(content), method: 8, crc: zlib.crc32(content), size: content.length };
}

/**
 * A part made of `head`, then `repeat` written `times`, then `tail`, deflated as a stream (the
 * whole text never exists here): its true size and checksum, unless `declaredSize` lies.
 */
async function repeatedPart(
  name: string,
  text: { head: string; repeat: Buffer; times: number; tail: string },
  declaredSize?: number,
): Promise<ZipEntry> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  let crc = 0;
  let size = 0;
  const write = async (chunk: Buffer) => {
    crc = zlib.crc32(chunk, crc);
    size += chunk.length;
    if (!deflate.write(chunk)) await once(deflate, "drain");
  };
  await write(Buffer.from(text.head));
  for (let i = 0; i < text.times; i++) await write(text.repeat);
  await write(Buffer.from(text.tail));
  deflate.end();
  await once(deflate, "end");
  return { name, data: Buffer.concat(out), method: 8, crc, size: declaredSize ?? size };
}

/** A one-sheet workbook as spreadsheet software writes it: its rows, and its shared strings part. */
function workbook(rows: string, sharedStrings: ZipEntry = xmlPart("xl/sharedStrings.xml", `<sst ${MAIN}/>`)) {
  return zipArchive([
    xmlPart(
      "xl/workbook.xml",
      `<workbook ${MAIN} xmlns:r="${RELATIONSHIP}"><sheets><sheet name="Résultats" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    xmlPart(
      "xl/_rels/workbook.xml.rels",
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIP}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIP}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    xmlPart("xl/worksheets/sheet1.xml", `<worksheet ${MAIN}><sheetData>${rows}</sheetData></worksheet>`),
    sharedStrings,
  ]);
}

/** A row of inline strings, in columns A, B, C… */
const sheetRow = (r: number, cells: string[]) =>
  `<row r="${r}">${cells.map((text, i) => `<c r="${String.fromCharCode(65 + i)}${r}" t="inlineStr"><is><t>${text}</t></is></c>`).join("")}</row>`;
const RESULTS_ROWS = [
  sheetRow(1, ["Clt", "Nom", "Temps"]),
  sheetRow(2, ["1", "DUPONT Jean", "0:40:00"]),
  sheetRow(3, ["2", "MARTIN Paul", "0:41:00"]),
].join("");

/** Whether the refusal is the translated 413 or 400 expected, and nothing was written. */
async function expectRefused(
  response: { statusCode: number; body: string; json(): unknown },
  status: 400 | 413,
  message: string | RegExp,
) {
  expect(response.statusCode, response.body).toBe(status);
  const { error } = response.json() as ImportErrorBody;
  expect(error.code).toBe(status === 413 ? "RESULTS_FILE_TOO_LARGE" : "RESULTS_FILE_INVALID");
  if (typeof message === "string") expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
}

describe("an XLSX file", () => {
  it("built like the ones below, but ordinary, reads (and warms the workers)", async () => {
    const response = await parseResults(t, organiser, courseId, { file: "r.xlsx", data: workbook(RESULTS_ROWS) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ format: "xlsx", rowCount: 2, headerLine: 1 });
  });

  it("holding a 200 MB shared string (a 200 KB file) is refused at once: 413, memory unmoved, nothing written", async () => {
    const text = {
      head: `<sst ${MAIN} count="1" uniqueCount="1"><si><t>`,
      repeat: Buffer.alloc(1024 * 1024, "a"),
      times: 200,
      tail: "</t></si></sst>",
    };
    const bomb = workbook(
      '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
      await repeatedPart("xl/sharedStrings.xml", text),
    );
    expect(bomb.length).toBeLessThan(300 * 1024);
    const before = await writes();
    const peakBefore = process.resourceUsage().maxRSS;
    const started = performance.now();
    const response = await parseResults(t, organiser, courseId, { file: "bomb.xlsx", data: bomb });
    const ms = performance.now() - started;
    await expectRefused(
      response,
      413,
      "Ce fichier XLSX dépasse 64 Mo une fois décompressé : enregistrez-le en CSV, ou gardez seulement la feuille des résultats.",
    );
    expect(ms).toBeLessThan(5_000);
    // The process's resident memory never went more than 100 MB above what it had reached (kB).
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(100 * 1024);
    expect(await writes()).toBe(before);
  });

  it("whose entry lies about its size is read no further than the size it declared", async () => {
    const text = {
      head: `<sst ${MAIN}><si><t>`,
      repeat: Buffer.alloc(1024 * 1024, "b"),
      times: 50,
      tail: "</t></si></sst>",
    };
    const liar = workbook(RESULTS_ROWS, await repeatedPart("xl/sharedStrings.xml", text, 1000));
    const started = performance.now();
    const response = await parseResults(t, organiser, courseId, { file: "liar.xlsx", data: liar }, "en");
    await expectRefused(response, 400, "This XLSX file cannot be read (is it protected or damaged?).");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("whose cells reach far rows or columns, or hold a long text, is refused before it is read", async () => {
    const before = await writes();
    const farRow = workbook(
      `${sheetRow(1, ["Nom"])}<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>`,
    );
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "far.xlsx", data: farRow }),
      413,
      "Le fichier dépasse 60 000 lignes.",
    );
    const farColumn = workbook('<row r="1"><c r="XFD1" t="inlineStr"><is><t>x</t></is></c></row>');
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "wide.xlsx", data: farColumn }),
      413,
      "Ligne 1 : plus de 100 colonnes.",
    );
    const longText = workbook(
      RESULTS_ROWS,
      xmlPart("xl/sharedStrings.xml", `<sst ${MAIN}><si><t>${"c".repeat(20_000)}</t></si></sst>`),
    );
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "long.xlsx", data: longText }, "en"),
      413,
      "A cell of the file is longer than 1,000 characters.",
    );
    expect(await writes()).toBe(before);
  });
});

describe("a CSV file", () => {
  const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i));

  it("over 60,000 lines, with a cell over 1,000 characters or over 100 columns is refused: 413 naming the limit", async () => {
    const before = await writes();
    const tooLong = ["Clt;Nom;Temps", ...lines(60_100, (i) => `${i + 1};NOM ${i};0:40:00`)].join("\n");
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "long.csv", data: tooLong }),
      413,
      "Le fichier dépasse 60 000 lignes.",
    );
    const wideCell = ["Clt;Nom;Temps", "1;DUPONT Jean;0:40:00", `2;${"M".repeat(1001)};0:41:00`].join("\n");
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "cell.csv", data: wideCell }, "en"),
      413,
      "Line 3: a cell is longer than 1,000 characters.",
    );
    const wide = [lines(101, (i) => `Colonne ${i}`).join(";"), "1;DUPONT Jean;0:40:00"].join("\n");
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "wide.csv", data: wide }),
      413,
      "Ligne 1 : plus de 100 colonnes.",
    );
    expect(await writes()).toBe(before);
  });

  it("over 10 MB is refused with 413 saying so", async () => {
    const heavy = `Clt;Nom;Temps\n${"1;DUPONT Jean;0:40:00\n".repeat(Math.ceil((10 * 1024 * 1024) / 21) + 10)}`;
    const before = await writes();
    await expectRefused(
      await parseResults(t, organiser, courseId, { file: "heavy.csv", data: heavy }),
      413,
      "Le fichier dépasse 10 Mo.",
    );
    expect(await writes()).toBe(before);
  });

  it("with a spreadsheet's trailing separators past 100 columns still reads", async () => {
    const csv = [`Clt;Nom;Temps${";".repeat(150)}`, `1;DUPONT Jean;0:40:00${";".repeat(150)}`].join("\n");
    const response = await parseResults(t, organiser, courseId, { file: "excel.csv", data: csv });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json() as PreviewResponse).columns.map((c) => c.title)).toEqual(["Clt", "Nom", "Temps"]);
  });
});

describe("files sent at once", () => {
  it("one organiser's second file while the first is read: 429, translated; another organiser's goes on", async () => {
    const big = ["Dossard;Nom;Temps", ...Array.from({ length: 20_000 }, (_, i) => `${i + 1};NOM ${i};0:40:00`)].join(
      "\n",
    );
    const small = "Clt;Nom;Temps\n1;DUPONT Jean;0:40:00";
    const [first, second, other] = await Promise.all([
      parseResults(t, organiser, courseId, { file: "big.csv", data: big }),
      parseResults(t, organiser, courseId, { file: "small.csv", data: small }),
      parseResults(t, admin, courseId, { file: "small.csv", data: small }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 429]);
    const refused = first.statusCode === 429 ? first : second;
    expect(refused.json().error).toEqual({
      code: "RESULTS_PARSE_IN_PROGRESS",
      message:
        "Un fichier de résultats est déjà en cours de lecture pour vous : attendez son aperçu avant d'en envoyer un autre.",
    });
    expect(other.statusCode, other.body).toBe(200);
    // Once the first is read, the organiser sends the next.
    expect((await parseResults(t, organiser, courseId, { file: "small.csv", data: small })).statusCode).toBe(200);
  });
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
