/**
 * The community's read side: rankings, the activity timeline, the members directory and an
 * edition's finishers. Like `search` for events, it reads the tables of other features directly
 * in SQL (results, user_badges, calendar_entries, ratings, comments, users, events, courses,
 * communes): these are aggregate reads across features that no single feature's service answers.
 * It never writes. Only members with a public profile and an enabled account are ever named;
 * private profiles are counted at most (finishers), never shown.
 */

import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { rows } from "../../platform/db/rows.server.ts";
import type { RankingOrder, RankingPeriod } from "../../shared/constants.ts";
import { imageUrl } from "../../shared/image-url.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { FINISHER_PREFIX } from "../badges/badge-rules.ts";
import {
  DIRECTORY_PAGE_SIZE,
  type Directory,
  type DirectoryQuery,
  type DirectorySort,
  type Finishers,
  initialsOf,
  type MemberCard,
  NEARBY_EVENTS_RADIUS_M,
  NEW_EVENTS_DAYS,
  RANKING_PAGE_SIZE,
  type Ranking,
  type RankingEntry,
  TIMELINE_PAGE_SIZE,
  type Timeline,
  type TimelineItem,
  type TimelineKind,
  type TimelineType,
} from "./community.contract.ts";

type UserCols = {
  slug: string;
  pseudo: string;
  first_name: string;
  last_name: string;
  photo: string | null;
  updated_at: string | Date;
  city: string | null;
};

/** The name a member shows (pseudo, else first and last name), as accounts' displayName. */
const nameOf = (u: Pick<UserCols, "pseudo" | "first_name" | "last_name">) =>
  u.pseudo || [u.first_name, u.last_name].filter(Boolean).join(" ");

function card(u: UserCols): MemberCard {
  const displayName = nameOf(u);
  return {
    slug: u.slug,
    displayName,
    initials: initialsOf(displayName),
    photoUrl: u.photo ? imageUrl({ kind: "user", file: u.photo, timestamp: new Date(u.updated_at) }) : null,
    city: u.city || null,
  };
}

/** SQL: the display name of alias `u`, for sorting. */
const SORT_NAME = sql.raw("lower(coalesce(nullif(u.pseudo, ''), u.first_name || ' ' || u.last_name))");
/** SQL: alias `u` may be named. */
const PUBLIC_MEMBER = sql.raw("u.public_profile AND u.disabled_at IS NULL");

/** "2026-06-01" minus whole days, months or years (calendar arithmetic in UTC on a plain day). */
function shiftDay(day: string, unit: "day" | "month" | "year", amount: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (unit === "day") d.setUTCDate(d.getUTCDate() - amount);
  else if (unit === "month") d.setUTCMonth(d.getUTCMonth() - amount);
  else d.setUTCFullYear(d.getUTCFullYear() - amount);
  return d.toISOString().slice(0, 10);
}

/**
 * The editions a ranking counts, by their start day (Europe/Paris): up to today, from a year, a
 * month or seven days before (the last seven days for "last week"), or since ever.
 */
export function rankingWindow(period: RankingPeriod, now: Date): { from: string | null; to: string } {
  const to = parisToday(now);
  switch (period) {
    case "all":
      return { from: null, to };
    case "1y":
      return { from: shiftDay(to, "year", 1), to };
    case "1m":
      return { from: shiftDay(to, "month", 1), to };
    case "last_week":
      return { from: shiftDay(to, "day", 7), to };
  }
}

const ORDER_COLUMN: Record<RankingOrder, SQL> = {
  races: sql.raw("a.races"),
  distance: sql.raw("a.distance"),
  elevation: sql.raw("a.elevation"),
};

type RankingRow = UserCols & {
  user_id: number;
  races: number;
  distance: string | number;
  elevation: string | number;
  rank: string | number;
};

