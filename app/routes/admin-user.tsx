import { ArrowLeft } from "lucide-react";
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { z } from "zod";
import { type Outcome, OutcomeNotice } from "../../features/accounts/components/admin/OutcomeNotice.tsx";
import { USER_INTENTS, UserActions } from "../../features/accounts/components/admin/UserActions.tsx";
import { MemberBadges, UserDetail } from "../../features/accounts/components/admin/UserDetail.tsx";
import { memberName } from "../../features/accounts/components/admin/user-format.ts";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { USER_ROLES } from "../../features/identity/identity.contract.ts";
import { apiErrorMessage, isApiError } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { idParam } from "../../shared/input.ts";
import { apiErrorsOf } from "../../shared/ui/form/submission.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-user";

/** /admin/utilisateurs/{id}: one member (GET /api/admin/user/{id}) and the actions on them. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data({ kind: "item" }, { status: 404 });
  try {
    const detail = await context.services.accounts.userDetail(id.data);
    return { detail, self: detail.user.id === context.user.id };
  } catch (error) {
    if (isApiError(error) && error.code === "ITEM_NOT_FOUND") throw data({ kind: "item" }, { status: 404 });
    throw error;
  }
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("role"), role: z.enum(USER_ROLES) }),
  z.object({ intent: z.enum(USER_INTENTS.filter((i) => i !== "role" && i !== "delete")) }),
  z.object({ intent: z.literal("delete"), confirm: z.literal("yes") }),
]);

export type UserActionResult =
  | { intent: "role"; ok: true; role: (typeof USER_ROLES)[number] }
  | { intent: "disable" | "enable"; ok: true }
  | { intent: "delete"; ok: true; keptResults: number; keptOrders: number }
  | { ok: false; message: string };

/**
 * The page's forms, with or without JavaScript: each intent is the same call to the JSON API as
 * the admin's own (role, disable, enable, DELETE), answered with what happened or the API's message.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const locale = localeFromPath(new URL(request.url).pathname);
  const form = Object.fromEntries(await request.formData());
  const parsed = intentSchema.safeParse(form);
  const id = idParam.safeParse(params.id);
  if (!parsed.success || !id.success) {
    return data({ ok: false, message: apiErrorMessage("BAD_REQUEST", locale) } satisfies UserActionResult, {
      status: 400,
    });
  }
  const input = parsed.data;
  const url = `/api/admin/user/${id.data}`;
  const answer =
    input.intent === "delete"
      ? await context.api({ url, body: null, locale, method: "DELETE" })
      : await context.api({
          url: `${url}/${input.intent}`,
          body: input.intent === "role" ? { role: input.role } : {},
          locale,
        });
  if (answer.status >= 400) {
    const message = apiErrorsOf(answer.body, locale).formErrors?.[0] ?? "";
    return data({ ok: false, message } satisfies UserActionResult, { status: answer.status });
  }
  if (input.intent === "role") return { intent: "role", ok: true, role: input.role } satisfies UserActionResult;
  if (input.intent === "delete") {
    const kept = answer.body as { keptResults: number; keptOrders: number };
    return {
      intent: "delete",
      ok: true,
      keptResults: kept.keptResults,
      keptOrders: kept.keptOrders,
    } satisfies UserActionResult;
  }
  return { intent: input.intent, ok: true } satisfies UserActionResult;
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "admin:users.detail.title",
    description: "admin:users.detail.description",
    values: { name: args.data?.detail.user.displayName || args.data?.detail.user.email || "" },
    noIndex: true,
  });

function outcomeOf(
  result: UserActionResult | undefined,
  t: (key: string, values?: Record<string, unknown>) => string,
): Outcome | null {
  if (!result) return null;
  if (!result.ok) return { tone: "error", text: result.message };
  switch (result.intent) {
    case "role":
      return { tone: "success", text: t("users.actions.roleChanged", { role: t(`users.roles.${result.role}`) }) };
    case "disable":
      return { tone: "success", text: t("users.actions.disabled") };
    case "enable":
      return { tone: "success", text: t("users.actions.enabled") };
    case "delete":
      return {
        tone: "success",
        text: [
          t("users.actions.deleted"),
          t("users.actions.deletedResults", { count: result.keptResults }),
          t("users.actions.deletedOrders", { count: result.keptOrders }),
        ].join(" "),
      };
  }
}

export default function AdminUserPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  const { detail, self } = loaderData;
  const { user } = detail;
  return (
    <AdminLayout
      locale={locale}
      title={memberName(user, t)}
      lead={
        <span className="mt-2 flex flex-col gap-3">
          <Link
            to={pagePath("adminUsers", locale)}
            className="inline-flex items-center gap-1 text-brand-700 text-sm underline-offset-2 hover:underline"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t("users.detail.back")}
          </Link>
          <MemberBadges user={user} />
        </span>
      }
    >
      <OutcomeNotice outcome={outcomeOf(actionData as UserActionResult | undefined, t)} />
      <div className="grid gap-5 xl:grid-cols-[minmax(0,1fr)_18rem] xl:items-start">
        {/* The actions come first on a phone (the page is for acting), beside the profile on a wide screen. */}
        <div className="xl:order-2">
          <UserActions user={user} self={self} />
        </div>
        <div className="min-w-0 xl:order-1">
          <UserDetail detail={detail} />
        </div>
      </div>
    </AdminLayout>
  );
}
