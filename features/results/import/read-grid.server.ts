/**
 * A results file to a grid of text cells, whatever it came as: CSV (comma, semicolon or tab; UTF-8
 * or Windows-1252), XLSX (first sheet), or an HTML table copied from a timing company's page.
 * Parsing is done by maintained libraries (papaparse, read-excel-file, node-html-parser, decision
 * 027); what they give is read into rows of trimmed strings, each with its line in the file.
 *
 * Within limits, checked before the libraries read everything (decision 044): rows, columns and
 * a cell's length as a CSV is read (papaparse's step), table rows counted before an HTML page is
 * parsed, and an XLSX's entries unpacked within a budget (zip-entries.server.ts) then scanned for
 * the rows, columns and text runs the XLSX reader would build, before it reads them. Runs in a
 * worker thread (results-workers.server.ts).
 */
import { parse as parseHtml } from "node-html-parser";
import Papa from "papaparse";
import { readSheet } from "read-excel-file/node";
import { isStorableText } from "../../../shared/input.ts";
import {
  RESULTS_MAX_CELL_CHARS,
  RESULTS_MAX_COLUMNS,
  RESULTS_MAX_ROWS,
  XLSX_MAX_UNPACKED_BYTES,
} from "./results-import.contract.ts";
import { formatTimeMs } from "./times.ts";
import { storedZip, unzipBounded, ZipRefusal } from "./zip-entries.server.ts";

export type SourceFormat = "csv" | "xlsx" | "html";

/** One row of the source: its cells and the line (CSV), row (XLSX) or table row (HTML) it is, from 1. */
export type GridRow = { line: number; cells: string[] };

export type Grid = {
  format: SourceFormat;
  /** csv only. */
  encoding?: "utf-8" | "windows-1252";
  /** csv only. */
  delimiter?: string;
  rows: GridRow[];
};

/** Why a file cannot be read, all of it or from one line on (the size ones answer 413). */
export const UNREADABLE_REASONS = {
  empty: 400,
  xlsx: 400,
  noTable: 400,
  unstorable: 400,
  tooLarge: 413,
  tooManyColumns: 413,
  cellTooLong: 413,
  cellTooLongAnywhere: 413,
  unpackedTooLarge: 413,
  /** Over RESULTS_FILE_MAX_BYTES (the upload itself). */
  tooHeavy: 413,
} as const;
export type UnreadableReason = keyof typeof UNREADABLE_REASONS;

/** Why a file could not be read at all, and the line at fault when one is. */
export class UnreadableFileError extends Error {
  constructor(
    readonly reason: UnreadableReason,
    readonly line: number | null = null,
  ) {
    super(`results file unreadable: ${reason}`);
  }
}

/** Non-empty rows beyond this are refused (a marathon has a few tens of thousands of finishers). */
export const MAX_ROWS = RESULTS_MAX_ROWS;
/** Room above the results (titles, blank rows), in rows read or an XLSX's row numbers. */
const ROWS_SLACK = 50;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * Windows-1252's characters at 0x80–0x9F (its only difference from Latin-1). Node 20's
 * TextDecoder("windows-1252") decodes these bytes as Latin-1 control characters (nodejs/node
 * issue 56542), which would turn "d’Alès" into "d\u0092Alès": they are mapped here.
 */
const WINDOWS_1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (what Excel on Windows writes as "CSV"). */
export function decodeText(bytes: Uint8Array): { text: string; encoding: "utf-8" | "windows-1252" } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { text: text.replace(/^\uFEFF/, ""), encoding: "utf-8" };
  } catch {
    let text = "";
    const CHUNK = 8192;
    for (let i = 0; i < bytes.length; i += CHUNK) {
      const chunk = bytes.subarray(i, i + CHUNK);
      text += String.fromCharCode(
        ...Array.from(chunk, (b) => (b >= 0x80 && b < 0xa0 ? WINDOWS_1252_HIGH.charCodeAt(b - 0x80) : b)),
      );
    }
    return { text, encoding: "windows-1252" };
  }
}

