import { data, redirect, useRouteLoaderData, useSearchParams } from "react-router";
import { CommentsIsland, EncouragementWallIsland } from "../../features/comments/components/islands.tsx";
import { EventFinishersIsland } from "../../features/community/components/islands.tsx";
import { EventParticipants, EventStats } from "../../features/engagement/components/EventCommunity.tsx";
import { FavoriteButton } from "../../features/engagement/components/FavoriteButton.tsx";
import { PlanCourse } from "../../features/engagement/components/PlanCourse.tsx";
import { useEventActions } from "../../features/engagement/components/use-event-actions.ts";
import { EventPage, eventCrumbs } from "../../features/events/components/EventPage.tsx";
import { breadcrumbJsonLd, sportsEventJsonLd } from "../../features/events/components/json-ld.ts";
import type { EventPageData } from "../../features/events/event-detail.contract.ts";
import { useViewer } from "../../features/identity/components/viewer.tsx";
import {
  ClaimEventIsland,
  ContactOrganizerIsland,
  InviteFriendsIsland,
  OrganizerToolsIsland,
} from "../../features/organizers/components/islands.tsx";
import { CONTACT_ANCHOR } from "../../features/organizers/contact-anchor.ts";
import { contactOrganizerBodySchema } from "../../features/organizers/organizer.contract.ts";
import { PosterLink } from "../../features/posters/components/PosterLink.tsx";
import { RatingBlockIsland } from "../../features/ratings/components/islands.tsx";
import { EventResultsSection } from "../../features/results/components/EventResultsSection.tsx";
import { formatLongDate } from "../../shared/dates.ts";
import { formatDistance, formatDuration } from "../../shared/format.ts";
import { createI18n, localeFromPath } from "../../shared/i18n/index.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { useLocale } from "../../shared/i18n/use-locale.ts";
import { DEFAULT_SHARE_IMAGE } from "../../shared/image-url.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { apiFormAction } from "../form-action.server.ts";
import { routeMeta } from "../meta.ts";
import type { Route } from "./+types/event";

/** The same for everyone: members get the visitors' copy and fill in their parts (decision 024). */
export const handle = { shared: true };

/** A pending listing's page is its editors' alone: never kept by the page cache or a shared cache. */
const PRIVATE_PAGE = "private, no-store";

export async function loader({ params, context, request }: Route.LoaderArgs) {
  // A pending listing is found for its editors only; everyone else gets the same 404.
  const page = await context.services.eventDetails.page(params.slug ?? "", context.user);
  if (!page) throw await formerAddress(params.slug ?? "", request, context);
  // The signed-in member's access (owner, organiser, admin or member) shows the organiser tools.
  const [organizer, participants, results] = await Promise.all([
    context.services.organizers.pageInfo(page.event.id, context.user),
    page.pending ? null : context.services.engagement.participants(page.event.id).catch(() => null),
    page.pending ? null : context.services.results.eventSummary(page.event.id),
  ]);
  if (page.pending)
    return data({ ...page, organizer, participants, results }, { headers: { "Cache-Control": PRIVATE_PAGE } });
  return { ...page, organizer, participants, results };
}

/**
 * An address the event had before a rename answers a 301 to its current page, query kept (issue
 * 26 item 6); when the viewer may see it, else the same 404 as any unknown address.
 */
