import { format } from "date-fns";
import { MapPin, Mountain, Navigation } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { dateFnsLocale, formatLongDate, toCalendarDate } from "../../../shared/dates.ts";
import { formatDistance, formatElevation, formatNumber } from "../../../shared/format.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { cx } from "../../../shared/ui/cx.ts";
import { EventCardView } from "../../events/components/EventCard.tsx";
import { EventPicture } from "../../events/components/EventPicture.tsx";
import type { SearchItem } from "../search.contract.ts";
import type { SearchSlots } from "./search-slots.ts";

type Props = {
  items: SearchItem[];
  layout: "grid" | "list";
  locale: Locale;
  /** Full-width page (no filter sidebar): more columns. */
  wide?: boolean;
  /** How many of the first pictures are above the fold (fetched at once, the others lazily). */
  eager?: number;
  /** The heart on each race (engagement), filled by the page. */
  slots?: SearchSlots;
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
      data-testid="away"
      className={cx(
        "inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-ink-900/90 px-2 py-0.5 font-semibold text-white text-xs",
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
export function ResultList({ items, layout, locale, wide = false, eager = 0, slots }: Props) {
  if (layout === "list") {
    return (
      <ul className="space-y-2" data-testid="event-list" data-layout="list">
        {items.map((item, index) => (
          <li key={item.id} {...dataOf(item)}>
            <EventRow item={item} locale={locale} eager={index < eager} slots={slots} />
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
          {slots?.favorite?.(item, "absolute top-2 right-2 z-10")}
        </li>
      ))}
    </ul>
  );
}

/** Courses' distances a row shows (with the elevation, one line on a phone); "+N" says how many more. */
const SHOWN_DISTANCES = { phone: 3, wide: 5 } as const;

function EventRow({
  item,
  locale,
  eager,
  slots,
}: {
  item: SearchItem;
  locale: Locale;
  eager: boolean;
  slots?: SearchSlots;
}) {
  const { t } = useTranslation("events");
  const { t: ts } = useTranslation("sports");
  const date = toCalendarDate(item.startDate);
  const dfLocale = dateFnsLocale(locale);
  const distances = [...new Set(item.distances)];
  return (
    // Phones: the picture beside the name, sport and date; under them, across the card, the place
    // (with the distance from the searched one) beside the heart, then the courses. From 640 px:
    // columns (picture, date, text, heart). No badge ever squeezes the name.
    <article className="relative grid grid-cols-[6rem_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1.5 rounded-lg border border-slate-200 bg-white p-2 shadow-sm transition hover:shadow-md sm:grid-cols-[8rem_3.5rem_minmax(0,1fr)_auto] sm:gap-x-4 sm:gap-y-1 sm:p-3">
      <div className="relative w-24 self-start sm:row-span-3 sm:w-32">
        <EventPicture event={item} eager={eager} className="w-full rounded-md" />
        {item.state !== "upcoming" ? (
          <span className="absolute bottom-1 left-1 rounded-full bg-white px-2 py-0.5 font-semibold text-ink-900 text-xs shadow-sm">
            {t(`state.${item.state}`)}
          </span>
        ) : null}
      </div>
      <time
        dateTime={item.startDate}
        title={formatLongDate(item.startDate, locale)}
        className="hidden flex-col items-center rounded-md bg-brand-50 py-1.5 text-brand-700 leading-tight sm:row-span-3 sm:flex"
      >
        {date ? (
          <>
            <span className="font-semibold text-[11px] uppercase">{format(date, "EEE", { locale: dfLocale })}</span>
            <span className="font-extrabold text-ink-900 text-xl">{format(date, "d")}</span>
            <span className="text-[11px] uppercase">{format(date, "MMM yy", { locale: dfLocale })}</span>
          </>
        ) : null}
      </time>
      <div className="col-span-2 min-w-0 self-start sm:col-span-1 sm:col-start-3 sm:row-start-1">
        {/* Two lines at most, so that every card has one height; the link keeps the whole name. */}
        <h3 className="line-clamp-2 break-words font-bold text-base text-ink-900 leading-snug">
          <Link
            to={pagePath("event", locale, { slug: item.slug })}
            title={item.name}
            className="after:absolute after:inset-0 after:rounded-lg hover:underline"
          >
            {item.name}
          </Link>
        </h3>
        {/* On phones the sport, then the day on a line of its own (the date column shows it from 640 px). */}
        <p className="mt-0.5 flex flex-col text-ink-700 text-sm">
          <span className="font-semibold text-brand-700">{ts(item.sport)}</span>
          {date ? (
            <time dateTime={item.startDate} className="sm:hidden">
              {format(date, "EEE d MMM yyyy", { locale: dfLocale })}
            </time>
          ) : null}
        </p>
      </div>
      <p className="col-span-2 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-ink-700 text-sm sm:col-span-1 sm:col-start-3 sm:row-start-2">
        {item.city ? (
          <span className="flex items-center gap-1">
            <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
            {item.city}
            {item.departmentCode ? ` (${item.departmentCode})` : ""}
          </span>
        ) : null}
        {item.distanceKm !== null ? <DistanceBadge km={item.distanceKm} locale={locale} /> : null}
      </p>
      {slots?.favorite?.(item, "relative z-10 sm:col-start-4 sm:row-span-3 sm:row-start-1")}
      <p className="col-span-3 flex min-w-0 flex-wrap items-center gap-1.5 text-sm sm:col-span-1 sm:col-start-3 sm:row-start-3">
        {distances.slice(0, SHOWN_DISTANCES.wide).map((d, i) => (
          <span
            key={i}
            className={cx(
              "rounded bg-slate-100 px-1.5 py-0.5 font-medium text-ink-900 text-xs",
              i >= SHOWN_DISTANCES.phone && "max-sm:hidden",
            )}
          >
            {formatDistance(d, locale)}
          </span>
        ))}
        {(["phone", "wide"] as const).map((size) => {
          const more = distances.length - SHOWN_DISTANCES[size];
          if (more <= 0) return null;
          return (
            <span
              key={size}
              className={cx("font-medium text-ink-700 text-xs", size === "phone" ? "sm:hidden" : "max-sm:hidden")}
            >
              <span aria-hidden="true">+{more}</span>
              <span className="sr-only">{t("card.more", { count: more })}</span>
            </span>
          );
        })}
        {item.maxElevation ? (
          <span className="flex items-center gap-1 text-ink-700 text-xs">
            <Mountain className="size-3.5" aria-hidden="true" />
            {formatElevation(item.maxElevation, locale)}
          </span>
        ) : null}
      </p>
    </article>
  );
}