const clean = (value: string) =>
  value
    .replace(/\u00a0/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/**
 * The row as kept: cells after the last one with text are dropped (a spreadsheet's trailing
 * separators); a row that still has too many columns, a cell too long or a character PostgreSQL
 * cannot store (NUL, a lone surrogate) refuses the file from its line.
 */
function keptRow(line: number, cells: string[]): GridRow {
  let width = cells.length;
  while (width > 0 && cells[width - 1] === "") width--;
  if (width > RESULTS_MAX_COLUMNS) throw new UnreadableFileError("tooManyColumns", line);
  const kept = width === cells.length ? cells : cells.slice(0, width);
  for (const cell of kept) {
    if (cell.length > RESULTS_MAX_CELL_CHARS) throw new UnreadableFileError("cellTooLong", line);
    if (!isStorableText(cell)) throw new UnreadableFileError("unstorable", line);
  }
  return { line, cells: kept };
}

const isEmptyRow = (cells: readonly string[]) => cells.every((cell) => cell === "");

/** The non-empty rows, each checked as it is read: the first one over a limit stops the reading. */
function csvGrid(text: string): Grid {
  const rows: GridRow[] = [];
  let line = 1;
  let refusal: unknown = null;
  let delimiter: string | undefined;
  Papa.parse<string[]>(text, {
    delimitersToGuess: [";", "\t", ",", "|"],
    skipEmptyLines: false,
    step(result, parser) {
      delimiter ??= result.meta.delimiter;
      const raw = result.data;
      try {
        const cells = raw.map(clean);
        if (!isEmptyRow(cells)) rows.push(keptRow(line, cells));
        if (rows.length > MAX_ROWS + ROWS_SLACK) throw new UnreadableFileError("tooLarge");
      } catch (error) {
        refusal = error;
        parser.abort();
      }
      // papaparse's rows follow the file's lines unless a quoted cell spans several: count them.
      line += 1 + raw.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
    },
  });
  if (refusal) throw refusal;
  return { format: "csv", delimiter, rows };
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    // A time cell: Excel stores a fraction of a day, read as a date on 30 December 1899.
    const ms = value.getTime() - EXCEL_EPOCH_MS;
    if (ms >= 0 && ms < 100 * 86_400_000) return formatTimeMs(Math.round(ms));
    return value.toISOString().slice(0, 10);
  }
  return clean(String(value));
}

/** What read-excel-file reads of an archive (its own filter): the XML parts. */
const isXmlPart = (name: string) => name.endsWith(".xml") || name.endsWith(".xml.rels");
/**
 * The longest text between two tags an XLSX part may hold, in bytes: a cell of the longest allowed
 * text in 4-byte characters, or with entities (`&amp;` for "&").
 */
const XLSX_MAX_TEXT_BYTES = 8 * RESULTS_MAX_CELL_CHARS;

/** The longest run of bytes between two tags (a shared string, an inline string). Linear. */
function longestTextRun(xml: Buffer): number {
  let longest = 0;
  let start = 0;
  while (start < xml.length) {
    const open = xml.indexOf(0x3c, start); // <
    const end = open === -1 ? xml.length : open;
    longest = Math.max(longest, end - start);
    if (open === -1) break;
    const close = xml.indexOf(0x3e, open); // >
    if (close === -1) break;
    start = close + 1;
  }
  return longest;
}

const TAG_END = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2f, 0x3e]); // space, tab, LF, CR, /, >
const COLUMN_LETTERS = /\sr="([A-Z]{1,3})(\d{1,7})"/;
const ROW_NUMBER = /\sr="(\d{1,7})"/;

/** A1-style column letters to a number from 1 (A = 1, Z = 26, AA = 27). */
function columnNumber(letters: string): number {
  let n = 0;
  for (const letter of letters) n = n * 26 + (letter.charCodeAt(0) - 64);
  return n;
}

/**
 * The rows and columns the XLSX reader would build for a sheet, before it does: it makes a row
 * for every row number up to the last `<row>` (empty ones too) and a column up to the last cell
 * with a value. A scan of the tags, linear, stopped at the first row or column over the limits.
 */
function checkSheetExtent(xml: Buffer): void {
  let row = 0;
  let column = 0;
  let at = xml.indexOf(0x3c);
  while (at !== -1) {
    const close = xml.indexOf(0x3e, at);
    if (close === -1) return;
    const isRow = xml[at + 1] === 0x72 && xml[at + 2] === 0x6f && xml[at + 3] === 0x77 && TAG_END.has(xml[at + 4]!);
    const isCell = xml[at + 1] === 0x63 && TAG_END.has(xml[at + 2]!);
    if (isRow) {
      const number = ROW_NUMBER.exec(xml.toString("latin1", at, close + 1));
      row = number ? Number(number[1]) : row + 1;
      column = 0;
      if (row > MAX_ROWS + 1000) throw new UnreadableFileError("tooLarge");
    } else if (isCell) {
      const address = COLUMN_LETTERS.exec(xml.toString("latin1", at, close + 1));
      column = address ? columnNumber(address[1]!) : column + 1;
      // An empty cell (<c r="XFD1"/>) widens no row.
      if (xml[close - 1] !== 0x2f && column > RESULTS_MAX_COLUMNS) {
        throw new UnreadableFileError("tooManyColumns", address ? Number(address[2]) : row);
      }
    }
    at = xml.indexOf(0x3c, close + 1);
  }
}

