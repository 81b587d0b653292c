import { Activity, ArrowRight, Trophy, Users } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { rankingParamsSchema, rankingQuerySchema } from "../../features/community/community.contract.ts";
import { CommunityNav } from "../../features/community/components/CommunityNav.tsx";
import { MemberAvatar } from "../../features/community/components/MemberAvatar.tsx";
import { RankingBoard, type RankingHref } from "../../features/community/components/RankingBoard.tsx";
import { TimelineList } from "../../features/community/components/TimelineList.tsx";
import type { RankingOrder, RankingPeriod } from "../../shared/constants.ts";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/community";

const DEFAULT_PERIOD: RankingPeriod = "1y";
const DEFAULT_ORDER: RankingOrder = "races";
/** Items of the activity and new members shown on the hub. */
const PREVIEW = 6;

/** The query string of a ranking view; the defaults are left out so each view has one URL. */
export function rankingQuery(view: { period: RankingPeriod; order: RankingOrder; page?: number }): string {
  const query = new URLSearchParams();
  if (view.period !== DEFAULT_PERIOD) query.set("period", view.period);
  if (view.order !== DEFAULT_ORDER) query.set("order", view.order);
  if (view.page && view.page > 1) query.set("page", String(view.page));
  const text = query.toString();
  return text ? `?${text}` : "";
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = rankingParamsSchema.safeParse({
    type: url.searchParams.get("period") ?? DEFAULT_PERIOD,
    order: url.searchParams.get("order") ?? DEFAULT_ORDER,
  });
  const page = rankingQuerySchema.safeParse({ page: url.searchParams.get("page") ?? undefined });
  const period = asked.success ? asked.data.type : DEFAULT_PERIOD;
  const order = asked.success ? asked.data.order : DEFAULT_ORDER;
  const viewerId = context.user?.id;
  const { community } = context.services;
  const [ranking, timeline, members] = await Promise.all([
    community.ranking(period, order, { page: page.success ? page.data.page : 1, viewerId }),
    community.timeline("all"),
    community.directory("newest", {}),
  ]);
  return {
    ranking,
    activity: timeline.items.slice(0, PREVIEW),
    members: members.members.slice(0, PREVIEW),
    signedIn: Boolean(context.user),
    filtered: url.search.length > 1,
    locale: localeFromPath(url.pathname),
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "community:hub.metaTitle",
    description: "community:hub.metaDescription",
    // Other periods and orders are variations of the same page: the canonical one is indexed.
    noIndex: Boolean(args.data?.filtered),
  });

export default function CommunityPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("community");
  const { ranking, activity, members, signedIn, locale } = loaderData;
  const base = pagePath("community", locale);
  const href: RankingHref = (view) => `${base}${rankingQuery(view)}#rankings`;
  return (
    <div className="mx-auto w-full max-w-6xl px-3 py-6 sm:px-4 sm:py-10">
      <header>
        <h1 className="font-bold text-3xl text-ink-900">{t("hub.heading")}</h1>
        <p className="mt-2 max-w-2xl text-ink-700">{t("hub.intro")}</p>
        <CommunityNav locale={locale} current="community" />
      </header>

      <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="rankings" className="min-w-0">
          <h2 id="rankings" className="mb-3 flex items-center gap-2 font-semibold text-2xl text-ink-900">
            <Trophy className="h-6 w-6 text-brand-700" aria-hidden="true" />
            {t("rankings.heading")}
          </h2>
          <RankingBoard ranking={ranking} locale={locale} href={href} signedIn={signedIn} />
        </section>

        <div className="flex min-w-0 flex-col gap-8">
          <section aria-labelledby="latest">
            <h2 id="latest" className="mb-3 flex items-center gap-2 font-semibold text-2xl text-ink-900">
              <Activity className="h-6 w-6 text-brand-700" aria-hidden="true" />
              {t("hub.latest")}
            </h2>
            {activity.length ? (
              <TimelineList items={activity} locale={locale} near={null} />
            ) : (
              <p className="rounded-2xl border border-slate-300 border-dashed bg-white p-4 text-ink-700">
                {t("timeline.empty")}
              </p>
            )}
            <Link
              to={pagePath("communityActivity", locale)}
              className="mt-3 inline-flex min-h-11 items-center gap-1 font-semibold text-brand-700 hover:underline"
            >
              {t("hub.seeActivity")}
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          </section>

          <section aria-labelledby="new-members">
            <h2 id="new-members" className="mb-3 flex items-center gap-2 font-semibold text-2xl text-ink-900">
              <Users className="h-6 w-6 text-brand-700" aria-hidden="true" />
              {t("hub.newMembers")}
            </h2>
            {members.length ? (
              <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {members.map((member) => (
                  <li key={member.slug}>
                    <Link
                      to={pagePath("member", locale, { slug: member.slug })}
                      className="flex min-h-11 items-center gap-2 rounded-xl border border-slate-200 bg-white p-2 text-ink-900 text-sm hover:border-brand-600"
                    >
                      <MemberAvatar member={member} size={32} />
                      <span className="min-w-0 truncate font-medium">{member.displayName}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="rounded-2xl border border-slate-300 border-dashed bg-white p-4 text-ink-700">
                {t("directory.emptyAll")}
              </p>
            )}
            <Link
              to={pagePath("communityMembers", locale)}
              className="mt-3 inline-flex min-h-11 items-center gap-1 font-semibold text-brand-700 hover:underline"
            >
              {t("hub.seeMembers")}
              <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          </section>

          <aside className="rounded-2xl bg-brand-50 p-4">
            <h2 className="font-semibold text-ink-900 text-lg">{t("hub.joinTitle")}</h2>
            <p className="mt-1 text-ink-700">{t("hub.join")}</p>
            <Link
              to={pagePath("account", locale)}
              className="mt-3 inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
            >
              {t("hub.joinAction")}
            </Link>
          </aside>
        </div>
      </div>
    </div>
  );
}
