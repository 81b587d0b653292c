import { describe, expect, it } from "vitest";
import type { EventDetail } from "../event-detail.contract.ts";
import { SAMPLE_EVENT } from "../event-detail.fixture.ts";
import { sportsEventJsonLd } from "./json-ld.ts";

const SCHEMA = "https://schema.org/";
const EVENT_STATUSES = ["EventScheduled", "EventCancelled", "EventPostponed", "EventRescheduled", "EventMovedOnline"];
const AVAILABILITIES = [
  "InStock",
  "SoldOut",
  "PreOrder",
  "PreSale",
  "Discontinued",
  "OutOfStock",
  "LimitedAvailability",
  "OnlineOnly",
  "InStoreOnly",
  "BackOrder",
  "MadeToOrder",
  "Reserved",
];

type Json = Record<string, unknown>;

/**
 * What Google's Event structured data guide (developers.google.com/search/docs/appearance/
 * structured-data/event) asks of an event: the required properties, the recommended ones we have
 * the data for, with their types and enumerations, and a status its offers agree with.
 */
function googleEventIssues(ld: Json): string[] {
  const issues: string[] = [];
  const need = (ok: unknown, what: string) => {
    if (!ok) issues.push(what);
  };
  const isoDay = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z))?$/;
  const isUrl = (value: unknown) => typeof value === "string" && /^https?:\/\/[^/]+/.test(value);
  need(ld["@context"] === "https://schema.org", "@context");
  need(["Event", "SportsEvent"].includes(String(ld["@type"])), "@type is an Event");
  need(typeof ld.name === "string" && ld.name.length > 0, "name");
  need(isoDay.test(String(ld.startDate)), "startDate in ISO 8601");
  if (ld.endDate !== undefined) need(isoDay.test(String(ld.endDate)), "endDate in ISO 8601");
  const location = ld.location as Json | undefined;
  if (location?.["@type"] === "VirtualLocation") need(isUrl(location.url), "location.url");
  else {
    need(location?.["@type"] === "Place", "location is a Place");
    const address = location?.address as Json | undefined;
    need(address?.["@type"] === "PostalAddress", "location.address is a PostalAddress");
    need(address?.addressLocality || address?.streetAddress || address?.postalCode, "location.address filled");
    need(typeof address?.addressCountry === "string", "location.address.addressCountry");
  }
  const status = String(ld.eventStatus ?? "");
  need(EVENT_STATUSES.map((s) => SCHEMA + s).includes(status), "eventStatus from EventStatusType");
  if (status === `${SCHEMA}EventRescheduled`) {
    need(isoDay.test(String(ld.previousStartDate)), "previousStartDate of a rescheduled event");
    need(ld.previousStartDate !== ld.startDate, "previousStartDate differs from startDate");
  }
  const images = ld.image as unknown[];
  need(Array.isArray(images) && images.length > 0 && images.every(isUrl), "image: absolute URLs");
  const organizer = ld.organizer as Json | undefined;
  if (organizer) {
    need(["Organization", "Person"].includes(String(organizer["@type"])), "organizer type");
    need(typeof organizer.name === "string", "organizer.name");
    if (organizer.url !== undefined) need(isUrl(organizer.url), "organizer.url");
  }
  for (const [i, offer] of ((ld.offers as Json[] | undefined) ?? []).entries()) {
    need(offer["@type"] === "Offer", `offers[${i}] type`);
    need(AVAILABILITIES.map((a) => SCHEMA + a).includes(String(offer.availability)), `offers[${i}].availability`);
    need(/^\d+(\.\d+)?$/.test(String(offer.price)), `offers[${i}].price`);
    need(/^[A-Z]{3}$/.test(String(offer.priceCurrency)), `offers[${i}].priceCurrency`);
    need(isUrl(offer.url), `offers[${i}].url`);
    if (offer.validFrom !== undefined) need(isoDay.test(String(offer.validFrom)), `offers[${i}].validFrom`);
    if (status === `${SCHEMA}EventCancelled`) {
      need(offer.availability !== `${SCHEMA}InStock`, `offers[${i}] of a cancelled event not InStock`);
    }
  }
  return issues;
}

/** The sample event with links, pictures and prices: what the JSON-LD is built from. */
const event: EventDetail = {
  ...SAMPLE_EVENT,
  name: "Trail des Crêtes",
  description: "<p>Une belle course.</p>",
  descriptionHtml: "<p>Une belle course.</p>",
  links: [
    { type: "website", url: "https://trail-des-cretes.fr/", redirect: "/redirect/website/42" },
    { type: "registration", url: "https://inscriptions.example.org/cretes", redirect: "/redirect/registration/42" },
  ],
  headerImage: "/media/events/42/header.webp",
  coverImage: "/media/art/trail-alpine-7.webp",
  images: [{ id: 1, url: "/media/events/42/gallery-1.webp", width: 1600, height: 900, caption: null }],
  courses: [
    {
      ...SAMPLE_EVENT.courses[0],
      prices: [
        { id: 1, label: "Early bird", startsOn: "2026-01-01", endsOn: "2026-03-31", price: 45, current: false },
        { id: 2, label: "Standard", startsOn: "2026-04-01", endsOn: null, price: 55.5, current: true },
      ],
    },
  ],
};

