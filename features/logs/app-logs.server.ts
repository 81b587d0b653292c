/**
 * The search of the application log on disk (GET /api/admin/logs): the files read newest first from
 * their end (log-reader.server.ts), each line checked cheaply as text before it is parsed, the
 * search stopped once the page and one more record are found, or once the lines are older than the
 * range asked. A file last written before the range starts is not opened.
 */
import fs from "node:fs/promises";
import { periodEnd, periodStart } from "../admin/admin-period.ts";
import { logFiles } from "./log-file.server.ts";
import { linesOfFilesBackwards } from "./log-reader.server.ts";
import {
  APP_LOGS_PAGE_SIZE,
  type AppLogRecord,
  type AppLogsPage,
  type AppLogsQuery,
  LOG_LEVEL_NUMBERS,
  LOG_LEVELS,
  type LogLevel,
} from "./logs.contract.ts";

/** Lines may be written a little out of order (a request's line at its end): read this far past the range. */
const ORDER_SLACK_MS = 5 * 60_000;

const LEVEL_BY_NUMBER = new Map<number, LogLevel>(LOG_LEVELS.map((level) => [LOG_LEVEL_NUMBERS[level], level]));

/** Fields every record has, shown in their own columns rather than among its details. */
const OWN_FIELDS = new Set(["level", "time", "msg", "reqId", "userId", "request", "err", "pid", "hostname", "v"]);

type Raw = Record<string, unknown>;

const LEADING_LEVEL = /^\{"level":(\d+)[,}]/;

const asString = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** One parsed line as the admin sees it; null for a line that is not a log record. */
export function toAppLogRecord(raw: Raw): AppLogRecord | null {
  const time = typeof raw.time === "number" ? raw.time : Date.parse(String(raw.time ?? ""));
  if (!Number.isFinite(time)) return null;
  const levelNumber = Number(raw.level);
  const level = LEVEL_BY_NUMBER.get(levelNumber) ?? (levelNumber >= 60 ? "fatal" : "info");
  const request = raw.request && typeof raw.request === "object" ? (raw.request as Raw) : null;
  const err = raw.err && typeof raw.err === "object" ? (raw.err as Raw) : null;
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!OWN_FIELDS.has(key)) details[key] = value;
  return {
    time: new Date(time).toISOString(),
    level,
    message: asString(raw.msg) ?? "",
    requestId: asString(raw.reqId),
    userId: typeof raw.userId === "number" ? raw.userId : null,
    request: request
      ? {
          method: asString(request.method) ?? "",
          route: asString(request.route),
          path: asString(request.path) ?? "",
          status: Number(request.status) || 0,
          ms: Number(request.ms) || 0,
        }
      : null,
    error: err ? { type: asString(err.type), message: asString(err.message) ?? "", stack: asString(err.stack) } : null,
    details,
  };
}

type Matcher = {
  /** Cheap checks on the raw line; false: the line cannot match. */
  line(line: string): boolean;
  record(record: AppLogRecord): boolean;
};

function matcher(query: AppLogsQuery, from: number | null, to: number | null): Matcher {
  const minLevel = query.level ? LOG_LEVEL_NUMBERS[query.level] : 0;
  const text = query.q?.toLowerCase();
  const route = query.route?.toLowerCase();
  const requestId = query.requestId;
  const userNeedle = query.userId ? `"userId":${query.userId}` : null;
  return {
    line(line) {
      // pino writes the level first: most lines of a level search are left without parsing them.
      const level = minLevel ? LEADING_LEVEL.exec(line) : null;
      if (level && Number(level[1]) < minLevel) return false;
      if (requestId && !line.includes(requestId)) return false;
      if (userNeedle && !line.includes(userNeedle)) return false;
      if (text && !line.toLowerCase().includes(text)) return false;
      return true;
    },
    record(record) {
      const time = Date.parse(record.time);
      if (from !== null && time < from) return false;
      if (to !== null && time >= to) return false;
      if (minLevel && LOG_LEVEL_NUMBERS[record.level] < minLevel) return false;
      if (requestId && record.requestId !== requestId) return false;
      if (query.userId && record.userId !== query.userId) return false;
      if (route) {
        const where = `${record.request?.route ?? ""} ${record.request?.path ?? ""}`.toLowerCase();
        if (!where.includes(route)) return false;
      }
      return true;
    },
  };
}

/** Searches the log files of `dir`, newest first, one page at a time. */
export async function searchAppLogs(
  dir: string,
  query: AppLogsQuery,
  options: { chunkBytes?: number; counter?: { bytes: number } } = {},
): Promise<AppLogsPage> {
  const pageSize = APP_LOGS_PAGE_SIZE;
  const files = logFiles(dir);
  const sizes = await Promise.all(files.map((file) => fs.stat(file).catch(() => null)));
  const kept = { files: files.length, bytes: sizes.reduce((sum, stat) => sum + (stat?.size ?? 0), 0) };
  const from = periodStart(query.from)?.getTime() ?? null;
  const to = periodEnd(query.to)?.getTime() ?? null;
  const match = matcher(query, from, to);
  const skip = (query.page - 1) * pageSize;
  const records: AppLogRecord[] = [];
  let matched = 0;
  let hasMore = false;
  const lines = linesOfFilesBackwards(files, {
    ...options,
    // A file last written before the range began holds nothing in it (nor do the older ones).
    skipFile: async (file) => {
      if (from === null) return false;
      const stat = await fs.stat(file).catch(() => null);
      return !stat || stat.mtimeMs < from - ORDER_SLACK_MS;
    },
  });
  for await (const line of lines) {
    if (!match.line(line)) continue;
    let raw: Raw;
    try {
      raw = JSON.parse(line) as Raw;
    } catch {
      continue;
    }
    if (!raw || typeof raw !== "object") continue;
    const record = toAppLogRecord(raw);
    if (!record) continue;
    if (from !== null && Date.parse(record.time) < from - ORDER_SLACK_MS) break;
    if (!match.record(record)) continue;
    matched++;
    if (matched <= skip) continue;
    if (records.length === pageSize) {
      hasMore = true;
      break;
    }
    records.push(record);
  }
  // Leaving the loop early closes the file being read (the generator's finally).
  return { records, page: query.page, pageSize, hasMore, kept };
}
