/**
 * The server's logger settings: what a log line may never carry.
 *
 * - Failed statements are logged without their values. Drizzle's DrizzleQueryError says
 *   "Failed query: <sql>\nparams: <values>" in its message (so in its stack too) and keeps the
 *   values in `params`; PGlite and node-postgres errors carry `params`, a `detail` quoting the row
 *   ("Key (email)=(ana@example.fr) already exists") and a `where` quoting bound parameters. Every
 *   logged error is copied without those fields, its messages and stacks cut before "params:", and
 *   quoted values and e-mail addresses in them masked.
 * - Known secret fields (passwords, tokens, codes, cookies, authorization headers) are redacted
 *   wherever a log object carries them, and requests are logged by path only (query strings carry
 *   reset tokens and OAuth codes).
 */
import type { FastifyServerOptions } from "fastify";
import { PAGES } from "../shared/i18n/pages.ts";

const CENSOR = "[redacted]";

/** Error fields that quote the values of a statement or of a row. */
const VALUE_FIELDS = new Set([
  "params",
  "parameters",
  "detail",
  "where",
  "queryOptions",
  "envelope",
  "rejected",
  "accepted",
]);

const SECRET_KEYS = [
  "password",
  "passwordConfirmation",
  "currentPassword",
  "newPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "secret",
  "clientSecret",
  "cookie",
  "cookies",
  "authorization",
  "verifier",
  "codeVerifier",
];

/** Paths pino redacts (its wildcard matches one level: secrets are looked for three levels deep). */
export const REDACTED_PATHS = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  // A verification or OAuth code is a secret in a request, not in an error (err.code is "23505").
  ...["body", "query", "params"].flatMap((part) => [`${part}.code`, `*.${part}.code`]),
  ...["req", "res", "request", "reply", "response"].flatMap((part) => [
    `${part}.headers.authorization`,
    `${part}.headers.cookie`,
    `${part}.headers["set-cookie"]`,
  ]),
  'headers["set-cookie"]',
  'headers["x-dossard-access"]',
];

const EMAIL = /[^\s@<>"'(),;:[\]]+@[^\s@<>"'(),;:[\]]+\.[a-z]{2,}/gi;

/**
 * A message without the values it may quote: Drizzle's "params: …" tail, a value quoted at the end
 * of a database message (`invalid input syntax for type integer: "abc"`), `value "…"`, e-mails.
 */
export function scrubMessage(message: string): string {
  return message
    .replace(/\n?params: [\s\S]*$/, "")
    .replace(/(:\s*)"(?:[^"\\]|\\.)*"(\s*)$/gm, '$1"…"$2')
    .replace(/\bvalue "(?:[^"\\]|\\.)*"/g, 'value "…"')
    .replace(EMAIL, "[email]");
}

function isErrorLike(value: unknown): value is Error {
  return (
    value instanceof Error ||
    (Boolean(value) && typeof value === "object" && "message" in (value as object) && "stack" in (value as object))
  );
}

function scrubValue(value: unknown, depth: number): unknown {
  if (typeof value === "string") return scrubMessage(value);
  if (isErrorLike(value)) return scrubError(value, depth + 1);
  return value;
}

/**
 * A copy of an error (and of its causes) that is safe to log: same type, code, constraint, table
 * and SQL text, without the values of the statement or of the row.
 */
export function scrubError<T>(error: T, depth = 0): T {
  if (!isErrorLike(error) || depth > 8) return error;
  const copy = Object.create(Object.getPrototypeOf(error)) as Record<string, unknown>;
  for (const key of Object.keys(error)) {
    if (VALUE_FIELDS.has(key)) continue;
    copy[key] = scrubValue((error as unknown as Record<string, unknown>)[key], depth);
  }
  const message = scrubMessage(String(error.message ?? ""));
  Object.defineProperty(copy, "message", { value: message, enumerable: false, writable: true, configurable: true });
  // The stack starts with the message: it is rebuilt with the scrubbed one, the frames kept.
  const stack = typeof error.stack === "string" ? error.stack : "";
  const frames = stack.includes("\n    at ") ? stack.slice(stack.indexOf("\n    at ")) : "";
  Object.defineProperty(copy, "stack", {
    value: `${error.name ?? "Error"}: ${message}${frames}`,
    enumerable: false,
    writable: true,
    configurable: true,
  });
  if (error.cause !== undefined) {
    Object.defineProperty(copy, "cause", {
      value: scrubValue(error.cause, depth),
      enumerable: Object.keys(error).includes("cause"),
      writable: true,
      configurable: true,
    });
  }
  return copy as T;
}

/**
 * An error as a log object: its scrubbed copy's type, message, stack and fields (code, constraint,
 * table…), its cause nested the same way (pino's default serializer folds causes into the
 * message and drops their fields).
 */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!isErrorLike(error) || depth > 8) return error;
  const safe = scrubError(error) as Error & Record<string, unknown>;
  const out: Record<string, unknown> = {
    type: safe.constructor?.name ?? safe.name,
    message: safe.message,
    stack: safe.stack,
  };
  for (const key of Object.keys(safe)) {
    if (key === "cause" || key in out) continue;
    const value = safe[key];
    out[key] = isErrorLike(value) ? serializeError(value, depth + 1) : value;
  }
  if (safe.cause !== undefined) out.cause = serializeError(safe.cause, depth + 1);
  return out;
}

