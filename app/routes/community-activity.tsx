import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  TIMELINE_TYPES,
  type TimelineType,
  timelineParamsSchema,
  timelineQuerySchema,
} from "../../features/community/community.contract.ts";
import { CommunityNav } from "../../features/community/components/CommunityNav.tsx";
import { TimelineList } from "../../features/community/components/TimelineList.tsx";
import { localeFromPath } from "../../shared/i18n/index.ts";
import { loginHref, pagePath } from "../../shared/i18n/pages.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/community-activity";

const activityHref = (base: string, type: TimelineType, cursor?: string | null) => {
  const query = new URLSearchParams();
  if (type !== "all") query.set("type", type);
  if (cursor) query.set("cursor", cursor);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const asked = timelineParamsSchema.safeParse({ type: url.searchParams.get("type") ?? "all" });
  const cursor = timelineQuerySchema.safeParse({ cursor: url.searchParams.get("cursor") ?? undefined });
  const type = asked.success ? asked.data.type : "all";
  const timeline = await context.services.community.timeline(type, {
    cursor: cursor.success ? cursor.data.cursor : undefined,
    viewerId: context.user?.id,
  });
  return {
    timeline,
    signedIn: Boolean(context.user),
    paged: Boolean(cursor.success && cursor.data.cursor),
    filtered: url.search.length > 1,
    locale: localeFromPath(url.pathname),
    path: url.pathname,
  };
}

export const meta: Route.MetaFunction = (args) =>
  routeMeta(args, {
    title: "community:timeline.metaTitle",
    description: "community:timeline.metaDescription",
    noIndex: Boolean(args.data?.filtered),
  });

const CHIP =
  "inline-flex min-h-11 shrink-0 items-center whitespace-nowrap rounded-full border px-3 py-1.5 font-medium text-sm";

export default function CommunityActivityPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("community");
  const { timeline, signedIn, paged, locale, path } = loaderData;
  const base = pagePath("communityActivity", locale);
  const eventsHint =
    timeline.type === "events" && timeline.items.length === 0
      ? !signedIn
        ? "signIn"
        : timeline.near
          ? "emptyEvents"
          : "noTown"
      : null;
  return (
    <div className="mx-auto w-full max-w-3xl px-3 py-6 sm:px-4 sm:py-10">
      <header>
        <h1 className="font-bold text-3xl text-ink-900">{t("timeline.heading")}</h1>
        <CommunityNav locale={locale} current="communityActivity" />
      </header>
      <nav
        aria-label={t("timeline.filter")}
        className="-mx-3 mt-4 flex gap-2 overflow-x-auto px-3 pb-1 sm:mx-0 sm:flex-wrap sm:px-0"
      >
        {TIMELINE_TYPES.map((type) => (
          <Link
            key={type}
            to={activityHref(base, type)}
            aria-current={type === timeline.type ? "page" : undefined}
            className={
              type === timeline.type
                ? `${CHIP} border-brand-700 bg-brand-700 text-white`
                : `${CHIP} border-slate-300 bg-white text-ink-700 hover:border-brand-600 hover:text-ink-900`
            }
          >
            {t(`timeline.types.${type}`)}
          </Link>
        ))}
      </nav>

      <div className="mt-5">
        {timeline.items.length > 0 ? (
          <TimelineList items={timeline.items} locale={locale} near={timeline.near} />
        ) : (
          <div className="rounded-2xl border border-slate-300 border-dashed bg-white p-5 text-center">
            <p className="text-ink-700">{t(`timeline.${eventsHint ?? "empty"}`)}</p>
            {eventsHint === "signIn" ? (
              <Link
                to={loginHref(locale, `${path}?type=events`)}
                className="mt-3 inline-flex min-h-11 items-center font-semibold text-brand-700 underline"
              >
                {t("timeline.types.events")}
              </Link>
            ) : eventsHint === "noTown" ? (
              <Link
                to={pagePath("account", locale)}
                className="mt-3 inline-flex min-h-11 items-center font-semibold text-brand-700 underline"
              >
                {t("hub.joinAction")}
              </Link>
            ) : (
              <Link
                to={pagePath("home", locale)}
                className="mt-3 inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
              >
                {t("rankings.findRace")}
              </Link>
            )}
          </div>
        )}
      </div>

      <div className="mt-4 flex flex-wrap justify-between gap-3">
        {paged && (
          <Link
            to={activityHref(base, timeline.type)}
            className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
          >
            {t("timeline.backToStart")}
          </Link>
        )}
        {timeline.next && (
          <Link
            to={activityHref(base, timeline.type, timeline.next)}
            className="ml-auto inline-flex min-h-11 items-center rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-ink-900 hover:border-brand-600"
            data-testid="timeline-more"
          >
            {t("timeline.more")}
          </Link>
        )}
      </div>
    </div>
  );
}
