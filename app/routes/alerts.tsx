import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { AlertsPanel } from "../../features/alerts/components/AlertsPanel.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/alerts";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  return { alerts: await context.services.alerts.list(context.user.id) };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "account:alerts.title", description: "account:alerts.description", noIndex: true });

export default function AlertsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("account");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("alerts.title")}>
      <AlertsPanel initial={loaderData.alerts} locale={locale} />
    </AccountLayout>
  );
}
