import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { z } from "zod";
import {
  ADMIN_USERS_PAGE_SIZE,
  BULK_USER_ACTIONS,
  readUserListQuery,
} from "../../features/accounts/admin-users.contract.ts";
import { type BulkOutcome, UsersList } from "../../features/accounts/components/admin/UsersList.tsx";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { idParam } from "../../shared/input.ts";
import { apiErrorsOf } from "../../shared/ui/form/submission.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-users";

/** /admin/utilisateurs: the members, searched, filtered and sorted (GET /api/admin/users). */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const query = readUserListQuery(new URL(request.url).searchParams);
  return { list: await context.services.accounts.listUsers(query), query };
}

const bulkSchema = z.object({
  action: z.enum(BULK_USER_ACTIONS),
  ids: z.array(idParam).min(1).max(ADMIN_USERS_PAGE_SIZE),
});

/**
 * The bulk form (works without JavaScript): each member ticked goes through the same API call as
 * their own page's button (POST /api/admin/user/{id}/disable or /enable), so every rule holds —
 * the admin's own account and the last admin are refused and counted apart.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const locale = localeFromPath(new URL(request.url).pathname);
  const form = await request.formData();
  const parsed = bulkSchema.safeParse({ action: form.get("action"), ids: form.getAll("ids") });
  if (!parsed.success) return data({ bulk: { nothing: true } satisfies BulkOutcome }, { status: 400 });
  const { action, ids } = parsed.data;
  let done = 0;
  let message: string | null = null;
  for (const id of new Set(ids)) {
    const answer = await context.api({ url: `/api/admin/user/${id}/${action}`, body: {}, locale });
    if (answer.status < 400) done++;
    else message ??= apiErrorsOf(answer.body, locale).formErrors?.[0] ?? null;
  }
  const refused = new Set(ids).size - done;
  return { bulk: { action, done, refused, message } satisfies BulkOutcome };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "admin:users.title", description: "admin:users.description", noIndex: true });

export default function AdminUsersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  return (
    <AdminLayout locale={locale} title={t("users.title")}>
      <UsersList list={loaderData.list} query={loaderData.query} outcome={actionData?.bulk} />
    </AdminLayout>
  );
}
