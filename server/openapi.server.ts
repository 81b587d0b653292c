/**
 * The OpenAPI document served at /api/docs/json, built by @fastify/swagger from the routes'
 * schemas and completed here so that it says what the server does (decision 022):
 *
 * - every operation has an `operationId`, derived from its method and path unless it names one;
 * - an optional last segment (`/api/tracks/:format?`) is two paths, one without the segment and
 *   one with it, since OpenAPI path parameters are always required;
 * - every /api write declares the access header it must carry (server/cross-site.server.ts);
 * - every operation lists the error statuses it can answer, in the one error shape of
 *   shared/api-error.ts: those its input, its access rule and the framework imply, and those its
 *   handler declares (`config.openapi.errors`);
 * - multipart bodies (uploads) are documented from `config.openapi.multipart`, since the handler,
 *   not a schema, reads them;
 * - files (iCalendar, GPX, images, XML, text) are typed with their own media type.
 *
 * The document is linted with Redocly's recommended rules in server/openapi.api.test.ts.
 */
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import type { RouteOptions } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AccessRule } from "../features/identity/access.server.ts";
import { SESSION_COOKIE } from "../features/identity/sessions.server.ts";
import { MEDIA_TYPE, type RouteDocs } from "../platform/http/route-docs.server.ts";
import { apiErrorBodySchema, type ErrorCode, errorCatalogue } from "../shared/api-error.ts";
import { ACCESS_HEADER, ACCESS_HEADER_VALUE } from "../shared/constants.ts";

const ERRORS = "x-dossard-errors";
const MULTIPART = "x-dossard-multipart";
const REDIRECT = "x-dossard-redirect";
const HEADERS = "x-dossard-headers";
const ERROR_SCHEMA_REF = "#/components/schemas/ApiError";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

type JsonObject = Record<string, unknown>;
type Errors = Record<string, string[]>;

function addError(errors: Errors, code: ErrorCode, status: number = errorCatalogue[code].status) {
  const codes = errors[status] ?? [];
  if (!codes.includes(code)) codes.push(code);
  errors[status] = codes;
}

/** The errors a route's access rule answers with before its handler runs (access.server.ts). */
function accessErrors(errors: Errors, rule: AccessRule | undefined) {
  if (!rule || rule.who === "anyone") return;
  addError(errors, "LOGIN_REQUIRED");
  if (rule.who === "verified") addError(errors, "EMAIL_VERIFICATION_REQUIRED");
  if (rule.who === "admin" || rule.self !== undefined || rule.editorOf?.length) addError(errors, "FORBIDDEN");
  // An unknown target passes the rule, and the route answers ITEM_NOT_FOUND as it would for anyone.
  if (rule.editorOf?.length) addError(errors, "ITEM_NOT_FOUND");
}

