import { Calendar, ChevronRight, MapPin } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { headerPicture, isGeneratedImage } from "../../illustrations/event-images.ts";
import { sportArtUrl } from "../../illustrations/sport-art-urls.ts";
import type { EventDetail } from "../event-detail.contract.ts";
import { formatLongDateRange } from "./event-format.ts";
import { StatusBadge } from "./StatusBadge.tsx";

export type Crumb = { name: string; href: string };

/**
 * Header photo, breadcrumb, sport, status, name, date and place. The photo shows whole; a dark
 * gradient lies only under the breadcrumb and under the text. Without a header photo: the
 * landscape of a demo event, else the sport's picture.
 */
export function EventHero({ event, locale, crumbs }: { event: EventDetail; locale: Locale; crumbs: Crumb[] }) {
  const { t } = useTranslation("event");
  const { t: ts } = useTranslation("sports");
  const { place } = event;
  const where = [place.city, place.department && `(${place.department.code})`].filter(Boolean).join(" ");
  const photo =
    headerPicture(event.headerImage) ?? (isGeneratedImage(event.coverImage) ? headerPicture(event.coverImage) : null);
  // A photo the organiser chose is described; a drawn landscape or the sport's picture is decoration.
  const described = event.headerImage !== null && !isGeneratedImage(event.headerImage);
  return (
    <header className="relative isolate overflow-hidden bg-ink-900 text-white">
      <img
        src={photo?.src ?? sportArtUrl(event.sport.key)}
        srcSet={photo?.srcSet}
        sizes={photo?.srcSet ? "100vw" : undefined}
        alt={described ? t("hero.photo", { name: event.name }) : ""}
        className="-z-10 absolute inset-0 h-full w-full object-cover"
        fetchPriority="high"
        decoding="async"
        data-picture={photo ? "photo" : "sport"}
      />
      <div className="-z-10 absolute inset-x-0 top-0 h-20 bg-gradient-to-b from-ink-900/70 to-transparent" />
      <div className="-z-10 absolute inset-x-0 bottom-0 h-[78%] bg-gradient-to-t from-ink-900/95 via-ink-900/75 to-transparent sm:h-[68%]" />
      <div className="mx-auto flex min-h-[17rem] max-w-6xl flex-col justify-end px-4 pt-4 pb-6 sm:min-h-[25rem] sm:pb-8">
        <nav aria-label={t("breadcrumb.label")} className="mb-auto pb-6">
          <ol className="flex flex-wrap items-center gap-1 text-slate-200 text-xs sm:text-sm">
            {crumbs.map((crumb) => (
              <li key={crumb.href} className="flex items-center gap-1">
                <Link to={crumb.href} className="rounded hover:text-white hover:underline">
                  {crumb.name}
                </Link>
                <ChevronRight className="h-3.5 w-3.5 text-slate-400" aria-hidden="true" />
              </li>
            ))}
            <li aria-current="page" className="max-w-[12rem] truncate text-white sm:max-w-none">
              {event.name}
            </li>
          </ol>
        </nav>
        <div className="flex flex-wrap items-center gap-2">
          <span className="rounded-full bg-brand-700 px-2.5 py-0.5 font-semibold text-white text-xs">
            {ts(event.sport.key)}
          </span>
          <StatusBadge state={event.state} />
          {event.postponed && event.originalDate && (
            <span className="text-slate-200 text-xs">
              {t("status.postponedFrom", { date: formatLongDate(event.originalDate, locale) })}
            </span>
          )}
        </div>
        <h1 className="mt-3 max-w-4xl font-extrabold text-3xl leading-tight tracking-tight sm:text-4xl lg:text-5xl">
          {event.name}
        </h1>
        <p className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-1.5 text-base text-slate-100 sm:text-lg">
          <span className="flex items-center gap-2">
            <Calendar className="h-5 w-5 shrink-0 text-brand-100" aria-hidden="true" />
            <time dateTime={event.startDate} className="first-letter:uppercase">
              {formatLongDateRange(event.startDate, event.endDate, locale)}
            </time>
          </span>
          {where && (
            <span className="flex items-center gap-2">
              <MapPin className="h-5 w-5 shrink-0 text-brand-100" aria-hidden="true" />
              {where}
            </span>
          )}
        </p>
      </div>
    </header>
  );
}
