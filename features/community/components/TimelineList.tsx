import { Award, CalendarCheck, Flag, MapPin, MessageSquare, Star } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { formatDistance, formatRaceTime } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { badgeDefinition } from "../../badges/badge-rules.ts";
import type { TimelineItem, TimelineKind } from "../community.contract.ts";
import { MemberAvatar } from "./MemberAvatar.tsx";

const ICONS: Record<TimelineKind, typeof Flag> = {
  result: Flag,
  planning: CalendarCheck,
  rating: Star,
  comment: MessageSquare,
  badge: Award,
  event: MapPin,
};

const DATE_FORMAT = {
  fr: new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" }),
  en: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" }),
};
const DAY_FORMAT = {
  fr: new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
  en: new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }),
};

function Detail({ item, locale }: { item: TimelineItem; locale: Locale }) {
  const { t } = useTranslation("community");
  const parts: string[] = [];
  if (item.course && item.kind !== "badge") parts.push(item.course);
  if (item.kind === "result") {
    if (item.timeMs) parts.push(t("timeline.time", { time: formatRaceTime(Math.round(item.timeMs / 1000)) }));
    if (item.rank) parts.push(t("timeline.rank", { rank: item.rank }));
  }
  if (item.kind === "rating" && item.score) parts.push(t("timeline.score", { score: item.score }));
  if (item.kind === "badge" && item.badge) {
    const badge = badgeDefinition(item.badge);
    if (badge) parts.push(t("timeline.badgeName", { name: locale === "fr" ? badge.fr : badge.en }));
  }
  if (item.kind === "event" && item.distance !== null) {
    parts.push(t("timeline.away", { distance: formatDistance(item.distance, locale, { maximumFractionDigits: 0 }) }));
  }
  if (item.kind === "planning" || item.kind === "event") {
    parts.push(DAY_FORMAT[locale].format(new Date(`${item.event.startDate}T00:00:00Z`)));
  }
  return (
    <>
      {parts.length > 0 && <p className="text-ink-700 text-sm">{parts.join(" · ")}</p>}
      {item.excerpt && (
        <blockquote className="mt-1 border-slate-200 border-l-2 pl-2 text-ink-700 text-sm italic">
          {item.excerpt}
        </blockquote>
      )}
    </>
  );
}

/** The community's activity: one line per item, the member and the event as links. */
export function TimelineList({ items, locale, near }: { items: TimelineItem[]; locale: Locale; near: string | null }) {
  const { t } = useTranslation("community");
  return (
    <ol className="flex flex-col gap-2" data-testid="timeline">
      {items.map((item) => {
        const Icon = ICONS[item.kind];
        const event = (
          <Link
            to={pagePath("event", locale, { slug: item.event.slug })}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            {item.event.name}
          </Link>
        );
        return (
          <li
            key={`${item.kind}-${item.id}`}
            className="flex gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
            data-kind={item.kind}
          >
            {item.member ? (
              <Link to={pagePath("member", locale, { slug: item.member.slug })} tabIndex={-1} aria-hidden="true">
                <MemberAvatar member={item.member} size={40} />
              </Link>
            ) : (
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
                <Icon className="h-5 w-5" aria-hidden="true" />
              </span>
            )}
            <div className="min-w-0 flex-1">
              <p className="text-ink-900 [overflow-wrap:anywhere]">
                {item.member ? (
                  <>
                    <Link
                      to={pagePath("member", locale, { slug: item.member.slug })}
                      className="font-semibold text-ink-900 hover:text-brand-700"
                    >
                      {item.member.displayName}
                    </Link>{" "}
                    {t(`timeline.actions.${item.kind}`)} {event}
                  </>
                ) : (
                  <>
                    {t("timeline.actions.event", { town: near ?? "" })} {event}
                  </>
                )}
              </p>
              <Detail item={item} locale={locale} />
              <p className="mt-1 flex items-center gap-1 text-ink-500 text-xs">
                {item.member && <Icon className="h-3.5 w-3.5" aria-hidden="true" />}
                <time dateTime={item.at}>{DATE_FORMAT[locale].format(new Date(item.at))}</time>
              </p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
