import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { PlanningView } from "../../features/engagement/components/PlanningView.tsx";
import { parisToday } from "../../shared/zoned-time.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/planning";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const [calendar, feedUrl] = await Promise.all([
    context.services.engagement.calendar(context.user.id),
    context.services.engagement.calendarFeedUrl(context.user.id),
  ]);
  return { calendar, feedUrl, today: parisToday() };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "engagement:planning.title",
    description: "engagement:planning.description",
    noIndex: true,
  });

export default function PlanningPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("engagement");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("planning.title")} wide>
      <PlanningView data={loaderData.calendar} feedUrl={loaderData.feedUrl} locale={locale} today={loaderData.today} />
    </AccountLayout>
  );
}
