import {
  Award,
  Calendar,
  CircleCheck,
  CircleHelp,
  Droplets,
  ExternalLink,
  Globe,
  type LucideIcon,
  MapPin,
  Radio,
  Shirt,
  ShowerHead,
  Ticket,
  Tv,
  UserRound,
  UtensilsCrossed,
} from "lucide-react";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { EVENT_OPTIONS, type EventOption, type Locale } from "../../../shared/constants.ts";
import { formatNumber } from "../../../shared/format.ts";
import { RaceMapIsland } from "../../maps/components/islands.tsx";
// Types only: the contract module carries zod, which must stay out of the page bundle.
import type { EventDetail, LinkType } from "../event-detail.contract.ts";
import { FacebookMark, InstagramMark, VimeoMark, XMark, YoutubeMark } from "./BrandIcons.tsx";
import { formatLongDateRange } from "./event-format.ts";

export const OPTION_ICONS: Record<EventOption, LucideIcon> = {
  refuelling: Droplets,
  meal: UtensilsCrossed,
  cloakroom: Shirt,
  showers: ShowerHead,
  reward: Award,
};

const LINK_ICONS: Record<LinkType, ComponentType<{ className?: string; "aria-hidden"?: "true" }>> = {
  website: Globe,
  registration: Ticket,
  live: Radio,
  video: Tv,
  facebook: FacebookMark,
  instagram: InstagramMark,
  x: XMark,
  youtube: YoutubeMark,
  vimeo: VimeoMark,
};

/** A fact of the list: an icon (in the term) on the left, the text on the right. */
const ROW = "grid grid-cols-[1rem_1fr] gap-x-3";
/** The links shown as social network chips; the others are listed with their icons. */
const SOCIAL_LINK_TYPES: readonly LinkType[] = ["facebook", "instagram", "x", "youtube", "vimeo"];

const CARD = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";

