/**
 * The results import's requests and answers (POST /api/results/parse, /api/results/preview,
 * /api/results/import, GET /api/results/import/{id}). Isomorphic: the import screen reads the
 * same shapes.
 */
import { z } from "zod";
import { apiErrorBodySchema } from "../../../shared/api-error.ts";
import { RESULT_IMPORT_STATUSES, RESULT_STATUSES } from "../../../shared/constants.ts";
import { numeric, rowId } from "../../../shared/input.ts";
import { RESULT_FIELDS } from "./columns.ts";
import { PROBLEM_CODES, WARNING_CODES } from "./normalise.ts";

/** Rows of the preview. */
export const PREVIEW_ROWS = 20;
/** A file or pasted table: 10 MB at most (a 60,000-line CSV is about 5 MB). */
export const RESULTS_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Result lines in a file (a marathon has a few tens of thousands of finishers). */
export const RESULTS_MAX_ROWS = 60_000;
/** Columns of a row (as many as a mapping may name). */
export const RESULTS_MAX_COLUMNS = 100;
/** Characters of one cell (a name, a club, a time). */
export const RESULTS_MAX_CELL_CHARS = 1_000;
/** An XLSX's XML parts once unpacked (60,000 lines of ten columns are about 28 MB). */
export const XLSX_MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

const field = z.enum(RESULT_FIELDS);
/** One entry per column of the file: the field it holds, or null to ignore it. */
export const mappingSchema = z.array(field.nullable()).max(RESULTS_MAX_COLUMNS);

/** The multipart fields beside `file` (or `text`, a pasted table) of POST /api/results/parse. */
export const parseFieldsSchema = z.object({ courseId: numeric.pipe(rowId) });

export const previewBodySchema = z.strictObject({
  courseId: rowId,
  /** The parse's token (an import waiting for confirmation). */
  token: rowId,
  mapping: mappingSchema,
});
export type PreviewBody = z.input<typeof previewBodySchema>;

export const importBodySchema = z.strictObject({
  courseId: rowId,
  token: rowId,
  /** The organiser's corrections; the detected mapping when absent. */
  mapping: mappingSchema.optional(),
  /** Required when the course already has imported results: they are replaced. */
  replace: z.boolean().optional(),
});
export type ImportBody = z.input<typeof importBodySchema>;

const importedRowSchema = z.object({
  position: z.number().int(),
  line: z.number().int(),
  status: z.enum(RESULT_STATUSES),
  rank: z.number().int().nullable(),
  sexRank: z.number().int().nullable(),
  categoryRank: z.number().int().nullable(),
  bib: z.string().nullable(),
  name: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  club: z.string().nullable(),
  sex: z.enum(["M", "F"]).nullable(),
  country: z.string().nullable(),
  category: z.string().nullable(),
  timeMs: z.number().int().nullable(),
  netTimeMs: z.number().int().nullable(),
  paceSPerKm: z.number().int().nullable(),
});

export const problemSchema = z.object({
  code: z.enum(PROBLEM_CODES),
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  value: z.string().nullable(),
  /** "Ligne 14, colonne « Temps » : « 1:7x:00 » n'est pas un temps." */
  message: z.string(),
});
export type ImportProblem = z.infer<typeof problemSchema>;

export const previewResponseSchema = z.object({
  /** Give it back to /api/results/preview and /api/results/import. */
  token: z.number().int(),
  courseId: z.number().int(),
  fileName: z.string().nullable(),
  format: z.enum(["csv", "xlsx", "html"]),
  encoding: z.enum(["utf-8", "windows-1252"]).nullable(),
  delimiter: z.string().nullable(),
  headerLine: z.number().int().nullable(),
  columns: z.array(z.object({ title: z.string(), field: field.nullable() })),
  fields: z.array(field),
  rows: z.array(importedRowSchema).describe(`The first ${PREVIEW_ROWS} lines, read with the mapping`),
  rowCount: z.number().int(),
  problems: z.array(problemSchema),
  problemCount: z.number().int(),
  warnings: z.array(z.object({ code: z.enum(WARNING_CODES), count: z.number().int(), message: z.string() })),
  computed: z.object({ rank: z.boolean(), sexRank: z.boolean(), categoryRank: z.boolean(), pace: z.boolean() }),
  /** Results the course already has from an earlier import: importing replaces them. */
  existingResults: z.number().int(),
});
export type PreviewResponse = z.infer<typeof previewResponseSchema>;

export const importStatusSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  status: z.enum(RESULT_IMPORT_STATUSES),
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  /** Translated, when the import failed. */
  error: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type ImportStatus = z.infer<typeof importStatusSchema>;

/** A refused file: the first problem as the message, every problem kept listed. */
export const importErrorBodySchema = apiErrorBodySchema.extend({ problems: z.array(problemSchema).optional() });
export type ImportErrorBody = z.infer<typeof importErrorBodySchema>;
