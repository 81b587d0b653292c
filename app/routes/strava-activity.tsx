import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { StravaPanel } from "../../features/activities/components/StravaPanel.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/strava-activity";

/** /user/activity/strava: the member's Strava connection for activities. */
export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const url = new URL(request.url);
  const error = url.searchParams.get("error");
  return {
    status: await context.services.activities.status(context.user),
    notice: {
      connected: url.searchParams.get("connected") === "1",
      // Only catalogue-shaped codes are shown (the page translates them).
      error: error && /^[A-Z_]{3,40}$/.test(error) ? error : null,
    },
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "activities:meta.stravaTitle",
    description: "activities:meta.stravaDescription",
    noIndex: true,
  });

export default function StravaActivityPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("activities");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("meta.listTitle")}>
      <StravaPanel initial={loaderData.status} locale={locale} notice={loaderData.notice} />
    </AccountLayout>
  );
}
