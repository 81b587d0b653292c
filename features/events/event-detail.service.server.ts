import { and, asc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import type { Locale } from "../../shared/constants.ts";
import { pagePath } from "../../shared/i18n/pages.ts";
import { eventImageUrl } from "../../shared/image-url.ts";
import { plainText } from "../../shared/meta.ts";
import { publicUrl } from "../../shared/public-url.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { communes, countries, departments, regions } from "../geo/geo.tables.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import { boundsOf, simplifySegmentsToCount, splitAtBreaks } from "../maps/geometry.ts";
import { sports } from "../sports/sports.tables.ts";
import { segmentedProfile } from "../tracks/track-stats.ts";
import { descriptionHtml } from "./description.server.ts";
import { type Actor, eventAccess } from "./event-access.server.ts";
import type {
  CourseDetail,
  CoursePrice,
  Edition,
  ElevationProfile,
  EventDetail,
  EventLink,
  EventPageData,
  EventPageTrack,
  LinkType,
  TrackFeature,
  TrackSummary,
} from "./event-detail.contract.ts";
import { eventLinkClicks } from "./event-detail.tables.ts";
import { eventState } from "./event-state.ts";
import {
  coursePrices,
  courses,
  eventFormerSlugs,
  eventGroups,
  eventImages,
  events,
  type TrackPoint,
  tracks,
} from "./events.tables.ts";
import { fileSlug, toGpx } from "./gpx.ts";
import { toIcs } from "./ics.ts";
import { eventIcsEvents } from "./race-ics.ts";

/** Where `/redirect/{type}/{id}` sends each link type: the event's column. */
const LINK_FIELDS = {
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

export function gpxPath(trackId: number): string {
  return `/track/export/${trackId}/gpx`;
}

const eventColumns = {
  id: events.id,
  slug: events.slug,
  name: events.name,
  description: events.description,
  organizerName: events.organizerName,
  isCompetition: events.isCompetition,
  isConnected: events.isConnected,
  scope: events.scope,
  startDate: events.startDate,
  endDate: events.endDate,
  originalDate: events.originalDate,
  cancelled: events.cancelled,
  postponed: events.postponed,
  checkStatus: events.checkStatus,
  dateConfirmed: events.dateConfirmed,
  registrationOpensAt: events.registrationOpensAt,
  options: events.options,
  website: events.website,
  registrationUrl: events.registrationUrl,
  liveTrackingUrl: events.liveTrackingUrl,
  facebookUrl: events.facebookUrl,
  instagramUrl: events.instagramUrl,
  xUrl: events.xUrl,
  youtubeUrl: events.youtubeUrl,
  vimeoUrl: events.vimeoUrl,
  liveVideoUrl: events.liveVideoUrl,
  place: events.place,
  address: events.address,
  zipcode: events.zipcode,
  city: events.city,
  lat: events.lat,
  lng: events.lng,
  headerImage: events.headerImage,
  coverImage: events.coverImage,
  ratingCount: events.ratingCount,
  ratingAverage: events.ratingAverage,
  updatedAt: events.updatedAt,
  groupId: events.groupId,
  groupName: eventGroups.name,
  groupSlug: eventGroups.slug,
  sportKey: sports.key,
  sportNameFr: sports.nameFr,
  sportNameEn: sports.nameEn,
  communeCode: communes.code,
  communeName: communes.name,
  departmentCode: departments.code,
  departmentName: departments.name,
  departmentSlug: departments.slug,
  regionCode: regions.code,
  regionName: regions.name,
  regionSlug: regions.slug,
  countryCode: countries.code,
  countryNameFr: countries.nameFr,
  countryNameEn: countries.nameEn,
};

const trackSummaryColumns = {
  id: tracks.id,
  name: tracks.name,
  courseId: tracks.courseId,
  distance: tracks.distance,
  elevationGain: tracks.elevationGain,
  elevationLoss: tracks.elevationLoss,
  minElevation: tracks.minElevation,
  maxElevation: tracks.maxElevation,
  startLat: tracks.startLat,
  startLng: tracks.startLng,
};
type TrackSummaryRow = { [K in keyof typeof trackSummaryColumns]: (typeof trackSummaryColumns)[K]["_"]["data"] | null };

function toTrackSummary(row: TrackSummaryRow): TrackSummary {
  return {
    id: row.id!,
    name: row.name!,
    courseId: row.courseId,
    distance: row.distance!,
    elevationGain: row.elevationGain!,
    elevationLoss: row.elevationLoss!,
    minElevation: row.minElevation,
    maxElevation: row.maxElevation,
    start: row.startLat !== null && row.startLng !== null ? { lat: row.startLat, lng: row.startLng } : null,
    gpx: gpxPath(row.id!),
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Is a price period open on `today`? Open ends count as open. */
function isCurrent(p: { startsOn: string | null; endsOn: string | null }, today: string): boolean {
  return (p.startsOn === null || p.startsOn <= today) && (p.endsOn === null || today <= p.endsOn);
}

/** Positions of a track for GeoJSON: [lng, lat, ele], or [lng, lat] where the elevation is unknown. */
function geoJsonPositions(points: readonly TrackPoint[]): number[][] {
  return points.map(([lng, lat, ele]) => (ele === null ? [lng, lat] : [lng, lat, ele]));
}

/** A track's line as GeoJSON: one LineString, or a MultiLineString when it has several segments. */
function geoJsonLine(points: readonly TrackPoint[], breaks: readonly number[]): TrackFeature["geometry"] {
  const segments = splitAtBreaks(points, breaks).filter((segment) => segment.length >= 2);
  if (segments.length <= 1) return { type: "LineString", coordinates: geoJsonPositions(segments[0] ?? points) };
  return { type: "MultiLineString", coordinates: segments.map(geoJsonPositions) };
}

/** One event with everything its page shows; only active events are public. */
export function eventDetailService(db: Db, clock: () => Date = () => new Date()) {
  /** The other active editions of an event's series, oldest first. */
  async function otherEditions(row: { id: number; groupId: number | null }) {
    if (!row.groupId) return [];
    return db
      .select({
        id: events.id,
        slug: events.slug,
        name: events.name,
        startDate: events.startDate,
        endDate: events.endDate,
        cancelled: events.cancelled,
        postponed: events.postponed,
      })
      .from(events)
      .where(and(eq(events.groupId, row.groupId), ne(events.id, row.id), eq(events.status, "active")))
      .orderBy(asc(events.startDate), asc(events.id));
  }

  async function findEvent(where: SQL, status: "active" | "pending" = "active"): Promise<EventDetail | null> {
    const [row] = await db
      .select(eventColumns)
      .from(events)
      .innerJoin(sports, eq(sports.id, events.sportId))
      .innerJoin(countries, eq(countries.code, events.countryCode))
      .leftJoin(communes, eq(communes.code, events.communeCode))
      .leftJoin(departments, eq(departments.code, events.departmentCode))
      .leftJoin(regions, eq(regions.code, events.regionCode))
      .leftJoin(eventGroups, eq(eventGroups.id, events.groupId))
      .where(and(where, eq(events.status, status)))
      .limit(1);
    if (!row) return null;
    const today = parisToday(clock());

    // Independent of one another: in parallel on a PostgreSQL pool (PGlite runs them in turn).
    const [courseRows, priceRows, trackRows, editionRows, imageRows] = await Promise.all([
      db.select().from(courses).where(eq(courses.eventId, row.id)).orderBy(asc(courses.position), asc(courses.id)),
      db
        .select({
          id: coursePrices.id,
          courseId: coursePrices.courseId,
          label: coursePrices.label,
          startsOn: coursePrices.startsOn,
          endsOn: coursePrices.endsOn,
          price: coursePrices.price,
        })
        .from(coursePrices)
        .innerJoin(courses, eq(courses.id, coursePrices.courseId))
        .where(eq(courses.eventId, row.id))
        .orderBy(sql`${coursePrices.startsOn} asc nulls first`, asc(coursePrices.id)),
      db
        .select(trackSummaryColumns)
        .from(tracks)
        .innerJoin(courses, eq(courses.id, tracks.courseId))
        .where(eq(courses.eventId, row.id))
        .orderBy(asc(tracks.id)),
      otherEditions(row),
      db
        .select()
        .from(eventImages)
        .where(eq(eventImages.eventId, row.id))
        .orderBy(asc(eventImages.position), asc(eventImages.id)),
    ]);

    const links: EventLink[] = [];
    for (const [type, field] of Object.entries(LINK_FIELDS) as [LinkType, (typeof LINK_FIELDS)[LinkType]][]) {
      const url = safeExternalUrl(row[field]);
      if (url) links.push({ type, url, redirect: redirectPath(type, row.id, row.slug) });
    }

    const courseList: CourseDetail[] = courseRows.map((c) => {
      const prices: CoursePrice[] = priceRows
        .filter((p) => p.courseId === c.id)
        .map((p) => ({
          id: p.id,
          label: p.label,
          startsOn: p.startsOn,
          endsOn: p.endsOn,
          price: Number(p.price),
          current: isCurrent(p, today),
        }));
      // Overlapping periods: only the first open one is current.
      let seen = false;
      for (const p of prices) {
        if (p.current && seen) p.current = false;
        if (p.current) seen = true;
      }
      const track = trackRows.find((t) => t.courseId === c.id);
      return {
        id: c.id,
        name: c.name,
        type: c.type,
        // One answer per figure: the organiser's, else the track's (a timed race keeps its duration).
        distance: c.distance ?? (c.duration === null ? (track?.distance ?? null) : null),
        duration: c.duration,
        elevationGain: c.elevationGain ?? track?.elevationGain ?? null,
        startAt: iso(c.startAt),
        startPlace: c.startPlace,
        finishPlace: c.finishPlace,
        bibQuota: c.bibQuota,
        description: c.description,
        refuellingPoints: c.refuellingPoints,
        mandatoryEquipment: c.mandatoryEquipment,
        minAge: c.minAge,
        itraPoints: c.itraPoints,
        utmbIndex: c.utmbIndex,
        challenge: c.challenge,
        complete: c.complete,
        prices,
        track: track ? toTrackSummary(track) : null,
      };
    });

    const image = (file: string | null) => (file ? eventImageUrl(file, { dir: row.id }) : null);
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      sport: {
        key: row.sportKey as EventDetail["sport"]["key"],
        nameFr: row.sportNameFr,
        nameEn: row.sportNameEn,
      },
      description: row.description,
      descriptionHtml: descriptionHtml(row.description),
      organizerName: row.organizerName,
      isCompetition: row.isCompetition,
      isConnected: row.isConnected,
      scope: row.scope,
      startDate: row.startDate,
      endDate: row.endDate,
      originalDate: row.originalDate,
      cancelled: row.cancelled,
      postponed: row.postponed,
      state: eventState(row, today),
      checkStatus: row.checkStatus,
      dateConfirmed: row.dateConfirmed,
      registrationOpensAt: iso(row.registrationOpensAt),
      place: {
        place: row.place,
        address: row.address,
        zipcode: row.zipcode,
        city: row.city,
        commune: row.communeCode ? { code: row.communeCode, name: row.communeName! } : null,
        department: row.departmentCode
          ? { code: row.departmentCode, name: row.departmentName!, slug: row.departmentSlug! }
          : null,
        region: row.regionCode ? { code: row.regionCode, name: row.regionName!, slug: row.regionSlug! } : null,
        country: { code: row.countryCode, nameFr: row.countryNameFr, nameEn: row.countryNameEn },
        lat: row.lat,
        lng: row.lng,
        timeZone: timeZoneOfDepartment(row.departmentCode),
      },
      options: {
        refuelling: row.options.refuelling === true,
        meal: row.options.meal === true,
        cloakroom: row.options.cloakroom === true,
        showers: row.options.showers === true,
        reward: row.options.reward === true,
      },
      links,
      headerImage: image(row.headerImage),
      coverImage: image(row.coverImage),
      images: imageRows.map((i) => ({
        id: i.id,
        url: eventImageUrl(i.path, { dir: row.id }),
        width: i.width,
        height: i.height,
        caption: i.caption,
      })),
      group: row.groupId ? { id: row.groupId, name: row.groupName!, slug: row.groupSlug! } : null,
      courses: courseList,
      editions: editionRows.map(
        (e): Edition => ({
          id: e.id,
          slug: e.slug,
          name: e.name,
          startDate: e.startDate,
          endDate: e.endDate,
          state: eventState(e, today),
        }),
      ),
      rating: { average: row.ratingAverage, count: row.ratingCount },
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /** A track with its points, when its event is public. */
  async function findTrack(id: number) {
    const [row] = await db
      .select({
        ...trackSummaryColumns,
        points: tracks.points,
        breaks: tracks.breaks,
        createdAt: tracks.createdAt,
        eventId: events.id,
        eventSlug: events.slug,
        eventName: events.name,
        courseName: courses.name,
      })
      .from(tracks)
      .innerJoin(courses, eq(courses.id, tracks.courseId))
      .innerJoin(events, eq(events.id, courses.eventId))
      .where(and(eq(tracks.id, id), eq(events.status, "active")))
      .limit(1);
    return row ?? null;
  }

  function toFeature(row: NonNullable<Awaited<ReturnType<typeof findTrack>>>): TrackFeature {
    return {
      type: "Feature",
      id: row.id,
      bbox: boundsOf(row.points) ?? [0, 0, 0, 0],
      geometry: geoJsonLine(row.points, row.breaks),
      properties: { ...toTrackSummary(row), eventId: row.eventId, eventSlug: row.eventSlug },
    };
  }

  async function publicEventId(id: number): Promise<{ id: number; slug: string; name: string } | null> {
    const [row] = await db
      .select({ id: events.id, slug: events.slug, name: events.name })
      .from(events)
      .where(and(eq(events.id, id), eq(events.status, "active")))
      .limit(1);
    return row ?? null;
  }

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
      const trackIds = event.courses.flatMap((c) => (c.track ? [c.track.id] : []));
      const rows = trackIds.length
        ? await db
            .select({ id: tracks.id, courseId: tracks.courseId, points: tracks.points, breaks: tracks.breaks })
            .from(tracks)
            .where(inArray(tracks.id, trackIds))
        : [];
      const pageTracks: EventPageTrack[] = rows.map((t) => {
        const line = simplifySegmentsToCount(t.points, t.breaks, 300);
        const profile = segmentedProfile(t.points, t.breaks, 160);
        return {
          courseId: t.courseId!,
          trackId: t.id,
          line: line.points.map(([lng, lat]) => [Math.round(lng * 1e5) / 1e5, Math.round(lat * 1e5) / 1e5]),
          breaks: line.breaks,
          profile: profile.profile.map(([d, e]) => [d, Math.round(e)]),
          profileBreaks: profile.breaks,
        };
      });
      return { event, tracks: pageTracks, today: parisToday(clock()), ...(pending ? { pending: true as const } : {}) };
    },

    /**
     * The current slug of the event that had `slug` before a rename (issue 26 item 6), or null: its
     * pages answer the old address with a 301 (whether the viewer may see it is page()'s to say).
     */
    async currentSlug(slug: string): Promise<string | null> {
      if (!/^[a-z0-9][a-z0-9-]{0,200}$/.test(slug)) return null;
      const [row] = await db
        .select({ slug: events.slug })
        .from(eventFormerSlugs)
        .innerJoin(events, eq(events.id, eventFormerSlugs.eventId))
        .where(eq(eventFormerSlugs.slug, slug))
        .limit(1);
      return row && row.slug !== slug ? row.slug : null;
    },

    /**
     * The other editions of an event's series: all of them, only the past ones (ended before today)
     * or only the upcoming ones. Null when the event is not public.
     */
    async editions(id: number, reference: "all" | "past" | "upcoming" = "all") {
      const [row] = await db
        .select({
          id: events.id,
          slug: events.slug,
          name: events.name,
          groupId: eventGroups.id,
          groupName: eventGroups.name,
          groupSlug: eventGroups.slug,
        })
        .from(events)
        .leftJoin(eventGroups, eq(eventGroups.id, events.groupId))
        .where(and(eq(events.id, id), eq(events.status, "active")))
        .limit(1);
      if (!row) return null;
      const today = parisToday(clock());
      const list = await otherEditions(row);
      const editions = list
        .filter((e) =>
          reference === "past" ? e.endDate < today : reference === "upcoming" ? e.endDate >= today : true,
        )
        .map((e): Edition => ({ ...pick(e), state: eventState(e, today) }));
      return {
        event: { id: row.id, slug: row.slug, name: row.name },
        group: row.groupId ? { id: row.groupId, name: row.groupName!, slug: row.groupSlug! } : null,
        editions,
      };
    },

    /** A course of a public event, with its prices, track summary and event. */
    async course(id: number) {
      const [row] = await db.select({ eventId: courses.eventId }).from(courses).where(eq(courses.id, id)).limit(1);
      if (!row) return null;
      const event = await findEvent(eq(events.id, row.eventId));
      const course = event?.courses.find((c) => c.id === id);
      if (!event || !course) return null;
      return {
        course,
        event: {
          id: event.id,
          slug: event.slug,
          name: event.name,
          startDate: event.startDate,
          endDate: event.endDate,
          state: event.state,
        },
      };
    },

    /** A track as a GeoJSON LineString feature with its statistics. */
    async track(id: number): Promise<TrackFeature | null> {
      const row = await findTrack(id);
      return row ? toFeature(row) : null;
    },

    /** The tracks of a public event's courses, as summaries. Null when the event is not public. */
    async trackSummaries(eventId: number): Promise<TrackSummary[] | null> {
      if (!(await publicEventId(eventId))) return null;
      const rows = await db
        .select(trackSummaryColumns)
        .from(tracks)
        .innerJoin(courses, eq(courses.id, tracks.courseId))
        .where(eq(courses.eventId, eventId))
        .orderBy(asc(courses.position), asc(tracks.id));
      return rows.map(toTrackSummary);
    },

    /** The tracks of a public event's courses, as GeoJSON features. Null when the event is not public. */
    async trackFeatures(eventId: number): Promise<TrackFeature[] | null> {
      const event = await publicEventId(eventId);
      if (!event) return null;
      const rows = await db
        .select({ ...trackSummaryColumns, points: tracks.points, breaks: tracks.breaks })
        .from(tracks)
        .innerJoin(courses, eq(courses.id, tracks.courseId))
        .where(eq(courses.eventId, eventId))
        .orderBy(asc(courses.position), asc(tracks.id));
      return rows.map((row) => toFeature({ ...row, eventId: event.id, eventSlug: event.slug } as never));
    },

    /** A track's elevation profile resampled to `points` evenly spaced samples. */
    async elevation(id: number, points: number): Promise<ElevationProfile | null> {
      const row = await findTrack(id);
      if (!row) return null;
      const profile = segmentedProfile(row.points, row.breaks, points);
      return {
        id: row.id,
        distance: row.distance,
        elevationGain: row.elevationGain,
        elevationLoss: row.elevationLoss,
        minElevation: row.minElevation,
        maxElevation: row.maxElevation,
        points: profile.profile,
        breaks: profile.breaks,
      };
    },

    /** A track as a GPX 1.1 file, with a file name made of the event's slug and the course's name. */
    async gpx(id: number): Promise<{ filename: string; xml: string } | null> {
      const row = await findTrack(id);
      if (!row) return null;
      const xml = toGpx({
        name: row.name,
        time: row.createdAt,
        link: { href: publicUrl(pagePath("event", "fr", { slug: row.eventSlug })), text: row.eventName },
        points: row.points,
        breaks: row.breaks,
      });
      return { filename: `${fileSlug(row.eventSlug, row.courseName)}.gpx`, xml };
    },

    /** The event as an iCalendar file with one all-day VEVENT, for "add to my calendar". */
    async ics(id: number, locale: Locale = "fr"): Promise<{ filename: string; body: string } | null> {
      const event = await findEvent(eq(events.id, id));
      if (!event) return null;
      return { filename: `${event.slug}.ics`, body: buildEventIcs(event, { locale, now: clock() }) };
    },

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

function pick(e: { id: number; slug: string; name: string; startDate: string; endDate: string }) {
  return { id: e.id, slug: e.slug, name: e.name, startDate: e.startDate, endDate: e.endDate };
}

// ---------------------------------------------------------------------------------------------
// iCalendar (RFC 5545): one entry per race, built by race-ics.ts, written by ics.ts

/** The VCALENDAR text of one event: one VEVENT per course (race-ics.ts), CRLF line ends. */
export function buildEventIcs(event: EventDetail, options: { locale: Locale; now: Date }): string {
  const { place } = event;
  return toIcs({
    prodId: "-//Dossard//Calendrier des courses//FR",
    stamp: options.now,
    events: eventIcsEvents(
      {
        ...event,
        place: place.place,
        address: place.address,
        zipcode: place.zipcode,
        city: place.city,
        lat: place.lat,
        lng: place.lng,
        timeZone: place.timeZone,
        sport: options.locale === "en" ? event.sport.nameEn : event.sport.nameFr,
        updatedAt: new Date(event.updatedAt),
      },
      event.courses,
      { locale: options.locale, notes: [event.description ? plainText(event.description) : null] },
    ),
  });
}