const options = {
  locale: "fr" as const,
  url: "https://dossard.fr/course/trail-des-cretes-2026",
  absolute: (path: string) => new URL(path, "https://dossard.fr").href,
  fallbackImage: "/images/share-default.png",
};

/** As a page carries it: JSON text. */
const ldOf = (e: EventDetail) => JSON.parse(JSON.stringify(sportsEventJsonLd(e, options))) as Json;

describe("sportsEventJsonLd", () => {
  it("gives Google's Event everything it asks for: place, start time in Paris, organiser with its site, offers", () => {
    const ld = ldOf(event);
    expect(googleEventIssues(ld)).toEqual([]);
    expect(ld.startDate).toBe("2026-06-13T07:30:00+02:00");
    expect(ld.eventStatus).toBe("https://schema.org/EventScheduled");
    expect(ld.organizer).toEqual({ "@type": "Organization", name: "Les Crêtes", url: "https://trail-des-cretes.fr/" });
    expect(ld.offers).toEqual([
      expect.objectContaining({ price: "45.00", availability: "https://schema.org/InStock", validFrom: "2026-01-01" }),
      expect.objectContaining({ price: "55.50", availability: "https://schema.org/InStock" }),
    ]);
    expect((ld.offers as Json[]).every((o) => o.url === "https://inscriptions.example.org/cretes")).toBe(true);
  });

  it("shows the event's own pictures, photos before a drawn landscape, and the default image only without them", () => {
    expect(ldOf(event).image).toEqual([
      "https://dossard.fr/media/events/42/header.webp",
      "https://dossard.fr/media/events/42/gallery-1.webp",
      "https://dossard.fr/media/art/trail-alpine-7.webp",
    ]);
    const bare = ldOf({ ...event, headerImage: null, coverImage: null, images: [] });
    expect(bare.image).toEqual(["https://dossard.fr/images/share-default.png"]);
    expect(googleEventIssues(bare)).toEqual([]);
  });

  it("a cancelled event: EventCancelled, and no offer still on sale", () => {
    const ld = ldOf({ ...event, cancelled: true, state: "cancelled" });
    expect(googleEventIssues(ld)).toEqual([]);
    expect(ld.eventStatus).toBe("https://schema.org/EventCancelled");
    expect((ld.offers as Json[]).map((o) => o.availability)).toEqual([
      "https://schema.org/Discontinued",
      "https://schema.org/Discontinued",
    ]);
  });

  it("a postponed event: rescheduled from its first date, its offers still on sale", () => {
    const ld = ldOf({ ...event, postponed: true, state: "postponed", originalDate: "2026-05-16" });
    expect(googleEventIssues(ld)).toEqual([]);
    expect(ld.eventStatus).toBe("https://schema.org/EventRescheduled");
    expect(ld.previousStartDate).toBe("2026-05-16");
    expect((ld.offers as Json[]).every((o) => o.availability === "https://schema.org/InStock")).toBe(true);
    // Without its first date, it is only postponed.
    expect(ldOf({ ...event, postponed: true, state: "postponed" }).eventStatus).toBe(
      "https://schema.org/EventPostponed",
    );
  });

  it("a finished event's offers are no longer on sale; an event without organiser or site has neither", () => {
    const over = ldOf({ ...event, state: "finished" });
    expect((over.offers as Json[]).every((o) => o.availability === "https://schema.org/Discontinued")).toBe(true);
    const plain = ldOf({ ...event, organizerName: null, links: [] });
    expect(plain.organizer).toBeUndefined();
    expect(googleEventIssues(plain)).toEqual([]);
    expect((plain.offers as Json[]).every((o) => o.url === options.url)).toBe(true);
  });

  it("the shape check itself refuses what Google would", () => {
    const ld = ldOf({ ...event, cancelled: true, state: "cancelled" });
    const broken = {
      ...ld,
      image: ["/relative.png"],
      offers: [{ ...(ld.offers as Json[])[0], availability: "https://schema.org/InStock", priceCurrency: "€" }],
    };
    delete (broken as Json).location;
    expect(googleEventIssues(broken)).toEqual([
      "location is a Place",
      "location.address is a PostalAddress",
      "location.address filled",
      "location.address.addressCountry",
      "image: absolute URLs",
      "offers[0].priceCurrency",
      "offers[0] of a cancelled event not InStock",
    ]);
  });
});