/** Per route: the zod schemas as JSON Schema (fastify-type-provider-zod), then what only the route knows. */
export function transformRoute(input: Parameters<typeof jsonSchemaTransform>[0]) {
  const transformed = jsonSchemaTransform(input);
  const schema = transformed.schema as JsonObject | undefined;
  if (!schema || schema.hide) return transformed;
  const route = (input as { route: RouteOptions }).route;
  const methods = [route.method].flat().map(String);
  const docs = route.config?.openapi;
  const isApiWrite = methods.some((m) => WRITES.has(m)) && input.url.startsWith("/api/");
  const errors: Errors = {};
  const out: JsonObject = { ...schema };

  if (isApiWrite) {
    addError(errors, "MISSING_ACCESS_HEADER");
    const headers = (schema.headers as JsonObject | undefined) ?? { type: "object", properties: {}, required: [] };
    out.headers = {
      ...headers,
      properties: {
        ...(headers.properties as JsonObject),
        [ACCESS_HEADER]: {
          type: "string",
          enum: [ACCESS_HEADER_VALUE],
          description:
            "Sent by the site's own pages; every write under /api must carry it (400 MISSING_ACCESS_HEADER).",
        },
      },
      required: [...((headers.required as string[] | undefined) ?? []), ACCESS_HEADER],
    };
  }
  if (schema.params || schema.querystring || schema.body || docs?.multipart) {
    addError(errors, "BAD_REQUEST");
    addError(errors, "INVALID_FIELD");
  }
  if (schema.body || docs?.multipart) {
    // Fastify's body parsers: a body over the size limit, a content type no parser reads.
    addError(errors, "BAD_REQUEST", 413);
    addError(errors, "BAD_REQUEST", 415);
  }
  accessErrors(errors, route.config?.access);
  for (const entry of docs?.errors ?? []) {
    if (typeof entry === "string") addError(errors, entry);
    else addError(errors, entry[0], entry[1]);
  }
  addError(errors, "GENERIC");
  out[ERRORS] = errors;

  if (docs?.multipart) {
    out[MULTIPART] = z.toJSONSchema(docs.multipart, { target: "openapi-3.0", io: "input" });
  }
  if (docs?.redirect) out[REDIRECT] = docs.redirect;
  if (docs?.headers) out[HEADERS] = docs.headers;
  const rule = route.config?.access;
  out.security = !rule || rule.who === "anyone" ? [] : [{ session: [] }];
  return { schema: out, url: transformed.url };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * zod's tuples become `items: { anyOf: [number, number] }` in OpenAPI 3.0 (no prefixItems), and
 * some unions a one-member anyOf: duplicates are dropped and a single member used directly.
 */
function simplifySchemas(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplifySchemas);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplifySchemas(value);
  if (Array.isArray(out.anyOf)) {
    const seen = new Set<string>();
    const members = out.anyOf.filter((member) => {
      const key = JSON.stringify(member);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (members.length === 1 && isObject(members[0])) {
      const { anyOf: _dropped, ...rest } = out;
      return { ...members[0], ...rest };
    }
    out.anyOf = members;
  }
  return out;
}

function pascal(word: string): string {
  return word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");
}

/** `get /api/event/{id}/ics` → `getEventByIdIcs`; `get /robots.txt` → `getRobotsTxt`. */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split("/").filter(Boolean);
  if (segments[0] === "api" && segments.length > 1) segments.shift();
  const words = segments.map((segment) => {
    const param = /^\{(.+)\}$/.exec(segment);
    return param ? `By${pascal(param[1] ?? "")}` : pascal(segment);
  });
  return method.toLowerCase() + words.join("");
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

type Operation = JsonObject & { parameters?: JsonObject[]; responses?: Record<string, JsonObject> };

/** The statuses a route can answer with, in the shared error shape. */
function completeErrors(operation: Operation) {
  const errors = (operation[ERRORS] as Errors | undefined) ?? {};
  delete operation[ERRORS];
  const responses = operation.responses ?? {};
  operation.responses = responses;
  for (const [status, response] of Object.entries(responses)) {
    // Routes that list an error status in their schema use the same shape (apiErrorBodySchema).
    if (Number(status) >= 400 && response.content) errors[status] ??= [];
  }
  for (const status of Object.keys(errors).sort()) {
    const codes = errors[status] ?? [];
    const previous = responses[status];
    const said = previous?.description && previous.description !== "Default Response" ? previous.description : "";
    responses[status] = {
      description: [codes.length ? `Error codes: ${codes.join(", ")}.` : "An error.", said].filter(Boolean).join(" "),
      content: { "application/json": { schema: { $ref: ERROR_SCHEMA_REF } } },
    };
  }
}

function fileMedia(schema: JsonObject): [string, JsonObject] {
  const { [MEDIA_TYPE]: mediaType, description: _said, ...rest } = schema;
  const binary = !/^text\/|xml|json/.test(String(mediaType));
  return [String(mediaType), { ...rest, type: "string", ...(binary ? { format: "binary" } : {}) }];
}

/** Responses that are files: their media type instead of application/json (alone or beside JSON). */
function typeFiles(operation: Operation) {
  for (const response of Object.values(operation.responses ?? {})) {
    const content = response.content as Record<string, { schema?: JsonObject }> | undefined;
    const schema = content?.["application/json"]?.schema;
    if (!content || !schema) continue;
    if (typeof schema[MEDIA_TYPE] === "string") {
      const [mediaType, file] = fileMedia(schema);
      if (typeof schema.description === "string") response.description = schema.description;
      response.content = { [mediaType]: { schema: file } };
      continue;
    }
    const members = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonObject[]) : [];
    const files = members.filter((member) => typeof member[MEDIA_TYPE] === "string");
    if (!files.length) continue;
    const json = members.filter((member) => !files.includes(member));
    const out: Record<string, { schema: JsonObject }> = {
      "application/json": { schema: json.length === 1 ? (json[0] as JsonObject) : { ...schema, anyOf: json } },
    };
    const said: string[] = [];
    for (const member of files) {
      const [mediaType, file] = fileMedia(member);
      out[mediaType] = { schema: file };
      if (typeof member.description === "string") said.push(member.description);
    }
    response.content = out;
    if (said.length)
      response.description = [response.description, ...said].filter((d) => d !== "Default Response").join(" ");
  }
}

/** The headers of the 200 answer. */
function documentHeaders(operation: Operation) {
  const headers = operation[HEADERS] as RouteDocs["headers"];
  delete operation[HEADERS];
  const ok = operation.responses?.["200"];
  if (!headers || !ok) return;
  ok.headers = Object.fromEntries(
    Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: "string" } }]),
  );
}

