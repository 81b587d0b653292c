/**
 * Importing a timing company's results into one course (decision 027). A parse reads the file
 * into a grid kept in `result_imports.payload` (the token the organiser gives back); a preview
 * reads it again with the organiser's mapping; an import checks every line (a bad cell refuses
 * the file, nothing is written), then the background job writes all lines in ONE transaction,
 * replacing the course's earlier imported results and re-attaching the lines members had claimed.
 */
import { PGlite } from "@electric-sql/pglite";
import { and, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db, Executor } from "../../../platform/db/client.server.ts";
import { ApiError } from "../../../shared/api-error.ts";
import type { Locale } from "../../../shared/constants.ts";
import { createI18n } from "../../../shared/i18n/index.ts";
import { type Actor, requireEventEditor } from "../../events/event-access.server.ts";
import { courseEventAndDistance, eventCourses, eventLabels } from "../../events/event-reads.server.ts";
import { relinkClaims } from "../claims.service.server.ts";
import { resultImports, results } from "../results.tables.ts";
import { type ColumnMapping, normaliseHeader, RESULT_FIELDS } from "./columns.ts";
import { type CheckedLines, pack, type ReadFile, unpack } from "./file-task.server.ts";
import type { ImportedRow, RowProblem } from "./normalise.ts";
import type { Grid } from "./read-grid.server.ts";
import {
  type ImportErrorBody,
  type ImportProblem,
  type ImportStatus,
  PREVIEW_ROWS,
  type PreviewResponse,
} from "./results-import.contract.ts";
import { resultsWorkers } from "./results-workers.server.ts";

export const RESULTS_IMPORT_QUEUE = "results.import";
/** Lines per INSERT statement in the job (about 20 parameters each, far below PostgreSQL's 65,535). */
export const IMPORT_BATCH = 1000;
/** Parses never imported are deleted after this long. */
const PARSE_KEPT_MS = 24 * 3_600_000;

/** Recomputes badges, best times and stats of members (features/badges, refreshMemberAchievements). */
export type RefreshAchievements = (db: Executor, userIds: number[]) => Promise<void>;

/**
 * What waits in `result_imports.payload` (decision 044): the grid's rows, then the checked lines,
 * packed into one string (file-task.server.ts) by the worker that read them. Payloads written
 * before (`grid` with its rows, `rows` as an array) are still read.
 */
type ParsePayload =
  | { stage: "parsed"; grid: Omit<Grid, "rows">; packedRows: string }
  | { stage: "parsed"; grid: Grid; packedRows?: undefined };
type QueuedPayload = { stage: "queued"; packedLines: string } | { stage: "queued"; rows: ImportedRow[] };
type Payload = ParsePayload | QueuedPayload;

/**
 * A file refused at parse or import: the first problem as the message, all of them listed; 400
 * RESULTS_FILE_INVALID, or 413 RESULTS_FILE_TOO_LARGE for a file over a limit.
 */
export class RefusedFileError extends Error {
  constructor(
    readonly problems: ImportProblem[],
    readonly status: 400 | 413 = 400,
  ) {
    super(problems[0]?.message ?? "results file refused");
  }
  body(): ImportErrorBody {
    const code = this.status === 413 ? "RESULTS_FILE_TOO_LARGE" : "RESULTS_FILE_INVALID";
    return { error: { code, message: this.message, field: "file" }, problems: this.problems };
  }
}

/** A problem in words: "Ligne 14, colonne « Temps » : « 1:7x:00 » n'est pas un temps." */
export function problemMessage(problem: RowProblem, locale: Locale): string {
  const t = createI18n(locale).getFixedT(locale, "results-import");
  return t(`problems.${problem.code}`, {
    line: problem.line ?? "",
    column: problem.column ?? "",
    value: problem.value ?? "",
  });
}

export function unreadableProblem(reason: string, locale: Locale, line: number | null = null): ImportProblem {
  const t = createI18n(locale).getFixedT(locale, "results-import");
  return { code: "noHeader", line, column: null, value: null, message: t(`unreadable.${reason}`, { line }) };
}

