import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, useRouteError } from "react-router";
import { AdminActivitiesView } from "../../features/activities/components/AdminActivities.tsx";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin-activities";

/** /admin/activities: imports at a glance (GET /api/admin/activities); never an activity's content. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  return context.services.activities.adminOverview();
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "activities:meta.adminTitle",
    description: "activities:meta.adminDescription",
    noIndex: true,
  });

export default function AdminActivitiesPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("activities");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AdminLayout locale={locale} title={t("admin.title")} wide>
      <AdminActivitiesView data={loaderData} locale={locale} />
    </AdminLayout>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("activities");
  if (!isRouteErrorResponse(error) || error.status !== 403) throw error;
  return (
    <section className="mx-auto max-w-xl px-4 py-20 text-center" data-error="forbidden">
      <h1 className="font-bold text-2xl sm:text-3xl">{t("admin.title")}</h1>
      <p className="mt-3 text-ink-700">{t("common:errors.forbidden")}</p>
    </section>
  );
}
