import fastifyMultipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLocale } from "../../../server/errors.server.ts";
import { uploadedFile } from "../../../server/openapi.server.ts";
import { ApiError, apiErrorBodySchema } from "../../../shared/api-error.ts";
import { text } from "../../../shared/input.ts";
import { access, bodyField, formField } from "../../accounts/access.server.ts";
import { requireUser } from "../../accounts/auth.server.ts";
import { numericId } from "../../events/event-detail.contract.ts";
import { type Grid, readGrid, UnreadableFileError } from "./read-grid.server.ts";
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

const NO_STORE = "private, no-store";
const errors = {
  400: importErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
};

/**
 * Importing a timing company's results into a course: POST /api/results/parse (the file or a
 * pasted table, answered with a preview and a token), POST /api/results/preview (the same file
 * with a corrected mapping), POST /api/results/import (queues the job that writes every line in
 * one transaction) and GET /api/results/import/{id} (its progress). The event's owner, organisers
 * and admins only.
 */
export const resultsImportRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.resultsImport;

  app.jobs.register<{ importId: number }>(RESULTS_IMPORT_QUEUE, async ({ importId }) => {
    await service().run(importId);
    // The course's results show on the event page: the next visit renders afresh.
    app.pageCache?.clear();
  });

  if (!app.hasRequestDecorator("isMultipart")) await app.register(fastifyMultipart);

  app.addHook("onSend", async (_request, reply) => {
    reply.header("Cache-Control", NO_STORE);
  });

  app.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof RefusedFileError) return reply.code(400).send(error.body());
    throw error;
  });

  app.post(
    "/api/results/parse",
    {
      config: {
        access: access.editorOf("verified", formField("courseId", "course")),
        openapi: {
          errors: ["RESULTS_FILE_INVALID", "ITEM_NOT_FOUND", "FILE_TOO_HEAVY"],
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
          "when the file cannot be read at all.",
        consumes: ["multipart/form-data"],
        response: { 200: previewResponseSchema, ...errors, 413: apiErrorBodySchema },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const locale = requestLocale(request);
      if (!request.isMultipart()) throw new ApiError("FIELD_REQUIRED", { field: "file" });
      const fields: Record<string, string> = {};
      let grid: Grid | null = null;
      let fileName: string | null = null;
      let courseId: number | null = null;
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
              courseId = parseFieldsSchema.parse(fields).courseId;
              await service().editableCourse(user, courseId);
            }
            continue;
          }
          if (part.fieldname !== "file" || courseId === null) {
            part.file.resume();
            continue;
          }
          const bytes = await part.toBuffer();
          if (part.file.truncated) throw new ApiError("FILE_TOO_HEAVY", { field: "file" });
          fileName = part.filename ? part.filename.slice(0, 200) : null;
          grid = await readGrid({ bytes: new Uint8Array(bytes) });
        }
        courseId ??= parseFieldsSchema.parse(fields).courseId;
        if (!grid && fields.text !== undefined) {
          const pasted = text().parse(fields.text);
          grid = await readGrid({ text: pasted });
        }
      } catch (error) {
        if (error instanceof UnreadableFileError) {
          throw new RefusedFileError([unreadableProblem(error.reason, locale, error.line)]);
        }
        const code = (error as { code?: string }).code;
        if (code === "FST_REQ_FILE_TOO_LARGE" || code === "FST_PARTS_LIMIT" || code === "FST_FIELD_SIZE_LIMIT") {
          throw new ApiError("FILE_TOO_HEAVY", { field: "file" });
        }
        throw error;
      }
      if (!grid) throw new RefusedFileError([unreadableProblem("noFile", locale)]);
      return service().parse(user, courseId, grid, fileName, locale);
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