export function resultsImportService(
  db: Db,
  clock: () => Date,
  deps: {
    enqueue?: (queue: string, payload: unknown, options?: { tx?: Executor; maxAttempts?: number }) => Promise<number>;
    refreshAchievements?: RefreshAchievements;
  },
) {
  // On PGlite there is one connection: progress written beside the job's transaction would wait
  // for it. On PostgreSQL it goes through another connection of the pool and shows at once.
  const client = (db as unknown as { $client?: unknown }).$client;
  const progressBesideTransaction = !(client instanceof PGlite);

  async function courseOf(courseId: number): Promise<{ eventId: number; distance: number | null }> {
    const course = await courseEventAndDistance(db, courseId);
    if (!course) throw new ApiError("ITEM_NOT_FOUND", { field: "courseId" });
    return course;
  }

  /** The course, once the actor is known to edit its event (owner, organiser, admin). */
  async function editableCourse(actor: Actor, courseId: number) {
    const course = await courseOf(courseId);
    await requireEventEditor(db, actor, course.eventId);
    return course;
  }

  async function existingResults(courseId: number): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(results)
      .where(and(eq(results.courseId, courseId), eq(results.source, "import")));
    return Number(row?.n ?? 0);
  }

  function translate(outcome: Pick<CheckedLines, "problems" | "warnings">, locale: Locale) {
    const t = createI18n(locale).getFixedT(locale, "results-import");
    return {
      problems: outcome.problems.map((p) => ({ ...p, message: problemMessage(p, locale) })),
      warnings: outcome.warnings.map((w) => ({ ...w, message: t(`warnings.${w.code}`, { count: w.count }) })),
    };
  }

  async function parsedImport(courseId: number, token: number) {
    const [row] = await db
      .select({ id: resultImports.id, payload: resultImports.payload, fileName: resultImports.fileName })
      .from(resultImports)
      .where(
        and(
          eq(resultImports.id, token),
          eq(resultImports.courseId, courseId),
          eq(resultImports.status, "pending"),
          sql`${resultImports.payload}->>'stage' = 'parsed'`,
        ),
      )
      .limit(1);
    if (!row) throw new ApiError("ITEM_NOT_FOUND", { field: "token" });
    const payload = row.payload as ParsePayload;
    if (payload.packedRows === undefined) {
      const { rows, ...grid } = payload.grid;
      return { ...row, grid, packedRows: pack(rows) };
    }
    return { ...row, grid: payload.grid, packedRows: payload.packedRows };
  }

  async function previewOf(
    token: number,
    courseId: number,
    fileName: string | null,
    grid: Omit<Grid, "rows">,
    outcome: CheckedLines,
    locale: Locale,
  ): Promise<PreviewResponse> {
    return {
      token,
      courseId,
      fileName,
      format: grid.format,
      encoding: grid.encoding ?? null,
      delimiter: grid.delimiter ?? null,
      headerLine: outcome.headerLine,
      columns: outcome.header.map((title, i) => ({ title, field: outcome.mapping[i] ?? null })),
      fields: [...RESULT_FIELDS],
      rows: outcome.rows.slice(0, PREVIEW_ROWS),
      rowCount: outcome.rowCount,
      ...translate(outcome, locale),
      problemCount: outcome.problemCount,
      computed: outcome.computed,
      existingResults: await existingResults(courseId),
    };
  }

  return {
    editableCourse,

    /** The import screen's edition and its courses, with the results each already has; the actor must edit it. */
    async importTarget(actor: Actor, eventId: number) {
      await requireEventEditor(db, actor, eventId);
      const [labels, list] = await Promise.all([eventLabels(db, [eventId]), eventCourses(db, eventId)]);
      const courseIds = list.map((c) => c.id);
      const imported = courseIds.length
        ? await db
            .select({ courseId: results.courseId, n: sql<number>`count(*)::int` })
            .from(results)
            .where(and(inArray(results.courseId, courseIds), eq(results.source, "import")))
            .groupBy(results.courseId)
        : [];
      const counts = new Map(imported.map((r) => [r.courseId, Number(r.n)]));
      return {
        event: labels.get(eventId)!,
        courses: list.map((c) => ({ ...c, existingResults: counts.get(c.id) ?? 0 })),
      };
    },

    /**
     * Keeps a file read by the workers (results-workers.server.ts, with the course's distance) for
     * the organiser's confirmation; answers the preview with its token.
     */
    async parse(
      actor: Actor,
      courseId: number,
      file: ReadFile,
      fileName: string | null,
      locale: Locale,
    ): Promise<PreviewResponse> {
      await editableCourse(actor, courseId);
      // Parses never imported do not pile up.
      await db
        .delete(resultImports)
        .where(
          and(
            eq(resultImports.status, "pending"),
            lt(resultImports.createdAt, new Date(clock().getTime() - PARSE_KEPT_MS)),
            sql`${resultImports.payload}->>'stage' = 'parsed'`,
          ),
        );
      const payload: ParsePayload = { stage: "parsed", grid: file.grid, packedRows: file.packedRows };
      const [row] = await db
        .insert(resultImports)
        .values({ courseId, userId: actor.id, fileName, payload, status: "pending", createdAt: clock() })
        .returning({ id: resultImports.id });
      return previewOf(row!.id, courseId, fileName, file.grid, file.checked, locale);
    },

    /** The same file read again (in a worker) with the organiser's mapping. */
    async preview(actor: Actor, courseId: number, token: number, mapping: ColumnMapping, locale: Locale) {
      const course = await editableCourse(actor, courseId);
      const parsed = await parsedImport(courseId, token);
      const { checked } = await resultsWorkers.check(parsed.packedRows, {
        distanceM: course.distance,
        mapping,
        keepLines: false,
      });
      return previewOf(token, courseId, parsed.fileName, parsed.grid, checked, locale);
    },

    /**
     * Checks every line and queues the import. Throws RefusedFileError (nothing written) for a bad
     * cell, RESULTS_ALREADY_IMPORTED (409) when the course has imported results and `replace` is not set.
     */
    async start(
      actor: Actor,
      input: { courseId: number; token: number; mapping?: ColumnMapping; replace?: boolean },
      locale: Locale,
    ): Promise<ImportStatus> {
      const course = await editableCourse(actor, input.courseId);
      const parsed = await parsedImport(input.courseId, input.token);
      const { checked: outcome, packedLines } = await resultsWorkers.check(parsed.packedRows, {
        distanceM: course.distance,
        mapping: input.mapping,
        keepLines: true,
      });
      if (outcome.problemCount > 0) throw new RefusedFileError(translate(outcome, locale).problems);
      if (outcome.rowCount === 0 || packedLines === null) {
        throw new RefusedFileError([unreadableProblem("noRows", locale)]);
      }
      if (!input.replace && (await existingResults(input.courseId)) > 0) throw new ApiError("RESULTS_ALREADY_IMPORTED");
      const payload: QueuedPayload = { stage: "queued", packedLines };
      await db.transaction(async (tx) => {
        await tx
          .update(resultImports)
          .set({
            payload,
            mapping: outcome.mapping,
            totalRows: outcome.rowCount,
            processedRows: 0,
            userId: actor.id,
          })
          .where(eq(resultImports.id, input.token));
        if (!deps.enqueue) throw new Error("results import: no job queue");
        // A failed write is not retried by itself: the organiser sees why and imports again.
        await deps.enqueue(RESULTS_IMPORT_QUEUE, { importId: input.token }, { tx, maxAttempts: 2 });
      });
      return (await this.status(actor, input.token, locale))!;
    },

    /** Where an import stands, for the progress bar; ITEM_NOT_FOUND for an unknown id. */
    async status(actor: Actor, id: number, locale: Locale): Promise<ImportStatus> {
      const [row] = await db
        .select({
          id: resultImports.id,
          courseId: resultImports.courseId,
          status: resultImports.status,
          totalRows: resultImports.totalRows,
          processedRows: resultImports.processedRows,
          error: resultImports.error,
          finishedAt: resultImports.finishedAt,
        })
        .from(resultImports)
        .where(eq(resultImports.id, id))
        .limit(1);
      if (!row) throw new ApiError("ITEM_NOT_FOUND");
      await editableCourse(actor, row.courseId);
      const t = createI18n(locale).getFixedT(locale, "results-import");
      return {
        ...row,
        error: row.error ? t("job.failed") : null,
        finishedAt: row.finishedAt?.toISOString() ?? null,
      };
    },

    /** The job: every line in one transaction, claimed lines re-attached, members' achievements refreshed. */
    async run(importId: number): Promise<void> {
      const [job] = await db.select().from(resultImports).where(eq(resultImports.id, importId)).limit(1);
      // Done, failed, or deleted with its course: nothing to do (the job may run twice).
      if (!job || (job.status !== "pending" && job.status !== "running")) return;
      const payload = job.payload as Payload | null;
      if (payload?.stage !== "queued") return;
      const { eventId } = await courseOf(job.courseId);
      await db.update(resultImports).set({ status: "running", processedRows: 0 }).where(eq(resultImports.id, importId));
      let touchedMembers: number[] = [];
      try {
        touchedMembers = await db.transaction(async (tx) => {
          const claimed = await tx
            .select({ userId: results.userId, claimedAt: results.claimedAt, bib: results.bib, name: results.name })
            .from(results)
            .where(and(eq(results.courseId, job.courseId), eq(results.source, "import"), isNotNull(results.userId)));
          await tx.delete(results).where(and(eq(results.courseId, job.courseId), eq(results.source, "import")));
          const lines = "packedLines" in payload ? unpack<ImportedRow[]>(payload.packedLines) : payload.rows;
          for (let start = 0; start < lines.length; start += IMPORT_BATCH) {
            const batch = lines.slice(start, start + IMPORT_BATCH);
            await tx.insert(results).values(
              batch.map((row) => ({
                courseId: job.courseId,
                eventId,
                importId,
                source: "import" as const,
                status: row.status,
                position: row.position,
                rank: row.rank,
                sexRank: row.sexRank,
                categoryRank: row.categoryRank,
                bib: row.bib,
                name: row.name,
                firstName: row.firstName,
                lastName: row.lastName,
                club: row.club,
                sex: row.sex,
                country: row.country,
                category: row.category,
                timeMs: row.timeMs,
                netTimeMs: row.netTimeMs,
                paceSPerKm: row.paceSPerKm,
              })),
            );
            const done = Math.min(start + IMPORT_BATCH, lines.length);
            if (progressBesideTransaction) {
              await db.update(resultImports).set({ processedRows: done }).where(eq(resultImports.id, importId));
            }
          }
          await reattach(tx, job.courseId, importId, claimed, lines);
          await relinkClaims(tx, job.courseId);
          await tx
            .update(resultImports)
            .set({ status: "done", processedRows: lines.length, payload: null, finishedAt: clock() })
            .where(eq(resultImports.id, importId));
          return [...new Set(claimed.map((c) => c.userId!))];
        });
      } catch (error) {
        await db
          .update(resultImports)
          .set({ status: "failed", error: { key: "job.failed" }, finishedAt: clock() })
          .where(eq(resultImports.id, importId));
        throw error;
      }
      if (touchedMembers.length && deps.refreshAchievements) await deps.refreshAchievements(db, touchedMembers);
    },
  };
}

