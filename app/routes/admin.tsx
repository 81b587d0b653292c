import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AdminWelcome } from "../../features/accounts/components/AdminWelcome.tsx";
import { AdminDashboard } from "../../features/admin/components/AdminDashboard.tsx";
import { AdminLayout } from "../../features/admin/components/AdminLayout.tsx";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/admin";

/** `/admin`: the dashboard (GET /api/admin/dashboard), with what is left to set up after installation. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  if (context.user.role !== "admin") throw data({ kind: "forbidden" }, { status: 403 });
  const range = new URL(request.url).searchParams.get("range") === "30d" ? ("30d" as const) : ("24h" as const);
  return {
    dashboard: await context.services.admin.dashboard(),
    range,
    setup: context.config.setup ?? null,
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "admin:dashboard.title", description: "admin:dashboard.description", noIndex: true });

export default function AdminDashboardPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const locale = useLocale();
  return (
    <AdminLayout locale={locale} title={t("dashboard.title")} lead={t("dashboard.lead")}>
      <AdminWelcome setup={loaderData.setup} />
      <div className={loaderData.setup ? "mt-6" : undefined}>
        <AdminDashboard data={loaderData.dashboard} locale={locale} range={loaderData.range} />
      </div>
    </AdminLayout>
  );
}
