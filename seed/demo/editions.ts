/**
 * A series' editions as rows: each event (dates, state, links, contact, options, description,
 * landscape image), its courses with their prices and maybe a GPS track, and its history.
 */
import type { EventOptions } from "../../features/events/events.tables.ts";
import { slugify } from "../../features/geo/slugify.ts";
import { timeZoneOfDepartment } from "../../features/geo/time-zone.ts";
import { generatedImagePath } from "../../features/illustrations/event-images.ts";
import type { Rng } from "../../platform/prng.ts";
import type { SportKey } from "../../shared/constants.ts";
import { zonedTime } from "../../shared/zoned-time.ts";
import type {
  DemoCourse,
  DemoEvent,
  DemoEventRow,
  DemoHistoryRow,
  DemoSeries,
  DemoTrackRow,
} from "./catalogue-rows.ts";
import { type CatalogueState, uniqueSlug } from "./catalogue-state.ts";
import type { CourseSpec } from "./courses.ts";
import { fromDayNumber } from "./dates.ts";
import { demoLandscape } from "./landscapes.ts";
import { type EventName, eventDescription } from "./names.ts";
import type { Place, Terrain } from "./places.ts";
import { priceRows } from "./prices.ts";
import { synthesizeTrack } from "./track.ts";

const TRACKED_SPORTS = new Set<SportKey>([
  "running",
  "half_marathon",
  "marathon",
  "trail",
  "short_trail",
  "ultra_trail",
]);
/** Share of trail and running courses that come with a GPS track. */
const TRACK_SHARE = 0.13;

/** Phone numbers in the ranges ARCEP reserves for fiction (01 99 00…, 06 39 98…). */
function fictionalPhone(rng: Rng): string {
  const prefix = rng.pick(["01 99 00", "02 61 91", "03 53 01", "04 65 71", "05 36 49", "06 39 98"]);
  return `${prefix} ${String(rng.int(0, 99)).padStart(2, "0")} ${String(rng.int(0, 99)).padStart(2, "0")}`;
}

/** What a series keeps from year to year; its editions are drawn from it. */
export type SeriesPlan = {
  sport: SportKey;
  place: Place;
  naming: EventName;
  organizer: string;
  specs: CourseSpec[];
  /** Where each course starts and finishes when not at the venue (well-known point-to-point races). */
  ends: { from?: string; to?: string }[];
  scope: "local" | "regional" | "national" | "international";
  big: boolean;
  terrain: Terrain;
  venue: string;
  address: string;
  hour: number;
  minute: number;
  multiDay: number;
  /** The day each edition was planned for, oldest first, 364 days apart (the same weekday). */
  days: number[];
  firstEdition: number;
  /** A well-known race: never cancelled, postponed or left pending. */
  famous: boolean;
  /** One edition shown cancelled, or put off by so many weeks (`showcase`). */
  state?: { edition: number; cancelled?: boolean; postponedWeeks?: [number, number] };
  about?: string;
};