/**
 * The first sheet: the archive's XML parts unpacked within the budget and scanned (text runs,
 * the sheets' extent), then handed to read-excel-file as a new archive of exactly those parts.
 */
async function xlsxGrid(bytes: Uint8Array): Promise<Grid> {
  let parts: { name: string; content: Buffer }[];
  try {
    parts = unzipBounded(bytes, isXmlPart, { maxUnpackedBytes: XLSX_MAX_UNPACKED_BYTES, maxEntries: 2000 });
  } catch (error) {
    if (error instanceof ZipRefusal)
      throw new UnreadableFileError(error.reason === "tooLarge" ? "unpackedTooLarge" : "xlsx");
    throw error;
  }
  for (const { name, content } of parts) {
    if (longestTextRun(content) > XLSX_MAX_TEXT_BYTES) throw new UnreadableFileError("cellTooLongAnywhere");
    if (/^xl\/worksheets\/[^/]+\.xml$/.test(name)) checkSheetExtent(content);
  }
  let data: unknown[][];
  try {
    data = (await readSheet(storedZip(parts))) as unknown[][];
  } catch {
    throw new UnreadableFileError("xlsx");
  }
  return { format: "xlsx", rows: data.map((cells, i) => ({ line: i + 1, cells: cells.map(cellText) })) };
}

/** Table rows in an HTML text, counted up to the limit before it is parsed. */
function checkTableRows(html: string): void {
  const tr = /<tr[\s>]/gi;
  let count = 0;
  while (tr.exec(html)) if (++count > 2 * (MAX_ROWS + ROWS_SLACK)) throw new UnreadableFileError("tooLarge");
}

function htmlGrid(html: string): Grid {
  checkTableRows(html);
  const root = parseHtml(html, { blockTextElements: { script: false, style: false } });
  // The table with the most rows is the results (pages also hold menus and small tables).
  const tables = root.querySelectorAll("table");
  const table = tables.sort((a, b) => b.querySelectorAll("tr").length - a.querySelectorAll("tr").length)[0];
  const trs = table ? table.querySelectorAll("tr") : root.querySelectorAll("tr");
  if (trs.length === 0) throw new UnreadableFileError("noTable");
  const rows = trs.map((tr, i) => {
    const cells: string[] = [];
    for (const cell of tr.childNodes) {
      if (!("tagName" in cell)) continue;
      const tag = String((cell as { tagName: string }).tagName).toLowerCase();
      if (tag !== "td" && tag !== "th") continue;
      const element = cell as unknown as { text: string; getAttribute(name: string): string | undefined };
      const text = clean(element.text);
      cells.push(text);
      // A cell spanning columns keeps the columns after it in place.
      const span = Math.min(Number(element.getAttribute("colspan") ?? 1) || 1, 50);
      for (let k = 1; k < span; k++) cells.push("");
    }
    return { line: i + 1, cells };
  });
  return { format: "html", rows };
}

/** Reads an uploaded file or pasted text into rows of cells; throws UnreadableFileError. */
export async function readGrid(input: { bytes: Uint8Array } | { text: string }): Promise<Grid> {
  let grid: Grid;
  if ("bytes" in input) {
    const { bytes } = input;
    if (bytes.length === 0) throw new UnreadableFileError("empty");
    if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) grid = await xlsxGrid(bytes);
    else {
      const { text, encoding } = decodeText(bytes);
      grid = { ...textGrid(text), ...(/<t[dhr][\s>]/i.test(text) ? {} : { encoding }) };
    }
  } else grid = textGrid(input.text.normalize("NFC"));
  // CSV rows were checked as they were read; the others are checked here, in the file's order.
  const rows = grid.format === "csv" ? grid.rows : grid.rows.filter((row) => !isEmptyRow(row.cells));
  if (rows.length === 0) throw new UnreadableFileError("empty");
  if (rows.length > MAX_ROWS + ROWS_SLACK) throw new UnreadableFileError("tooLarge");
  return { ...grid, rows: grid.format === "csv" ? rows : rows.map((row) => keptRow(row.line, row.cells)) };
}

function textGrid(text: string): Grid {
  if (!text.trim()) throw new UnreadableFileError("empty");
  return /<t[dhr][\s>]/i.test(text) ? htmlGrid(text) : csvGrid(text);
}
