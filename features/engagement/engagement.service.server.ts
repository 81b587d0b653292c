import { and, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import { ApiError } from "../../shared/api-error.ts";
import { type CalendarStatus, type Locale, SPORTS, type SportKey } from "../../shared/constants.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { type Actor, eventAccess } from "../events/event-access.server.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import { randomToken } from "../identity/secrets.server.ts";
import { photoUrl } from "../identity/users.server.ts";
import { memberEventEngagement } from "../ratings/ratings.service.server.ts";
import type { SearchService } from "../search/search.service.server.ts";
import type {
  CalendarBody,
  CalendarEntry,
  CalendarResponse,
  CalendarTotals,
  EventActions,
  FavoriteResponse,
  ParticipantsResponse,
} from "./engagement.contract.ts";
import { calendarEntries, calendarFeeds, eventViews, favorites } from "./engagement.tables.ts";
import { planningIcs } from "./planning-ics.ts";

/** Members named per course on the event page (the others are counted). */
export const NAMED_PER_COURSE = 12;

type EntryRow = {
  id: number;
  course_id: number;
  event_id: number;
  status: CalendarStatus;
  target_time: number | null;
  updated_at: Date | string;
  course_name: string;
  distance: number | null;
  duration: number | null;
  elevation_gain: number | null;
  start_at: Date | string | null;
  slug: string;
  event_name: string;
  sport: SportKey;
  start_date: string;
  end_date: string;
  city: string | null;
  department_code: string | null;
  address: string | null;
  cancelled: boolean;
  postponed: boolean;
  date_confirmed: boolean;
  place: string | null;
  zipcode: string | null;
  lat: number | null;
  lng: number | null;
  event_updated_at: Date | string;
};

function addTotals(into: CalendarTotals, entry: CalendarEntry) {
  into.races++;
  into.distance += entry.course.distance ?? 0;
  into.elevationGain += entry.course.elevationGain ?? 0;
}

/** Per month and per year, in the entries' order (soonest first). */
export function planningTotals(entries: readonly CalendarEntry[]): Pick<CalendarResponse, "months" | "years"> {
  const months = new Map<string, CalendarResponse["months"][number]>();
  const years = new Map<string, CalendarResponse["years"][number]>();
  for (const entry of entries) {
    if (entry.shown === "dns") continue;
    const month = entry.event.startDate.slice(0, 7);
    const year = month.slice(0, 4);
    if (!months.has(month)) months.set(month, { month, races: 0, distance: 0, elevationGain: 0 });
    if (!years.has(year)) years.set(year, { year, races: 0, distance: 0, elevationGain: 0 });
    addTotals(months.get(month) as CalendarTotals, entry);
    addTotals(years.get(year) as CalendarTotals, entry);
  }
  return { months: [...months.values()], years: [...years.values()] };
}

/** A member's relations with events: favourites, their season's planning and its calendar feed. */
export function engagementService(
  db: Db,
  clock: () => Date,
  deps: { search: Pick<SearchService, "cards">; publicOrigin: string },
) {
  /** The event, listed (active), or ITEM_NOT_FOUND. */
  async function listedEvent(eventId: number): Promise<void> {
    const found = await rows<{ id: number }>(
      db,
      sql`SELECT id FROM events WHERE id = ${eventId} AND status = 'active' LIMIT 1`,
    );
    if (!found.length) throw new ApiError("ITEM_NOT_FOUND");
  }

  async function favoriteCount(eventId: number): Promise<number> {
    const [row] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM favorites WHERE event_id = ${eventId}`,
    );
    return row?.n ?? 0;
  }

  async function entryRows(userId: number, only?: { entryId?: number }): Promise<EntryRow[]> {
    return rows<EntryRow>(
      db,
      sql`SELECT ce.id, ce.course_id, ce.event_id, ce.status, ce.target_time, ce.updated_at,
            c.name AS course_name, c.distance, c.duration, c.elevation_gain, c.start_at,
            e.slug, e.name AS event_name, s.key AS sport, e.start_date::text AS start_date,
            e.end_date::text AS end_date, e.city, e.department_code, e.address, e.cancelled, e.postponed,
            e.date_confirmed, e.place, e.zipcode, e.lat, e.lng, e.updated_at AS event_updated_at
          FROM calendar_entries ce
          JOIN courses c ON c.id = ce.course_id
          JOIN events e ON e.id = ce.event_id
          JOIN sports s ON s.id = e.sport_id
          WHERE ce.user_id = ${userId} AND e.status = 'active'
            ${only?.entryId ? sql`AND ce.id = ${only.entryId}` : sql``}
          ORDER BY e.start_date, c.start_at NULLS LAST, c.position, ce.id`,
    );
  }

  function toEntry(row: EntryRow, today: string): CalendarEntry {
    const past = row.end_date < today;
    const shown: CalendarStatus =
      past && (row.status === "planned" || row.status === "registered") ? "done" : row.status;
    const startAt = row.start_at === null ? null : new Date(row.start_at).toISOString();
    return {
      id: row.id,
      courseId: row.course_id,
      eventId: row.event_id,
      status: row.status,
      shown,
      past,
      targetTime: row.target_time,
      course: {
        name: row.course_name,
        distance: row.distance,
        duration: row.duration,
        elevationGain: row.elevation_gain,
        startAt,
      },
      event: {
        slug: row.slug,
        name: row.event_name,
        sport: row.sport,
        startDate: row.start_date,
        endDate: row.end_date,
        city: row.city,
        departmentCode: row.department_code,
        cancelled: row.cancelled,
        postponed: row.postponed,
      },
    };
  }

  /** Page views, counted in memory and written in one statement now and then (flushViews). */
  const pendingViews = new Map<string, number>();

  return {
    /** GET /api/user/action/{id}; an unknown event is ITEM_NOT_FOUND. */
    async eventActions(member: Actor, eventId: number): Promise<EventActions> {
      const access = await eventAccess(db, member, eventId);
      if (!access) throw new ApiError("ITEM_NOT_FOUND");
      const [favorite, planned, contributions] = await Promise.all([
        db
          .select({ eventId: favorites.eventId })
          .from(favorites)
          .where(and(eq(favorites.userId, member.id), eq(favorites.eventId, eventId)))
          .limit(1),
        db
          .select({
            courseId: calendarEntries.courseId,
            status: calendarEntries.status,
            targetTime: calendarEntries.targetTime,
          })
          .from(calendarEntries)
          .where(and(eq(calendarEntries.userId, member.id), eq(calendarEntries.eventId, eventId)))
          .orderBy(calendarEntries.courseId),
        memberEventEngagement(db, member.id, eventId),
      ]);
      return { eventId, access, favorite: favorite.length > 0, calendar: planned, ...contributions };
    },

    /** POST /api/user/favorite/{id}: toggles, or sets when `on` is given. */
    async setFavorite(userId: number, eventId: number, on?: boolean): Promise<FavoriteResponse> {
      await listedEvent(eventId);
      let favorite: boolean;
      if (on === undefined) {
        // One statement either way, so that two quick clicks toggle twice, never fail.
        const removed = await db
          .delete(favorites)
          .where(and(eq(favorites.userId, userId), eq(favorites.eventId, eventId)))
          .returning({ eventId: favorites.eventId });
        if (removed.length) favorite = false;
        else {
          await db.insert(favorites).values({ userId, eventId }).onConflictDoNothing();
          favorite = true;
        }
      } else if (on) {
        await db.insert(favorites).values({ userId, eventId }).onConflictDoNothing();
        favorite = true;
      } else {
        await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.eventId, eventId)));
        favorite = false;
      }
      return { eventId, favorite, count: await favoriteCount(eventId) };
    },

    /** GET /api/user/favorites: listed events only, soonest first. */
    async favorites(userId: number) {
      const saved = await db.select({ eventId: favorites.eventId }).from(favorites).where(eq(favorites.userId, userId));
      return { items: await deps.search.cards(saved.map((f) => f.eventId)) };
    },

    /** GET /api/user/calendar: the season, with totals per month and year. */
    async calendar(userId: number): Promise<CalendarResponse> {
      const today = parisToday(clock());
      const entries = (await entryRows(userId)).map((row) => toEntry(row, today));
      return { entries, ...planningTotals(entries) };
    },

    /** POST /api/user/calendar/{courseId}: adds the course or changes its status and target. */
    async plan(userId: number, courseId: number, body: CalendarBody): Promise<CalendarEntry> {
      const [course] = await rows<{ event_id: number }>(
        db,
        sql`SELECT c.event_id FROM courses c JOIN events e ON e.id = c.event_id
            WHERE c.id = ${courseId} AND e.status = 'active' LIMIT 1`,
      );
      if (!course) throw new ApiError("ITEM_NOT_FOUND");
      const now = clock();
      const [saved] = await db
        .insert(calendarEntries)
        .values({
          userId,
          courseId,
          eventId: course.event_id,
          status: body.status,
          targetTime: body.targetTime,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [calendarEntries.userId, calendarEntries.courseId],
          set: { status: body.status, targetTime: body.targetTime, updatedAt: now },
        })
        .returning({ id: calendarEntries.id });
      const [row] = await entryRows(userId, { entryId: saved.id });
      return toEntry(row, parisToday(now));
    },

    /** DELETE /api/user/calendar/{courseId}; a course not in the planning is ITEM_NOT_FOUND. */
    async unplan(userId: number, courseId: number): Promise<void> {
      const removed = await db
        .delete(calendarEntries)
        .where(and(eq(calendarEntries.userId, userId), eq(calendarEntries.courseId, courseId)))
        .returning({ id: calendarEntries.id });
      if (!removed.length) throw new ApiError("ITEM_NOT_FOUND");
    },

    /** The feed's address, or null when the member never asked for one. */
    async calendarFeedUrl(userId: number): Promise<string | null> {
      const [feed] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).limit(1);
      return feed ? feedUrl(feed.token) : null;
    },

    /** A new address for the feed: the old one stops working at once. */
    async resetCalendarFeed(userId: number): Promise<string> {
      const token = randomToken();
      await db
        .insert(calendarFeeds)
        .values({ userId, token, createdAt: clock() })
        .onConflictDoUpdate({ target: calendarFeeds.userId, set: { token, createdAt: clock(), lastFetchedAt: null } });
      return feedUrl(token);
    },

    /**
     * The feed's address stops working: its account is disabled (accounts' memberData hook, in
     * the caller's transaction). Asking for a feed again makes a new address.
     */
    async endCalendarFeed(userId: number, tx: Executor = db): Promise<void> {
      await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    },

    /** The member is deleted (accounts' member data port, decision 048): their favourites and planning go. */
    async removeMember(userId: number, tx: Executor): Promise<void> {
      await tx.delete(favorites).where(eq(favorites.userId, userId));
      await tx.delete(calendarEntries).where(eq(calendarEntries.userId, userId));
      await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
    },

    /** GDPR export (accounts' member data port): the member's favourites and planning. */
    async exportMember(userId: number) {
      const favoriteRows = await rows<{ name: string; slug: string; created_at: string }>(
        db,
        sql`SELECT e.name, e.slug, f.created_at FROM favorites f JOIN events e ON e.id = f.event_id
            WHERE f.user_id = ${userId} ORDER BY f.created_at`,
      );
      const planningRows = await rows<{
        event: string;
        slug: string;
        course: string;
        start_date: string;
        status: string;
        target_time: number | null;
        updated_at: string;
      }>(
        db,
        sql`SELECT e.name AS event, e.slug, c.name AS course, e.start_date::text AS start_date, ce.status,
              ce.target_time, ce.updated_at
            FROM calendar_entries ce JOIN courses c ON c.id = ce.course_id JOIN events e ON e.id = ce.event_id
            WHERE ce.user_id = ${userId} ORDER BY e.start_date, ce.id`,
      );
      const [feed] = await rows<{ created_at: string }>(
        db,
        sql`SELECT created_at FROM calendar_feeds WHERE user_id = ${userId}`,
      );
      return {
        favorites: favoriteRows.map((f) => ({
          event: f.name,
          slug: f.slug,
          savedAt: new Date(f.created_at).toISOString(),
        })),
        planning: {
          courses: planningRows.map((p) => ({
            event: p.event,
            slug: p.slug,
            course: p.course,
            date: p.start_date,
            status: p.status,
            targetTimeSeconds: p.target_time,
            updatedAt: new Date(p.updated_at).toISOString(),
          })),
          // The address itself is a secret: its existence only.
          calendarFeedSince: feed ? new Date(feed.created_at).toISOString() : null,
        },
      };
    },

    /**
     * GET /api/user/calendar.ics?token=…: the planning as iCalendar, or null for an unknown token
     * or one whose account is disabled (however it was disabled: the address is also deleted then).
     */
    async calendarFeed(token: string, locale: Locale): Promise<string | null> {
      if (!token || token.length > 100) return null;
      const [feed] = await db
        .select()
        .from(calendarFeeds)
        .where(
          and(
            eq(calendarFeeds.token, token),
            sql`EXISTS (SELECT 1 FROM users u WHERE u.id = ${calendarFeeds.userId} AND u.disabled_at IS NULL)`,
          ),
        )
        .limit(1);
      if (!feed) return null;
      const now = clock();
      await db.update(calendarFeeds).set({ lastFetchedAt: now }).where(eq(calendarFeeds.userId, feed.userId));
      const today = parisToday(now);
      const found = await entryRows(feed.userId);
      return planningIcs(
        found.map((row) => {
          const entry = toEntry(row, today);
          const updated = [new Date(row.updated_at), new Date(row.event_updated_at)];
          return {
            ...entry,
            courseId: row.course_id,
            race: {
              id: row.event_id,
              ...entry.event,
              dateConfirmed: row.date_confirmed,
              place: row.place,
              address: row.address,
              zipcode: row.zipcode,
              lat: row.lat,
              lng: row.lng,
              timeZone: timeZoneOfDepartment(row.department_code),
              sport: SPORTS.find((sport) => sport.key === row.sport)?.[locale] ?? null,
            },
            updatedAt: new Date(Math.max(...updated.map((d) => d.getTime()))),
          };
        }),
        { locale, now, origin: deps.publicOrigin },
      );
    },

    /**
     * GET /api/event/participants/{id}: counts per course and the members with a public profile.
     * `firstUserIds` are named first (within the NAMED_PER_COURSE shown): the hook for "friends
     * first" once members follow each other; nothing passes it yet (no follow relation).
     */
    async participants(
      eventId: number,
      options: { firstUserIds?: readonly number[] } = {},
    ): Promise<ParticipantsResponse> {
      const first = options.firstUserIds?.length
        ? sql`ce.user_id IN (${sql.join(
            options.firstUserIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`false`;
      // Three queries side by side; the third also tells whether the event is listed.
      const [courseRows, named, totals] = await Promise.all([
        rows<{ course_id: number; going: number; done: number }>(
          db,
          sql`SELECT c.id AS course_id,
                count(ce.id) FILTER (WHERE ce.status IN ('planned', 'registered'))::int AS going,
                count(ce.id) FILTER (WHERE ce.status = 'done')::int AS done
              FROM courses c
              LEFT JOIN calendar_entries ce ON ce.course_id = c.id
              LEFT JOIN users u ON u.id = ce.user_id AND u.disabled_at IS NULL
              WHERE c.event_id = ${eventId} AND (ce.id IS NULL OR u.id IS NOT NULL)
              GROUP BY c.id, c.position ORDER BY c.position, c.id`,
        ),
        rows<{
          course_id: number;
          slug: string;
          pseudo: string | null;
          first_name: string;
          last_name: string;
          photo: string | null;
          updated_at: Date;
        }>(
          db,
          sql`SELECT course_id, slug, pseudo, first_name, last_name, photo, updated_at FROM (
                SELECT ce.course_id, u.slug, u.pseudo, u.first_name, u.last_name, u.photo, u.updated_at,
                  row_number() OVER (PARTITION BY ce.course_id ORDER BY ${first} DESC, ce.updated_at DESC, ce.id DESC) AS n
                FROM calendar_entries ce JOIN users u ON u.id = ce.user_id
                WHERE ce.event_id = ${eventId} AND ce.status <> 'dns'
                  AND u.public_profile AND u.disabled_at IS NULL
              ) ranked WHERE n <= ${NAMED_PER_COURSE} ORDER BY course_id, n`,
        ),
        rows<{ listed: boolean; members: number; favorites: number; views: number }>(
          db,
          sql`SELECT
                EXISTS (SELECT 1 FROM events WHERE id = ${eventId} AND status = 'active') AS listed,
                (SELECT count(DISTINCT ce.user_id)::int FROM calendar_entries ce JOIN users u ON u.id = ce.user_id
                  WHERE ce.event_id = ${eventId} AND ce.status <> 'dns' AND u.disabled_at IS NULL) AS members,
                (SELECT count(*)::int FROM favorites WHERE event_id = ${eventId}) AS favorites,
                coalesce((SELECT views FROM event_views WHERE event_id = ${eventId}), 0)::int AS views`,
        ),
      ]);
      if (!totals[0]?.listed) throw new ApiError("ITEM_NOT_FOUND");
      return {
        eventId,
        courses: courseRows.map((c) => ({
          courseId: c.course_id,
          going: c.going,
          done: c.done,
          members: named
            .filter((m) => m.course_id === c.course_id)
            .map((m) => ({
              slug: m.slug,
              displayName: m.pseudo || [m.first_name, m.last_name].filter(Boolean).join(" "),
              photoUrl: photoUrl({ photo: m.photo, updatedAt: new Date(m.updated_at) }),
            })),
        })),
        members: totals[0].members,
        favorites: totals[0].favorites,
        views: totals[0].views,
      };
    },

    /** Counts a view of an event page (by slug), written later by flushViews. */
    countView(slug: string) {
      if (pendingViews.size >= 50_000 && !pendingViews.has(slug)) return;
      pendingViews.set(slug, (pendingViews.get(slug) ?? 0) + 1);
    },

    /** Adds the counted views to event_views in one statement; returns how many were written. */
    async flushViews(): Promise<number> {
      if (!pendingViews.size) return 0;
      const batch = [...pendingViews];
      pendingViews.clear();
      const values = sql.join(
        batch.map(([slug, n]) => sql`(${slug}, ${n}::int)`),
        sql`, `,
      );
      await db.execute(sql`
        INSERT INTO ${eventViews} (event_id, views)
        SELECT e.id, v.n FROM (VALUES ${values}) AS v(slug, n) JOIN events e ON e.slug = v.slug
        ON CONFLICT (event_id) DO UPDATE SET views = ${eventViews.views} + excluded.views`);
      return batch.reduce((sum, [, n]) => sum + n, 0);
    },
  };

  function feedUrl(token: string): string {
    return publicUrl(`/api/user/calendar.ics?token=${encodeURIComponent(token)}`, deps.publicOrigin);
  }
}

export type EngagementService = ReturnType<typeof engagementService>;
