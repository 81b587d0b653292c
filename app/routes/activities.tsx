import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { ACTIVITY_SPORTS, activitiesQuerySchema } from "../../features/activities/activities.contract.ts";
import { ActivitiesList } from "../../features/activities/components/ActivitiesList.tsx";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/activities";

/** /user/activities/{type?}: "activity" (the default) lists every sport, a sport lists that one. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const type = params.type ?? "activity";
  const sport = (ACTIVITY_SPORTS as readonly string[]).includes(type) ? type : undefined;
  if (type !== "activity" && !sport) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const parsed = activitiesQuerySchema.safeParse({ ...Object.fromEntries(url.searchParams), sport });
  const query = parsed.success ? parsed.data : activitiesQuerySchema.parse({ sport });
  return {
    type,
    query,
    list: await context.services.activities.list(context.user, query),
    // Strava is offered only where the site is set up for it (STRAVA_CLIENT_ID).
    stravaAvailable: context.oauthProviders.includes("strava"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "activities:meta.listTitle",
    description: "activities:meta.listDescription",
    noIndex: true,
  });

export default function ActivitiesPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("activities");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("meta.listTitle")}>
      <ActivitiesList
        data={loaderData.list}
        query={loaderData.query}
        type={loaderData.type}
        locale={locale}
        stravaAvailable={loaderData.stravaAvailable}
      />
    </AccountLayout>
  );
}
