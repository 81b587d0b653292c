/** An event as an iCalendar file (RFC 5545): one entry per race, built by race-ics.ts, written by ics.ts. */
import type { Locale } from "../../shared/constants.ts";
import { plainText } from "../../shared/meta.ts";
import type { EventDetail } from "./event-detail.contract.ts";
import { toIcs } from "./ics.ts";
import { eventIcsEvents } from "./race-ics.ts";

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
