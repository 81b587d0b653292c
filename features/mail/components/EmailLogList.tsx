import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { formatAdminDateTime } from "../../admin/admin-period.ts";
import { tableHref } from "../../admin/admin-table.ts";
import { FilterHidden, FilterSelect, FilterText } from "../../admin/components/AdminFilters.tsx";
import { AdminTable } from "../../admin/components/AdminTable.tsx";
import { type EmailLogsPage, type EmailLogsQuery, MAIL_STATUSES, type MailStatus } from "../mail-log.contract.ts";

const STATUS_STYLES: Record<MailStatus, string> = {
  queued: "bg-amber-50 text-amber-900",
  sent: "bg-emerald-50 text-emerald-900",
  failed: "bg-red-50 text-red-900",
};

export function MailStatusBadge({ status }: { status: MailStatus }) {
  const { t } = useTranslation("admin");
  return (
    <span className={cx("whitespace-nowrap rounded px-1.5 py-0.5 font-medium text-xs", STATUS_STYLES[status])}>
      {t(`logs.emails.statuses.${status}`)}
    </span>
  );
}

/** The e-mails tab: every message sent or queued, newest first, filtered by the address; "view" opens the viewer. */
export function EmailLogList({ data, query, locale }: { data: EmailLogsPage; query: EmailLogsQuery; locale: Locale }) {
  const { t } = useTranslation("admin");
  const { search } = useLocation();
  const template = (name: string) => t(`logs.emails.templates.${name}`, { defaultValue: name });
  return (
    <>
      <p className="mb-1 text-ink-700 text-sm">{t("logs.emails.lead")}</p>
      <p className="mb-4 text-ink-700 text-sm">{t("logs.emails.tracking")}</p>
      <AdminTable
        caption={t("logs.emails.caption")}
        rows={data.messages}
        rowKey={(message) => message.id}
        rowLabel={(message) => message.subject}
        page={data.page}
        pageSize={data.pageSize}
        total={data.total}
        resetHref="?tab=emails"
        empty={t("logs.emails.empty")}
        filters={
          <>
            <FilterHidden values={{ tab: "emails" }} />
            <FilterText name="recipient" label={t("logs.emails.recipient")} value={query.recipient} />
            <FilterSelect
              name="template"
              label={t("logs.emails.template")}
              value={query.template}
              all={t("logs.all")}
              options={data.templates.map((name) => ({ value: name, label: template(name) }))}
              half
            />
            <FilterSelect
              name="status"
              label={t("logs.emails.status")}
              value={query.status}
              all={t("logs.all")}
              options={MAIL_STATUSES.map((status) => ({ value: status, label: t(`logs.emails.statuses.${status}`) }))}
              half
            />
            <FilterText name="from" type="date" label={t("logs.from")} value={query.from} half />
            <FilterText name="to" type="date" label={t("logs.to")} value={query.to} half />
          </>
        }
        columns={[
          {
            key: "date",
            header: t("logs.emails.date"),
            rowHeader: true,
            className: "whitespace-nowrap font-normal tabular-nums",
            cell: (message) => (
              <time dateTime={message.createdAt}>{formatAdminDateTime(message.createdAt, locale)}</time>
            ),
          },
          {
            key: "recipient",
            header: t("logs.emails.recipient"),
            className: "break-all",
            cell: (message) => message.recipient,
          },
          {
            key: "template",
            header: t("logs.emails.subject"),
            className: "min-w-[14rem]",
            cell: (message) => (
              <>
                <span className="break-words">{message.subject}</span>
                <span className="block text-ink-500 text-xs">{template(message.template)}</span>
              </>
            ),
          },
          {
            key: "status",
            header: t("logs.emails.status"),
            cell: (message) => (
              <>
                <MailStatusBadge status={message.status} />
                {message.error ? (
                  <span className="mt-1 block max-w-[16rem] break-words text-red-800 text-xs">{message.error}</span>
                ) : null}
              </>
            ),
          },
          {
            key: "view",
            header: t("logs.emails.view"),
            cell: (message) => (
              <Link
                to={tableHref(search, { view: message.id, page: data.page })}
                preventScrollReset={false}
                className="font-medium text-brand-700 underline underline-offset-2"
                aria-label={t("logs.emails.viewLabel", { id: message.id })}
              >
                {t("logs.emails.view")}
              </Link>
            ),
          },
        ]}
      />
    </>
  );
}