/** A redirecting route's 302, with its Location. */
function documentRedirect(operation: Operation) {
  const redirect = operation[REDIRECT] as RouteDocs["redirect"];
  delete operation[REDIRECT];
  if (!redirect) return;
  operation.responses = {
    ...operation.responses,
    [redirect.status]: { description: redirect.to, headers: { Location: { schema: { type: "string" } } } },
  };
}

function documentMultipart(operation: Operation) {
  const body = operation[MULTIPART] as JsonObject | undefined;
  delete operation[MULTIPART];
  if (!body) return;
  const { $schema: _draft, ...schema } = body;
  operation.requestBody = { required: true, content: { "multipart/form-data": { schema } } };
}

/** `/api/tracks/{format}?` → `/api/tracks` (without the parameter) and `/api/tracks/{format}`. */
function splitOptionalSegments(paths: Record<string, Record<string, Operation>>) {
  const out: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(paths)) {
    const optional = /\/\{([^}]+)\}\?$/.exec(path);
    if (!optional) {
      out[path] = { ...out[path], ...item };
      continue;
    }
    const name = optional[1];
    const short = path.slice(0, optional.index) || "/";
    const long = path.slice(0, -1);
    const without: Record<string, Operation> = {};
    const withIt: Record<string, Operation> = {};
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const others = parameters.filter((p) => !(p.in === "path" && p.name === name));
      const param = parameters.find((p) => p.in === "path" && p.name === name);
      const shortOp: Operation = { ...operation, parameters: others };
      if (!others.length) delete shortOp.parameters;
      const fallback =
        isObject(param?.schema) && "default" in param.schema ? ` (${name} = ${param.schema.default})` : "";
      shortOp.summary = `${String(operation.summary ?? "")}${fallback}`;
      without[method] = shortOp;
      withIt[method] = {
        ...operation,
        parameters: parameters.map((p) => (p === param ? { ...p, required: true } : p)),
      };
    }
    out[short] = { ...out[short], ...without };
    out[long] = { ...out[long], ...withIt };
  }
  return out;
}

/** The whole document: paths split, errors, files, multipart bodies, operation ids, shared parts. */
export function completeDocument(document: JsonObject, options: { serverUrl: string }): JsonObject {
  const paths = splitOptionalSegments((document.paths as Record<string, Record<string, Operation>>) ?? {});
  const ids = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      completeErrors(operation);
      typeFiles(operation);
      documentRedirect(operation);
      documentHeaders(operation);
      documentMultipart(operation);
      const id = typeof operation.operationId === "string" ? operation.operationId : operationIdOf(method, path);
      const other = ids.get(id);
      if (other) throw new Error(`operationId ${id} of ${method} ${path} is already ${other}'s`);
      ids.set(id, `${method} ${path}`);
      operation.operationId = id;
    }
  }
  const components = (document.components as JsonObject | undefined) ?? {};
  const { $schema: _draft, ...errorSchema } = z.toJSONSchema(apiErrorBodySchema, { target: "openapi-3.0" });
  return simplifySchemas({
    ...document,
    servers: [{ url: options.serverUrl }],
    paths,
    components: {
      ...components,
      schemas: {
        ...(components.schemas as JsonObject),
        ApiError: { ...errorSchema, description: "Every error: a stable code and a message in the caller's language." },
      },
    },
  }) as JsonObject;
}

export function swaggerOptions(options: { serverUrl: string }): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: "3.0.3",
      info: { title: "Dossard API", version: "1.0.0", description: "The race calendar's JSON API." },
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: SESSION_COOKIE,
            description: "The session cookie set by /api/login, /api/register or a provider's sign-in.",
          },
        },
      },
    },
    transform: transformRoute as FastifyDynamicSwaggerOptions["transform"],
    transformObject: (input) => {
      if (!("openapiObject" in input)) throw new Error("OpenAPI 3 only");
      return completeDocument(input.openapiObject as JsonObject, options);
    },
  };
}
