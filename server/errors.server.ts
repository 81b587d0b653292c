import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ZodError } from "zod";
import {
  ApiError,
  type ApiFieldError,
  apiErrorBody,
  apiErrorMessage,
  type ErrorCode,
  errorCatalogue,
  isErrorCode,
} from "../shared/api-error.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE, type Locale } from "../shared/constants.ts";
import { isLocale } from "../shared/i18n/index.ts";

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
  details: { field?: string; status?: number; fields?: { field: string; code: ErrorCode }[] } = {},
) {
  const status = details.status ?? errorCatalogue[code].status;
  const locale = requestLocale(request);
  const body = apiErrorBody(code, locale, details.field);
  if (details.fields && details.fields.length > 1) {
    body.error.fields = details.fields.map(
      (f): ApiFieldError => ({ field: f.field, code: f.code, message: apiErrorMessage(f.code, locale, f.field) }),
    );
  }
  if (code === "TOO_MANY_ATTEMPTS" || code === "EMAIL_ALREADY_SENT") reply.header("Retry-After", "60");
  return reply.status(status).send(body);
}

type Issue = { path: string; message?: string };

/**
 * Failed field checks as error codes: a check whose message is a catalogue code ("EMAIL_EMPTY")
 * answers with that code's own message; any other names its field (INVALID_FIELD). One entry per
 * field, the first failure of each, in the order of the schema.
 */
function fieldErrors(issues: Issue[]): { field: string; code: ErrorCode }[] {
  const seen = new Map<string, ErrorCode>();
  for (const issue of issues) {
    const field = issue.path.replace(/^\//, "").replaceAll("/", ".");
    if (seen.has(field)) continue;
    seen.set(field, isErrorCode(issue.message) ? issue.message : "BAD_REQUEST");
  }
  return [...seen].map(([field, code]) => ({ field, code }));
}

function sendFieldErrors(request: FastifyRequest, reply: FastifyReply, issues: Issue[]) {
  const fields = fieldErrors(issues);
  const first = fields[0];
  if (!first) return sendError(request, reply, "BAD_REQUEST");
  const field = first.field || undefined;
  const fieldsOrCatalogue = fields.filter((f) => f.field);
  return sendError(request, reply, first.code, { field, status: 400, fields: fieldsOrCatalogue });
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The path as a router or a proxy may read it: percent-decoded, dot segments resolved, backslashes
 * and repeated slashes as one "/", lower case.
 */
export function normalisedPath(url: string): string {
  const raw = url.split("?", 1)[0] ?? "/";
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: judged as it stands.
  }
  let path = decoded;
  try {
    path = new URL(decoded.replaceAll("\\", "/"), "http://x").pathname;
  } catch {
    // Kept as decoded.
  }
  return path.replace(/\/{2,}/g, "/").toLowerCase();
}

function isApiPath(path: string | undefined): boolean {
  return path !== undefined && (path === "/api" || path.startsWith("/api/"));
}

/**
 * The spec's fixed secure-access header is required on every /api write. "Under /api" is judged on
 * the route the router matched (it decodes the URL: `/%61pi/register` is /api/register), and on the
 * normalised path for requests no API route matched, never on the raw URL.
 */
export async function accessHeaderGuard(request: FastifyRequest, reply: FastifyReply) {
  if (READS.has(request.method)) return;
  if (!isApiPath(request.routeOptions.url) && !isApiPath(normalisedPath(request.url))) return;
  if (request.headers[ACCESS_HEADER] !== ACCESS_HEADER_VALUE) {
    return sendError(request, reply, "MISSING_ACCESS_HEADER");
  }
}

export function errorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendFieldErrors(
        request,
        reply,
        error.validation.map((v) => ({ path: v.instancePath ?? "", message: v.message })),
      );
    }
    if (error instanceof ZodError) {
      return sendFieldErrors(
        request,
        reply,
        error.issues.map((i) => ({ path: `/${i.path.join("/")}`, message: i.message })),
      );
    }
    if (error instanceof ApiError) {
      return sendError(request, reply, error.code, { field: error.field, status: error.status });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return sendError(request, reply, status === 404 ? "NOT_FOUND" : "BAD_REQUEST", { status });
    }
    request.log.error(error);
    return sendError(request, reply, "GENERIC", { status: 500 });
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, "NOT_FOUND"));
}
