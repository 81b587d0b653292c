import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ApiError, apiErrorBody, type ErrorCode, errorCatalogue } from "../shared/api-error.ts";
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
  details: { field?: string; status?: number } = {},
) {
  const status = details.status ?? errorCatalogue[code].status;
  return reply.status(status).send(apiErrorBody(code, requestLocale(request), details.field));
}

/** The spec's fixed secure-access header is required on every /api write. */
export async function accessHeaderGuard(request: FastifyRequest, reply: FastifyReply) {
  if (!request.url.startsWith("/api/")) return;
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
  if (request.headers[ACCESS_HEADER] !== ACCESS_HEADER_VALUE) {
    return sendError(request, reply, "MISSING_ACCESS_HEADER");
  }
}

export function errorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: Error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath?.replace(/^\//, "").replaceAll("/", ".");
      return sendError(request, reply, "BAD_REQUEST", { field: field || undefined });
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
