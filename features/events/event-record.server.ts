/**
 * Loading one event with everything its page shows: its place (commune, department, region,
 * country, time zone), sport, series, links, images, courses with their prices (the current one
 * on today's date) and track summaries, and the series' other editions.
 */
import { and, asc, eq, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/client.server.ts";
import { eventImageUrl } from "../../shared/image-url.ts";
import { parisToday } from "../../shared/zoned-time.ts";
import { communes, countries, departments, regions } from "../geo/geo.tables.ts";
import { timeZoneOfDepartment } from "../geo/time-zone.ts";
import { sports } from "../sports/sports.tables.ts";
import { descriptionHtml } from "./description.server.ts";
import type { CourseDetail, CoursePrice, Edition, EventDetail } from "./event-detail.contract.ts";
import { eventLinks } from "./event-links.server.ts";
import { eventState } from "./event-state.ts";
import { toTrackSummary, trackSummaryColumns } from "./event-tracks.server.ts";
import { coursePrices, courses, eventFormerSlugs, eventGroups, eventImages, events, tracks } from "./events.tables.ts";

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

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Is a price period open on `today`? Open ends count as open. */
function isCurrent(p: { startsOn: string | null; endsOn: string | null }, today: string): boolean {
  return (p.startsOn === null || p.startsOn <= today) && (p.endsOn === null || today <= p.endsOn);
}

function pick(e: { id: number; slug: string; name: string; startDate: string; endDate: string }) {
  return { id: e.id, slug: e.slug, name: e.name, startDate: e.startDate, endDate: e.endDate };
}

export function eventRecords(db: Db, clock: () => Date) {
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

    const links = eventLinks(row);

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

  return {
    /** The event matching `where` with the given status (active by default), or null. */
    findEvent,

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
  };
}
