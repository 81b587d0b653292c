import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { SPORTS } from "../../../../shared/constants.ts";
import { pagePath } from "../../../../shared/i18n/pages.ts";
import { useLocale } from "../../../../shared/i18n/use-locale.ts";
import { cx } from "../../../../shared/ui/cx.ts";
import { LABEL_CLASS } from "../../../../shared/ui/fields.tsx";
import { FilterSelect, FilterText } from "../../../admin/components/AdminFilters.tsx";
import { AdminTable } from "../../../admin/components/AdminTable.tsx";
import {
  ACCOUNT_STATUSES,
  ADMIN_USER_FORMATS,
  type AdminUserRow,
  type AdminUsersPage,
  type AdminUsersQuery,
  BULK_USER_ACTIONS,
  userFilterParams,
} from "../../admin-users.contract.ts";
import { type Outcome, OutcomeNotice } from "./OutcomeNotice.tsx";
import { compactDay, memberName, STATUS_STYLE } from "./user-format.ts";

const ROLES = ["member", "organiser", "admin"] as const;

/** Two short fields side by side on a phone; on a wider screen they flow with the others. */
const PAIR = "grid w-full grid-cols-2 gap-2 sm:contents";

/** The list's filters: the GET form of AdminTable, filled from the address. */
function UserFilters({ query }: { query: AdminUsersQuery }) {
  const { t, i18n } = useTranslation("admin");
  const en = i18n.language === "en";
  return (
    <>
      <FilterText name="q" label={t("users.search")} value={query.q} className="sm:w-64" />
      <div className={PAIR}>
        <FilterSelect
          name="role"
          label={t("users.role")}
          value={query.role}
          all={t("users.filters.allRoles")}
          options={ROLES.map((role) => ({ value: role, label: t(`users.roles.${role}`) }))}
        />
        <FilterSelect
          name="verified"
          label={t("users.filters.address")}
          value={query.verified}
          all={t("users.filters.anyAddress")}
          options={[
            { value: "yes", label: t("users.filters.verifiedYes") },
            { value: "no", label: t("users.filters.verifiedNo") },
          ]}
        />
      </div>
      <div className={PAIR}>
        <FilterSelect
          name="status"
          label={t("users.status")}
          value={query.status}
          all={t("users.filters.anyStatus")}
          options={ACCOUNT_STATUSES.map((status) => ({ value: status, label: t(`users.statuses.${status}`) }))}
        />
        <FilterSelect
          name="sport"
          label={t("users.filters.sport")}
          value={query.sport}
          all={t("users.filters.allSports")}
          options={SPORTS.map((sport) => ({ value: sport.key, label: en ? sport.en : sport.fr }))}
        />
      </div>
      <div className={PAIR}>
        <FilterText name="loginAfter" type="date" label={t("users.filters.loginAfter")} value={query.loginAfter} />
        <FilterText name="loginBefore" type="date" label={t("users.filters.loginBefore")} value={query.loginBefore} />
      </div>
      <label className="flex items-center gap-2 py-2.5">
        <input
          type="checkbox"
          name="never"
          value="1"
          defaultChecked={query.never === "1"}
          className="size-4 accent-brand-700"
        />
        <span className={cx(LABEL_CLASS, "mb-0")}>{t("users.filters.never")}</span>
      </label>
    </>
  );
}

/** An address that breaks before its "@" when the column is narrow, never inside a word. */
function EmailCell({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at <= 0) return <span className="break-words">{email}</span>;
  return (
    <span className="break-words">
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </span>
  );
}

/** What the list's bulk form did (the page's action), in words. */
export type BulkOutcome =
  | { action: (typeof BULK_USER_ACTIONS)[number]; done: number; refused: number; message: string | null }
  | { nothing: true };

function bulkOutcome(
  outcome: BulkOutcome | null | undefined,
  t: (key: string, values?: Record<string, unknown>) => string,
): Outcome | null {
  if (!outcome) return null;
  if ("nothing" in outcome) return { tone: "error", text: t("users.bulk.nothing") };
  const done = outcome.done
    ? t(`users.bulk.${outcome.action === "disable" ? "disabled" : "enabled"}`, { count: outcome.done })
    : "";
  const refused = outcome.refused
    ? t("users.bulk.refused", { count: outcome.refused, message: outcome.message ?? "" })
    : "";
  return { tone: outcome.refused ? "error" : "success", text: [done, refused].filter(Boolean).join(" ") };
}

/**
 * /admin/utilisateurs: the members as AdminTable lists them — filters in the address, columns
 * sorted by the server, the CSV and XLSX exports of the same filters, and the bulk form that
 * disables or enables the members ticked. Each name opens the member's page.
 */
export function UsersList({
  list,
  query,
  outcome,
}: {
  list: AdminUsersPage;
  query: AdminUsersQuery;
  outcome?: BulkOutcome | null;
}) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const params = userFilterParams(query).toString();
  const exports = ADMIN_USER_FORMATS.filter((format) => format !== "json").map((format) => ({
    label: t(`users.exports.${format}`),
    href: `/api/admin/users/${format}${params ? `?${params}` : ""}`,
  }));
  const name = (u: AdminUserRow) => memberName(u, t);

  return (
    <>
      <OutcomeNotice outcome={bulkOutcome(outcome, t)} />
      <AdminTable
        caption={t("users.title")}
        rows={list.users}
        rowKey={(u) => u.id}
        rowLabel={name}
        sort={query.sort}
        dir={query.dir}
        page={list.page}
        pageSize={list.pageSize}
        total={list.total}
        filters={<UserFilters query={query} />}
        exports={exports}
        bulk={{ actions: BULK_USER_ACTIONS.map((action) => ({ value: action, label: t(`users.bulk.${action}`) })) }}
        empty={t("users.empty")}
        columns={[
          {
            key: "name",
            header: t("users.name"),
            sort: "name",
            rowHeader: true,
            cell: (u) => (
              <>
                <Link
                  to={pagePath("adminUser", locale, { id: u.id })}
                  className="text-brand-700 underline-offset-2 hover:underline"
                >
                  {name(u)}
                </Link>
                {u.pseudo && u.status !== "deleted" ? (
                  <span className="block font-normal text-ink-700 text-xs">{u.pseudo}</span>
                ) : null}
              </>
            ),
          },
          {
            key: "status",
            header: t("users.status"),
            sort: "status",
            cell: (u) => (
              <span
                className={cx("inline-block rounded-full px-2 py-0.5 font-semibold text-xs", STATUS_STYLE[u.status])}
              >
                {t(`users.statuses.${u.status}`)}
              </span>
            ),
          },
          { key: "email", header: t("users.email"), sort: "email", cell: (u) => <EmailCell email={u.email} /> },
          { key: "role", header: t("users.role"), sort: "role", cell: (u) => t(`users.roles.${u.role}`) },
          {
            key: "verified",
            header: t("users.verified"),
            sort: "verified",
            cell: (u) => t(u.emailStatus === "verified" ? "users.yes" : "users.no"),
          },
          {
            key: "created",
            header: t("users.created"),
            sort: "created",
            numeric: true,
            cell: (u) => compactDay(u.createdAt, locale),
          },
          {
            key: "lastLogin",
            header: t("users.lastLogin"),
            sort: "lastLogin",
            numeric: true,
            cell: (u) => (u.lastLoginAt ? compactDay(u.lastLoginAt, locale) : t("users.never")),
          },
          { key: "logins", header: t("users.logins"), sort: "logins", numeric: true, cell: (u) => u.loginCount },
        ]}
      />
    </>
  );
}
