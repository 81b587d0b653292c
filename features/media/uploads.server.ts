/**
 * What every upload route does before it reads a body (decision 018): the member is signed in,
 * verified, allowed, within their hourly quota, and the body is not already declared too large.
 * Only then is the file read, and only then processed.
 */
import type { FastifyRequest } from "fastify";
import type { ApiError } from "../../shared/api-error.ts";

/** Room for the multipart envelope around the file: boundaries, part headers, a few short fields. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * Refuses, before a byte of the body is read, an upload whose Content-Length already exceeds the
 * file limit plus the envelope. A body sent without a length (chunked) is stopped by the multipart
 * parser's file limit as it streams in.
 */
export function refuseDeclaredOversize(request: FastifyRequest, maxFileBytes: number, tooLarge: () => ApiError) {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge();
}
