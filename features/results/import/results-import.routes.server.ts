import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../../platform/http/errors.server.ts";
import { uploadedFile } from "../../../platform/http/route-docs.server.ts";
import { ApiError, apiErrorBodySchema } from "../../../shared/api-error.ts";
import type { Locale } from "../../../shared/constants.ts";
import { numericId } from "../../events/event-detail.contract.ts";
import { access, bodyField, formField } from "../../identity/access.server.ts";
import { requireUser } from "../../identity/auth.server.ts";
import type { ReadFile } from "./file-task.server.ts";
import { UNREADABLE_REASONS, type UnreadableReason } from "./read-grid.server.ts";
import {
  importBodySchema,
  importErrorBodySchema,
  importStatusSchema,
  parseFieldsSchema,
  previewBodySchema,
  previewResponseSchema,
  RESULTS_FILE_MAX_BYTES,
} from "./results-import.contract.ts";
import { RESULTS_IMPORT_QUEUE, RefusedFileError, unreadableProblem } from "./results-import.service.server.ts";
import { resultsWorkers } from "./results-workers.server.ts";

const NO_STORE = "private, no-store";
const errors = {
  400: importErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
};

/** A file that cannot be read (or not within the limits): 400, or 413 for a size. */
function refusal(reason: UnreadableReason | "noFile", locale: Locale, line: number | null = null) {
  const status = reason === "noFile" ? 400 : UNREADABLE_REASONS[reason];
  return new RefusedFileError([unreadableProblem(reason, locale, line)], status);
}

/**
 * Importing a timing company's results into a course: POST /api/results/parse (the file or a
 * pasted table, answered with a preview and a token), POST /api/results/preview (the same file
 * with a corrected mapping), POST /api/results/import (queues the job that writes every line in
 * one transaction) and GET /api/results/import/{id} (its progress). The event's owner, organisers
 * and admins only.
 */
/** The file read in a worker; a refusal (its reason, its line) thrown as its translated answer. */
async function readInWorker(
  source: { bytes: Uint8Array } | { text: string },
  distanceM: number | null,
  locale: Locale,
): Promise<ReadFile> {
  const read = await resultsWorkers.read(source, distanceM);
  if ("refused" in read) throw refusal(read.refused.reason, locale, read.refused.line);
  return read;
}

