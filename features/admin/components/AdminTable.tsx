import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Download } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { useLocale } from "../../../shared/i18n/use-locale.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { INPUT_CLASS, SECONDARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { pageCount, type SortDir, tableHref } from "../admin-table.ts";

export type AdminColumn<Row> = {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** This column's sort key in the address (`?sort=`), when the list can be sorted by it. */
  sort?: string;
  /** Numbers and dates: right-aligned, tabular figures. */
  numeric?: boolean;
  /** The row's name (a `th scope="row"`), once per table. */
  rowHeader?: boolean;
  className?: string;
};

export type BulkActions = {
  /** The form field of the actions' select (default `action`). */
  name?: string;
  actions: { value: string; label: string }[];
  /** Where the selection is posted (default: this page's action). */
  formAction?: string;
};

/**
 * The one list of the admin area: server-sorted columns (links that keep the filters), pages,
 * optional filters (a GET form: the address holds them), exports and bulk actions on the rows
 * ticked (a POST form: it works without JavaScript). Wide tables scroll sideways on phones, the
 * row's name staying in view.
 */
export function AdminTable<Row>({
  caption,
  rows,
  rowKey,
  rowLabel,
  columns,
  sort,
  dir,
  page,
  pageSize,
  total,
  hasMore,
  filters,
  resetHref,
  exports,
  bulk,
  empty,
}: {
  caption: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** How a row is named to assistive technology ("Select …"). */
  rowLabel: (row: Row) => string;
  columns: readonly AdminColumn<Row>[];
  sort?: string;
  dir?: SortDir;
  page: number;
  pageSize: number;
  /** The rows of every page; null when the list is not counted through (then `hasMore` says whether a next page exists). */
  total: number | null;
  hasMore?: boolean;
  filters?: ReactNode;
  /** Where "show all" leads (default: this page without parameters). */
  resetHref?: string;
  exports?: { label: string; href: string }[];
  bulk?: BulkActions;
  empty?: string;
}) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const { search, pathname } = useLocation();
  const id = useId();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const pages = total === null ? null : pageCount(total, pageSize);
  const hasNext = pages === null ? Boolean(hasMore) : page < pages;
  const keys = rows.map((row) => String(rowKey(row)));
  const allOn = keys.length > 0 && keys.every((key) => selected.has(key));
  const formId = `${id}-bulk`;
  const number = new Intl.NumberFormat(locale === "fr" ? "fr-FR" : "en-GB");

  const toggle = (key: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  return (
    <div className="space-y-3">
      {filters || exports?.length ? (
        <div className="flex flex-wrap items-end justify-between gap-3">
          {filters ? (
            <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label={t("table.filter")}>
              {filters}
              {sort ? <input type="hidden" name="sort" value={sort} /> : null}
              {dir ? <input type="hidden" name="dir" value={dir} /> : null}
              <button type="submit" className={SECONDARY_BUTTON}>
                {t("table.filter")}
              </button>
              <Link
                to={resetHref ?? pathname}
                className="px-2 py-2 text-brand-700 text-sm underline underline-offset-2"
              >
                {t("table.reset")}
              </Link>
            </Form>
          ) : (
            <span />
          )}
          {exports?.length ? (
            <ul className="flex flex-wrap gap-2" aria-label={t("table.export")}>
              {exports.map((e) => (
                <li key={e.href}>
                  <a href={e.href} className={cx(SECONDARY_BUTTON, "inline-flex items-center gap-1.5")} download>
                    <Download className="size-4" aria-hidden="true" />
                    {e.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      {bulk ? (
        <Form method="post" id={formId} action={bulk.formAction} className="flex flex-wrap items-end gap-2">
          <label className="block">
            <span className="mb-1 block font-medium text-ink-900 text-sm">{t("table.bulkAction")}</span>
            <select name={bulk.name ?? "action"} className={INPUT_CLASS} required defaultValue="">
              <option value="" disabled>
                —
              </option>
              {bulk.actions.map((a) => (
                <option key={a.value} value={a.value}>
                  {a.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className={SECONDARY_BUTTON}>
            {t("table.apply")}
          </button>
          <span className="py-2 text-ink-700 text-sm" aria-live="polite">
            {selected.size > 0 ? t("table.selected", { count: selected.size }) : ""}
          </span>
        </Form>
      ) : null}

      {/* Positioned: the screen-reader texts of the headers (absolute) scroll with the table, not past the page. */}
      <div className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <caption className="sr-only">
            {caption}, {pages === null ? t("table.pageOnly", { page }) : t("table.page", { page, pages })}
          </caption>
          <thead className="border-slate-200 border-b bg-slate-50 text-ink-700">
            <tr>
              {bulk ? (
                <th scope="col" className="w-10 px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label={t("table.selectAll")}
                    checked={allOn}
                    onChange={(e) => {
                      const on = e.currentTarget.checked;
                      setSelected(on ? new Set(keys) : new Set());
                    }}
                    className="size-4 accent-brand-700"
                  />
                </th>
              ) : null}
              {columns.map((column) => {
                const current = column.sort && column.sort === sort;
                const nextDir: SortDir = current && dir === "asc" ? "desc" : "asc";
                return (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={current ? (dir === "asc" ? "ascending" : "descending") : undefined}
                    className={cx("whitespace-nowrap px-3 py-2 font-semibold", column.numeric && "text-right")}
                  >
                    {column.sort ? (
                      <Link
                        to={tableHref(search, { sort: column.sort, dir: nextDir })}
                        className="inline-flex items-center gap-1 rounded hover:text-ink-900 hover:underline"
                        preventScrollReset
                      >
                        {column.header}
                        {current ? (
                          dir === "asc" ? (
                            <ArrowUp className="size-3.5" aria-hidden="true" />
                          ) : (
                            <ArrowDown className="size-3.5" aria-hidden="true" />
                          )
                        ) : (
                          <ArrowUpDown className="size-3.5 text-ink-400" aria-hidden="true" />
                        )}
                        <span className="sr-only">
                          {current
                            ? `, ${t(dir === "asc" ? "table.sortedAscending" : "table.sortedDescending")}`
                            : `, ${t("table.sortAscending")}`}
                        </span>
                      </Link>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns.length + (bulk ? 1 : 0)} className="px-3 py-6 text-center text-ink-700">
                  {empty ?? t("table.empty")}
                </td>
              </tr>
            ) : (
              rows.map((row, index) => {
                const key = keys[index] as string;
                return (
                  <tr key={key} className={cx(selected.has(key) && "bg-brand-50")}>
                    {bulk ? (
                      <td className="px-3 py-2">
                        <input
                          type="checkbox"
                          name="ids"
                          value={key}
                          form={formId}
                          aria-label={t("table.selectRow", { name: rowLabel(row) })}
                          checked={selected.has(key)}
                          onChange={(e) => toggle(key, e.currentTarget.checked)}
                          className="size-4 accent-brand-700"
                        />
                      </td>
                    ) : null}
                    {columns.map((column) => {
                      const Cell = column.rowHeader ? "th" : "td";
                      return (
                        <Cell
                          key={column.key}
                          scope={column.rowHeader ? "row" : undefined}
                          className={cx(
                            "px-3 py-2 align-top",
                            column.rowHeader && "font-medium text-ink-900",
                            column.numeric && "text-right tabular-nums",
                            column.className,
                          )}
                        >
                          {column.cell(row)}
                        </Cell>
                      );
                    })}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>

      <nav aria-label={t("table.pagination")} className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <p className="text-ink-700">
          {total === null
            ? t("table.pageOnly", { page })
            : `${t("table.rows", { count: total, formatted: number.format(total) })} · ${t("table.page", { page, pages })}`}
        </p>
        <div className="flex gap-2">
          {page > 1 ? (
            <Link
              to={tableHref(search, { page: page - 1 })}
              className={cx(SECONDARY_BUTTON, "inline-flex items-center")}
            >
              <ChevronLeft className="size-4" aria-hidden="true" />
              {t("table.previous")}
            </Link>
          ) : null}
          {hasNext ? (
            <Link
              to={tableHref(search, { page: page + 1 })}
              className={cx(SECONDARY_BUTTON, "inline-flex items-center")}
            >
              {t("table.next")}
              <ChevronRight className="size-4" aria-hidden="true" />
            </Link>
          ) : null}
        </div>
      </nav>
    </div>
  );
}
