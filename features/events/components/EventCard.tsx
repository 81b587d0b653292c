import { Calendar, MapPin, Mountain } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Locale } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { formatDistance, formatElevation } from "../../../shared/format.ts";
import type { EventCard } from "../events.contract.ts";
import { EventPicture } from "./EventPicture.tsx";

const STATE_STYLE: Record<EventCard["state"], string> = {
  cancelled: "bg-red-100 text-red-800",
  postponed: "bg-amber-100 text-amber-900",
  finished: "bg-slate-200 text-slate-800",
  in_progress: "bg-emerald-100 text-emerald-900",
  upcoming: "bg-sky-100 text-sky-900",
};

export function EventCardView({
  event,
  locale,
  sizes,
  eager = false,
}: {
  event: EventCard;
  locale: Locale;
  /** The picture's `sizes` attribute (its width at each screen width). */
  sizes: string;
  /** The picture is above the fold. */
  eager?: boolean;
}) {
  const { t } = useTranslation("events");
  const { t: ts } = useTranslation("sports");
  // A relay over the same distance as the solo race shows once.
  const distances = [...new Set(event.distances)];
  const shown = distances.slice(0, 4);
  const more = distances.length - shown.length + event.durations.length;
  return (
    <article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:shadow-md">
      <EventPicture event={event} sizes={sizes} eager={eager} />
      <p className="absolute top-3 left-3 flex gap-1.5 font-semibold text-xs">
        <span className="rounded-full bg-white px-2 py-0.5 text-brand-700 shadow-sm">{ts(event.sport)}</span>
        {event.state !== "upcoming" && (
          <span className={`rounded-full px-2 py-0.5 shadow-sm ${STATE_STYLE[event.state]}`}>
            {t(`state.${event.state}`)}
          </span>
        )}
      </p>
      <div className="flex flex-1 flex-col p-4 pt-3">
        <h3 className="font-bold text-ink-900 text-lg leading-snug">{event.name}</h3>
        <p className="mt-2 flex items-center gap-1.5 text-ink-700 text-sm">
          <Calendar className="h-4 w-4 shrink-0" aria-hidden="true" />
          <time dateTime={event.startDate}>{formatLongDate(event.startDate, locale)}</time>
        </p>
        {event.city && (
          <p className="mt-1 flex items-center gap-1.5 text-ink-700 text-sm">
            <MapPin className="h-4 w-4 shrink-0" aria-hidden="true" />
            <span>
              {event.city}
              {event.departmentCode && ` (${event.departmentCode})`}
            </span>
          </p>
        )}
        <div className="mt-auto flex flex-wrap items-center gap-1.5 pt-3 text-sm">
          {shown.map((d, i) => (
            <span key={i} className="rounded-md bg-slate-100 px-2 py-0.5 font-medium text-ink-900">
              {formatDistance(d, locale)}
            </span>
          ))}
          {more > 0 && <span className="text-ink-500 text-xs">{t("card.more", { count: more })}</span>}
          {event.maxElevation ? (
            <span className="ml-auto flex items-center gap-1 text-ink-700">
              <Mountain className="h-4 w-4" aria-hidden="true" />
              {formatElevation(event.maxElevation, locale)}
            </span>
          ) : null}
        </div>
      </div>
    </article>
  );
}
