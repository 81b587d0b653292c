/**
 * The bad-input corpus the API must answer with a 4xx (never a 5xx): a valid sample body is built
 * from each route's own zod body schema (through its JSON Schema), then one field at a time is
 * replaced by hostile values chosen for that field's type. Used by server/bad-input.api.test.ts.
 */
import { z } from "zod";

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  default?: unknown;
};

/** A JSON path in a body: keys and array indexes. */
export type FieldPath = (string | number)[];

export const NUL = "a\u0000b";
export const LONE_HIGH_SURROGATE = "a\ud800b";
export const LONE_LOW_SURROGATE = "\udc00z";
export const XSS_PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "</script><svg onload=alert(1)>",
];
export const TRAVERSALS = [
  "../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "..\\..\\windows",
];
export const HUGE_NUMBERS = [2 ** 31, 2 ** 53, 1e308, -1, -(2 ** 31) - 1];
export const NUMBER_STRINGS = ["NaN", "Infinity", "1e308", "-0", "0x10", "2147483648"];

/** A hostile value for one field, and whether it must be refused (else: anything but a 5xx). */
export type Mutation = { label: string; value: unknown; mustRefuse: boolean };

/** Field names whose values the generator cannot guess from the schema alone. */
const SAMPLES_BY_NAME: Record<string, unknown> = {
  email: "fuzz.sample@example.fr",
  contactEmail: "fuzz.contact@example.fr",
  password: "fuzz password 1",
  passwordConfirmation: "fuzz password 1",
  currentPassword: "not the password",
  code: "12345",
  token: "a-token-that-is-long-enough",
  countryCode: "FR",
  country: "FR",
  communeCode: "38185",
  startTime: "09:00",
  contactPhone: "+33 4 76 00 00 00",
  zipcode: "38000",
  utmbIndex: "100M",
  // A finishing time in milliseconds (features/results): at least one second.
  timeMs: 3_600_000,
};

const DAY = "2026-09-12";
const LATER_DAY = "2026-09-13";

function isDateField(name: string, schema: JsonSchema): boolean {
  return schema.format === "date" || schema.pattern === "^\\d{4}-\\d{2}-\\d{2}$" || /(Date|On|^date)$/.test(name);
}

function sameType(sample: unknown, schema: JsonSchema): boolean {
  if (typeof sample === "string") return schema.type === "string";
  return typeof sample === "number" && (schema.type === "integer" || schema.type === "number");
}

function firstOf(schema: JsonSchema): JsonSchema | undefined {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return undefined;
  return options.find((o) => o.type !== "null") ?? options[0];
}

/**
 * A value the schema should accept (heuristics for what JSON Schema cannot say: regexes,
 * refinements). With `references: false`, optional ids of list items (a course's "id", "trackId")
 * are left out: a guessed id points at another event's course or track, and the service would
 * refuse the whole body.
 */
export function sampleOf(schema: JsonSchema, name = "", references = true, inList = false): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  // A named sample applies to a field of its own type: a field of another type with the same name
  // (an import's numeric "token") gets a value generated from its schema.
  if (Object.hasOwn(SAMPLES_BY_NAME, name) && sameType(SAMPLES_BY_NAME[name], schema)) return SAMPLES_BY_NAME[name];
  if (/e-?mails?$/i.test(name) && schema.type === "string") return SAMPLES_BY_NAME.email;
  // Colours (posters' design object): "#rrggbb".
  if (schema.type === "string" && schema.pattern?.startsWith("^#[0-9a-fA-F]{6}")) return "#336699";
  const option = firstOf(schema);
  if (option) return sampleOf(option, name, references, inList);
  if (schema.allOf?.[0]) return sampleOf(schema.allOf[0], name, references, inList);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        const optionalId = inList && !schema.required?.includes(key) && /^id$|Id$/.test(key);
        if (references || !optionalId) out[key] = sampleOf(child, key, references);
      }
      return out;
    }
    case "array": {
      const item = schema.items ?? schema.prefixItems?.[0];
      if (!item) return [];
      return [sampleOf(item, name, references, true)];
    }
    case "string": {
      if (isDateField(name, schema)) return name.startsWith("end") || name === "endsOn" ? LATER_DAY : DAY;
      if (schema.format === "email") return SAMPLES_BY_NAME.email;
      if (schema.format === "uri" || /Url$|^website$/.test(name)) return "https://example.fr/fuzz";
      const min = Math.max(schema.minLength ?? 0, 3);
      return "Fuzz sample".padEnd(min, "x").slice(0, schema.maxLength ?? 100);
    }
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      const value = Math.max(min, 1);
      return schema.maximum !== undefined ? Math.min(value, schema.maximum) : value;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return "Fuzz sample";
  }
}

