/**
 * What a route's schema says of itself for the OpenAPI document (server/openapi.server.ts completes
 * the document from it, decision 022): declared errors, multipart fields, headers, redirects, and
 * the helpers for file responses and uploaded files.
 */
import { z } from "zod";
import type { ErrorCode } from "../../shared/api-error.ts";

/** What the document says of a route beyond its schema. */
export type RouteDocs = {
  /**
   * Error codes the handler or its services answer with, beyond those its input (400), its
   * access rule (401, 403, 409) and the framework (413, 415, 500) already imply.
   */
  errors?: readonly (ErrorCode | readonly [ErrorCode, number])[];
  /** The fields of a multipart/form-data body, which the handler reads itself; files as `uploadedFile()`. */
  multipart?: z.ZodObject;
  /** Headers of the successful answer, with what each says. */
  headers?: Record<string, string>;
  /** The route may answer with a redirect: its status and where to. */
  redirect?: { status: 301 | 302 | 303 | 307 | 308; to: string };
};

declare module "fastify" {
  interface FastifyContextConfig {
    /** What the OpenAPI document says of the route beyond its schema (server/openapi.server.ts). */
    openapi?: RouteDocs;
  }
}

/** The extension keyword that names a file response's media type (read by server/openapi.server.ts). */
export const MEDIA_TYPE = "x-media-type";

/**
 * A response that is a file of this media type, not JSON: `response: { 200: fileResponse(...) }`.
 * The handler sends a string or a Buffer with its own Content-Type, which Fastify sends as it is
 * (no serializer runs): the schema only documents it, hence the wider type.
 */
export function fileResponse(mediaType: string, description: string) {
  return z.string().meta({ [MEDIA_TYPE]: mediaType, description }) as unknown as z.ZodType<string | Buffer>;
}

/** A file field of a multipart body (`config.openapi.multipart`). */
export function uploadedFile(description: string) {
  return z.string().meta({ format: "binary", description });
}
