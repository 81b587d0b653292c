/**
 * The admin's logs: the application log kept on disk (app-logs.server.ts) and the events' history
 * across all events, asked of the events feature (decision 047) and shown as the events' own
 * history shows it to an admin (editor's historyEntryFor: no e-mail address in any line).
 */
import type { Db } from "../../platform/db/client.server.ts";
import { periodEnd, periodStart } from "../admin/admin-period.ts";
import { historyEntryFor } from "../editor/editor-moderation.service.server.ts";
import { listEventHistory } from "../events/event-history.server.ts";
import { searchAppLogs } from "./app-logs.server.ts";
import {
  type AppLogsPage,
  type AppLogsQuery,
  EVENT_LOGS_PAGE_SIZE,
  type EventLogsPage,
  type EventLogsQuery,
} from "./logs.contract.ts";

export type LogsDeps = {
  /** The folder of the application log's files (LOG_DIR, by default DATA_DIR/logs). */
  logDir: string;
};

export function logsService(db: Db, deps: LogsDeps) {
  return {
    /** GET /api/admin/logs. */
    appLogs(query: AppLogsQuery): Promise<AppLogsPage> {
      return searchAppLogs(deps.logDir, query);
    },

    /** GET /api/admin/event-logs. */
    async eventLogs(query: EventLogsQuery): Promise<EventLogsPage> {
      const pageSize = EVENT_LOGS_PAGE_SIZE;
      const { rows, total } = await listEventHistory(
        db,
        {
          eventName: query.event,
          member: query.member,
          type: query.type,
          from: periodStart(query.from),
          to: periodEnd(query.to),
        },
        { limit: pageSize, offset: (query.page - 1) * pageSize },
      );
      return {
        entries: rows.map((row) => {
          const shown = historyEntryFor({ id: 0, admin: true }, row);
          return {
            id: row.id,
            at: shown.at,
            type: row.type,
            event: row.event,
            member: row.member,
            data: shown.data,
          };
        }),
        total,
        page: query.page,
        pageSize,
      };
    },
  };
}

export type LogsService = ReturnType<typeof logsService>;
