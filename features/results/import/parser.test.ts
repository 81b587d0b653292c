import fs from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { detectMapping, fieldOfHeader } from "./columns.ts";
import { normaliseRows, rankingBasis } from "./normalise.ts";
import { decodeText, readGrid, UnreadableFileError } from "./read-grid.server.ts";
import { parseSingleTime, parseTime } from "./times.ts";

const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, "fixtures", name)));

async function parseFixture(name: string, distanceM: number | null = 10_000) {
  const grid = await readGrid({ bytes: fixture(name) });
  return { grid, ...normaliseRows(grid.rows, { distanceM }) };
}

const hms = (h: number, m: number, s: number, ms = 0) => ((h * 60 + m) * 60 + s) * 1000 + ms;

describe("times", () => {
  it.each([
    ["1:03:55", hms(1, 3, 55)],
    ["01:03:55", hms(1, 3, 55)],
    ["63:55", hms(0, 63, 55)],
    ["03:55", hms(0, 3, 55)],
    ["26:03:04", hms(26, 3, 4)],
    ["1j 02:03:04", hms(26, 3, 4)],
    ["1h03'55", hms(1, 3, 55)],
    ["1h03'55\"", hms(1, 3, 55)],
    ["1h03m55s", hms(1, 3, 55)],
    ["1h03", hms(1, 3, 0)],
    ["2h", hms(2, 0, 0)],
    ["32'41\"", hms(0, 32, 41)],
    ["32'41''", hms(0, 32, 41)],
    ["55s", hms(0, 0, 55)],
    ["1:03:55.4", hms(1, 3, 55, 400)],
    ["1:03:55,4", hms(1, 3, 55, 400)],
    ["1:03:55.45", hms(1, 3, 55, 450)],
    ["1:03:55,123", hms(1, 3, 55, 123)],
    ["1h03'55.4", hms(1, 3, 55, 400)],
  ])("reads %s", (text, ms) => {
    expect(parseSingleTime(text)).toBe(ms);
  });

  it.each(["1:7x:00", "1:60:00", "1:03:60", "abc", "12", "0:00:00", "1:03:55:12:1", "h", "--", "1h75"])(
    "refuses %s",
    (text) => {
      expect(parseSingleTime(text)).toBeNull();
    },
  );

  it("reads an official time with the net one in brackets", () => {
    expect(parseTime("01:03:55 (01:03:52)")).toEqual({ timeMs: hms(1, 3, 55), netTimeMs: hms(1, 3, 52) });
    expect(parseTime("1:09:58,4 (1:09:55,1)")).toEqual({ timeMs: hms(1, 9, 58, 400), netTimeMs: hms(1, 9, 55, 100) });
    expect(parseTime("01:03:55")).toEqual({ timeMs: hms(1, 3, 55), netTimeMs: null });
    expect(parseTime("01:03:55 (nope)")).toBeNull();
  });
});

describe("column titles", () => {
  it.each([
    ["Place", "rank"],
    ["Clt", "rank"],
    ["Rang", "rank"],
    ["Dossard", "bib"],
    ["N° dossard", "bib"],
    ["Doss.", "bib"],
    ["Nom", "lastName"],
    ["Prénom", "firstName"],
    ["Nom Prénom", "name"],
    ["Sexe", "sex"],
    ["Cat.", "category"],
    ["Catégorie", "category"],
    ["Place Cat.", "categoryRank"],
    ["Pl./Cat.", "categoryRank"],
    ["Pl./Sexe", "sexRank"],
    ["Club", "club"],
    ["Equipe / Club", "club"],
    ["Temps", "time"],
    ["Temps officiel (réel)", "time"],
    ["Temps réel", "netTime"],
    ["Chip Time", "netTime"],
    ["Gun Time", "time"],
    ["Nat.", "country"],
    ["Vitesse", "speed"],
    ["Vitesse (km/h)", "speed"],
    ["Allure", "pace"],
    ["Overall Place", "rank"],
    ["Age Group", "category"],
  ])("%s is %s", (title, field) => {
    expect(fieldOfHeader(title)).toBe(field);
  });

  it("maps each field to its first column only", () => {
    expect(detectMapping(["Temps", "Nom", "Temps", "Commentaire"])).toEqual(["time", "name", null, null]);
  });
});

