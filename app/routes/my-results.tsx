import { useTranslation } from "react-i18next";
import { AccountLayout } from "../../features/accounts/components/AccountLayout.tsx";
import { BadgeGrid, BestTimes, StatsFigures } from "../../features/badges/components/Achievements.tsx";
import { MyResults } from "../../features/results/components/MyResults.tsx";
import { idParam } from "../../shared/input.ts";
import { loginRedirect } from "../auth-guard.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/my-results";

export async function loader({ context, request }: Route.LoaderArgs) {
  if (!context.user) throw loginRedirect(request);
  const userId = context.user.id;
  const course = idParam.safeParse(new URL(request.url).searchParams.get("course") ?? "");
  const openCourse = course.success ? course.data : null;
  const [results, recordable, claims, badges, stats, me] = await Promise.all([
    context.services.results.memberResults(userId),
    context.services.results.recordable(userId, openCourse ?? undefined),
    context.services.resultClaims.ofMember(userId),
    context.services.badges.ofMember(userId),
    context.services.badges.stats(userId),
    context.services.accounts.me(userId),
  ]);
  return {
    results,
    recordable,
    claims,
    badges,
    stats,
    openCourse,
    best: { best10k: me.best10k, bestHalf: me.bestHalf, bestMarathon: me.bestMarathon },
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, { title: "results:account.title", description: "results:account.description", noIndex: true });

export default function MyResultsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("results");
  const locale = i18n.language === "en" ? "en" : "fr";
  return (
    <AccountLayout locale={locale} title={t("account.title")}>
      <div className="space-y-6">
        <StatsFigures stats={loaderData.stats} locale={locale} />
        <MyResults
          results={loaderData.results}
          recordable={loaderData.recordable}
          claims={loaderData.claims}
          openCourse={loaderData.openCourse}
          locale={locale}
        />
        <BestTimes best={loaderData.best} />
        <BadgeGrid badges={loaderData.badges} locale={locale} />
      </div>
    </AccountLayout>
  );
}
