/**
 * The results import's CPU work, run in a worker thread (results-workers.server.ts, decision 044):
 * reading a file into its grid (read-grid.server.ts, within its limits) and reading the grid's
 * lines (normalise.ts), for the parse, the preview and the import. What the main thread gets back
 * is small: the preview's lines, the counts, the first problems, and the grid or the lines packed
 * (JSON, brotli, base64) for `result_imports.payload`, a single string PostgreSQL stores as it is.
 *
 * A file that cannot be read comes back as `{ refused }` (its reason and line), not as an error.
 */
import zlib from "node:zlib";
import type { ColumnMapping } from "./columns.ts";
import { type ImportedRow, type NormaliseResult, normaliseRows } from "./normalise.ts";
import { type Grid, type GridRow, readGrid, UnreadableFileError, type UnreadableReason } from "./read-grid.server.ts";
import { PREVIEW_ROWS } from "./results-import.contract.ts";

/**
 * Brotli at quality 5 with a 16 MB window: a grid of 60,000 lines packs to about 0.5–0.7 MB (gzip
 * made 1.3 MB), and storing it is PGlite's work on the event loop, in proportion to its size.
 */
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 },
};

/** A value as JSON, compressed, in base64. */
export function pack(value: unknown): string {
  return zlib.brotliCompressSync(JSON.stringify(value), BROTLI).toString("base64");
}

export function unpack<T>(packed: string): T {
  return JSON.parse(zlib.brotliDecompressSync(Buffer.from(packed, "base64")).toString("utf8")) as T;
}

/** How the grid's lines read: the first lines, every count, the first problems. */
export type CheckedLines = Omit<NormaliseResult, "rows"> & { rows: ImportedRow[]; rowCount: number };

export type ResultsFileTask =
  | { kind: "read"; source: { bytes: Uint8Array } | { text: string }; distanceM: number | null }
  | {
      kind: "check";
      /** The grid's rows as `pack` made them. */
      packedRows: string;
      distanceM: number | null;
      mapping?: ColumnMapping;
      /** Pack every line read, for the import (when no line has a problem). */
      keepLines: boolean;
    };

export type ReadFile = {
  grid: Omit<Grid, "rows">;
  packedRows: string;
  checked: CheckedLines;
};
export type CheckedFile = { checked: CheckedLines; packedLines: string | null };
export type Refused = { refused: { reason: UnreadableReason; line: number | null } };

function check(rows: readonly GridRow[], options: { distanceM: number | null; mapping?: ColumnMapping }) {
  const outcome = normaliseRows(rows, options);
  const checked: CheckedLines = {
    ...outcome,
    rows: outcome.rows.slice(0, PREVIEW_ROWS),
    rowCount: outcome.rows.length,
  };
  return { outcome, checked };
}

/** The worker's entry (worker-entry.mjs calls it with each task). */
export async function resultsFileTask(task: ResultsFileTask): Promise<ReadFile | CheckedFile | Refused> {
  if (task.kind === "check") {
    const { outcome, checked } = check(unpack<GridRow[]>(task.packedRows), task);
    const keep = task.keepLines && outcome.problemCount === 0 && outcome.rows.length > 0;
    return { checked, packedLines: keep ? pack(outcome.rows) : null };
  }
  let grid: Grid;
  try {
    grid = await readGrid(task.source);
  } catch (error) {
    if (error instanceof UnreadableFileError) return { refused: { reason: error.reason, line: error.line } };
    throw error;
  }
  const { rows, ...meta } = grid;
  return { grid: meta, packedRows: pack(rows), checked: check(rows, { distanceM: task.distanceM }).checked };
}
