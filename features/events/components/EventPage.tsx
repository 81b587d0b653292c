import type { TFunction } from "i18next";
import { CalendarPlus, CircleX, ExternalLink, Globe, Hourglass, Info, Ticket, TriangleAlert } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Locale, SPORTS } from "../../../shared/constants.ts";
import { formatLongDate } from "../../../shared/dates.ts";
import { pagePath } from "../../../shared/i18n/pages.ts";
import { LazyToastHost } from "../../../shared/ui/lazy-toasts.tsx";
import { isGeneratedImage } from "../../illustrations/event-images.ts";
import type { EventDetail, EventPageData } from "../event-detail.contract.ts";
import { CourseCard } from "./CourseCard.tsx";
import { EditionsList } from "./EditionsList.tsx";
import { type Crumb, EventHero } from "./EventHero.tsx";
import { EventInfo, EventLinks } from "./EventInfo.tsx";
import { ShareButtonsIsland } from "./islands.tsx";

/** Home › sport › sport in the region: the landing pages above an event. */
export function eventCrumbs(event: EventDetail, locale: Locale, t: TFunction): Crumb[] {
  const sport = SPORTS.find((s) => s.key === event.sport.key);
  const sportSlug = sport ? (locale === "en" ? sport.slugEn : sport.slugFr) : null;
  const crumbs: Crumb[] = [{ name: t("event:breadcrumb.home"), href: pagePath("home", locale) }];
  if (sportSlug) {
    crumbs.push({
      name: locale === "en" ? event.sport.nameEn : event.sport.nameFr,
      href: pagePath("landingSport", locale, { sport: sportSlug }),
    });
    if (event.place.region)
      crumbs.push({
        name: event.place.region.name,
        href: pagePath("landingSportRegion", locale, { sport: sportSlug, region: event.place.region.slug }),
      });
  }
  return crumbs;
}

export function icsHref(event: EventDetail, locale: Locale): string {
  return `/api/event/${event.id}/ics${locale === "en" ? "?_locale=en" : ""}`;
}

/** A listing waiting for moderation, seen by its editors only. */
function PendingNotice() {
  const { t } = useTranslation("event");
  return (
    <div
      role="status"
      data-testid="pending-page-notice"
      className="flex gap-3 rounded-2xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-300 ring-inset"
    >
      <Hourglass className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" aria-hidden="true" />
      <div>
        <p className="font-bold">{t("status.pendingTitle")}</p>
        <p className="mt-1 text-sm">{t("status.pendingText")}</p>
      </div>
    </div>
  );
}

function StatusNotice({ event, locale }: { event: EventDetail; locale: Locale }) {
  const { t } = useTranslation("event");
  if (event.cancelled)
    return (
      <div role="note" className="flex gap-3 rounded-2xl bg-red-50 p-4 text-red-950 ring-1 ring-red-200 ring-inset">
        <CircleX className="mt-0.5 h-5 w-5 shrink-0 text-red-700" aria-hidden="true" />
        <div>
          <p className="font-bold">{t("status.cancelledTitle")}</p>
          <p className="mt-1 text-sm">{t("status.cancelledText")}</p>
        </div>
      </div>
    );
  // Only while the race is still ahead: once it has run, it is simply finished.
  if (event.state === "postponed")
    return (
      <div
        role="note"
        className="flex gap-3 rounded-2xl bg-amber-50 p-4 text-amber-950 ring-1 ring-amber-200 ring-inset"
      >
        <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" aria-hidden="true" />
        <div>
          <p className="font-bold">{t("status.postponedTitle")}</p>
          {event.originalDate && (
            <p className="mt-1 text-sm">
              {t("status.postponedText", {
                date: formatLongDate(event.originalDate, locale),
                newDate: formatLongDate(event.startDate, locale),
              })}
            </p>
          )}
        </div>
      </div>
    );
  if (event.state === "finished" || event.state === "in_progress")
    return (
      <p className="flex items-center gap-2 rounded-2xl bg-slate-100 px-4 py-3 text-ink-900 text-sm">
        <Info className="h-4 w-4 shrink-0" aria-hidden="true" />
        {t(event.state === "finished" ? "status.finishedText" : "status.inProgressText")}
      </p>
    );
  return null;
}

