import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { readUserListQuery } from "../../features/accounts/admin-users.contract.ts";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { AdminTable } from "../../features/admin/components/AdminTable.tsx";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { INPUT_CLASS } from "../../shared/ui/fields.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-users";

/** /admin/utilisateurs: the members, searchable (GET /api/admin/users). */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const query = readUserListQuery(new URL(request.url).searchParams);
  const list = await context.services.accounts.listUsers(query);
  return { users: list.users, total: list.total, page: query.page, q: query.q ?? "" };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "admin:users.title", description: "admin:users.description", noIndex: true });

export default function AdminUsersPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const { users, total, page, q } = loaderData;
  return (
    <AdminLayout locale={locale} title={t("users.title")}>
      <AdminTable
        caption={t("users.title")}
        rows={users}
        rowKey={(u) => u.id}
        rowLabel={(u) => `${u.firstName} ${u.lastName}`}
        page={page}
        pageSize={50}
        total={total}
        filters={
          <label className="block">
            <span className="mb-1 block font-medium text-ink-900 text-sm">{t("users.search")}</span>
            <input type="search" name="q" defaultValue={q} className={INPUT_CLASS} />
          </label>
        }
        columns={[
          { key: "name", header: t("users.name"), rowHeader: true, cell: (u) => `${u.firstName} ${u.lastName}` },
          { key: "email", header: t("users.email"), cell: (u) => u.email },
          { key: "role", header: t("users.role"), cell: (u) => t(`users.roles.${u.role}`) },
        ]}
      />
    </AdminLayout>
  );
}
