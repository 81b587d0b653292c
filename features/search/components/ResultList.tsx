import { format } from "date-fns";
import { MapPin, Mountain, Navigation } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { dateFnsLocale, formatLongDate, toCalendarDate } from "../../../shared/dates.ts";
import { formatDistance, formatElevation, formatNumber } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { FavoriteButton } from "../../engagement/components/FavoriteButton.tsx";
import { EventCardView } from "../../events/components/EventCard.tsx";
import { EventPicture } from "../../events/components/EventPicture.tsx";
import type { SearchItem } from "../search.contract.ts";

type Props = {
  items: SearchItem[];
  layout: "grid" | "list";
  locale: Locale;
  /** Full-width page (no filter sidebar): more columns. */
  wide?: boolean;
  /** How many of the first pictures are above the fold (fetched at once, the others lazily). */
  eager?: number;
};

/**
 * The pictures' widths (`sizes`) in the layouts below: one column under 640 px, two up to the
 * next breakpoint, three above it (beside the 300 px filter panel from 1024 px on search pages);
 * the page's margins are left out, which errs on the sharp side.
 */
const GRID_SIZES = "(min-width:1280px) 256px,(min-width:1024px) 322px,(min-width:640px) 50vw,100vw";
const WIDE_GRID_SIZES = "(min-width:1024px) 363px,(min-width:640px) 50vw,100vw";

/** "à 12 km" from the searched place. */
function DistanceBadge({ km, locale, className }: { km: number; locale: Locale; className?: string }) {
  const { t } = useTranslation("landing");
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-full bg-ink-900/90 px-2 py-0.5 font-semibold text-white text-xs",
        className,
      )}
    >
      <Navigation className="size-3" aria-hidden="true" />
      {t("results.away", { distance: formatNumber(km, locale, { maximumFractionDigits: km < 10 ? 1 : 0 }) })}
    </span>
  );
}

/** What the journeys check each result against. */
function dataOf(item: SearchItem) {
  return {
    "data-sport": item.sport,
    "data-department": item.departmentCode ?? undefined,
    "data-date": item.startDate,
    "data-end-date": item.endDate,
    "data-distance-km": item.distanceKm ?? undefined,
  };
}

/** The results as cards (grid) or compact rows (list); every race links to its page. */
export function ResultList({ items, layout, locale, wide = false, eager = 0 }: Props) {
  if (layout === "list") {
    return (
      <ul className="space-y-2" data-testid="event-list" data-layout="list">
        {items.map((item, index) => (
          <li key={item.id} {...dataOf(item)}>
            <EventRow item={item} locale={locale} eager={index < eager} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul
      className={cx("grid gap-4 sm:grid-cols-2", wide ? "lg:grid-cols-3" : "xl:grid-cols-3")}
      data-testid="event-list"
      data-layout="grid"
    >
      {items.map((item, index) => (
        <li key={item.id} className="group relative" {...dataOf(item)}>
          <EventCardView
            event={item}
            locale={locale}
            sizes={wide ? WIDE_GRID_SIZES : GRID_SIZES}
            eager={index < eager}
          />
          {item.distanceKm !== null ? (
            <DistanceBadge km={item.distanceKm} locale={locale} className="absolute top-3 right-15 shadow-sm" />
          ) : null}
          {/* The whole card is the link; its name is the race's name. */}
          <Link
            to={pagePath("event", locale, { slug: item.slug })}
            aria-label={item.name}
            className="absolute inset-0 rounded-xl group-hover:ring-2 group-hover:ring-brand-500/40"
          />
          <FavoriteButton eventId={item.id} name={item.name} className="absolute top-2 right-2 z-10" />
        </li>
      ))}
    </ul>
  );
}

function EventRow({ item, locale, eager }: { item: SearchItem; locale: Locale; eager: boolean }) {
  const { t } = useTranslation("events");
  const { t: ts } = useTranslation("sports");
  const date = toCalendarDate(item.startDate);
  const dfLocale = dateFnsLocale(locale);
  const distances = [...new Set(item.distances)];
  return (
    <article className="relative flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2 shadow-sm transition hover:shadow-md sm:gap-4 sm:p-3">
      <EventPicture event={item} eager={eager} className="w-24 shrink-0 rounded-md sm:w-32" />
      <time
        dateTime={item.startDate}
        title={formatLongDate(item.startDate, locale)}
        className="hidden w-14 shrink-0 flex-col items-center rounded-md bg-brand-50 py-1.5 text-brand-700 leading-tight sm:flex"
      >
        {date ? (
          <>
            <span className="font-semibold text-[11px] uppercase">{format(date, "EEE", { locale: dfLocale })}</span>
            <span className="font-extrabold text-ink-900 text-xl">{format(date, "d")}</span>
            <span className="text-[11px] uppercase">{format(date, "MMM yy", { locale: dfLocale })}</span>
          </>
        ) : null}
      </time>
      <div className="min-w-0 flex-1">
        <h3 className="break-words font-bold text-base text-ink-900 leading-snug">
          <Link
            to={pagePath("event", locale, { slug: item.slug })}
            className="after:absolute after:inset-0 after:rounded-lg hover:underline"
          >
            {item.name}
          </Link>
        </h3>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-ink-700 text-sm">
          <span className="font-semibold text-brand-700">{ts(item.sport)}</span>
          {date ? (
            <time dateTime={item.startDate} className="sm:hidden">
              {format(date, "EEE d MMM yyyy", { locale: dfLocale })}
            </time>
          ) : null}
          {item.city ? (
            <span className="flex items-center gap-1">
              <MapPin className="size-3.5" aria-hidden="true" />
              {item.city}
              {item.departmentCode ? ` (${item.departmentCode})` : ""}
            </span>
          ) : null}
          {item.state !== "upcoming" ? (
            <span className="rounded-full bg-slate-200 px-2 py-0.5 font-semibold text-ink-900 text-xs">
              {t(`state.${item.state}`)}
            </span>
          ) : null}
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-1.5 text-sm">
          {distances.slice(0, 5).map((d, i) => (
            <span key={i} className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-ink-900 text-xs">
              {formatDistance(d, locale)}
            </span>
          ))}
          {item.maxElevation ? (
            <span className="flex items-center gap-1 text-ink-700 text-xs">
              <Mountain className="size-3.5" aria-hidden="true" />
              {formatElevation(item.maxElevation, locale)}
            </span>
          ) : null}
        </p>
      </div>
      {item.distanceKm !== null ? <DistanceBadge km={item.distanceKm} locale={locale} /> : null}
      <FavoriteButton eventId={item.id} name={item.name} className="relative z-10 shrink-0" />
    </article>
  );
}