async function formerAddress(slug: string, request: Request, context: Route.LoaderArgs["context"]) {
  const current = await context.services.eventDetails.currentSlug(slug);
  if (!current || !(await context.services.eventDetails.page(current, context.user)))
    return data({ kind: "item" }, { status: 404 });
  const url = new URL(request.url);
  return redirect(`${pagePath("event", localeFromPath(url.pathname), { slug: current })}${url.search}`, 301);
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

/** Writing to the organiser without JavaScript: the same API call; the page then says it went. */
export function action(args: Route.ActionArgs) {
  return apiFormAction(args, {
    schema: contactOrganizerBodySchema,
    url: "/api/send-contact-organizer",
    onSuccess: () => ({ sent: true }),
  });
}

const translators = { fr: createI18n("fr"), en: createI18n("en") };

/** "10 km, 21,1 km et 42,2 km"-like list of the courses' distances (or durations), shortest first. */
function courseSummary(page: EventPageData, locale: "fr" | "en"): string {
  const distances = [...new Set(page.event.courses.flatMap((c) => (c.distance === null ? [] : [c.distance])))].sort(
    (a, b) => a - b,
  );
  const durations = [...new Set(page.event.courses.flatMap((c) => (c.duration === null ? [] : [c.duration])))].sort(
    (a, b) => a - b,
  );
  return [
    ...distances.map((d) => formatDistance(d, locale, { maximumFractionDigits: 1 })),
    ...durations.map((d) => formatDuration(d, locale)),
  ].join(", ");
}

export const meta: Route.MetaFunction = (args) => {
  const page = args.loaderData as EventPageData | undefined;
  if (!page)
    return routeMeta(args, {
      title: "common:errors.itemNotFoundTitle",
      description: "common:errors.itemNotFound",
      noIndex: true,
      noAlternates: true,
    });
  const { event } = page;
  const locale = localeFromPath(args.location.pathname);
  const t = translators[locale].t;
  const date = formatLongDate(event.startDate, locale);
  const sport = locale === "en" ? event.sport.nameEn : event.sport.nameFr;
  const values = {
    name: event.name,
    date,
    city: event.place.city ?? "",
    department: event.place.department?.code ?? "",
    sport,
    courses: courseSummary(page, locale),
  };
  let title = t(event.place.city ? "event:meta.title" : "event:meta.titleNoCity", values);
  if (event.cancelled) title = t("event:meta.cancelled", { name: title });
  const description = t(
    event.place.city && event.place.department ? "event:meta.description" : "event:meta.descriptionNoPlace",
    values,
  );
  const root = args.matches.find((m) => m?.id === "root")?.data as { publicUrl?: string } | undefined;
  const origin = root?.publicUrl;
  const absolute = (path: string) => (origin ? publicUrl(path, origin) : publicUrl(path));
  const url = absolute(pagePath("event", locale, { slug: event.slug }));
  const crumbs = eventCrumbs(event, locale, t);
  return [
    ...routeMeta(args, { literal: true, title, description, headerImage: event.headerImage, noIndex: page.pending }),
    {
      "script:ld+json": sportsEventJsonLd(event, {
        locale,
        url,
        absolute,
        fallbackImage: DEFAULT_SHARE_IMAGE,
      }),
    },
    {
      "script:ld+json": breadcrumbJsonLd([
        ...crumbs.map((c) => ({ name: c.name, url: absolute(c.href) })),
        { name: event.name, url },
      ]),
    },
  ];
};

export default function EventRoute({ loaderData, actionData }: Route.ComponentProps) {
  const locale = useLocale();
  const [params] = useSearchParams();
  const root = useRouteLoaderData("root") as { publicUrl?: string } | undefined;
  const viewer = useViewer();
  const { access, actions, update } = useEventActions(loaderData.event.id, loaderData.organizer.access);
  const { event } = loaderData;
  const path = pagePath("event", locale, { slug: loaderData.event.slug });
  const shareUrl = root?.publicUrl ? publicUrl(path, root.publicUrl) : publicUrl(path);
  return (
    <EventPage
      data={loaderData}
      locale={locale}
      shareUrl={shareUrl}
      organizer={{
        access,
        tools: ({ access: editor, justGranted }) => (
          <OrganizerToolsIsland
            event={event}
            access={editor}
            locale={locale}
            today={loaderData.today}
            justGranted={justGranted}
          />
        ),
        cards: ({ editor, onGranted }) => (
          <>
            <InviteFriendsIsland eventId={event.id} eventPath={path} locale={locale} user={viewer.user} />
            {loaderData.organizer.canContact && !editor && (
              <ContactOrganizerIsland
                eventId={event.id}
                user={viewer.user}
                noScript={{
                  open: params.get("open") === CONTACT_ANCHOR,
                  result: actionData?.result,
                  sent: actionData?.sent === true,
                }}
              />
            )}
            {!editor && (
              <ClaimEventIsland
                eventId={event.id}
                eventPath={path}
                locale={locale}
                user={viewer.user}
                onGranted={onGranted}
              />
            )}
          </>
        ),
      }}
      slots={{
        actions: <FavoriteButton eventId={event.id} name={event.name} variant="page" />,
        course: (course) => (
          <>
            {!event.cancelled && (
              <PlanCourse
                courseId={course.id}
                courseName={course.name}
                planned={actions?.calendar.find((c) => c.courseId === course.id) ?? null}
                onChange={(entry) =>
                  update((current) => ({
                    ...current,
                    calendar: [...current.calendar.filter((c) => c.courseId !== course.id), ...(entry ? [entry] : [])],
                  }))
                }
              />
            )}
            {!loaderData.pending && loaderData.tracks.some((tr) => tr.courseId === course.id) && (
              <PosterLink courseId={course.id} locale={locale} />
            )}
          </>
        ),
        aside: loaderData.participants ? (
          <>
            <EventStats data={loaderData.participants} locale={locale} finishers={loaderData.results?.finishers} />
            <EventParticipants data={loaderData.participants} courses={event.courses} locale={locale} />
          </>
        ) : null,
        ratings: ({ eventPath }) => (
          <RatingBlockIsland
            event={{ id: event.id, name: event.name, startDate: event.startDate }}
            initial={event.rating}
            today={loaderData.today}
            locale={locale}
            eventPath={eventPath}
          />
        ),
        comments: ({ eventPath, canModerate }) => (
          <CommentsIsland
            event={{ id: event.id, startDate: event.startDate }}
            today={loaderData.today}
            locale={locale}
            eventPath={eventPath}
            canModerate={canModerate}
          />
        ),
        wall: ({ eventPath, canModerate }) => (
          <EncouragementWallIsland eventId={event.id} locale={locale} eventPath={eventPath} canModerate={canModerate} />
        ),
        finishers:
          event.startDate <= loaderData.today ? <EventFinishersIsland eventId={event.id} locale={locale} /> : null,
        results: loaderData.results ? (
          <EventResultsSection
            summary={loaderData.results}
            started={event.startDate <= loaderData.today}
            locale={locale}
            canManage={access === "owner" || access === "organizer" || access === "admin"}
          />
        ) : null,
      }}
    />
  );
}
