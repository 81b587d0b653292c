import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { ActivityView } from "../../features/activities/components/ActivityView.tsx";
import { isApiError } from "../../shared/api-error.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { idParam } from "../../shared/input.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/activity";

/** /user/activity/{id?}/{action?}: one of the member's activities (without id: the list). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (!params.id) throw redirect(pagePath("activities", localeFromPath(new URL(request.url).pathname)));
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  try {
    return { activity: await context.services.activities.detail(context.user, id.data) };
  } catch (error) {
    // Someone else's activity is as absent as one that does not exist.
    if (isApiError(error) && error.code === "ITEM_NOT_FOUND") throw data(null, { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "activities:meta.activityTitle",
    description: "activities:meta.listDescription",
    noIndex: true,
  });

export default function ActivityPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("activities");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("meta.listTitle")}>
      <ActivityView initial={loaderData.activity} locale={locale} />
    </AccountLayout>
  );
}
