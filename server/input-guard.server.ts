import type { FastifyReply, FastifyRequest } from "fastify";
import { isStorableText } from "../shared/input.ts";
import { sendError } from "./errors.server.ts";

/**
 * Parsed JSON and query strings are objects and arrays (fast-querystring's have a prototype of
 * their own); buffers and streams are not walked.
 */
function isWalkable(value: unknown): value is object {
  if (!value || typeof value !== "object") return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  return typeof (value as { pipe?: unknown }).pipe !== "function";
}

/**
 * Where a NUL or a lone surrogate sits in a parsed request value (a key or a string anywhere in it),
 * as a field path ("courses.0.name"); undefined when there is none. Iterative: a body nested ten
 * thousand levels deep is walked without exhausting the stack.
 */
export function unstorableField(value: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length) {
    const { value: node, path } = stack.pop() as { value: unknown; path: string };
    if (typeof node === "string") {
      if (!isStorableText(node)) return path;
    } else if (isWalkable(node)) {
      for (const [key, child] of Object.entries(node as object)) {
        const childPath = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return path || "body";
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}

/**
 * The safety net behind the contracts' `text()` primitive, for every route (pages included): a NUL
 * or a lone surrogate anywhere in the path parameters, the query string or a parsed body is refused
 * with 400 BAD_REQUEST naming the field, whatever the route's schema says or forgets. PostgreSQL
 * cannot store a NUL in text, and a lone surrogate is not Unicode.
 */
export async function refuseUnstorableInput(request: FastifyRequest, reply: FastifyReply) {
  for (const part of [request.params, request.query, request.body]) {
    const field = unstorableField(part);
    if (field !== undefined) return sendError(request, reply, "BAD_REQUEST", { field: field || undefined });
  }
}