type TimelineRow = {
  kind: TimelineKind;
  id: number;
  at: string;
  event_id: number;
  course: string | null;
  time_ms: number | null;
  rank: number | null;
  score: number | null;
  excerpt: string | null;
  badge: string | null;
  distance: number | null;
  e_slug: string;
  e_name: string;
  e_start: string;
  e_city: string | null;
} & Partial<UserCols> & { user_id: number | null };

const TIMELINE_FILTER: Record<TimelineType, TimelineKind[]> = {
  all: ["result", "planning", "rating", "comment", "badge", "event"],
  results: ["result"],
  planning: ["planning"],
  ratings: ["rating"],
  comments: ["comment"],
  badges: ["badge"],
  events: ["event"],
};

/** How long a ranked list is reused before it is read again (results change a few times a day). */
export const RANKING_CACHE_MS = 60_000;

/** Characters of a comment shown in the timeline. */
const EXCERPT_LENGTH = 160;

export function communityService(db: Db, clock: () => Date) {
  /** Where the member lives, when their town names a commune (the most populous of that name). */
  async function memberTown(userId: number): Promise<{ name: string; lat: number; lng: number } | null> {
    const [town] = await rows<{ name: string; lat: number; lng: number }>(
      db,
      sql`SELECT c.name, c.lat, c.lng FROM users u
          JOIN communes c ON immutable_unaccent(lower(c.name)) = immutable_unaccent(lower(trim(u.city)))
          WHERE u.id = ${userId} AND u.city IS NOT NULL AND u.city <> ''
          ORDER BY c.population DESC, c.code LIMIT 1`,
    );
    return town ?? null;
  }

  type RankedMember = RankingEntry & { userId: number };
  /** Whole ranked lists by period, order and last day, with the time they were read. */
  const rankings = new Map<string, { readAt: number; list: Promise<RankedMember[]> }>();

  /** One ranked list, from memory when read less than RANKING_CACHE_MS ago. */
  function rankedList(period: RankingPeriod, order: RankingOrder, from: string | null, to: string) {
    const key = `${period}:${order}:${to}`;
    const kept = rankings.get(key);
    if (kept && performance.now() - kept.readAt < RANKING_CACHE_MS) return kept.list;
    const list = readRanking(order, from, to);
    rankings.set(key, { readAt: performance.now(), list });
    // A failed read is not kept.
    list.catch(() => rankings.delete(key));
    for (const [other, entry] of rankings) {
      if (performance.now() - entry.readAt >= RANKING_CACHE_MS) rankings.delete(other);
    }
    return list;
  }

  async function readRanking(order: RankingOrder, from: string | null, to: string): Promise<RankedMember[]> {
    const value = ORDER_COLUMN[order];
    const dateFilter = from
      ? sql`e.start_date BETWEEN ${from}::date AND ${to}::date`
      : sql`e.start_date <= ${to}::date`;
    const list = await rows<RankingRow>(
      db,
      sql`WITH agg AS (
            SELECT r.user_id, count(*)::int AS races,
                   coalesce(sum(c.distance), 0)::bigint AS distance,
                   coalesce(sum(c.elevation_gain), 0)::bigint AS elevation
            FROM results r
            JOIN events e ON e.id = r.event_id
            JOIN courses c ON c.id = r.course_id
            WHERE r.user_id IS NOT NULL AND r.status = 'finished' AND ${dateFilter}
            GROUP BY r.user_id
          )
          SELECT a.user_id, a.races, a.distance, a.elevation,
                 rank() OVER (ORDER BY ${value} DESC) AS rank,
                 u.slug, u.pseudo, u.first_name, u.last_name, u.photo, u.updated_at, u.city
          FROM agg a JOIN users u ON u.id = a.user_id
          WHERE ${PUBLIC_MEMBER} AND ${value} > 0
          ORDER BY ${value} DESC, ${SORT_NAME}, a.user_id`,
    );
    return list.map((r) => ({
      ...card(r),
      userId: r.user_id,
      rank: Number(r.rank),
      races: Number(r.races),
      distance: Number(r.distance),
      elevation: Number(r.elevation),
    }));
  }

  return {
    /**
     * GET /api/rankings/{period}/{order}: public members ranked by finished results, distance or
     * D+ over the editions of the period. Equal values share a rank (SQL rank()); within a rank,
     * by name. The whole ranked list of a period and order is one statement (the aggregate over
     * the members' finished results, then the window functions), kept in memory for
     * RANKING_CACHE_MS: pages and the caller's own line are read from it (bench: `--only rankings`).
     */
    async ranking(
      period: RankingPeriod,
      order: RankingOrder,
      options: { page?: number; viewerId?: number } = {},
    ): Promise<Ranking> {
      const { from, to } = rankingWindow(period, clock());
      const page = options.page ?? 1;
      const offset = (page - 1) * RANKING_PAGE_SIZE;
      const list = await rankedList(period, order, from, to);
      const found = options.viewerId ? list.find((entry) => entry.userId === options.viewerId) : undefined;
      const shown = list.slice(offset, offset + RANKING_PAGE_SIZE);
      // The list may be a minute old: a member who made their profile private (or was disabled)
      // since is left out of the page at once (one query on the page's ids, by primary key).
      const ids = [...shown, ...(found ? [found] : [])].map((entry) => entry.userId);
      const stillPublic = new Set(
        ids.length
          ? (
              await rows<{ id: number }>(
                db,
                sql`SELECT u.id FROM users u WHERE u.id IN (${sql.join(ids, sql`, `)}) AND ${PUBLIC_MEMBER}`,
              )
            ).map((r) => r.id)
          : [],
      );
      const mine = found && stillPublic.has(found.userId) ? found : undefined;
      const strip = ({ userId: _, ...entry }: RankedMember): RankingEntry => entry;
      return {
        period,
        order,
        from,
        to,
        page,
        pageSize: RANKING_PAGE_SIZE,
        total: list.length,
        entries: shown.filter((entry) => stillPublic.has(entry.userId)).map(strip),
        me: mine ? strip(mine) : null,
      };
    },

    /** Drops the rankings kept in memory (after results, profiles or accounts change). */
    forgetRankings(): void {
      rankings.clear();
    },

    /**
     * GET /api/timeline/{type}: the community's activity, newest first. Each kind is read newest
     * first up to one page past the cursor (only public, enabled members' activity on published
     * editions), then merged. The cursor is the last item's (time with microseconds, kind, id).
     */
    async timeline(type: TimelineType, options: { cursor?: string; viewerId?: number } = {}): Promise<Timeline> {
      const kinds = TIMELINE_FILTER[type];
      const limit = TIMELINE_PAGE_SIZE + 1;
      const [cursorAt, cursorKind, cursorId] = options.cursor ? options.cursor.split("~") : [];
      const before = (at: SQL, kind: string, id: SQL) =>
        options.cursor
          ? sql`AND (${at}, ${kind}::text, ${id}) < (${cursorAt}::timestamptz, ${cursorKind}::text, ${Number(cursorId)})`
          : sql``;
      const near = options.viewerId ? await memberTown(options.viewerId) : null;
      const USER = sql.raw(
        "u.id AS user_id, u.slug, u.pseudo, u.first_name, u.last_name, u.photo, u.updated_at, u.city",
      );
      const NO_USER = sql.raw(
        "NULL::int AS user_id, NULL AS slug, NULL AS pseudo, NULL AS first_name, NULL AS last_name, NULL AS photo, NULL::timestamptz AS updated_at, NULL AS city",
      );
      const parts: SQL[] = [];
      if (kinds.includes("result")) {
        const at = sql.raw("coalesce(r.claimed_at, r.created_at)");
        parts.push(sql`(SELECT 'result' AS kind, r.id, ${at} AS at, r.event_id, c.name AS course,
            r.time_ms, r.rank, NULL::int AS score, NULL AS excerpt, NULL AS badge, NULL::float8 AS distance, ${USER}
          FROM results r JOIN users u ON u.id = r.user_id JOIN courses c ON c.id = r.course_id
          JOIN events e ON e.id = r.event_id
          WHERE r.user_id IS NOT NULL AND r.status = 'finished' AND e.status = 'active' AND ${PUBLIC_MEMBER}
            ${before(at, "result", sql.raw("r.id"))}
          ORDER BY at DESC, r.id DESC LIMIT ${limit})`);
      }
      if (kinds.includes("planning")) {
        parts.push(sql`(SELECT 'planning' AS kind, p.id, p.created_at AS at, p.event_id, c.name AS course,
            NULL::int AS time_ms, NULL::int AS rank, NULL::int AS score, NULL AS excerpt, NULL AS badge, NULL::float8 AS distance, ${USER}
          FROM calendar_entries p JOIN users u ON u.id = p.user_id JOIN courses c ON c.id = p.course_id
          JOIN events e ON e.id = p.event_id
          WHERE p.status IN ('planned', 'registered') AND e.status = 'active' AND ${PUBLIC_MEMBER}
            ${before(sql.raw("p.created_at"), "planning", sql.raw("p.id"))}
          ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit})`);
      }
      if (kinds.includes("rating")) {
        parts.push(sql`(SELECT 'rating' AS kind, g.id, g.created_at AS at, g.event_id, NULL AS course,
            NULL::int AS time_ms, NULL::int AS rank, g.overall::int AS score, NULL AS excerpt, NULL AS badge, NULL::float8 AS distance, ${USER}
          FROM ratings g JOIN users u ON u.id = g.user_id JOIN events e ON e.id = g.event_id
          WHERE e.status = 'active' AND ${PUBLIC_MEMBER}
            ${before(sql.raw("g.created_at"), "rating", sql.raw("g.id"))}
          ORDER BY g.created_at DESC, g.id DESC LIMIT ${limit})`);
      }
      if (kinds.includes("comment")) {
        parts.push(sql`(SELECT 'comment' AS kind, m.id, m.created_at AS at, m.target_id AS event_id, NULL AS course,
            NULL::int AS time_ms, NULL::int AS rank, NULL::int AS score, left(m.body, ${EXCERPT_LENGTH + 1}) AS excerpt,
            NULL AS badge, NULL::float8 AS distance, ${USER}
          FROM comments m JOIN users u ON u.id = m.user_id JOIN events e ON e.id = m.target_id
          WHERE m.target_type = 'event' AND m.deleted_at IS NULL AND e.status = 'active' AND ${PUBLIC_MEMBER}
            ${before(sql.raw("m.created_at"), "comment", sql.raw("m.id"))}
          ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit})`);
      }
      if (kinds.includes("badge")) {
        parts.push(sql`(SELECT 'badge' AS kind, b.id, b.awarded_at AS at, r.event_id, c.name AS course,
            NULL::int AS time_ms, NULL::int AS rank, b.level::int AS score, NULL AS excerpt, b.code AS badge, NULL::float8 AS distance, ${USER}
          FROM user_badges b JOIN users u ON u.id = b.user_id
          JOIN results r ON r.id = b.result_id JOIN courses c ON c.id = r.course_id JOIN events e ON e.id = r.event_id
          WHERE e.status = 'active' AND ${PUBLIC_MEMBER}
            -- A course's finisher badge comes with every result: the result's own item says it.
            AND b.code NOT LIKE ${`${FINISHER_PREFIX}%`}
            ${before(sql.raw("b.awarded_at"), "badge", sql.raw("b.id"))}
          ORDER BY b.awarded_at DESC, b.id DESC LIMIT ${limit})`);
      }
      if (kinds.includes("event") && near) {
        const here = sql`ll_to_earth(${near.lat}::float8, ${near.lng}::float8)`;
        const since = new Date(clock().getTime() - NEW_EVENTS_DAYS * 86_400_000);
        parts.push(sql`(SELECT 'event' AS kind, e.id, e.created_at AS at, e.id AS event_id, NULL AS course,
            NULL::int AS time_ms, NULL::int AS rank, NULL::int AS score, NULL AS excerpt, NULL AS badge,
            earth_distance(${here}, ll_to_earth(e.lat, e.lng)) AS distance, ${NO_USER}
          FROM events e
          WHERE e.status = 'active' AND NOT e.cancelled AND e.created_at >= ${since.toISOString()}::timestamptz
            AND e.start_date >= ${parisToday(clock())}::date AND e.lat IS NOT NULL
            AND earth_box(${here}, ${NEARBY_EVENTS_RADIUS_M}::float8) @> ll_to_earth(e.lat, e.lng)
            AND earth_distance(${here}, ll_to_earth(e.lat, e.lng)) <= ${NEARBY_EVENTS_RADIUS_M}
            ${before(sql.raw("e.created_at"), "event", sql.raw("e.id"))}
          ORDER BY e.created_at DESC, e.id DESC LIMIT ${limit})`);
      }
      if (!parts.length) return { type, items: [], next: null, near: near?.name ?? null };
      const list = await rows<TimelineRow>(
        db,
        sql`SELECT i.kind, i.id, to_char(i.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
                   i.event_id, i.course, i.time_ms, i.rank, i.score, i.excerpt, i.badge, i.distance,
                   i.user_id, i.slug, i.pseudo, i.first_name, i.last_name, i.photo, i.updated_at, i.city,
                   e.slug AS e_slug, e.name AS e_name, e.start_date::text AS e_start, e.city AS e_city
            FROM (${sql.join(parts, sql` UNION ALL `)}) i
            JOIN events e ON e.id = i.event_id
            ORDER BY i.at DESC, i.kind DESC, i.id DESC LIMIT ${limit}`,
      );
      const page = list.slice(0, TIMELINE_PAGE_SIZE);
      const last = page[page.length - 1];
      const items = page.map(
        (r): TimelineItem => ({
          kind: r.kind,
          id: r.id,
          at: r.at,
          member: r.user_id ? card(r as UserCols) : null,
          event: { id: r.event_id, slug: r.e_slug, name: r.e_name, startDate: r.e_start, city: r.e_city },
          course: r.course,
          timeMs: r.time_ms,
          rank: r.rank,
          score: r.score,
          excerpt:
            r.excerpt === null
              ? null
              : r.excerpt.length > EXCERPT_LENGTH
                ? `${r.excerpt.slice(0, EXCERPT_LENGTH).trimEnd()}…`
                : r.excerpt,
          badge: r.badge,
          distance: r.distance === null ? null : Math.round(Number(r.distance)),
        }),
      );
      return {
        type,
        items,
        next: list.length > TIMELINE_PAGE_SIZE && last ? `${last.at}~${last.kind}~${last.id}` : null,
        near: near?.name ?? null,
      };
    },

    /**
     * GET /api/community/users/{sort}: public members, searchable by name, town and sport; newest
     * members first, the most active (finished results over the last year, then all time), or by name.
     */
    async directory(sort: DirectorySort, query: DirectoryQuery): Promise<Directory> {
      const page = query.page ?? 1;
      const like = (value: string) => `%${value.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;
      const conditions: SQL[] = [sql.raw("u.public_profile AND u.disabled_at IS NULL")];
      if (query.q) {
        conditions.push(
          sql`immutable_unaccent(lower(u.pseudo || ' ' || u.first_name || ' ' || u.last_name)) LIKE immutable_unaccent(${like(query.q)})`,
        );
      }
      if (query.city) {
        conditions.push(
          sql`immutable_unaccent(lower(coalesce(u.city, ''))) LIKE immutable_unaccent(${like(query.city)})`,
        );
      }
      if (query.sport) conditions.push(sql`${query.sport} = ANY(u.sports)`);
      const yearAgo = shiftDay(parisToday(clock()), "year", 1);
      const orderBy =
        sort === "newest"
          ? sql`u.created_at DESC, u.id DESC`
          : sort === "active"
            ? sql`recent DESC, races DESC, last_race_at DESC NULLS LAST, u.id DESC`
            : sql`${SORT_NAME}, u.id`;
      const list = await rows<
        UserCols & {
          id: number;
          sports: string[];
          created_at: string | Date;
          races: number;
          recent: number;
          last_race_at: string | null;
          total: number;
        }
      >(
        db,
        sql`SELECT u.id, u.slug, u.pseudo, u.first_name, u.last_name, u.photo, u.updated_at, u.city, u.sports,
                   u.created_at, coalesce(s.races, 0)::int AS races, coalesce(s.recent, 0)::int AS recent,
                   s.last_race_at::text AS last_race_at, count(*) OVER ()::int AS total
            FROM users u
            LEFT JOIN LATERAL (
              SELECT count(*) AS races, count(*) FILTER (WHERE e.start_date >= ${yearAgo}::date) AS recent,
                     max(e.start_date) AS last_race_at
              FROM results r JOIN events e ON e.id = r.event_id
              WHERE r.user_id = u.id AND r.status = 'finished'
            ) s ON true
            WHERE ${sql.join(conditions, sql` AND `)}
            ORDER BY ${orderBy}
            LIMIT ${DIRECTORY_PAGE_SIZE} OFFSET ${(page - 1) * DIRECTORY_PAGE_SIZE}`,
      );
      let total = list[0]?.total ?? 0;
      if (!list.length && page > 1) {
        const [count] = await rows<{ n: number }>(
          db,
          sql`SELECT count(*)::int AS n FROM users u WHERE ${sql.join(conditions, sql` AND `)}`,
        );
        total = count?.n ?? 0;
      }
      return {
        sort,
        page,
        pageSize: DIRECTORY_PAGE_SIZE,
        total,
        members: list.map((u) => ({
          ...card(u),
          sports: u.sports ?? [],
          memberSince: new Date(u.created_at).toISOString(),
          races: u.races,
          lastRaceAt: u.last_race_at,
        })),
      };
    },

    /**
     * GET /api/community/finishers/{event}: how many finished the edition, the members with a
     * public profile among them (named, best rank first) and how many others (counted only).
     * Null when the edition does not exist or is not published.
     */
    async finishers(eventId: number): Promise<Finishers | null> {
      const [event] = await rows<{ id: number }>(
        db,
        sql`SELECT id FROM events WHERE id = ${eventId} AND status = 'active'`,
      );
      if (!event) return null;
      const [[counts], members] = await Promise.all([
        rows<{ finishers: number; private_members: number }>(
          db,
          sql`SELECT count(*)::int AS finishers,
                     count(*) FILTER (WHERE r.user_id IS NOT NULL AND NOT (${PUBLIC_MEMBER}))::int AS private_members
              FROM results r LEFT JOIN users u ON u.id = r.user_id
              WHERE r.event_id = ${eventId} AND r.status = 'finished'`,
        ),
        rows<UserCols & { course: string; time_ms: number | null; rank: number | null }>(
          db,
          sql`SELECT u.slug, u.pseudo, u.first_name, u.last_name, u.photo, u.updated_at, u.city,
                     c.name AS course, r.time_ms, r.rank
              FROM results r JOIN users u ON u.id = r.user_id JOIN courses c ON c.id = r.course_id
              WHERE r.event_id = ${eventId} AND r.status = 'finished' AND ${PUBLIC_MEMBER}
              ORDER BY c.distance DESC NULLS LAST, c.id, r.rank NULLS LAST, r.time_ms NULLS LAST, r.id
              LIMIT 200`,
        ),
      ]);
      return {
        eventId,
        finishers: counts?.finishers ?? 0,
        members: members.map((m) => ({ ...card(m), course: m.course, timeMs: m.time_ms, rank: m.rank })),
        privateMembers: counts?.private_members ?? 0,
      };
    },
  };
}
export type CommunityService = ReturnType<typeof communityService>;