/** The editions of a series, oldest first, and its group when it has several. */
export function seriesOf(state: CatalogueState, rng: Rng, plan: SeriesPlan): DemoSeries {
  const { departmentNames, todayDay, last, eventSlugs, groupSlugs } = state;
  const { sport, place, naming, organizer, specs, scope, big, terrain, venue, address, hour, minute, multiDay } = plan;
  const name = naming.name;
  const departmentName = departmentNames.get(place.departmentCode) ?? place.departmentCode;
  const timeZone = timeZoneOfDepartment(place.departmentCode);
  const editionCount = plan.days.length;
  const baseLat = place.lat + rng.range(-0.012, 0.012);
  const baseLng = place.lng + rng.range(-0.016, 0.016);
  const slugBase = slugify(name);
  const group = editionCount > 1 ? { name, slug: uniqueSlug(slugBase, groupSlugs) } : null;
  const social = {
    facebook: rng.chance(0.6),
    instagram: rng.chance(0.4),
    x: rng.chance(0.1),
    youtube: rng.chance(0.08),
    vimeo: rng.chance(0.03),
  };
  const hasContact = rng.chance(0.85);
  const phone = rng.chance(0.5) ? fictionalPhone(rng) : null;
  const options: EventOptions = {
    refuelling: specs.some((s) => (s.distance ?? 0) >= 8_000 || s.duration !== null) || rng.chance(0.3),
    meal: rng.chance(sport === "ultra_trail" || sport === "trail" ? 0.6 : 0.3),
    cloakroom: rng.chance(terrain === "town" ? 0.7 : 0.35),
    showers: rng.chance(0.5),
    reward: rng.chance(0.65),
  };
  const volunteers = Math.max(10, Math.round((specs[0].bibQuota ?? 200) / rng.range(4, 10) / 5) * 5);
  const isCompetition = !/^Rando|^Randonnée/.test(name);
  const postalCode = place.postalCodes[0] ?? null;
  // Tracks start at the venue: none for a course that starts or ends elsewhere, nor for a vertical climb.
  const trackDraws = specs.map(
    (s, i) =>
      TRACKED_SPORTS.has(sport) &&
      s.distance !== null &&
      s.type !== "kids" &&
      s.type !== "walk" &&
      s.type !== "virtual" &&
      !plan.ends[i]?.from &&
      !plan.ends[i]?.to &&
      (s.elevationGain ?? 0) <= s.distance * 0.15 &&
      rng.chance(TRACK_SHARE),
  );
  // The start is in the village or close above it (a car park, a ski front), never below its valley.
  const baseElevation = Math.max(place.floor, 2, place.elevation + rng.range(-10, 40));
  const road = sport === "running" || sport === "marathon" || sport === "half_marathon";

  const editions: DemoEvent[] = [];
  for (let e = 0; e < editionCount; e++) {
    const originalDay = plan.days[e];
    let startDay = originalDay;
    // A showcase's edition is as it says; a well-known race is held as planned; the others are
    // sometimes cancelled, or put off by a few weeks within their year (the next edition stays in
    // the next year).
    const shown = plan.state?.edition === e ? plan.state : undefined;
    const steady = plan.famous || shown !== undefined;
    const cancelled = shown?.cancelled ?? (!steady && rng.chance(0.02));
    let postponed = false;
    const weeks = shown?.postponedWeeks ?? (!steady && !cancelled && rng.chance(0.02) ? [2, 10] : null);
    if (weeks) {
      const shifted = originalDay + 7 * rng.int(weeks[0], weeks[1]);
      const sameYear = fromDayNumber(shifted).slice(0, 4) === fromDayNumber(originalDay).slice(0, 4);
      if (shifted + multiDay <= last && (sameYear || e === editionCount - 1)) {
        startDay = shifted;
        postponed = true;
      }
    }
    const date = fromDayNumber(startDay);
    const endDate = fromDayNumber(startDay + multiDay);
    const year = Number(date.slice(0, 4));
    const slug = uniqueSlug(`${slugBase}-${year}`, eventSlugs);
    const edition = plan.firstEdition + e;
    const past = startDay < todayDay;
    const opensDay = originalDay - rng.int(120, 240);
    const createdDay = Math.min(todayDay, opensDay - rng.int(5, 60));
    const createdAt = new Date(createdDay * 86_400_000 + rng.int(7, 20) * 3_600_000 + rng.int(0, 59) * 60_000);
    const status = !steady && rng.chance(past ? 0.01 : 0.08) ? "pending" : "active";
    const checked = status === "active" && (steady || rng.chance(past ? 0.95 : 0.82));
    const inflation = 1 + 0.03 * (e - (editionCount - 1));
    const event: DemoEventRow = {
      slug,
      name,
      description: eventDescription(
        {
          name,
          city: place.name,
          departmentName,
          departmentCode: place.departmentCode,
          date,
          edition,
          terrain,
          courses: specs,
          options: options as Record<string, boolean>,
          organizer,
          volunteers,
          about: plan.about,
        },
        rng,
      ),
      organizerName: organizer,
      isCompetition,
      isOwner: rng.chance(0.4),
      isConnected: naming.connected ?? false,
      contactEmail: hasContact ? `contact@${slugify(organizer).slice(0, 40)}.example.org` : null,
      contactPhone: phone,
      options,
      website: rng.chance(0.85) ? `https://example.org/courses/${slugBase}` : null,
      registrationUrl: past && rng.chance(0.3) ? null : `https://inscriptions.example.com/${slug}`,
      registrationOpensAt: zonedTime(fromDayNumber(opensDay), 10, 0, timeZone),
      liveTrackingUrl: big || (sport === "ultra_trail" && rng.chance(0.5)) ? `https://live.example.net/${slug}` : null,
      facebookUrl: social.facebook ? `https://facebook.example.com/${slugBase}` : null,
      instagramUrl: social.instagram ? `https://instagram.example.com/${slugBase.replace(/-/g, "_")}` : null,
      xUrl: social.x ? `https://x.example.com/${slugBase.replace(/-/g, "").slice(0, 15)}` : null,
      youtubeUrl: social.youtube ? `https://youtube.example.com/@${slugBase}` : null,
      vimeoUrl: social.vimeo ? `https://vimeo.example.com/${slugBase}` : null,
      liveVideoUrl: big && rng.chance(0.3) ? `https://video.example.net/live/${slug}` : null,
      address,
      zipcode: postalCode,
      city: place.name,
      place: venue,
      countryCode: "FR",
      communeCode: place.code,
      departmentCode: place.departmentCode,
      regionCode: place.regionCode,
      lat: Math.round(baseLat * 1e6) / 1e6,
      lng: Math.round(baseLng * 1e6) / 1e6,
      startDate: date,
      endDate,
      originalDate: postponed ? fromDayNumber(originalDay) : null,
      cancelled,
      postponed,
      scope,
      status,
      checkStatus: checked ? "checked" : "to_check",
      dateConfirmed: checked && (steady || rng.chance(0.92)),
      createdAt,
      updatedAt: new Date(Math.max(createdAt.getTime(), Math.min(todayDay, startDay) * 86_400_000)),
    };

    const eventCourses: DemoCourse[] = specs.map((spec, position) => {
      // After a night start of the main course, the shorter ones start the next morning; a
      // well-known race's courses may start on later days.
      const nextMorning = spec.startOffset > 0 && hour >= 21;
      const startMinutes = (nextMorning ? 7 * 60 : hour * 60 + minute) + spec.startOffset;
      const courseDay = (nextMorning ? startDay + 1 : startDay) + Math.floor(startMinutes / 1440);
      const startAt = zonedTime(
        fromDayNumber(courseDay),
        Math.floor(startMinutes / 60) % 24,
        startMinutes % 60,
        timeZone,
      );
      const prices = priceRows(rng, spec, originalDay, opensDay, inflation);
      let track: DemoTrackRow | null = null;
      if (trackDraws[position] && spec.distance !== null) {
        const t = synthesizeTrack(rng, {
          lat: baseLat,
          lng: baseLng,
          distance: spec.distance,
          elevationGain: spec.elevationGain ?? 0,
          baseElevation,
          floor: place.floor,
          ceiling: road ? Math.min(place.ceiling, baseElevation + 400) : place.ceiling,
          loop: !spec.pointToPoint,
          style: road && terrain === "town" ? "road" : "trail",
        });
        track = {
          name: `${name} – ${spec.name}`,
          points: t.points,
          distance: Math.round(t.stats.distance),
          elevationGain: Math.round(t.stats.elevationGain),
          elevationLoss: Math.round(t.stats.elevationLoss),
          minElevation: t.stats.minElevation === null ? null : Math.round(t.stats.minElevation),
          maxElevation: t.stats.maxElevation === null ? null : Math.round(t.stats.maxElevation),
          profile: t.profile,
          startLat: t.points[0][1],
          startLng: t.points[0][0],
          createdAt,
        };
      }
      const atVenue = `${venue}, ${place.name}`;
      const ends = plan.ends[position];
      return {
        course: {
          name: spec.name,
          type: spec.type,
          distance: spec.distance,
          duration: spec.duration,
          elevationGain: spec.elevationGain,
          bibQuota: spec.bibQuota,
          description: spec.description,
          startAt,
          startPlace: ends?.from ?? atVenue,
          finishPlace: ends
            ? (ends.to ?? atVenue)
            : spec.pointToPoint
              ? `${rng.pick(["Arrivée au sommet", "Place du village", "Refuge", "Station", "Lac"])} (${rng.int(5, 40)} km ${rng.pick(["au nord", "au sud", "à l'est", "à l'ouest"])})`
              : atVenue,
          refuellingPoints: spec.refuellingPoints,
          mandatoryEquipment: spec.mandatoryEquipment,
          minAge: spec.minAge,
          itraPoints: spec.itraPoints,
          utmbIndex: spec.utmbIndex,
          challenge: spec.challenge,
          complete: rng.chance(0.92),
          position,
        },
        prices,
        track,
      };
    });
    const distances = specs.map((s) => s.distance).filter((d): d is number => d !== null);
    event.maxElevation = specs.reduce<number | null>(
      (max, s) => (s.elevationGain === null ? max : Math.max(max ?? 0, s.elevationGain)),
      null,
    );
    event.minDistance = distances.length ? Math.min(...distances) : null;
    event.maxDistance = distances.length ? Math.max(...distances) : null;
    // A landscape of the main course instead of a photo, drawn when a page first shows it.
    const tracked = eventCourses.find((c) => c.track !== null);
    const landscape = generatedImagePath(
      demoLandscape({
        sport,
        terrain,
        slug,
        elevationGain: tracked?.course.elevationGain ?? specs[0].elevationGain,
        trackProfile: tracked?.track?.profile,
      }),
    );
    event.coverImage = landscape;
    event.headerImage = landscape;

    const history: DemoHistoryRow[] = [{ type: "creation", data: { source: "demo" }, createdAt }];
    if (status === "active")
      history.push({
        type: "validation",
        data: {},
        createdAt: new Date(createdAt.getTime() + rng.int(1, 5) * 86_400_000),
      });
    const announced = new Date(Math.min(todayDay, startDay - rng.int(7, 45)) * 86_400_000 + 9 * 3_600_000);
    if (cancelled) history.push({ type: "cancellation", data: { date }, createdAt: announced });
    if (postponed)
      history.push({
        type: "postponement",
        data: { originalDate: fromDayNumber(originalDay), date },
        createdAt: new Date(Math.min(todayDay, originalDay - rng.int(7, 45)) * 86_400_000 + 9 * 3_600_000),
      });
    editions.push({ sport, groupSlug: group?.slug ?? null, event, courses: eventCourses, history });
  }
  return { group, editions };
}
