/**
 * From a grid of cells to result lines: the header row is found (title rows above it are skipped),
 * columns are mapped by their titles (or as the organiser corrected them), each cell is read
 * (times, ranks, sex H/F/M, statuses DNF/DNS/DSQ…), and what the file lacks is computed — general,
 * men/women and category ranks by time among finishers (ties share a rank), pace from the course
 * distance. Every cell that cannot be read is a problem naming its line and column. Isomorphic, pure.
 */
import type { ResultStatus } from "../../../shared/constants.ts";
import { splitFullName } from "../names.ts";
import { paceOf, type TimeBasis, timesOf } from "../results.contract.ts";
import {
  type ColumnMapping,
  detectMapping,
  headerScore,
  normaliseHeader,
  RESULT_FIELDS,
  type ResultField,
} from "./columns.ts";
import { parseTime } from "./times.ts";

export type SourceRow = { line: number; cells: string[] };

export type ImportedRow = {
  /** Order in the file, from 0 (keeps DNF lines where the file put them). */
  position: number;
  /** The line, row or table row in the source, from 1. */
  line: number;
  status: ResultStatus;
  rank: number | null;
  sexRank: number | null;
  categoryRank: number | null;
  bib: string | null;
  name: string;
  firstName: string | null;
  lastName: string | null;
  club: string | null;
  sex: "M" | "F" | null;
  country: string | null;
  category: string | null;
  timeMs: number | null;
  netTimeMs: number | null;
  paceSPerKm: number | null;
};

export const PROBLEM_CODES = ["notATime", "notARank", "nameMissing", "notASex", "noHeader", "noName"] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];
/** A cell that cannot be read: "Ligne 14, colonne « Temps » : « 1:7x:00 » n'est pas un temps". */
export type RowProblem = { code: ProblemCode; line: number | null; column: string | null; value: string | null };

export const WARNING_CODES = ["noTimeCountedAsDnf", "noSex", "noDistance", "noTime"] as const;
export type WarningCode = (typeof WARNING_CODES)[number];
export type ImportWarning = { code: WarningCode; count: number };

/** What was computed because the file lacked it. */
export type Computed = { rank: boolean; sexRank: boolean; categoryRank: boolean; pace: boolean };

export type NormaliseResult = {
  /** The header row's line, or null when none was found. */
  headerLine: number | null;
  header: string[];
  mapping: ColumnMapping;
  rows: ImportedRow[];
  problems: RowProblem[];
  /** All problems, when more than the `problems` kept. */
  problemCount: number;
  warnings: ImportWarning[];
  computed: Computed;
};

/** Problems kept in an answer (the count says how many there were). */
export const MAX_PROBLEMS = 50;
/** Rows looked at to find the header. */
const HEADER_SEARCH_ROWS = 30;

const STATUS_WORDS: [ResultStatus, RegExp][] = [
  ["dnf", /^(?:dnf|abd|ab|aband|abandon|abandonne|abandonnee|did not finish|non finisher|non classe)$/],
  ["dns", /^(?:dns|np|non partant|non partante|non partants|absent|abs|forfait|did not start)$/],
  ["dsq", /^(?:dsq|dq|disq|disqualifie|disqualifiee|disqualification|disqualified|hors course)$/],
];

/** A status word in a cell (DNF, Abandon, NP, Disq…), or null. */
export function statusOf(cell: string): ResultStatus | null {
  const key = normaliseHeader(cell);
  if (!key) return null;
  for (const [status, words] of STATUS_WORDS) if (words.test(key)) return status;
  return null;
}

/** "12", "12.", "1er", "2e", "3ème", "(4)", "5th" → the number; null when empty; NaN when not a rank. */
export function parseRank(cell: string): number | null {
  const text = cell.trim();
  if (!text) return null;
  const match = /^\(?\s*(\d{1,6})\s*(?:\.|e|er|ere|re|eme|ème|è|°|st|nd|rd|th)?\s*\)?$/i.exec(text);
  const value = match ? Number(match[1]) : Number.NaN;
  return value > 0 ? value : Number.NaN;
}