function Actions({
  event,
  locale,
  today,
  extra,
}: {
  event: EventDetail;
  locale: Locale;
  today: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation("event");
  const registration = event.links.find((l) => l.type === "registration");
  const website = event.links.find((l) => l.type === "website");
  const open = !event.cancelled && event.state !== "finished";
  const opensLater =
    open && event.registrationOpensAt && event.registrationOpensAt.slice(0, 10) > today
      ? event.registrationOpensAt
      : null;
  const secondary =
    "inline-flex items-center justify-center gap-2 rounded-xl border border-slate-300 bg-white px-4 py-3 font-semibold text-ink-900 text-sm shadow-sm hover:bg-slate-50";
  return (
    <div>
      <div className="grid gap-3 sm:flex sm:flex-wrap">
        {registration && open && (
          <a
            href={registration.redirect}
            target="_blank"
            rel="noopener nofollow"
            className="inline-flex items-center justify-center gap-2 rounded-xl bg-brand-700 px-5 py-3 font-bold text-white shadow-sm hover:bg-[#9a320a]"
            data-testid="register-link"
          >
            <Ticket className="h-5 w-5" aria-hidden="true" />
            {t("actions.register")}
            <ExternalLink className="h-4 w-4 opacity-80" aria-hidden="true" />
            <span className="sr-only">{t("actions.newTab")}</span>
          </a>
        )}
        {website && (
          <a href={website.redirect} target="_blank" rel="noopener nofollow" className={secondary}>
            <Globe className="h-4 w-4" aria-hidden="true" />
            {t("actions.website")}
            <ExternalLink className="h-3.5 w-3.5 text-ink-500" aria-hidden="true" />
            <span className="sr-only">{t("actions.newTab")}</span>
          </a>
        )}
        {!event.cancelled && (
          <a
            href={icsHref(event, locale)}
            download={`${event.slug}.ics`}
            className={secondary}
            title={t("actions.calendarHint")}
            data-testid="ics-link"
          >
            <CalendarPlus className="h-4 w-4" aria-hidden="true" />
            {t("actions.calendar")}
          </a>
        )}
        {extra}
      </div>
      {opensLater && (
        <p className="mt-2 text-ink-700 text-sm">
          {t("actions.registrationOpens", { date: formatLongDate(opensLater.slice(0, 10), locale) })}
        </p>
      )}
    </div>
  );
}

/** The flyer and the event's photos, when it has any. */
function Photos({ event }: { event: EventDetail }) {
  const { t } = useTranslation("event");
  const pictures = [
    // A demo event's landscape is its header, not a flyer.
    ...(event.coverImage && !isGeneratedImage(event.coverImage)
      ? [{ id: 0, url: event.coverImage, caption: t("photos.flyer", { name: event.name }) }]
      : []),
    ...event.images.map((i) => ({ id: i.id, url: i.url, caption: i.caption })),
  ];
  if (pictures.length === 0) return null;
  return (
    <section
      aria-labelledby="photos-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id="photos-heading" className="font-bold text-ink-900 text-lg">
        {t("photos.heading")}
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {pictures.map((p) => (
          <li key={p.id}>
            <a href={p.url} className="block overflow-hidden rounded-lg ring-1 ring-slate-200">
              <img
                src={p.url}
                alt={p.caption ?? t("hero.photo", { name: event.name })}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full object-cover"
              />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the page knows that a slot may need: who may moderate (access just granted included). */
export type EventSlotContext = {
  /** The event's owner, organisers and admins (and a claim granted on this page). */
  canModerate: boolean;
  /** This page's path in its language (login links come back to it). */
  eventPath: string;
};

/** A part of the page, or what makes it from the page's context. */
export type EventSlot = ReactNode | ((context: EventSlotContext) => ReactNode);

/**
 * Parts of the page that other features fill in (app/routes/event.tsx): the member's heart and
 * planning, participants, ratings, comments, the wall. The events feature knows none of them. A
 * new block is one more optional key here and one line where it goes in the page.
 */
export type EventPageSlots = {
  /** Beside the registration and website links. */
  actions?: ReactNode;
  /** Under each course's name. */
  course?: (course: { id: number; name: string }) => ReactNode;
  /** At the top of the side column. */
  aside?: EventSlot;
  /** Main column, after the description and photos. */
  ratings?: EventSlot;
  /** Main column, after the ratings. */
  comments?: EventSlot;
  /** Side column, after the event's facts and links. */
  wall?: EventSlot;
  /** Side column, after the wall: the members who finished the edition (features/community). */
  finishers?: EventSlot;
  /** Below the courses: the edition's results (features/results, loaded lazily). */
  results?: EventSlot;
};

/** The caller's access to the event (features/events/event-access.server.ts). */
type Access = "owner" | "organizer" | "admin" | "member";
/** The event's editors: its owner, its organisers, the admins. */
export type EventEditorAccess = Exclude<Access, "member">;

/**
 * The organiser side of the page (features/organizers, filled by app/routes/event.tsx): the tools
 * for editors, then invitations, contact and claim. A claim granted on this page (`onGranted`)
 * shows the editors' parts at once, before the data reloads.
 */
export type EventOrganizerSlots = {
  /** The caller's access as loaded; null for a visitor. */
  access: Access | null;
  /** At the top of the main column, for editors only. */
  tools: (editor: { access: EventEditorAccess; justGranted: boolean }) => ReactNode;
  /** At the end of the side column. */
  cards: (viewer: { editor: boolean; onGranted: (access: Access) => void }) => ReactNode;
};

/** The whole event page below the site header. */
export function EventPage({
  data,
  locale,
  shareUrl,
  organizer,
  slots,
}: {
  data: EventPageData;
  locale: Locale;
  shareUrl: string;
  organizer?: EventOrganizerSlots;
  slots?: EventPageSlots;
}) {
  const { t } = useTranslation("event");
  const { event, tracks, today } = data;
  // Rights just granted on this page show at once, before the data reloads.
  const [granted, setGranted] = useState<Access | null>(null);
  const access = granted ?? organizer?.access ?? null;
  const editor = access === "owner" || access === "organizer" || access === "admin" ? access : null;
  const eventPath = pagePath("event", locale, { slug: event.slug });
  const crumbs = eventCrumbs(event, locale, t);
  const context: EventSlotContext = { canModerate: editor !== null, eventPath };
  const slot = (part: EventSlot | undefined) => (typeof part === "function" ? part(context) : part);
  const card = "rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";
  return (
    <article data-testid="event-page" data-event-id={event.id}>
      <EventHero event={event} locale={locale} crumbs={crumbs} />
      <div className="mx-auto max-w-6xl px-4 py-6 lg:py-8">
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-8">
          <div className="min-w-0 space-y-6">
            {data.pending && <PendingNotice />}
            {editor && organizer?.tools({ access: editor, justGranted: granted !== null })}
            <StatusNotice event={event} locale={locale} />
            <Actions event={event} locale={locale} today={today} extra={slots?.actions} />
            <section aria-labelledby="courses-heading" className="space-y-4">
              <div className="flex items-baseline justify-between gap-3">
                <h2 id="courses-heading" className="font-bold text-ink-900 text-xl sm:text-2xl">
                  {t("courses.heading")}
                </h2>
                <p className="text-ink-500 text-sm">{t("courses.count", { count: event.courses.length })}</p>
              </div>
              {event.courses.map((course) => (
                <CourseCard
                  key={course.id}
                  course={course}
                  track={tracks.find((tr) => tr.courseId === course.id)}
                  event={{ startDate: event.startDate, endDate: event.endDate, timeZone: event.place.timeZone }}
                  locale={locale}
                  action={slots?.course?.({ id: course.id, name: course.name })}
                />
              ))}
            </section>
            {slot(slots?.results)}
            {event.descriptionHtml && (
              <section aria-labelledby="about-heading" className={card}>
                <h2 id="about-heading" className="font-bold text-ink-900 text-lg">
                  {t("about.heading")}
                </h2>
                <div
                  className="rich-text mt-2 text-ink-700 leading-relaxed"
                  // Sanitised on the server (features/events/description.server.ts).
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised HTML
                  dangerouslySetInnerHTML={{ __html: event.descriptionHtml }}
                />
              </section>
            )}
            <Photos event={event} />
            {slot(slots?.ratings)}
            {slot(slots?.comments)}
          </div>
          <div className="min-w-0 space-y-6">
            {slot(slots?.aside)}
            <EventInfo event={event} locale={locale} />
            <EventLinks event={event} />
            {slot(slots?.wall)}
            {slot(slots?.finishers)}
            <EditionsList editions={event.editions} locale={locale} today={today} />
            <section aria-labelledby="share-heading" className={card}>
              <h2 id="share-heading" className="font-bold text-ink-900 text-lg">
                {t("share.heading")}
              </h2>
              <div className="mt-3">
                <ShareButtonsIsland
                  url={shareUrl}
                  text={t("share.text", { name: event.name, date: formatLongDate(event.startDate, locale) })}
                />
              </div>
            </section>
            {organizer?.cards({ editor: editor !== null, onGranted: setGranted })}
          </div>
        </div>
      </div>
      <LazyToastHost />
    </article>
  );
}
