import { useTranslation } from "react-i18next";
import { EVENT_HISTORY_TYPES, type Locale } from "../../../shared/constants.ts";
import { formatCompactDate } from "../../../shared/dates.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { formatAdminDateTime } from "../../admin/admin-period.ts";
import { FilterHidden, FilterSelect, FilterText } from "../../admin/components/AdminFilters.tsx";
import { AdminTable } from "../../admin/components/AdminTable.tsx";
import type { EventLogsPage, EventLogsQuery } from "../logs.contract.ts";
import { describeChange } from "./event-change.ts";

/** The event logs tab: every event's history, newest first, filtered by the address. */
export function EventLogList({ data, query, locale }: { data: EventLogsPage; query: EventLogsQuery; locale: Locale }) {
  const { t } = useTranslation("admin");
  const kind = (type: string) => t(`editor:admin.historyType.${type}`, { defaultValue: type });
  return (
    <>
      <p className="mb-4 text-ink-700 text-sm">{t("logs.events.lead")}</p>
      <AdminTable
        caption={t("logs.events.caption")}
        rows={data.entries}
        rowKey={(entry) => entry.id}
        rowLabel={(entry) => `${entry.event.name}, ${kind(entry.type)}`}
        page={data.page}
        pageSize={data.pageSize}
        total={data.total}
        resetHref="?tab=events"
        empty={t("logs.events.empty")}
        filters={
          <>
            <FilterHidden values={{ tab: "events" }} />
            <FilterText name="event" label={t("logs.events.event")} value={query.event} />
            <FilterText name="member" label={t("logs.events.member")} value={query.member} />
            <FilterSelect
              name="type"
              label={t("logs.events.type")}
              value={query.type}
              all={t("logs.all")}
              options={EVENT_HISTORY_TYPES.map((type) => ({ value: type, label: kind(type) }))}
            />
            <FilterText name="from" type="date" label={t("logs.from")} value={query.from} half />
            <FilterText name="to" type="date" label={t("logs.to")} value={query.to} half />
          </>
        }
        columns={[
          {
            key: "when",
            header: t("logs.events.when"),
            rowHeader: true,
            className: "whitespace-nowrap font-normal tabular-nums",
            cell: (entry) => <time dateTime={entry.at}>{formatAdminDateTime(entry.at, locale)}</time>,
          },
          {
            key: "event",
            header: t("logs.events.event"),
            className: "min-w-[12rem]",
            cell: (entry) => (
              <>
                <a
                  href={pagePath("event", locale, { slug: entry.event.slug })}
                  className="font-medium text-brand-700 underline underline-offset-2"
                >
                  {entry.event.name}
                </a>
                <span className="block text-ink-500 text-xs">
                  {formatCompactDate(entry.event.startDate, locale)} ·{" "}
                  <a
                    href={pagePath("eventEdit", locale, { id: entry.event.id })}
                    className="text-brand-700 underline underline-offset-2"
                  >
                    {t("logs.events.edit", { id: entry.event.id })}
                  </a>
                </span>
              </>
            ),
          },
          {
            key: "who",
            header: t("logs.events.who"),
            cell: (entry) =>
              entry.member ? (
                <>
                  {entry.member.name}
                  <span className="block text-ink-500 text-xs">{t("logs.number", { id: entry.member.id })}</span>
                </>
              ) : (
                <span className="text-ink-500">{t("logs.system")}</span>
              ),
          },
          { key: "what", header: t("logs.events.what"), cell: (entry) => kind(entry.type) },
          {
            key: "detail",
            header: t("logs.events.detail"),
            className: "min-w-[14rem]",
            cell: (entry) => {
              const lines = describeChange(entry.type, entry.data, t, locale);
              return lines.length ? (
                <ul className="space-y-0.5">
                  {lines.map((line) => (
                    <li key={line} className="break-words">
                      {line}
                    </li>
                  ))}
                </ul>
              ) : (
                "—"
              );
            },
          },
        ]}
      />
    </>
  );
}