export function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/** Every leaf of a sample (strings, numbers, booleans, nulls) and every array, with its path. */
export function leavesOf(value: unknown, path: FieldPath = []): { path: FieldPath; value: unknown }[] {
  if (Array.isArray(value)) {
    return [{ path, value }, ...value.flatMap((item, i) => leavesOf(item, [...path, i]))];
  }
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, child]) => leavesOf(child, [...path, key]));
  }
  return path.length ? [{ path, value }] : [];
}

export function withValue(sample: unknown, path: FieldPath, value: unknown): unknown {
  const copy = structuredClone(sample) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = value;
  return copy;
}

let rotation = 0;
const pick = <T>(list: T[]): T => list[rotation++ % list.length] as T;

/**
 * The hostile values for one field: what is always wrong for its type (NUL, lone surrogates, a
 * value of another type, numbers past PostgreSQL's integer) must be refused; one payload in turn
 * from the lists that may be legitimate text (script tags, paths, 100k characters) must only
 * never fail the server.
 */
export function mutationsFor(value: unknown): Mutation[] {
  if (typeof value === "string") {
    const dates: Mutation[] = /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? [
          { label: "year 9999", value: "9999-12-31", mustRefuse: true },
          { label: "year 0", value: "0000-01-01", mustRefuse: true },
          { label: "an extended year", value: "+275760-09-13", mustRefuse: true },
        ]
      : [];
    return [
      ...dates,
      { label: "NUL", value: NUL, mustRefuse: true },
      { label: "lone high surrogate", value: LONE_HIGH_SURROGATE, mustRefuse: true },
      { label: "lone low surrogate", value: LONE_LOW_SURROGATE, mustRefuse: true },
      { label: "object instead of text", value: { a: 1 }, mustRefuse: true },
      { label: "xss", value: pick(XSS_PAYLOADS), mustRefuse: false },
      { label: "path traversal", value: pick(TRAVERSALS), mustRefuse: false },
      { label: "number instead of text", value: pick(HUGE_NUMBERS), mustRefuse: false },
      { label: "100k characters", value: "x".repeat(100_000), mustRefuse: false },
    ];
  }
  if (typeof value === "number") {
    return [
      { label: "2^31", value: 2 ** 31, mustRefuse: false },
      { label: "huge or negative", value: pick(HUGE_NUMBERS), mustRefuse: false },
      { label: "number string", value: pick(NUMBER_STRINGS), mustRefuse: false },
      { label: "NUL string", value: `1${NUL}`, mustRefuse: true },
      { label: "array instead of number", value: [1], mustRefuse: true },
    ];
  }
  if (typeof value === "boolean") {
    return [
      { label: "string instead of boolean", value: pick(["true", "", NUL]), mustRefuse: false },
      { label: "huge number instead of boolean", value: 2 ** 53, mustRefuse: true },
    ];
  }
  if (Array.isArray(value)) {
    return [
      { label: "10,000 items", value: Array.from({ length: 10_000 }, () => value[0] ?? 1), mustRefuse: false },
      { label: "string instead of list", value: "../../etc/passwd", mustRefuse: true },
    ];
  }
  return [
    { label: "NUL", value: NUL, mustRefuse: false },
    { label: "huge number", value: 2 ** 53, mustRefuse: false },
  ];
}

/** Hostile values for a path parameter (sent percent-encoded when needed). */
export const BAD_PATH_VALUES: { label: string; raw: string }[] = [
  { label: "2^31", raw: "2147483648" },
  { label: "2^53", raw: "9007199254740993" },
  { label: "1e308", raw: "1e308" },
  { label: "-1", raw: "-1" },
  { label: "NaN", raw: "NaN" },
  { label: "NUL", raw: "1%00" },
  { label: "invalid UTF-8 (a lone surrogate's bytes)", raw: "%ED%A0%80" },
  { label: "encoded traversal", raw: "..%2F..%2Fetc%2Fpasswd" },
  { label: "double-encoded traversal", raw: "%252e%252e%252fetc%252fpasswd" },
  { label: "__proto__", raw: "__proto__" },
  { label: "xss", raw: encodeURIComponent('"><img src=x onerror=alert(1)>') },
];

