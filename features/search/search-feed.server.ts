/**
 * A search as an iCalendar feed: one page of at most the feed's page size of matching events,
 * soonest first, one entry per race (the same UID and STATUS as the event's own .ics), titled
 * after the search's sports and area.
 */
import { sql } from "drizzle-orm";
import enSearch from "../../locales/en/search.json";
import frSearch from "../../locales/fr/search.json";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type Locale, SPORTS } from "../../shared/constants.ts";
import { toIcs } from "../events/ics.ts";
import { eventIcsEvents, type RaceCourse } from "../events/race-ics.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import type { SearchContext } from "./search-context.server.ts";
import type { SearchPlan } from "./search-plan.server.ts";
import { pageCte, pageOrder } from "./search-sql.server.ts";

const ICS_TEXT = { fr: frSearch.ics, en: enSearch.ics } as const;

/** A search's iCalendar feed, one page of it. */
export type IcsFeed = { body: string; total: number; page: number; pages: number };

/** A short title for a feed of this search: its sports, then its area. */
async function feedTitle(context: SearchContext, plan: SearchPlan, locale: Locale): Promise<string> {
  const text = ICS_TEXT[locale];
  const parts: string[] = [];
  if (plan.sportIds) {
    const { keyById } = await context.sportMaps();
    const keys = plan.sportIds.map((id) => keyById.get(id));
    const top = SPORTS.filter((s) => keys.includes(s.key) && !(s.parent && keys.includes(s.parent)));
    parts.push(top.map((s) => s[locale]).join(", "));
  }
  const area = plan.place?.name ?? plan.department?.name ?? plan.region?.name;
  if (area) parts.push(area);
  if (plan.phrase) parts.push(`« ${plan.phrase} »`);
  return parts.length ? text.titleFiltered.replace("{{filters}}", parts.join(" · ")) : text.title;
}

/**
 * The search as an iCalendar feed of at most `size` events, soonest first; `page` pages through
 * a longer search (of `total` events), and a feed that holds only part of its search says so in its
 * description (the route adds a `Link: rel="next"` header).
 */
export async function icsFeed(
  context: SearchContext,
  plan: SearchPlan,
  feed: { page: number; size: number; total: number },
  locale: Locale,
): Promise<IcsFeed> {
  const { page, size, total } = feed;
  const pages = Math.max(1, Math.ceil(total / size));
  if (page > pages) throw new ApiError("BAD_REQUEST", { field: "page" });
  const found = await rows<{
    id: number;
    slug: string;
    name: string;
    sport_id: number;
    start_date: string;
    end_date: string;
    city: string | null;
    place: string | null;
    address: string | null;
    zipcode: string | null;
    department_code: string | null;
    cancelled: boolean;
    date_confirmed: boolean;
    postponed: boolean;
    lat: number | null;
    lng: number | null;
    created: number;
    updated: number;
    courses: RaceCourse[];
  }>(
    context.db,
    sql`WITH ${pageCte(plan, size, (page - 1) * size, plan.sort)}
        SELECT e.id, e.slug, e.name, e.sport_id, e.start_date::text AS start_date, e.end_date::text AS end_date,
          e.city, e.place, e.address, e.zipcode, e.department_code, e.cancelled, e.postponed, e.date_confirmed,
          e.lat, e.lng,
          extract(epoch FROM e.created_at)::float8 AS created, extract(epoch FROM e.updated_at)::float8 AS updated,
          (SELECT coalesce(json_agg(json_build_object('id', c.id, 'name', c.name, 'distance', c.distance,
              'duration', c.duration, 'elevationGain', c.elevation_gain, 'startAt', c.start_at)
              ORDER BY c.position, c.id), '[]'::json)
            FROM courses c WHERE c.event_id = e.id) AS courses
        FROM page JOIN events e ON e.id = page.id
        ORDER BY ${pageOrder(plan.sort)}`,
  );
  const text = ICS_TEXT[locale];
  const { keyById } = await context.sportMaps();
  // One entry per race (race-ics.ts): the same UID and STATUS as the event's .ics and a member's planning.
  const events = found.flatMap((r) => {
    const sport = SPORTS.find((s) => s.key === keyById.get(r.sport_id));
    return eventIcsEvents(
      {
        id: r.id,
        slug: r.slug,
        name: r.name,
        startDate: r.start_date,
        endDate: r.end_date,
        cancelled: r.cancelled,
        postponed: r.postponed,
        dateConfirmed: r.date_confirmed,
        place: r.place,
        address: r.address,
        zipcode: r.zipcode,
        city: r.city,
        lat: r.lat,
        lng: r.lng,
        timeZone: timeZoneOfDepartment(r.department_code),
        sport: sport?.[locale] ?? null,
        createdAt: new Date(Number(r.created) * 1000),
        updatedAt: new Date(Number(r.updated) * 1000),
      },
      r.courses,
      { locale },
    );
  });
  const first = (page - 1) * size + 1;
  const part =
    pages > 1
      ? text.partial
          .replace("{{first}}", String(first))
          .replace("{{last}}", String(first + found.length - 1))
          .replace("{{total}}", String(total))
      : null;
  const body = toIcs({
    prodId: `-//Dossard//${text.prodId}//${locale.toUpperCase()}`,
    name: await feedTitle(context, plan, locale),
    description: part ? `${text.description} ${part}` : text.description,
    stamp: context.clock(),
    refreshHours: 12,
    events,
  });
  return { body, total, page, pages };
}