/** H/M/Homme/Male… → M, F/Femme/Dame/W… → F; null when empty; undefined when not a sex. */
export function parseSex(cell: string): "M" | "F" | null | undefined {
  const key = normaliseHeader(cell);
  if (!key) return null;
  if (/^(?:h|m|homme|hommes|masculin|masc|male|man|men|garcon|mas)$/.test(key)) return "M";
  if (/^(?:f|w|d|femme|femmes|feminin|fem|female|woman|women|dame|dames|fille)$/.test(key)) return "F";
  return undefined;
}

/** Sex from an age category that carries it: "SEH", "V1H", "M0F", "SEF", "JUM" (FFA style). */
export function sexOfCategory(category: string | null): "M" | "F" | null {
  const match = category ? /^[A-Z]{1,3}\d?([HFM])$/i.exec(category.trim()) : null;
  if (!match) return null;
  return match[1]!.toUpperCase() === "F" ? "F" : "M";
}

/** The header row: the best-scoring of the first rows, at least two known titles. */
export function findHeader(rows: readonly SourceRow[]): number {
  let best = -1;
  let bestScore = 1;
  for (let i = 0; i < Math.min(rows.length, HEADER_SEARCH_ROWS); i++) {
    const score = headerScore(rows[i]!.cells);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

const limit = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);
const orNull = (value: string | undefined) => (value ? value : null);

/**
 * Competition ranking ("1, 2, 2, 4") of `rows` by `key` ascending; rows whose key is null get none.
 */
function rankBy<T>(rows: T[], key: (row: T) => number | null, assign: (row: T, rank: number) => void): void {
  const timed = rows.filter((row) => key(row) !== null).sort((a, b) => key(a)! - key(b)!);
  let previous: number | null = null;
  let rank = 0;
  timed.forEach((row, i) => {
    const value = key(row)!;
    if (value !== previous) rank = i + 1;
    previous = value;
    assign(row, rank);
  });
}

/** The time finishers are ranked by: the official time, else the net one. */
export const rankingTime = (row: Pick<ImportedRow, "timeMs" | "netTimeMs">) => row.timeMs ?? row.netTimeMs;

/**
 * The time the ranking follows (results.contract.ts TimeBasis): the finishers in rank order,
 * counting each step where a time goes down from one line to the next; the chip time when the gun
 * time goes down more often (or there is no gun time), else the gun time. The results service
 * reads stored lines the same way (results.service.server.ts basisOf).
 */
export function rankingBasis(rows: readonly ImportedRow[]): TimeBasis {
  const ranked = rows
    .filter((row) => row.status === "finished" && row.rank !== null)
    .sort((a, b) => a.rank! - b.rank! || a.position - b.position);
  const descents = (time: (row: ImportedRow) => number | null) =>
    ranked.filter((row, i) => {
      const [now, before] = [time(row), i > 0 ? time(ranked[i - 1]!) : null];
      return now !== null && before !== null && now < before;
    }).length;
  const hasOfficial = ranked.some((row) => row.timeMs !== null);
  const hasNet = ranked.some((row) => row.netTimeMs !== null);
  if (!hasOfficial && hasNet) return "net";
  return descents((row) => row.netTimeMs) < descents((row) => row.timeMs) ? "net" : "official";
}

/**
 * Fills what the file lacks, in place: general rank, sex ranks (within each sex), category ranks
 * (within each category) — each only when no finisher has one — and pace from the distance.
 */
export function computeMissing(rows: ImportedRow[], distanceM: number | null): Computed {
  const finished = rows.filter((row) => row.status === "finished");
  const computed: Computed = { rank: false, sexRank: false, categoryRank: false, pace: false };
  if (!finished.some((row) => row.rank !== null)) {
    rankBy(finished, rankingTime, (row, rank) => {
      row.rank = rank;
    });
    computed.rank = true;
  }
  if (!finished.some((row) => row.sexRank !== null)) {
    for (const sex of ["M", "F"] as const) {
      rankBy(
        finished.filter((row) => row.sex === sex),
        rankingTime,
        (row, rank) => {
          row.sexRank = rank;
        },
      );
    }
    computed.sexRank = true;
  }
  if (!finished.some((row) => row.categoryRank !== null)) {
    const byCategory = new Map<string, ImportedRow[]>();
    for (const row of finished) {
      if (!row.category) continue;
      const list = byCategory.get(row.category) ?? [];
      list.push(row);
      byCategory.set(row.category, list);
    }
    for (const list of byCategory.values()) {
      rankBy(list, rankingTime, (row, rank) => {
        row.categoryRank = rank;
      });
    }
    computed.categoryRank = true;
  }
  if (distanceM && distanceM > 0) {
    // Pace is read from the time the table shows: the one the ranking follows.
    const basis = rankingBasis(rows);
    for (const row of rows) {
      const ms = row.status === "finished" ? timesOf(row, basis).shown : null;
      row.paceSPerKm = paceOf(ms, distanceM);
    }
    computed.pace = true;
  }
  return computed;
}

export type NormaliseOptions = {
  /** The organiser's corrections: one entry per column (field or null), replacing the detected mapping. */
  mapping?: ColumnMapping;
  /** The course's distance in metres, for paces. */
  distanceM: number | null;
  /** Stop after this many rows (a preview); problems are still looked for in every row. */
  previewRows?: number;
};

/** Reads the rows of a grid into result lines, with the problems and warnings found. */
export function normaliseRows(source: readonly SourceRow[], options: NormaliseOptions): NormaliseResult {
  const problems: RowProblem[] = [];
  let problemCount = 0;
  const problem = (p: RowProblem) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  const headerIndex = findHeader(source);
  const none: Computed = { rank: false, sexRank: false, categoryRank: false, pace: false };
  if (headerIndex < 0) {
    problem({ code: "noHeader", line: null, column: null, value: null });
    return {
      headerLine: null,
      header: [],
      mapping: [],
      rows: [],
      problems,
      problemCount,
      warnings: [],
      computed: none,
    };
  }
  const headerRow = source[headerIndex]!;
  const width = Math.max(headerRow.cells.length, ...source.slice(headerIndex + 1).map((row) => row.cells.length));
  const header = Array.from({ length: width }, (_, i) => headerRow.cells[i] ?? "");
  const chosen = options.mapping ?? detectMapping(header);
  const mapping: ColumnMapping = Array.from({ length: width }, (_, i) => chosen[i] ?? null);
  // Speed and pace columns are recognised so that they are not mistaken for others, then ignored.
  const col = Object.fromEntries(
    RESULT_FIELDS.filter((field) => field !== "speed" && field !== "pace").map((field) => [
      field,
      mapping.indexOf(field),
    ]),
  ) as Record<Exclude<ResultField, "speed" | "pace">, number>;
  const title = (index: number) => header[index] || `#${index + 1}`;
  if (col.name < 0 && col.lastName < 0 && col.firstName < 0) {
    problem({ code: "noName", line: null, column: null, value: null });
  }

  const headerKey = header.map(normaliseHeader).join("|");
  const rows: ImportedRow[] = [];
  let countedAsDnf = 0;
  let withoutSex = 0;
  let withoutTime = 0;
  for (const { line, cells } of source.slice(headerIndex + 1)) {
    if (cells.every((cell) => cell === "")) continue;
    // Exports split in pages repeat the header.
    if (cells.map(normaliseHeader).join("|") === headerKey) continue;
    const cell = (index: number) => (index >= 0 ? (cells[index] ?? "") : "");

    let status: ResultStatus | null = col.status >= 0 ? statusOf(cell(col.status)) : null;
    for (const index of [col.time, col.rank, col.netTime]) status ??= statusOf(cell(index));

    let timeMs: number | null = null;
    let netTimeMs: number | null = null;
    const timeText = cell(col.time);
    if (timeText && !statusOf(timeText)) {
      const parsed = parseTime(timeText);
      if (!parsed) problem({ code: "notATime", line, column: title(col.time), value: timeText });
      else ({ timeMs, netTimeMs } = parsed);
    }
    const netText = cell(col.netTime);
    if (netText && !statusOf(netText)) {
      const parsed = parseTime(netText);
      if (!parsed) problem({ code: "notATime", line, column: title(col.netTime), value: netText });
      else netTimeMs = parsed.netTimeMs ?? parsed.timeMs;
    }

    const ranks = { rank: null as number | null, sexRank: null as number | null, categoryRank: null as number | null };
    for (const field of ["rank", "sexRank", "categoryRank"] as const) {
      const text = cell(col[field]);
      if (!text || statusOf(text)) continue;
      const value = parseRank(text);
      if (Number.isNaN(value)) problem({ code: "notARank", line, column: title(col[field]), value: text });
      else ranks[field] = value;
    }

    let firstName = orNull(cell(col.firstName));
    let lastName = orNull(cell(col.lastName));
    const name = cell(col.name) || [lastName, firstName].filter(Boolean).join(" ");
    // A full name alone ("DUPONT Jean-Pierre"): its capitals tell the surname from the first names.
    if (col.name >= 0 && col.firstName < 0 && col.lastName < 0) ({ lastName, firstName } = splitFullName(name));
    if (!name && col.name + col.lastName + col.firstName > -3) {
      const named = col.name >= 0 ? col.name : col.lastName >= 0 ? col.lastName : col.firstName;
      problem({ code: "nameMissing", line, column: title(named), value: "" });
    }

    const category = orNull(limit(cell(col.category), 24));
    let sex = parseSex(cell(col.sex));
    if (sex === undefined) {
      problem({ code: "notASex", line, column: title(col.sex), value: cell(col.sex) });
      sex = null;
    }
    sex ??= sexOfCategory(category);
    if (!sex) withoutSex++;

    if (!status) {
      if (timeMs === null && netTimeMs === null && ranks.rank === null) {
        status = "dnf";
        countedAsDnf++;
      } else status = "finished";
    }
    if (status === "finished" && timeMs === null && netTimeMs === null) withoutTime++;
    const country = cell(col.country);
    rows.push({
      position: rows.length,
      line,
      status,
      rank: status === "finished" ? ranks.rank : null,
      sexRank: status === "finished" ? ranks.sexRank : null,
      categoryRank: status === "finished" ? ranks.categoryRank : null,
      bib: orNull(limit(cell(col.bib), 16)),
      name: limit(name, 200),
      firstName: firstName && limit(firstName, 100),
      lastName: lastName && limit(lastName, 100),
      club: orNull(limit(cell(col.club), 200)),
      sex,
      country: /^[a-z]{2,3}$/i.test(country) ? country.toUpperCase() : null,
      category,
      timeMs,
      netTimeMs,
      paceSPerKm: null,
    });
  }
  const computed = computeMissing(rows, options.distanceM);
  const warnings: ImportWarning[] = [];
  if (countedAsDnf) warnings.push({ code: "noTimeCountedAsDnf", count: countedAsDnf });
  if (withoutTime) warnings.push({ code: "noTime", count: withoutTime });
  if (withoutSex && rows.length) warnings.push({ code: "noSex", count: withoutSex });
  if (!options.distanceM) warnings.push({ code: "noDistance", count: rows.length });
  return {
    headerLine: headerRow.line,
    header,
    mapping,
    rows: options.previewRows !== undefined ? rows.slice(0, options.previewRows) : rows,
    problems,
    problemCount,
    warnings,
    computed,
  };
}
