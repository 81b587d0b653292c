/**
 * A results file to a grid of text cells, whatever it came as: CSV (comma, semicolon or tab; UTF-8
 * or Windows-1252), XLSX (first sheet), or an HTML table copied from a timing company's page.
 * Parsing is done by maintained libraries (papaparse, read-excel-file, node-html-parser, decision
 * 027); what they give is read into rows of trimmed strings, each with its line in the file.
 */
import { parse as parseHtml } from "node-html-parser";
import Papa from "papaparse";
import { readSheet } from "read-excel-file/node";
import { isStorableText } from "../../../shared/input.ts";
import { formatTimeMs } from "./times.ts";

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

/** Why a file could not be read at all, and the line at fault when one is. */
export class UnreadableFileError extends Error {
  constructor(
    readonly reason: "empty" | "xlsx" | "noTable" | "tooLarge" | "unstorable",
    readonly line: number | null = null,
  ) {
    super(`results file unreadable: ${reason}`);
  }
}

/** Rows beyond this are refused (a marathon has a few tens of thousands of finishers). */
export const MAX_ROWS = 60_000;

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

function csvGrid(text: string): Grid {
  const parsed = Papa.parse<string[]>(text, {
    delimitersToGuess: [";", "\t", ",", "|"],
    skipEmptyLines: false,
  });
  // papaparse's rows follow the file's lines unless a quoted cell spans several: count them.
  const rows: GridRow[] = [];
  let line = 1;
  for (const cells of parsed.data) {
    rows.push({ line, cells: cells.map(clean) });
    line += 1 + cells.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
  }
  return { format: "csv", delimiter: parsed.meta.delimiter, rows };
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

async function xlsxGrid(bytes: Uint8Array): Promise<Grid> {
  let data: unknown[][];
  try {
    data = (await readSheet(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) as unknown[][];
  } catch {
    throw new UnreadableFileError("xlsx");
  }
  return { format: "xlsx", rows: data.map((cells, i) => ({ line: i + 1, cells: cells.map(cellText) })) };
}

function htmlGrid(html: string): Grid {
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
  } else grid = textGrid(input.text);
  const rows = grid.rows.filter((row) => row.cells.some((cell) => cell !== ""));
  if (rows.length === 0) throw new UnreadableFileError("empty");
  if (rows.length > MAX_ROWS + 50) throw new UnreadableFileError("tooLarge");
  // PostgreSQL stores no NUL in text (nor a lone surrogate in JSON): such a cell names its line.
  const unstorable = rows.find((row) => !row.cells.every(isStorableText));
  if (unstorable) throw new UnreadableFileError("unstorable", unstorable.line);
  return { ...grid, rows };
}

function textGrid(text: string): Grid {
  if (!text.trim()) throw new UnreadableFileError("empty");
  return /<t[dhr][\s>]/i.test(text) ? htmlGrid(text) : csvGrid(text);
}
