/**
 * The admin's logs (issue 28): the server's application log kept on disk, and the events' history
 * across all events. Filters, page and answers of GET /api/admin/logs and GET /api/admin/event-logs,
 * the same names in the page's address (/admin/journaux?tab=app|events|emails). Isomorphic.
 */
import { z } from "zod";
import { EVENT_HISTORY_TYPES } from "../../shared/constants.ts";
import { text } from "../../shared/input.ts";
import { adminDay, adminMoment } from "../admin/admin-period.ts";

export const LOG_TABS = ["app", "events", "emails"] as const;
export type LogTab = (typeof LOG_TABS)[number];

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** pino's numbers for the levels. */
export const LOG_LEVEL_NUMBERS: Record<LogLevel, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
};

export const APP_LOGS_PAGE_SIZE = 50;
/** Deeper pages read the files again from their end: past this, narrow the search instead. */
export const APP_LOGS_MAX_PAGE = 200;
export const EVENT_LOGS_PAGE_SIZE = 50;

const page = z.coerce.number().int().min(1).max(10_000).default(1);

/** GET /api/admin/logs: every filter optional, newest first. */
export const appLogsQuerySchema = z.object({
  /** The lowest level shown: `warn` shows warnings, errors and fatal errors. */
  level: z.enum(LOG_LEVELS).optional(),
  from: adminMoment.optional().describe("From this day or minute, French time (YYYY-MM-DD or YYYY-MM-DDTHH:mm)"),
  to: adminMoment.optional().describe("Up to this day or minute included, French time"),
  route: text().trim().max(200).optional().describe("Part of the request's route or path"),
  requestId: text().trim().max(64).optional(),
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  q: text().trim().max(200).optional().describe("Text anywhere in the record"),
  page: z.coerce.number().int().min(1).max(APP_LOGS_MAX_PAGE).default(1),
});
export type AppLogsQuery = z.output<typeof appLogsQuerySchema>;

export const appLogRecordSchema = z.object({
  time: z.string().describe("ISO 8601"),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  requestId: z.string().nullable(),
  userId: z.number().int().nullable(),
  request: z
    .object({
      method: z.string(),
      route: z.string().nullable().describe("The route's pattern (/api/event/:id); pages: /*"),
      path: z.string().describe("Without its query string"),
      status: z.number().int(),
      ms: z.number(),
    })
    .nullable(),
  error: z.object({ type: z.string().nullable(), message: z.string(), stack: z.string().nullable() }).nullable(),
  /** The record's other fields (already redacted when written). */
  details: z.record(z.string(), z.unknown()),
});
export type AppLogRecord = z.infer<typeof appLogRecordSchema>;

export const appLogsResponseSchema = z.object({
  records: z.array(appLogRecordSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Whether an older page has records (the files are not counted through). */
  hasMore: z.boolean(),
  /** What is kept on disk: the files and their total size. */
  kept: z.object({ files: z.number().int(), bytes: z.number().int() }),
});
export type AppLogsPage = z.infer<typeof appLogsResponseSchema>;

/** GET /api/admin/event-logs: every filter optional, newest first. */
export const eventLogsQuerySchema = z.object({
  event: text().trim().max(200).optional().describe("Part of the event's name"),
  member: text().trim().max(200).optional().describe("Part of the member's name or e-mail address, or their id"),
  type: z.enum(EVENT_HISTORY_TYPES).optional().describe("The kind of change"),
  from: adminDay.optional().describe("From this day, French time"),
  to: adminDay.optional().describe("Up to this day included, French time"),
  page,
});
export type EventLogsQuery = z.output<typeof eventLogsQuerySchema>;

export const eventLogEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  type: z.enum(EVENT_HISTORY_TYPES),
  event: z.object({ id: z.number().int(), name: z.string(), slug: z.string(), startDate: z.string() }),
  member: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** What the line recorded: fields changed, message, dates before and after… (no e-mail address). */
  data: z.record(z.string(), z.unknown()),
});
export type EventLogEntry = z.infer<typeof eventLogEntrySchema>;

export const eventLogsResponseSchema = z.object({
  entries: z.array(eventLogEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type EventLogsPage = z.infer<typeof eventLogsResponseSchema>;
