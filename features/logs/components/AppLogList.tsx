import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { formatAdminDateTime } from "../../admin/admin-period.ts";
import { tableHref } from "../../admin/admin-table.ts";
import { FilterSelect, FilterText } from "../../admin/components/AdminFilters.tsx";
import { AdminTable } from "../../admin/components/AdminTable.tsx";
import { formatBytes } from "../../admin/components/dashboard-format.ts";
import { type AppLogRecord, type AppLogsPage, type AppLogsQuery, LOG_LEVELS, type LogLevel } from "../logs.contract.ts";

const LEVEL_STYLES: Record<LogLevel, string> = {
  trace: "bg-slate-100 text-ink-700",
  debug: "bg-slate-100 text-ink-700",
  info: "bg-sky-50 text-sky-900",
  warn: "bg-amber-50 text-amber-900",
  error: "bg-red-50 text-red-900",
  fatal: "bg-red-700 text-white",
};

/** « 12,5 ms » / "12.5 ms". */
const formatMilliseconds = (ms: number, locale: Locale) =>
  new Intl.NumberFormat(locale === "fr" ? "fr-FR" : "en-GB", {
    style: "unit",
    unit: "millisecond",
    maximumFractionDigits: 1,
  }).format(ms);

/** A minute for a datetime-local field: a day alone starts (from) or ends (to) the day. */
const minuteOf = (value: string | undefined, end: boolean) =>
  value && value.length === 10 ? `${value}T${end ? "23:59" : "00:00"}` : value;

/** A record's value as a link to the records that share it (the same filter added to the address). */
function FilterLink({
  name,
  value,
  label,
  className,
}: {
  name: string;
  value: string | number | null;
  label: (value: string | number) => string;
  className?: string;
}) {
  const { search } = useLocation();
  if (value === null || value === "") return "—";
  return (
    <Link
      to={tableHref(search, { [name]: value })}
      className={cx("text-brand-700 underline underline-offset-2", className)}
      aria-label={label(value)}
    >
      {value}
    </Link>
  );
}

function Details({ record }: { record: AppLogRecord }) {
  const { t } = useTranslation("admin");
  const details = Object.keys(record.details).length ? JSON.stringify(record.details, null, 2) : "";
  if (!details && !record.error?.stack) return null;
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-brand-700 text-xs underline underline-offset-2">
        {t("logs.app.details")}
      </summary>
      {details ? (
        <pre className="mt-1 max-w-[36rem] whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs">
          {details}
        </pre>
      ) : null}
      {record.error?.stack ? (
        <>
          <p className="mt-1 font-medium text-ink-700 text-xs">{t("logs.app.stack")}</p>
          <pre className="mt-1 max-w-[36rem] whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs">
            {record.error.stack}
          </pre>
        </>
      ) : null}
    </details>
  );
}

/** The application log tab: the records of the log files, newest first, filtered by the address. */
export function AppLogList({ data, query, locale }: { data: AppLogsPage; query: AppLogsQuery; locale: Locale }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <p className="mb-4 text-ink-700 text-sm">
        {data.kept.files === 0
          ? t("logs.app.noFile")
          : t("logs.app.lead", { count: data.kept.files, size: formatBytes(data.kept.bytes, locale) })}
      </p>
      <AdminTable
        caption={t("logs.app.caption")}
        rows={data.records}
        rowKey={(record) => `${record.time}-${record.requestId ?? ""}-${data.records.indexOf(record)}`}
        rowLabel={(record) => record.message}
        page={data.page}
        pageSize={data.pageSize}
        total={null}
        hasMore={data.hasMore}
        resetHref="?"
        empty={t("logs.app.empty")}
        filters={
          <>
            <FilterSelect
              name="level"
              label={t("logs.app.level")}
              value={query.level}
              all={t("logs.all")}
              options={LOG_LEVELS.map((level) => ({ value: level, label: t(`logs.app.levels.${level}`) }))}
              half
            />
            <FilterText name="route" label={t("logs.app.route")} value={query.route} half />
            <FilterText name="from" type="datetime-local" label={t("logs.from")} value={minuteOf(query.from, false)} />
            <FilterText name="to" type="datetime-local" label={t("logs.to")} value={minuteOf(query.to, true)} />
            <FilterText name="requestId" label={t("logs.app.requestId")} value={query.requestId} half />
            <FilterText name="userId" label={t("logs.app.userId")} value={query.userId} inputMode="numeric" half />
            <FilterText name="q" label={t("logs.app.text")} value={query.q} />
          </>
        }
        columns={[
          {
            key: "time",
            header: t("logs.app.time"),
            rowHeader: true,
            className: "whitespace-nowrap font-normal tabular-nums",
            cell: (record) => <time dateTime={record.time}>{formatAdminDateTime(record.time, locale)}</time>,
          },
          {
            key: "level",
            header: t("logs.app.levelColumn"),
            cell: (record) => (
              <span className={cx("rounded px-1.5 py-0.5 font-medium text-xs", LEVEL_STYLES[record.level])}>
                {t(`logs.app.levels.${record.level}`)}
              </span>
            ),
          },
          {
            key: "message",
            header: t("logs.app.message"),
            className: "min-w-[16rem]",
            cell: (record) => (
              <>
                {record.request ? (
                  <span className="font-mono text-xs">
                    {record.request.method} {record.request.path}{" "}
                    <strong className={record.request.status >= 500 ? "text-red-800" : undefined}>
                      {record.request.status}
                    </strong>{" "}
                    · {formatMilliseconds(record.request.ms, locale)}
                    {record.request.route && record.request.route !== record.request.path ? (
                      <span className="block text-ink-500">{record.request.route}</span>
                    ) : null}
                  </span>
                ) : (
                  <span className="break-words">{record.message}</span>
                )}
                {record.error ? (
                  <span className="block break-words text-red-800 text-xs">
                    {record.error.type ? `${record.error.type}${locale === "fr" ? "\u00a0: " : ": "}` : ""}
                    {record.error.message}
                  </span>
                ) : null}
                <Details record={record} />
              </>
            ),
          },
          {
            key: "request",
            header: t("logs.app.requestId"),
            cell: (record) => (
              <FilterLink
                name="requestId"
                value={record.requestId}
                label={(id) => t("logs.app.sameRequest", { id })}
                className="font-mono text-xs"
              />
            ),
          },
          {
            key: "member",
            header: t("logs.app.member"),
            numeric: true,
            cell: (record) => (
              <FilterLink name="userId" value={record.userId} label={(id) => t("logs.app.memberLines", { id })} />
            ),
          },
        ]}
      />
    </>
  );
}
