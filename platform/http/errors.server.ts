import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import {
  type ApiFieldError,
  apiErrorBody,
  apiErrorMessage,
  type ErrorCode,
  errorCatalogue,
  isApiError,
} from "../../shared/api-error.ts";
import type { Locale } from "../../shared/constants.ts";
import { isLocale } from "../../shared/i18n/index.ts";
import { type IssueLike, issueText } from "../../shared/validation-messages.ts";

/** The caller's language: explicit header or query, else Accept-Language, else French. */
export function requestLocale(request: FastifyRequest): Locale {
  const explicit = request.headers["x-locale"] ?? (request.query as Record<string, unknown> | undefined)?._locale;
  if (isLocale(explicit)) return explicit;
  const accept = request.headers["accept-language"];
  if (typeof accept === "string") {
    const first = accept.split(",")[0]?.trim().slice(0, 2).toLowerCase();
    if (isLocale(first)) return first;
  }
  return "fr";
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  details: {
    field?: string;
    status?: number;
    /** The words of the failed check, when a zod rule said more than the code. */
    message?: string;
    fields?: { field: string; code: ErrorCode; message?: string }[];
  } = {},
) {
  const status = details.status ?? errorCatalogue[code].status;
  const locale = requestLocale(request);
  const body = apiErrorBody(code, locale, details.field);
  if (details.message) body.error.message = details.message;
  if (details.fields && details.fields.length > 1) {
    body.error.fields = details.fields.map(
      (f): ApiFieldError => ({
        field: f.field,
        code: f.code,
        message: f.message ?? apiErrorMessage(f.code, locale, f.field),
      }),
    );
  }
  if (code === "TOO_MANY_ATTEMPTS" || code === "EMAIL_ALREADY_SENT") reply.header("Retry-After", "60");
  return reply.status(status).send(body);
}

type Issue = IssueLike & { path: readonly PropertyKey[] };

/**
 * Failed field checks as error codes and words (shared/validation-messages.ts): a check whose
 * message is a catalogue code ("EMAIL_EMPTY") answers with that code; any other is BAD_REQUEST
 * with the words of its rule ("80 caractères au plus."), never the field's name. One entry per
 * field, the first failure of each, in the order of the schema.
 */
function fieldErrors(issues: Issue[], locale: Locale): { field: string; code: ErrorCode; message: string }[] {
  const seen = new Map<string, { code: ErrorCode; message: string }>();
  for (const issue of issues) {
    const field = issue.path.map(String).join(".");
    if (seen.has(field)) continue;
    seen.set(field, issueText(issue, locale));
  }
  return [...seen].map(([field, text]) => ({ field, ...text }));
}

function sendFieldErrors(request: FastifyRequest, reply: FastifyReply, issues: Issue[]) {
  const fields = fieldErrors(issues, requestLocale(request));
  const first = fields[0];
  if (!first) return sendError(request, reply, "BAD_REQUEST");
  const field = first.field || undefined;
  const named = fields.filter((f) => f.field);
  return sendError(request, reply, first.code, { field, status: 400, message: first.message, fields: named });
}

export function errorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      // Fastify's entries carry the zod issue: its code as keyword, the rest in params.
      return sendFieldErrors(
        request,
        reply,
        error.validation.map((v) => ({
          ...(v.params as Omit<IssueLike, "code" | "message">),
          code: v.keyword,
          message: v.message,
          path: (v.instancePath ?? "").split("/").filter(Boolean),
        })),
      );
    }
    if (error instanceof ZodError) {
      return sendFieldErrors(
        request,
        reply,
        error.issues.map((issue) => ({ ...issue, path: issue.path })),
      );
    }
    if (isApiError(error)) {
      return sendError(request, reply, error.code, { field: error.field, status: error.status });
    }
    const refusal = clientErrorOf(error);
    if (refusal) return sendError(request, reply, refusal.code, { status: refusal.status, field: refusal.field });
    // The logger copies the error without the statement's values (server/logging.server.ts).
    request.log.error({ err: error }, "request failed");
    return sendError(request, reply, "GENERIC", { status: 500 });
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, "NOT_FOUND"));
}

/**
 * Errors Fastify answers before routing (a path that is not valid percent-encoded UTF-8), in the
 * API's error shape: Fastify's `frameworkErrors` option.
 */
export function frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply) {
  const refusal = clientErrorOf(error) ?? { code: "BAD_REQUEST" as const, status: 400 };
  return sendError(request, reply, refusal.code, { status: refusal.status, field: refusal.field });
}

/** Errors thrown by the multipart parser (busboy) on a malformed body: the client's fault. */
function isMultipartParserError(error: Error): boolean {
  return typeof error.stack === "string" && /[\\/]@fastify[\\/]busboy[\\/]/.test(error.stack);
}

/**
 * What a framework, body-parser or multipart error says about the request, as the catalogue's
 * code and an HTTP status; null for anything else (a 500). Fastify's content-type parsers and
 * @fastify/multipart give a status (some of them 406 or 500 for what is a bad request); busboy,
 * under @fastify/multipart, throws plain errors on a malformed multipart body.
 */
export function clientErrorOf(error: Error): { code: ErrorCode; status: number; field?: string } | null {
  switch ((error as { code?: string }).code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return { code: "FILE_TOO_HEAVY", status: 413, field: "file" };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
    case "FST_PARTS_LIMIT":
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
      return { code: "BAD_REQUEST", status: 413 };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
      return { code: "BAD_REQUEST", status: 415 };
    case "FST_INVALID_JSON_FIELD_ERROR":
    case "FST_PROTO_VIOLATION":
    case "FST_MP_PREMATURE_CLOSE":
      return { code: "BAD_REQUEST", status: 400 };
  }
  if (isMultipartParserError(error)) return { code: "BAD_REQUEST", status: 400, field: "file" };
  const status = (error as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) {
    return { code: status === 404 ? "NOT_FOUND" : "BAD_REQUEST", status };
  }
  return null;
}
