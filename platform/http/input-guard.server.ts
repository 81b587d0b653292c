import type { FastifyReply, FastifyRequest } from "fastify";
import { isStorableText } from "../../shared/input.ts";
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
  type Node = { value: unknown; key: string; parent: Node | null };
  const pathOf = (node: Node | null): string => {
    const keys: string[] = [];
    for (let n = node; n?.parent; n = n.parent) keys.push(n.key);
    return keys.reverse().join(".");
  };
  const stack: Node[] = [{ value, key: "", parent: null }];
  while (stack.length) {
    const node = stack.pop() as Node;
    if (typeof node.value === "string") {
      if (!isStorableText(node.value)) return pathOf(node);
    } else if (isWalkable(node.value)) {
      for (const [key, child] of Object.entries(node.value)) {
        if (!isStorableText(key)) return pathOf(node) || "body";
        stack.push({ value: child, key, parent: node });
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
