/**
 * An event's external links: only web addresses are followed, each through the site's own
 * `/redirect/{type}/{id}` address, whose clicks are counted per link type and day.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import type { EventLink, LinkType } from "./event-detail.contract.ts";
import { eventLinkClicks } from "./event-detail.tables.ts";
import { events } from "./events.tables.ts";

/** Where `/redirect/{type}/{id}` sends each link type: the event's column. */
export const LINK_FIELDS = {
  website: "website",
  registration: "registrationUrl",
  live: "liveTrackingUrl",
  facebook: "facebookUrl",
  instagram: "instagramUrl",
  x: "xUrl",
  youtube: "youtubeUrl",
  vimeo: "vimeoUrl",
  video: "liveVideoUrl",
} as const satisfies Record<LinkType, keyof typeof events.$inferSelect>;

/** Only web addresses are followed: never javascript:, data: or relative ones. */
export function safeExternalUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

export function redirectPath(type: LinkType, eventId: number, slug: string): string {
  return `/redirect/${type}/${eventId}/${encodeURIComponent(slug)}`;
}

/** The links an event's row holds (only web addresses), each with its redirect address. */
export function eventLinks(
  row: { id: number; slug: string } & Record<(typeof LINK_FIELDS)[LinkType], string | null>,
): EventLink[] {
  const links: EventLink[] = [];
  for (const [type, field] of Object.entries(LINK_FIELDS) as [LinkType, (typeof LINK_FIELDS)[LinkType]][]) {
    const url = safeExternalUrl(row[field]);
    if (url) links.push({ type, url, redirect: redirectPath(type, row.id, row.slug) });
  }
  return links;
}

export function eventLinkService(db: Db, clock: () => Date) {
  return {
    /** The external address behind `/redirect/{type}/{id}`, when the event is public and has it. */
    async linkTarget(type: LinkType, eventId: number): Promise<{ url: string; slug: string } | null> {
      const [row] = await db
        .select({ slug: events.slug, url: events[LINK_FIELDS[type]] })
        .from(events)
        .where(and(eq(events.id, eventId), eq(events.status, "active")))
        .limit(1);
      const url = safeExternalUrl(row?.url);
      return row && url ? { url, slug: row.slug } : null;
    },

    /** Counts one click on an event's link for today (Paris). */
    async recordClick(eventId: number, type: LinkType): Promise<void> {
      await db
        .insert(eventLinkClicks)
        .values({ eventId, type, day: parisToday(clock()), count: 1 })
        .onConflictDoUpdate({
          target: [eventLinkClicks.eventId, eventLinkClicks.type, eventLinkClicks.day],
          set: { count: sql`${eventLinkClicks.count} + 1` },
        });
    },

    /** Clicks per link type of an event (all days), for organisers and tests. */
    async clickCounts(eventId: number): Promise<Partial<Record<LinkType, number>>> {
      const rows = await db
        .select({ type: eventLinkClicks.type, n: sql<number>`sum(${eventLinkClicks.count})::int` })
        .from(eventLinkClicks)
        .where(eq(eventLinkClicks.eventId, eventId))
        .groupBy(eventLinkClicks.type);
      return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
    },
  };
}
