/**
 * Lists exported as spreadsheets (the admin's CSV and XLSX exports): one header row, then one row
 * per line, each cell a text, a number, a boolean, a date or nothing. Text that a spreadsheet
 * would read as a formula (a leading = + - @, or a tab or carriage return before one) is
 * neutralised with a leading apostrophe in both formats, so opening an export never runs what a
 * member typed in their name (OWASP "CSV injection").
 */
import writeXlsxFile from "write-excel-file/node";

export type SpreadsheetValue = string | number | boolean | Date | null | undefined;
export type Spreadsheet = { header: readonly string[]; rows: readonly (readonly SpreadsheetValue[])[] };

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text as a spreadsheet may show it without running it. */
export function formulaSafe(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function cellText(value: SpreadsheetValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * RFC 4180 CSV: every cell quoted, CRLF between lines, a byte-order mark so that Excel reads the
 * accents as UTF-8. Numbers and booleans are written as they are (never neutralised: "-3" stays a
 * number); texts go through formulaSafe.
 */
export function toCsv({ header, rows }: Spreadsheet): string {
  const cell = (value: SpreadsheetValue) => {
    const text = typeof value === "string" ? formulaSafe(value) : cellText(value);
    return `"${text.replace(/"/g, '""')}"`;
  };
  const lines = [header, ...rows].map((row) => row.map(cell).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/** An .xlsx workbook of one sheet: texts as strings (formulaSafe), numbers, booleans and dates as such. */
export async function toXlsx({ header, rows }: Spreadsheet, sheet = "Export"): Promise<Buffer> {
  const bold = (value: string) => ({ value: formulaSafe(value), fontWeight: "bold" as const });
  const data = [
    header.map(bold),
    ...rows.map((row) =>
      row.map((value) => {
        if (value === null || value === undefined) return null;
        if (typeof value === "string") return { value: formulaSafe(value), type: String };
        if (value instanceof Date) return { value, type: Date, format: "dd/mm/yyyy hh:mm" };
        return { value };
      }),
    ),
  ];
  return writeXlsxFile(data, { sheet, stickyRowsCount: 1 }).toBuffer();
}