/** The name as claims compare it: no accents, no case, words in order. */
export function claimKey(name: string): string {
  return normaliseHeader(name);
}

/**
 * Lines members had claimed go to the new line with the same bib, or, for a line without a bib,
 * the same name (accents and case aside); a claim whose line is gone is dropped.
 */
async function reattach(
  tx: Executor,
  courseId: number,
  importId: number,
  claimed: { userId: number | null; claimedAt: Date | null; bib: string | null; name: string }[],
  lines: ImportedRow[],
): Promise<void> {
  if (claimed.length === 0) return;
  const byBib = new Map<string, number>();
  const byName = new Map<string, number>();
  for (const line of lines) {
    if (line.bib && !byBib.has(line.bib)) byBib.set(line.bib, line.position);
    const key = claimKey(line.name);
    if (!byName.has(key)) byName.set(key, line.position);
  }
  const taken = new Set<number>();
  for (const claim of claimed) {
    const position = claim.bib ? byBib.get(claim.bib) : byName.get(claimKey(claim.name));
    if (position === undefined || taken.has(position) || claim.userId === null) continue;
    taken.add(position);
    await tx
      .update(results)
      .set({ userId: claim.userId, claimedAt: claim.claimedAt })
      .where(and(eq(results.courseId, courseId), eq(results.importId, importId), eq(results.position, position)));
  }
}