describe("encodings", () => {
  it("reads UTF-8, and Windows-1252 when the bytes are not UTF-8", () => {
    expect(decodeText(new TextEncoder().encode("Lefèvre"))).toEqual({ text: "Lefèvre", encoding: "utf-8" });
    expect(decodeText(new Uint8Array([0x4c, 0x65, 0x66, 0xe8, 0x76, 0x72, 0x65, 0x92]))).toEqual({
      text: "Lefèvre’",
      encoding: "windows-1252",
    });
  });

  it("decodes every Windows-1252 byte as iconv-lite does", () => {
    // Every byte Windows-1252 defines (0x81, 0x8D, 0x8F, 0x90 and 0x9D have no character); a
    // 0x80 first makes the bytes invalid UTF-8.
    const undefinedBytes = [0x81, 0x8d, 0x8f, 0x90, 0x9d];
    const all = Array.from({ length: 256 }, (_, i) => i).filter((b) => !undefinedBytes.includes(b));
    const bytes = new Uint8Array([0x80, ...all]);
    expect(decodeText(bytes).text).toBe(iconv.decode(Buffer.from(bytes), "windows-1252"));
  });
});

describe("timing companies' files", () => {
  it("Chronopro: semicolons, Windows-1252, H/F, a DNF and a disqualification kept in place", async () => {
    const { grid, rows, problems, mapping, computed } = await parseFixture("chronopro-10km-windows-1252.csv");
    expect(grid).toMatchObject({ format: "csv", encoding: "windows-1252", delimiter: ";" });
    expect(problems).toEqual([]);
    expect(mapping).toEqual([
      "rank",
      "bib",
      "lastName",
      "firstName",
      "sex",
      "category",
      "categoryRank",
      "club",
      "time",
      "speed",
    ]);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({
      rank: 1,
      bib: "112",
      name: "GAUTHIER Sébastien",
      firstName: "Sébastien",
      lastName: "GAUTHIER",
      sex: "M",
      category: "SEH",
      categoryRank: 1,
      club: "Foulées d’Alès",
      timeMs: hms(0, 34, 51),
      status: "finished",
    });
    expect(rows[1]).toMatchObject({ lastName: "LECŒUR", firstName: "François" });
    expect(rows[8]).toMatchObject({ position: 8, status: "dnf", rank: null, timeMs: null, name: "PERROT Cécile" });
    // A disqualified runner's time stays, without rank.
    expect(rows[9]).toMatchObject({ status: "dsq", rank: null, timeMs: hms(0, 38, 2) });
    // The file has category ranks but no sex ranks: those are computed, by time, ties sharing.
    expect(computed).toMatchObject({ rank: false, categoryRank: false, sexRank: true, pace: true });
    expect(rows.filter((r) => r.sex === "F" && r.status === "finished").map((r) => r.sexRank)).toEqual([1, 2, 3]);
    expect(rows.filter((r) => r.sex === "M" && r.status === "finished").map((r) => r.sexRank)).toEqual([1, 2, 3, 4, 5]);
    // 34:51 over 10 km: 209.1 s per km.
    expect(rows[0]!.paceSPerKm).toBe(209);
  });

  it("Wiclax: BOM, 'Nom Prénom', official and net times in one column, tenths with a comma, NP", async () => {
    const { grid, rows, problems, mapping } = await parseFixture("wiclax-semi-marathon.csv", 21_097);
    expect(grid).toMatchObject({ encoding: "utf-8", delimiter: ";" });
    expect(problems).toEqual([]);
    expect(mapping.slice(0, 10)).toEqual([
      "rank",
      "bib",
      "name",
      "sex",
      "category",
      "categoryRank",
      "sexRank",
      "club",
      "country",
      "time",
    ]);
    expect(rows[1]).toMatchObject({
      name: "MOREAU Julien",
      timeMs: hms(1, 9, 58, 400),
      netTimeMs: hms(1, 9, 55, 100),
      category: "M0M",
      sexRank: 2,
      country: "FRA",
    });
    expect(rows[8]).toMatchObject({ status: "dnf", name: "PETIT Lucas", timeMs: null });
    expect(rows[9]).toMatchObject({ status: "dns", name: "FONTAINE Marie" });
    // The ranks follow the official time (the 4th and 5th are 1:14:03 both, 1:13:59 and 1:14:01 on
    // the chip): the pace is read from it, 1:04:12 over 21.097 km.
    expect(rankingBasis(rows)).toBe("official");
    expect(rows[0]!.paceSPerKm).toBe(Math.round(3852 / 21.097));
  });

  it("IPITOS: tabs, English titles, DNF and DSQ in the rank and time columns", async () => {
    const { grid, rows, problems } = await parseFixture("ipitos-trail-42k.tsv", 42_195);
    expect(grid.delimiter).toBe("\t");
    expect(problems).toEqual([]);
    expect(rows.map((r) => r.status)).toEqual([
      "finished",
      "finished",
      "finished",
      "finished",
      "finished",
      "finished",
      "dnf",
      "dsq",
    ]);
    expect(rows[0]).toMatchObject({ timeMs: hms(4, 12, 33, 200), netTimeMs: hms(4, 12, 31, 900), country: "FR" });
    expect(rows[5]).toMatchObject({ country: "BE", club: null });
  });

  it("English CSV: commas, quoted clubs with commas, Male/Female, first and last names", async () => {
    const { grid, rows, problems } = await parseFixture("english-10k.csv");
    expect(grid.delimiter).toBe(",");
    expect(problems).toEqual([]);
    expect(rows[0]).toMatchObject({
      name: "O'Brien James",
      sex: "M",
      club: "Harriers, Bristol",
      netTimeMs: hms(0, 33, 12),
      timeMs: hms(0, 33, 14),
    });
    expect(rows[1]).toMatchObject({ sex: "F", netTimeMs: hms(0, 35, 40, 500) });
  });

  it("Sportinnovation XLSX: title rows above the header, Excel times, a DNF; ranks by sex computed", async () => {
    const { grid, rows, problems, headerLine, computed } = await parseFixture(
      "sportinnovation-trail-21km.xlsx",
      21_000,
    );
    expect(grid.format).toBe("xlsx");
    expect(headerLine).toBe(4);
    expect(problems).toEqual([]);
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({ rank: 1, name: "ARNAUD Kévin", timeMs: hms(1, 38, 4), sex: "M", line: 5 });
    expect(rows[3]).toMatchObject({ name: "CARON Agathe", timeMs: hms(2, 3, 19), sexRank: 2, category: "M0F" });
    expect(rows[5]).toMatchObject({ status: "dnf", rank: null });
    expect(computed.sexRank).toBe(true);
    expect(computed.categoryRank).toBe(true);
    expect(rows.find((r) => r.name === "ROGER Bastien")?.categoryRank).toBe(2);
  });

  it("L-Chrono HTML table: the results table among others, a title row, 32'41\" times, a tie", async () => {
    const { grid, rows, problems, headerLine } = await parseFixture("l-chrono-10km.html");
    expect(grid.format).toBe("html");
    expect(headerLine).toBe(2);
    expect(problems).toEqual([]);
    expect(rows).toHaveLength(8);
    expect(rows[1]).toMatchObject({ name: "ROCHE Margaux", timeMs: hms(0, 36, 2), club: null, sex: "F" });
    expect(rows[6]).toMatchObject({ timeMs: hms(1, 2, 7) });
    expect(rows[7]).toMatchObject({ status: "dnf", name: "PERRIN Julie" });
    // The pasted text (not a file) is read the same way.
    const html = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "l-chrono-10km.html"), "utf8");
    const pasted = await readGrid({ text: html });
    expect(normaliseRows(pasted.rows, { distanceM: 10_000 }).rows).toEqual(rows);
  });

  it("reads a 'Nom' column without a 'Prénom' one as the full name ('NOM Prénom'), split", () => {
    const { mapping, rows } = normaliseRows(
      [
        { line: 1, cells: ["Clt", "Doss.", "Nom", "Sexe", "Temps"] },
        { line: 2, cells: ["1", "12", "DUPONT Jean-Pierre", "H", "35:12"] },
        { line: 3, cells: ["2", "13", "LE GALL Marie Anne", "F", "36:40"] },
        { line: 4, cells: ["3", "14", "Élodie GÉRARD", "F", "37:02"] },
        { line: 5, cells: ["4", "15", "Martin", "H", "39:00"] },
      ],
      { distanceM: 10_000 },
    );
    expect(mapping).toEqual(["rank", "bib", "name", "sex", "time"]);
    expect(rows.map((r) => [r.name, r.lastName, r.firstName])).toEqual([
      ["DUPONT Jean-Pierre", "DUPONT", "Jean-Pierre"],
      ["LE GALL Marie Anne", "LE GALL", "Marie Anne"],
      ["Élodie GÉRARD", "GÉRARD", "Élodie"],
      ["Martin", null, null],
    ]);
    // Beside a "Prénom" column, "Nom" is the surname (the Chronopro file above).
    expect(detectMapping(["Nom", "Prénom", "Temps"])).toEqual(["lastName", "firstName", "time"]);
  });

  it("reads the pace from the chip time when the file ranks by it", () => {
    const { rows } = normaliseRows(
      [
        { line: 1, cells: ["Clt", "Nom", "Temps", "Temps réel"] },
        { line: 2, cells: ["1", "A", "41:30", "40:00"] },
        { line: 3, cells: ["2", "B", "40:35", "40:30"] },
        { line: 4, cells: ["3", "C", "43:20", "43:10"] },
      ],
      { distanceM: 10_000 },
    );
    expect(rankingBasis(rows)).toBe("net");
    expect(rows.map((r) => r.paceSPerKm)).toEqual([240, 243, 259]);
  });

  it("derives the sex from FFA-style categories when the file has no sex column", () => {
    const { rows } = normaliseRows(
      [
        { line: 1, cells: ["Clt", "Nom", "Cat.", "Temps"] },
        { line: 2, cells: ["1", "A", "SEH", "30:00"] },
        { line: 3, cells: ["2", "B", "M0F", "31:00"] },
        { line: 4, cells: ["3", "C", "V1H", "32:00"] },
      ],
      { distanceM: null },
    );
    expect(rows.map((r) => [r.sex, r.sexRank])).toEqual([
      ["M", 1],
      ["F", 1],
      ["M", 2],
    ]);
  });
});