/** Every error handed to a log call, as its scrubbed copy (pino then takes the line's message from it). */
function scrubArguments(args: unknown[]): unknown[] {
  return args.map((arg) => {
    if (typeof arg === "string") return scrubMessage(arg);
    if (isErrorLike(arg)) return scrubError(arg);
    if (arg && typeof arg === "object" && "err" in arg && isErrorLike((arg as { err: unknown }).err)) {
      return { ...arg, err: scrubError((arg as { err: Error }).err) };
    }
    return arg;
  });
}

/** Paths whose last part is a secret: the first-admin setup link's token (French and English). */
const SECRET_PATHS = [PAGES.setup.fr, `en/${PAGES.setup.en}`].map(
  (pattern) => new RegExp(`^/${pattern.replace(":token", "[^/]+")}/?$`),
);

/**
 * A request's address as logs keep it: the path only (query strings carry reset tokens and OAuth
 * codes), and a path that is itself a secret (the setup link) with that part masked.
 */
export function loggedPath(url: string): string {
  const path = String(url ?? "").split("?")[0] ?? "";
  return SECRET_PATHS.some((pattern) => pattern.test(path)) ? path.replace(/[^/]+\/?$/, CENSOR) : path;
}

type LoggerOptions = Exclude<FastifyServerOptions["logger"], boolean | undefined>;

/** The logger of the server (server/main.ts), of buildApp whenever logging is on, and of tests. */
export function loggerOptions(level = "info"): LoggerOptions & Record<string, unknown> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    hooks: {
      logMethod(args: unknown[], method: (...a: unknown[]) => void) {
        return method.apply(this, scrubArguments(args));
      },
    },
    serializers: {
      // Query strings can carry secrets (reset links' tokens, OAuth codes): logs keep the path only.
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: loggedPath(String(req.url ?? "")),
        remoteAddress: req.ip,
      }),
      err: (error: Error) => serializeError(error) as { type: string; message: string; stack: string },
    },
  };
}

export type LogStream = { write(line: string): unknown };

const LEVEL_NAMES: Record<number, string> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};

/**
 * One log record as a line a person reads (development): a request as "GET /course/x 200 12 ms",
 * anything else as its level and message, an error's stack below it. Records are the JSON lines
 * pino writes, already redacted and scrubbed.
 */
export function humanLogLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const time = typeof record.time === "number" ? new Date(record.time).toTimeString().slice(0, 8) : "";
  const level = LEVEL_NAMES[Number(record.level)] ?? String(record.level ?? "");
  const request = record.request as { method?: string; path?: string; status?: number; ms?: number } | undefined;
  if (request?.method) {
    return `${time} ${request.method} ${request.path} ${request.status} ${request.ms} ms\n`;
  }
  // Fastify's "Server listening at …", one per interface: the server prints its own address line.
  if (typeof record.msg === "string" && record.msg.startsWith("Server listening at ")) return "";
  const err = record.err as { stack?: string; message?: string } | undefined;
  const head = `${time} ${level === "info" ? "" : `${level.toUpperCase()} `}${String(record.msg ?? "")}`;
  return `${head}\n${err?.stack ? `${err.stack}\n` : ""}`;
}

/** A stream that writes each record through humanLogLine. */
export function humanLogStream(out: LogStream = process.stdout): LogStream {
  return {
    write: (line: string) => {
      const text = humanLogLine(line);
      return text ? out.write(text) : true;
    },
  };
}

/** Where records are kept on disk (features/logs/log-file.server.ts' LogFile). */
export type LogFileSink = { write(line: string): void };

/**
 * The per-request records of the console: Fastify's two (LOG_FORMAT=json) and the readable line's
 * (human). The log file has its own line per request (requestLogLine), whatever LOG_LEVEL says.
 */
const CONSOLE_REQUEST_MESSAGES = new Set(["incoming request", "request completed", "request"]);

/**
 * The logger's stream when the log is also kept on disk: each record (already redacted and
 * scrubbed by the logger) goes to the console as before and to the file, except the console's
 * per-request records. pino tells the stream each record's message (its metadata protocol).
 */
export function teeLogStream(console: LogStream, file: LogFileSink): LogStream {
  const stream = {
    [Symbol.for("pino.metadata")]: true,
    lastMsg: undefined as unknown,
    write(line: string) {
      const message = stream.lastMsg;
      if (typeof message !== "string" || !CONSOLE_REQUEST_MESSAGES.has(message)) file.write(line);
      return console.write(line);
    },
  };
  return stream;
}

export type RequestLogFields = {
  time: number;
  requestId: string;
  /** The signed-in member, when the request looked them up. */
  userId: number | null;
  method: string;
  /** The route's pattern (`/api/event/:id`; pages `/*`); none for a 404. */
  route: string | undefined;
  url: string;
  status: number;
  ms: number;
};

/**
 * The log file's line for one request, as pino would write it: level (error for a 5xx, else info),
 * time, request id, member, and method, route, path without its query, status and milliseconds.
 * Built from those fields only: no header, cookie, body or query string can reach it.
 */
export function requestLogLine(fields: RequestLogFields): string {
  const record = {
    level: fields.status >= 500 ? 50 : 30,
    time: fields.time,
    reqId: fields.requestId,
    ...(fields.userId ? { userId: fields.userId } : {}),
    request: {
      method: fields.method,
      route: fields.route ?? null,
      path: loggedPath(fields.url),
      status: fields.status,
      ms: Math.round(fields.ms * 10) / 10,
    },
    msg: "request",
  };
  return `${JSON.stringify(record)}\n`;
}
