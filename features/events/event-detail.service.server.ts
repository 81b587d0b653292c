import { and, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import type { Locale } from "../../shared/constants.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { type Actor, eventAccess } from "./event-access.server.ts";
import type { EventPageData } from "./event-detail.contract.ts";
import { buildEventIcs } from "./event-ics.server.ts";
import { eventLinkService } from "./event-links.server.ts";
import { eventRecords } from "./event-record.server.ts";
import { eventTrackService } from "./event-tracks.server.ts";
import { events } from "./events.tables.ts";
import type { TrackProfileOf } from "./track-profile-port.ts";

export { buildEventIcs } from "./event-ics.server.ts";
export { redirectPath, safeExternalUrl } from "./event-links.server.ts";
export { gpxPath } from "./event-tracks.server.ts";

/**
 * One event with everything its page shows; only active events are public. Composes the event's
 * record (event-record), its tracks (event-tracks), its links and their clicks (event-links) and
 * its iCalendar file (event-ics). `deps.trackProfile`: the tracks' elevation profile (track-profile-port).
 */
export function eventDetailService(db: Db, clock: () => Date, deps: { trackProfile: TrackProfileOf }) {
  const records = eventRecords(db, clock);
  const trackService = eventTrackService(db, deps.trackProfile);
  const { findEvent } = records;

  return {
    /** An active event by numeric id, or null. */
    byId: (id: number) => findEvent(eq(events.id, id)),

    /** An active event by slug, or null. */
    bySlug: (slug: string) => findEvent(eq(events.slug, slug)),

    /** The event page's data: the event and, for each course with a track, a line and a profile to draw. */
    async page(slug: string, viewer: Actor | null = null): Promise<EventPageData | null> {
      if (!/^[a-z0-9][a-z0-9-]{0,200}$/.test(slug)) return null;
      let event = await findEvent(eq(events.slug, slug));
      let pending = false;
      // A listing waiting for moderation: its page for its editors only (owner, organisers, admins).
      if (!event && viewer) {
        const [row] = await db
          .select({ id: events.id })
          .from(events)
          .where(and(eq(events.slug, slug), eq(events.status, "pending")))
          .limit(1);
        const access = row ? await eventAccess(db, viewer, row.id) : null;
        if (row && access && access !== "member") {
          event = await findEvent(eq(events.id, row.id), "pending");
          pending = true;
        }
      }
      if (!event) return null;
      const tracks = await trackService.pageTracks(event.courses.flatMap((c) => (c.track ? [c.track.id] : [])));
      return { event, tracks, today: parisToday(clock()), ...(pending ? { pending: true as const } : {}) };
    },

    currentSlug: records.currentSlug,
    editions: records.editions,
    course: records.course,

    track: trackService.track,
    trackSummaries: trackService.trackSummaries,
    trackFeatures: trackService.trackFeatures,
    elevation: trackService.elevation,
    gpx: trackService.gpx,

    /** The event as an iCalendar file with one all-day VEVENT, for "add to my calendar". */
    async ics(id: number, locale: Locale = "fr"): Promise<{ filename: string; body: string } | null> {
      const event = await findEvent(eq(events.id, id));
      if (!event) return null;
      return { filename: `${event.slug}.ics`, body: buildEventIcs(event, { locale, now: clock() }) };
    },

    ...eventLinkService(db, clock),
  };
}