describe("problems", () => {
  it("names the line, the column and the value of a bad time", async () => {
    const { problems, problemCount } = await parseFixture("bad-time.csv");
    expect(problemCount).toBe(1);
    expect(problems).toEqual([{ code: "notATime", line: 14, column: "Temps", value: "1:7x:00" }]);
  });

  it("applies the organiser's mapping instead of the detected one", async () => {
    const grid = await readGrid({ bytes: fixture("bad-time.csv") });
    // The "Temps" column ignored: nothing left to refuse, ranks kept from the file.
    const { problems, rows } = normaliseRows(grid.rows, {
      distanceM: null,
      mapping: ["rank", "bib", "lastName", "firstName", "sex", "category", null],
    });
    expect(problems).toEqual([]);
    expect(rows[12]).toMatchObject({ rank: 13, timeMs: null, status: "finished" });
  });

  it("refuses a file with no recognisable header, and an empty one", async () => {
    const { problems } = normaliseRows([{ line: 1, cells: ["a", "b"] }], { distanceM: null });
    expect(problems[0]?.code).toBe("noHeader");
    await expect(readGrid({ bytes: new Uint8Array() })).rejects.toBeInstanceOf(UnreadableFileError);
    await expect(readGrid({ text: "\n\n" })).rejects.toBeInstanceOf(UnreadableFileError);
  });

  it("reports unreadable ranks and sexes", () => {
    const { problems } = normaliseRows(
      [
        { line: 1, cells: ["Place", "Nom", "Sexe", "Temps"] },
        { line: 2, cells: ["premier", "A", "H", "30:00"] },
        { line: 3, cells: ["2", "B", "Z", "31:00"] },
      ],
      { distanceM: null },
    );
    expect(problems).toEqual([
      { code: "notARank", line: 2, column: "Place", value: "premier" },
      { code: "notASex", line: 3, column: "Sexe", value: "Z" },
    ]);
  });
});
