/**
 * schema.org structured data of an event page: a `SportsEvent` (with its location, organiser, offers
 * and status) and the page's `BreadcrumbList`. React Router renders them as
 * `<script type="application/ld+json">` from the route's meta, escaping `<`, `>` and `&`.
 *
 * Typed with Google's schema-dts: a property or an enumeration value schema.org does not have
 * does not compile. json-ld.test.ts checks what Google's Event guide asks for.
 */
import type {
  BreadcrumbList,
  EventStatusType,
  ItemAvailability,
  Offer,
  Place,
  SportsEvent,
  VirtualLocation,
  WithContext,
} from "schema-dts";
import { JSON_LD_MIN_RATINGS, type Locale } from "../../../shared/constants.ts";
import { plainText, truncateDescription } from "../../../shared/meta.ts";
import { isGeneratedImage } from "../../illustrations/event-images.ts";
import type { EventDetail } from "../event-detail.contract.ts";
import { hasStartTime, zonedIsoDateTime } from "./event-format.ts";

const SCHEMA = "https://schema.org";

export type JsonLdOptions = {
  locale: Locale;
  /** Absolute address of the page. */
  url: string;
  /** An address made absolute (the site's public origin). */
  absolute: (pathOrUrl: string) => string;
  /** The image when the event has none of its own (the default share image). */
  fallbackImage: string;
};

/**
 * eventStatus: cancelled → EventCancelled; postponed to a known new date → EventRescheduled with
 * previousStartDate (Google's guidance: EventPostponed is for a postponement without a new date,
 * which the catalogue never has); otherwise EventScheduled.
 */
export function eventStatusOf(event: Pick<EventDetail, "cancelled" | "postponed" | "originalDate">): EventStatusType {
  if (event.cancelled) return `${SCHEMA}/EventCancelled`;
  if (event.postponed) return event.originalDate ? `${SCHEMA}/EventRescheduled` : `${SCHEMA}/EventPostponed`;
  return `${SCHEMA}/EventScheduled`;
}

/**
 * Every offer says whether it can be bought: not once the event is cancelled or over
 * (Discontinued), else InStock (a postponed event is still held, on its new date).
 */
export function offerAvailabilityOf(event: Pick<EventDetail, "cancelled" | "state">): ItemAvailability {
  return event.cancelled || event.state === "finished" ? `${SCHEMA}/Discontinued` : `${SCHEMA}/InStock`;
}

/**
 * The event's own pictures, photos first (header, cover, gallery), then a drawn landscape it
 * shows; the fallback only when it has none.
 */
export function eventImagesOf(event: Pick<EventDetail, "headerImage" | "coverImage" | "images">): string[] {
  const all = [event.headerImage, event.coverImage, ...event.images.map((i) => i.url)].filter((url): url is string =>
    Boolean(url),
  );
  const unique = [...new Set(all)];
  return [...unique.filter((url) => !isGeneratedImage(url)), ...unique.filter((url) => isGeneratedImage(url))];
}

export function sportsEventJsonLd(event: EventDetail, options: JsonLdOptions): WithContext<SportsEvent> {
  const { place } = event;
  const tz = place.timeZone;
  const starts = event.courses.map((c) => c.startAt).filter((s): s is string => hasStartTime(s, tz));
  const first = starts.sort()[0];
  // The first start time when it falls on the first day; the bare date otherwise.
  const startDate =
    first && zonedIsoDateTime(first, tz).startsWith(event.startDate) ? zonedIsoDateTime(first, tz) : event.startDate;
  const registration = event.links.find((l) => l.type === "registration")?.url;
  const website = event.links.find((l) => l.type === "website")?.url;
  const sportName = options.locale === "en" ? event.sport.nameEn : event.sport.nameFr;
  const description = event.description ? truncateDescription(plainText(event.description), 500) : undefined;

  const location: Place | VirtualLocation = event.isConnected
    ? { "@type": "VirtualLocation", url: website ?? options.url }
    : {
        "@type": "Place",
        name: place.place ?? place.city ?? event.name,
        address: {
          "@type": "PostalAddress",
          ...(place.address ? { streetAddress: place.address } : {}),
          ...(place.zipcode ? { postalCode: place.zipcode } : {}),
          ...(place.city ? { addressLocality: place.city } : {}),
          ...(place.region ? { addressRegion: place.region.name } : {}),
          addressCountry: place.country.code,
        },
        ...(place.lat !== null && place.lng !== null
          ? { geo: { "@type": "GeoCoordinates", latitude: place.lat, longitude: place.lng } }
          : {}),
      };

  const availability = offerAvailabilityOf(event);
  const offers = event.courses.flatMap((course) =>
    course.prices.map(
      (price): Offer => ({
        "@type": "Offer",
        name: `${course.name} – ${price.label}`,
        price: price.price.toFixed(2),
        priceCurrency: "EUR",
        ...(price.startsOn ? { validFrom: price.startsOn } : {}),
        ...(price.endsOn ? { validThrough: price.endsOn } : {}),
        url: registration ?? options.url,
        availability,
      }),
    ),
  );

  const own = eventImagesOf(event);
  return {
    "@context": SCHEMA,
    "@type": "SportsEvent",
    name: event.name,
    ...(description ? { description } : {}),
    url: options.url,
    startDate,
    endDate: event.endDate,
    eventStatus: eventStatusOf(event),
    ...(event.postponed && event.originalDate ? { previousStartDate: event.originalDate } : {}),
    eventAttendanceMode: event.isConnected
      ? `${SCHEMA}/OnlineEventAttendanceMode`
      : `${SCHEMA}/OfflineEventAttendanceMode`,
    location,
    ...(event.organizerName
      ? { organizer: { "@type": "Organization", name: event.organizerName, ...(website ? { url: website } : {}) } }
      : {}),
    image: (own.length ? own : [options.fallbackImage]).map(options.absolute),
    sport: sportName,
    inLanguage: options.locale,
    ...(offers.length ? { offers } : {}),
    ...aggregateRatingOf(event),
  };
}

/** Members' ratings (features/ratings), once there are enough of them to mean something. */
function aggregateRatingOf(event: EventDetail): Record<string, unknown> {
  const { average, count } = event.rating;
  if (average === null || count < JSON_LD_MIN_RATINGS) return {};
  return {
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: average,
      ratingCount: count,
      bestRating: 5,
      worstRating: 1,
    },
  };
}

export function breadcrumbJsonLd(items: { name: string; url: string }[]): WithContext<BreadcrumbList> {
  return {
    "@context": SCHEMA,
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: item.name,
      item: item.url,
    })),
  };
}