/** Whole bodies that no JSON route accepts, with their content type. */
/** `always`: refused even by a route that reads no body (the parser, the content type or the net refuses it). */
export const BAD_BODIES: { label: string; contentType: string; payload: string | Buffer; always: boolean }[] = [
  { label: "malformed JSON", always: true, contentType: "application/json", payload: '{"name": "a",' },
  { label: "JSON with a NUL byte", always: true, contentType: "application/json", payload: '{"name": "a\u0000"}' },
  { label: "a JSON array", always: false, contentType: "application/json", payload: "[1,2,3]" },
  { label: "a JSON string", always: false, contentType: "application/json", payload: '"../../etc/passwd"' },
  { label: "JSON null", always: false, contentType: "application/json", payload: "null" },
  {
    label: "__proto__ key",
    always: true,
    contentType: "application/json",
    payload: '{"__proto__": {"role": "admin"}}',
  },
  {
    label: "constructor.prototype key",
    always: true,
    contentType: "application/json",
    payload: '{"constructor": {"prototype": {"role": "admin"}}}',
  },
  { label: "escaped NUL in a key", always: true, contentType: "application/json", payload: '{"a\\u0000b": 1}' },
  {
    label: "escaped lone surrogate in a key",
    always: true,
    contentType: "application/json",
    payload: '{"\\ud800": 1}',
  },
  {
    label: "10,000 nested arrays",
    always: false,
    contentType: "application/json",
    payload: `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  },
  {
    label: "a body past 1 MiB",
    always: true,
    contentType: "application/json",
    payload: JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) }),
  },
  {
    label: "invalid UTF-8",
    always: true,
    contentType: "application/json",
    payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  },
  { label: "form-encoded body", always: true, contentType: "application/x-www-form-urlencoded", payload: "a=1&b=%00" },
  {
    label: "XML body",
    always: true,
    contentType: "application/xml",
    payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  },
  {
    label: "unparseable content type",
    always: false,
    contentType: "application/json; charset=\u00ff;;",
    payload: "[]",
  },
  { label: "multipart without boundary", always: false, contentType: "multipart/form-data", payload: "--x\r\n\r\n" },
];

const BOUNDARY = "----dossardfuzz";
export function multipartBody(
  parts: { name: string; value?: string; filename?: string; content?: Buffer | string; type?: string }[],
  end = true,
) {
  const chunks: (string | Buffer)[] = [];
  for (const part of parts) {
    chunks.push(`--${BOUNDARY}\r\n`);
    if (part.filename !== undefined) {
      chunks.push(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n`);
      chunks.push(`Content-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`);
      chunks.push(part.content ?? "");
    } else {
      chunks.push(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ""}`);
    }
    chunks.push("\r\n");
  }
  if (end) chunks.push(`--${BOUNDARY}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    payload: Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))),
  };
}

/** Hostile multipart requests for the upload routes. */
export function badMultipartBodies(): { label: string; contentType: string; payload: Buffer | string }[] {
  const gpx = '<?xml version="1.0"?><gpx><trk><trkseg><trkpt lat="45" lon="5"/></trkseg></trk></gpx>';
  const file = (filename: string, content: Buffer | string = gpx) => ({ name: "file", filename, content });
  const good = multipartBody([file("x.gpx")]);
  return [
    { label: "no boundary", contentType: "multipart/form-data", payload: good.payload },
    { label: "boundary not in the body", contentType: "multipart/form-data; boundary=other", payload: good.payload },
    { label: "truncated", ...multipartBody([file("x.gpx")], false) },
    {
      label: "truncated inside a part",
      contentType: good.contentType,
      payload: good.payload.subarray(0, Math.floor(good.payload.length / 2)),
    },
    {
      label: "malformed part header",
      contentType: good.contentType,
      payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data name=file\r\n\r\nx\r\n--${BOUNDARY}--\r\n`),
    },
    {
      label: "header without end",
      contentType: good.contentType,
      payload: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"`),
    },
    { label: "empty body", contentType: good.contentType, payload: Buffer.alloc(0) },
    { label: "JSON instead of multipart", contentType: "application/json", payload: '{"file": "x"}' },
    { label: "traversal file name", ...multipartBody([file("../../etc/passwd")]) },
    { label: "NUL in file name", ...multipartBody([file("a\u0000.gpx")]) },
    { label: "XSS file name", ...multipartBody([file('"><img src=x onerror=alert(1)>.gpx')]) },
    { label: "garbage file", ...multipartBody([file("x.jpg", Buffer.from([0, 1, 2, 3, 0xff, 0xd8]))]) },
    {
      label: "NUL and huge numbers in fields",
      ...multipartBody([
        { name: "eventId", value: "2147483648" },
        { name: "kind", value: `cover${NUL}` },
        file("x.png"),
      ]),
    },
    {
      label: "NaN id and a lone surrogate's bytes",
      ...multipartBody([{ name: "eventId", value: "NaN" }, { name: "kind", value: "\udc00" }, file("x.png")]),
    },
    { label: "__proto__ field", ...multipartBody([{ name: "__proto__", value: "x" }, file("x.png")]) },
    {
      label: "too many parts",
      ...multipartBody(Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, value: "1" }))),
    },
    { label: "two files", ...multipartBody([file("a.gpx"), file("b.gpx")]) },
  ];
}