function coordinates(lat: number, lng: number, locale: Locale): string {
  const f = (v: number) => formatNumber(Math.abs(v), locale, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  return `${f(lat)}° ${lat >= 0 ? "N" : "S"}, ${f(lng)}° ${lng >= 0 ? "E" : locale === "fr" ? "O" : "W"}`;
}

/** Date, venue with a small map, organiser and on-site services. */
export function EventInfo({ event, locale }: { event: EventDetail; locale: Locale }) {
  const { t } = useTranslation("event");
  const { t: te } = useTranslation("events");
  const { place } = event;
  const placeName = [place.place, place.city].filter(Boolean).join(", ");
  const options = EVENT_OPTIONS.filter((o) => event.options[o]);
  return (
    <section aria-labelledby="info-heading" className={CARD}>
      <h2 id="info-heading" className="font-bold text-ink-900 text-lg">
        {t("info.heading")}
      </h2>
      <dl className="mt-3 space-y-3 text-sm">
        <div className={ROW}>
          <dt className="row-span-2 pt-0.5">
            <Calendar className="h-4 w-4 text-brand-700" aria-hidden="true" />
            <span className="sr-only">{t("info.date")}</span>
          </dt>
          <dd className="col-start-2 font-medium text-ink-900 first-letter:uppercase">
            {formatLongDateRange(event.startDate, event.endDate, locale)}
          </dd>
          <dd className="col-start-2 mt-0.5 flex items-center gap-1 text-ink-500 text-xs">
            {event.dateConfirmed ? (
              <CircleCheck className="h-3.5 w-3.5 text-emerald-700" aria-hidden="true" />
            ) : (
              <CircleHelp className="h-3.5 w-3.5" aria-hidden="true" />
            )}
            {event.dateConfirmed ? t("status.dateConfirmed") : t("status.dateToConfirm")}
          </dd>
        </div>
        <div className={ROW}>
          <dt className="pt-0.5">
            <MapPin className="h-4 w-4 text-brand-700" aria-hidden="true" />
            <span className="sr-only">{t("info.place")}</span>
          </dt>
          <dd className="col-start-2 text-ink-700">
            {event.isConnected && <span className="block">{t("info.connected")}</span>}
            {place.place && <span className="block font-medium text-ink-900">{place.place}</span>}
            {place.address && <span className="block">{place.address}</span>}
            {(place.zipcode || place.city) && (
              <span className="block">{[place.zipcode, place.city].filter(Boolean).join(" ")}</span>
            )}
            {(place.department || place.region) && (
              <span className="block">
                {[place.department && `${place.department.name} (${place.department.code})`, place.region?.name]
                  .filter(Boolean)
                  .join(", ")}
              </span>
            )}
          </dd>
        </div>
        {event.organizerName && (
          <div className={ROW}>
            <dt className="col-span-2 flex items-center gap-3 text-ink-500 text-xs">
              <UserRound className="h-4 w-4 text-brand-700" aria-hidden="true" />
              {t("info.organizer")}
            </dt>
            <dd className="col-start-2 font-medium text-ink-900">{event.organizerName}</dd>
          </div>
        )}
      </dl>
      {place.lat !== null && place.lng !== null && (
        <div className="mt-4">
          <RaceMapIsland
            label={t("info.mapLabel", { place: placeName || event.name })}
            markers={[{ id: "place", lat: place.lat, lng: place.lng, label: placeName || event.name, kind: "place" }]}
            zoom={12}
            className="aspect-[4/3] rounded-xl ring-1 ring-slate-200"
          />
          <p className="mt-2 flex flex-wrap items-center justify-between gap-2 text-ink-500 text-xs">
            <span>
              <span className="sr-only">{t("info.coordinates")} </span>
              {coordinates(place.lat, place.lng, locale)}
            </span>
            <a
              href={`https://www.openstreetmap.org/?mlat=${place.lat}&mlon=${place.lng}#map=14/${place.lat}/${place.lng}`}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600"
            >
              {t("info.openMap")}
              <ExternalLink className="h-3 w-3" aria-hidden="true" />
              <span className="sr-only">{t("actions.newTab")}</span>
            </a>
          </p>
        </div>
      )}
      <h3 className="mt-5 font-semibold text-ink-900 text-sm">{t("info.options")}</h3>
      {options.length === 0 ? (
        <p className="mt-1 text-ink-500 text-sm">{t("info.noOptions")}</p>
      ) : (
        <ul className="mt-2 flex flex-wrap gap-2" data-testid="event-options">
          {options.map((option) => {
            const Icon = OPTION_ICONS[option];
            return (
              <li
                key={option}
                className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1 font-medium text-ink-900 text-sm"
              >
                <Icon className="h-4 w-4 text-brand-700" aria-hidden="true" />
                {t(`options.${option}`)}
              </li>
            );
          })}
        </ul>
      )}
      <p className="mt-4 text-ink-500 text-xs">{t("info.scopeValue", { scope: te(`scope.${event.scope}`) })}</p>
    </section>
  );
}

/** External links (through the counting redirect) and social networks. */
export function EventLinks({ event }: { event: EventDetail }) {
  const { t } = useTranslation("event");
  const main = event.links.filter((l) => !SOCIAL_LINK_TYPES.includes(l.type));
  const social = event.links.filter((l) => SOCIAL_LINK_TYPES.includes(l.type));
  if (event.links.length === 0) return null;
  return (
    <section aria-labelledby="links-heading" className={CARD}>
      <h2 id="links-heading" className="font-bold text-ink-900 text-lg">
        {t("links.heading")}
      </h2>
      {main.length > 0 && (
        <ul className="mt-3 space-y-1">
          {main.map((link) => {
            const Icon = LINK_ICONS[link.type];
            return (
              <li key={link.type}>
                <a
                  href={link.redirect}
                  target="_blank"
                  rel="noopener nofollow"
                  className="-mx-2 flex items-center gap-2 rounded-lg px-2 py-2 font-medium text-ink-900 text-sm hover:bg-slate-50"
                  data-link-type={link.type}
                >
                  <Icon className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
                  <span className="flex-1">{t(`links.${link.type}`)}</span>
                  <ExternalLink className="h-3.5 w-3.5 text-ink-500" aria-hidden="true" />
                  <span className="sr-only">{t("actions.newTab")}</span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {social.length > 0 && (
        <>
          <h3 className="mt-4 font-semibold text-ink-900 text-sm">{t("links.social")}</h3>
          <ul className="mt-2 flex flex-wrap gap-2">
            {social.map((link) => {
              const Icon = LINK_ICONS[link.type];
              return (
                <li key={link.type}>
                  <a
                    href={link.redirect}
                    target="_blank"
                    rel="noopener nofollow"
                    aria-label={t("links.socialLabel", { network: t(`links.${link.type}`), name: event.name })}
                    className="inline-flex items-center gap-1.5 rounded-full border border-slate-300 px-3 py-1.5 font-medium text-ink-900 text-sm hover:bg-slate-50"
                    data-link-type={link.type}
                  >
                    <Icon className="h-4 w-4" aria-hidden="true" />
                    {t(`links.${link.type}`)}
                  </a>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
