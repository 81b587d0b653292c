import { CalendarDays, ExternalLink, MapPin, MessageSquareMore, Pencil, Plus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatPageDate } from "../../../shared/dates.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { PRIMARY_BUTTON } from "../../../shared/ui/fields.tsx";
import { LINK_BUTTON } from "./controls.tsx";
import { StatusBadges } from "./StatusBadges.tsx";

export type MyEvent = {
  id: number;
  slug: string;
  name: string;
  startDate: string;
  city: string | null;
  status: string;
  checkStatus: string;
  cancelled: boolean;
  postponed: boolean;
  role: "owner" | "organizer";
  pendingRequests: number;
};

/** The member's events: status in words and icons, pending proposals, links to edit and to the page. */
export function MyEventsList({ events, locale }: { events: readonly MyEvent[]; locale: "fr" | "en" }) {
  const { t } = useTranslation("editor");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-ink-700">{t("myEvents.lead")}</p>
        <Link to={pagePath("eventNew", locale)} className={PRIMARY_BUTTON} data-testid="new-event">
          <Plus className="h-4 w-4" aria-hidden="true" />
          {t("myEvents.add")}
        </Link>
      </div>
      {events.length === 0 ? (
        <p className="rounded-xl border border-slate-300 border-dashed bg-white p-6 text-center text-ink-700">
          {t("myEvents.empty")}
        </p>
      ) : (
        <ul className="space-y-3" aria-label={t("myEvents.listLabel")}>
          {events.map((event) => (
            <li
              key={event.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="my-event"
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 className="min-w-0 font-bold text-ink-900 text-lg">{event.name}</h2>
                <span className="text-ink-500 text-xs">
                  {event.role === "owner" ? t("myEvents.roleOwner") : t("myEvents.roleOrganizer")}
                </span>
              </div>
              <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-ink-700 text-sm">
                <span className="inline-flex items-center gap-1">
                  <CalendarDays className="h-4 w-4" aria-hidden="true" />
                  {formatPageDate(event.startDate, locale)}
                </span>
                {event.city ? (
                  <span className="inline-flex items-center gap-1">
                    <MapPin className="h-4 w-4" aria-hidden="true" />
                    {event.city}
                  </span>
                ) : null}
              </p>
              <div className="mt-2">
                <StatusBadges event={event} />
              </div>
              {event.status === "pending" ? <p className="mt-2 text-ink-700 text-sm">{t("editor.pending")}</p> : null}
              {event.pendingRequests > 0 ? (
                <p className="mt-2 inline-flex items-center gap-1 font-medium text-ink-900 text-sm">
                  <MessageSquareMore className="h-4 w-4" aria-hidden="true" />
                  {t("myEvents.requests", { count: event.pendingRequests })}
                </p>
              ) : null}
              <div className="mt-3 flex flex-wrap gap-2 border-slate-100 border-t pt-3">
                <Link to={pagePath("eventEdit", locale, { id: event.id })} className={LINK_BUTTON}>
                  <Pencil className="h-4 w-4" aria-hidden="true" />
                  {t("myEvents.edit")}
                  <span className="sr-only"> {event.name}</span>
                </Link>
                {event.status === "active" ? (
                  <Link to={pagePath("event", locale, { slug: event.slug })} className={LINK_BUTTON}>
                    <ExternalLink className="h-4 w-4" aria-hidden="true" />
                    {t("myEvents.view")}
                    <span className="sr-only"> {event.name}</span>
                  </Link>
                ) : (
                  <span className="px-2 py-1.5 text-ink-500 text-sm">{t("myEvents.notPublic")}</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
