import { Calendar, MapPin } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatDistance } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { EventPicture } from "../../events/components/EventPicture.tsx";
import type { EventCard } from "../../events/events.contract.ts";
import type { SearchSlots } from "./search-slots.ts";

export type HomeGroup = {
  key: "this_weekend" | "new";
  events: EventCard[];
  /** The search page showing the whole group, when there is one. */
  href?: string;
};

/** The rows' cards are 256 px wide (w-64). */
const CARD_SIZES = "256px";
/** Cards of the first row that a wide screen shows without scrolling: their pictures load at once. */
const EAGER_CARDS = 3;

/** Strips of races on the unfiltered home page: this weekend, newly listed. */
export function HomeGroups({ groups, locale, slots }: { groups: HomeGroup[]; locale: Locale; slots?: SearchSlots }) {
  const { t } = useTranslation("landing");
  const shown = groups.filter((group) => group.events.length > 0);
  if (shown.length === 0) return null;
  return (
    <div className="mb-8 space-y-6">
      {shown.map((group, row) => (
        <section key={group.key} aria-labelledby={`group-${group.key}`} data-testid={`group-${group.key}`}>
          <div className="mb-2 flex items-baseline justify-between gap-3">
            <h2 id={`group-${group.key}`} className="font-bold text-base text-ink-900 sm:text-lg">
              {t(`groups.${group.key}`)}
            </h2>
            {group.href ? (
              <Link to={group.href} className="font-semibold text-brand-700 text-sm hover:underline">
                {t("groups.seeAll")}
              </Link>
            ) : null}
          </div>
          <ul className="-mx-4 flex snap-x scroll-px-4 gap-3 overflow-x-auto px-4 pb-2 lg:mx-0 lg:scroll-px-0 lg:px-0">
            {group.events.map((event, index) => (
              <li key={event.id} className="w-64 shrink-0 snap-start">
                <RowCard event={event} locale={locale} eager={row === 0 && index < EAGER_CARDS} slots={slots} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** A race in a row: picture, sport, name, date, place, distances. */
function RowCard({
  event,
  locale,
  eager,
  slots,
}: {
  event: EventCard;
  locale: Locale;
  eager: boolean;
  slots?: SearchSlots;
}) {
  const { t: ts } = useTranslation("sports");
  const distances = [...new Set(event.distances)].slice(0, 3);
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm hover:shadow-md">
      <EventPicture event={event} sizes={CARD_SIZES} eager={eager} />
      <div className="flex flex-1 flex-col p-3 pt-2">
        <p className="font-semibold text-brand-700 text-xs">{ts(event.sport)}</p>
        <h3 className="mt-0.5 line-clamp-2 font-bold text-ink-900 text-sm leading-snug">
          <Link
            to={pagePath("event", locale, { slug: event.slug })}
            className="after:absolute after:inset-0 hover:underline"
          >
            {event.name}
          </Link>
        </h3>
        <p className="mt-1.5 flex items-center gap-1 text-ink-700 text-xs">
          <Calendar className="size-3.5 shrink-0" aria-hidden="true" />
          <time dateTime={event.startDate}>{formatLongDate(event.startDate, locale)}</time>
        </p>
        {event.city ? (
          <p className="mt-0.5 flex items-center gap-1 text-ink-700 text-xs">
            <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
            <span className="truncate">
              {event.city}
              {event.departmentCode ? ` (${event.departmentCode})` : ""}
            </span>
          </p>
        ) : null}
        {distances.length > 0 ? (
          <p className="mt-auto pt-1.5 font-semibold text-ink-900 text-xs">
            {distances.map((d) => formatDistance(d, locale)).join(" · ")}
          </p>
        ) : null}
      </div>
      {slots?.favorite?.(event, "absolute top-2 right-2 z-10")}
    </article>
  );
}