export const resultsImportRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.resultsImport;

  app.jobs.register<{ importId: number }>(RESULTS_IMPORT_QUEUE, async ({ importId }) => {
    await service().run(importId);
    // The course's results show on the event page: the next visit renders afresh.
    app.pageCache?.clear();
  });

  if (!app.hasRequestDecorator("isMultipart")) await app.register(fastifyMultipart);
  app.addHook("onClose", async () => resultsWorkers.stop());

  /** Organisers whose file is being read: one at a time each (issue 25 §2). */
  const parsing = new Set<number>();

  app.addHook("onSend", async (_request, reply) => {
    reply.header("Cache-Control", NO_STORE);
  });

  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof RefusedFileError) return reply.code(error.status).send(error.body());
    throw error;
  });

  app.post(
    "/api/results/parse",
    {
      config: {
        access: access.editorOf("verified", formField("courseId", "course")),
        openapi: {
          errors: [
            "RESULTS_FILE_INVALID",
            "RESULTS_FILE_TOO_LARGE",
            "RESULTS_PARSE_IN_PROGRESS",
            "ITEM_NOT_FOUND",
            "SERVER_BUSY",
          ],
          multipart: parseFieldsSchema.extend({
            file: uploadedFile("The results file (CSV, XLSX or an HTML page), after courseId").optional(),
            text: z.string().optional().describe("Or a table pasted from a results page (HTML or CSV lines)"),
          }),
        },
      },
      schema: {
        tags: ["results"],
        summary: "Read a results file for course `courseId` and answer the detected columns and a preview",
        description:
          "multipart/form-data with `courseId` then `file` (CSV with comma, semicolon or tab, UTF-8 or Windows-1252; " +
          "XLSX; HTML) or `text` (a pasted table), 10 MB at most. Answers the mapping of each column, the first " +
          "lines read with it, the row count, warnings and the unreadable cells (line, column, value), and a token " +
          "for /api/results/preview and /api/results/import. Nothing is imported yet. RESULTS_FILE_INVALID (400) " +
          "when the file cannot be read at all; RESULTS_FILE_TOO_LARGE (413) over a limit: 10 MB, 60,000 lines, " +
          "100 columns, 1,000 characters a cell, 64 MB for an XLSX once unpacked. The file is read in a worker " +
          "thread; one file per organiser at a time (429 RESULTS_PARSE_IN_PROGRESS), 503 SERVER_BUSY when the " +
          "workers' queue is full.",
        consumes: ["multipart/form-data"],
        response: {
          200: previewResponseSchema,
          ...errors,
          413: importErrorBodySchema,
          429: apiErrorBodySchema,
          503: apiErrorBodySchema,
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const locale = requestLocale(request);
      if (!request.isMultipart()) throw new ApiError("FIELD_REQUIRED", { field: "file" });
      // Decided before the body is read (decision 018): one file per organiser, room in the queue.
      if (parsing.has(user.id)) throw new ApiError("RESULTS_PARSE_IN_PROGRESS");
      if (resultsWorkers.saturated()) throw new ApiError("SERVER_BUSY");
      parsing.add(user.id);
      try {
        const fields: Record<string, string> = {};
        let read: ReadFile | null = null;
        let fileName: string | null = null;
        let course: { id: number; distance: number | null } | null = null;
        try {
          const parts = request.parts({
            limits: {
              fileSize: RESULTS_FILE_MAX_BYTES,
              fieldSize: RESULTS_FILE_MAX_BYTES,
              files: 1,
              fields: 4,
              parts: 5,
            },
          });
          for await (const part of parts) {
            if (part.type !== "file") {
              fields[part.fieldname] = String(part.value);
              if (part.fieldname === "courseId") {
                // Rights are checked before anything else is read.
                const courseId = parseFieldsSchema.parse(fields).courseId;
                course = { id: courseId, distance: (await service().editableCourse(user, courseId)).distance };
              }
              continue;
            }
            if (part.fieldname !== "file" || course === null) {
              part.file.resume();
              continue;
            }
            const bytes = await part.toBuffer();
            if (part.file.truncated) throw refusal("tooHeavy", locale);
            fileName = part.filename ? part.filename.slice(0, 200) : null;
            read = await readInWorker({ bytes }, course.distance, locale);
          }
          if (course === null) parseFieldsSchema.parse(fields);
          if (!read && fields.text !== undefined && course)
            read = await readInWorker({ text: fields.text }, course.distance, locale);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === "FST_REQ_FILE_TOO_LARGE" || code === "FST_PARTS_LIMIT" || code === "FST_FIELD_SIZE_LIMIT") {
            throw refusal("tooHeavy", locale);
          }
          throw error;
        }
        if (!read || !course) throw refusal("noFile", locale);
        return await service().parse(user, course.id, read, fileName, locale);
      } finally {
        parsing.delete(user.id);
      }
    },
  );

  app.post(
    "/api/results/preview",
    {
      config: {
        access: access.editorOf("verified", bodyField("courseId", "course")),
        openapi: { errors: ["ITEM_NOT_FOUND"] },
      },
      schema: {
        tags: ["results"],
        summary: "Read a parsed file again with the organiser's column mapping (one field or null per column)",
        body: previewBodySchema,
        response: { 200: previewResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { courseId, token, mapping } = request.body;
      return service().preview(user, courseId, token, mapping, requestLocale(request));
    },
  );

  app.post(
    "/api/results/import",
    {
      config: {
        access: access.editorOf("verified", bodyField("courseId", "course")),
        openapi: { errors: ["RESULTS_FILE_INVALID", "RESULTS_ALREADY_IMPORTED", "ITEM_NOT_FOUND"] },
      },
      schema: {
        tags: ["results"],
        summary: "Import a parsed file into its course, in a background job: answers the import to follow",
        description:
          "Every line is checked first: one unreadable cell refuses the file (400 RESULTS_FILE_INVALID, the message " +
          "naming its line and column) and nothing is written. A course that already has imported results needs " +
          "`replace: true` (else 409 RESULTS_ALREADY_IMPORTED); they are then replaced in the same transaction, and " +
          "lines members had claimed are attached to the new line with the same bib (or name). Follow the job " +
          "with GET /api/results/import/{id}.",
        body: importBodySchema,
        response: { 202: importStatusSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const status = await service().start(user, request.body, requestLocale(request));
      return reply.code(202).send(status);
    },
  );

  app.get(
    "/api/results/import/:id",
    {
      config: { access: access.member, openapi: { errors: ["ITEM_NOT_FOUND", "FORBIDDEN"] } },
      schema: {
        tags: ["results"],
        summary: "Where an import stands: status (pending, running, done, failed) and lines written",
        params: z.object({ id: numericId.describe("The import's id (the parse's token)") }),
        response: { 200: importStatusSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return service().status(user, request.params.id, requestLocale(request));
    },
  );
};
