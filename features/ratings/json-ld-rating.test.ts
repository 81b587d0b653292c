import { describe, expect, it } from "vitest";
import { sportsEventJsonLd } from "../events/components/json-ld.ts";
import type { EventDetail } from "../events/event-detail.contract.ts";
import { JSON_LD_MIN_RATINGS } from "./ratings.contract.ts";

/** The iCalendar test's event (features/events/event-detail.ics.test.ts). */
const event: EventDetail = {
  id: 42,
  slug: "trail-des-cretes-2026",
  name: "Trail des Crêtes, 10e édition; le retour",
  sport: { key: "trail", nameFr: "Trail", nameEn: "Trail running" },
  description: "<p>Une <b>belle</b> course.</p>",
  descriptionHtml: "<p>Une <b>belle</b> course.</p>",
  organizerName: "Les Crêtes",
  isCompetition: true,
  isConnected: false,
  scope: "regional",
  startDate: "2026-06-13",
  endDate: "2026-06-14",
  originalDate: null,
  cancelled: false,
  postponed: false,
  state: "upcoming",
  checkStatus: "checked",
  dateConfirmed: true,
  registrationOpensAt: null,
  place: {
    place: "Salle des fêtes",
    address: "3 rue du Stade",
    zipcode: "38000",
    city: "Grenoble",
    commune: null,
    department: null,
    region: null,
    country: { code: "FR", nameFr: "France", nameEn: "France" },
    lat: 45.19,
    lng: 5.72,
    timeZone: "Europe/Paris",
  },
  options: { refuelling: true, meal: false, cloakroom: false, showers: false, reward: false },
  links: [],
  headerImage: null,
  coverImage: null,
  images: [],
  group: null,
  courses: [
    {
      id: 1,
      name: "Grand trail",
      type: "race",
      distance: 42_195,
      duration: null,
      elevationGain: 2100,
      startAt: "2026-06-13T05:30:00.000Z",
      startPlace: null,
      finishPlace: null,
      bibQuota: null,
      description: null,
      refuellingPoints: null,
      mandatoryEquipment: null,
      minAge: null,
      itraPoints: null,
      utmbIndex: null,
      challenge: null,
      complete: true,
      prices: [],
      track: null,
    },
  ],
  editions: [],
  rating: { average: null, count: 0 },
  updatedAt: "2026-05-01T08:00:00.000Z",
};

const options = {
  locale: "fr" as const,
  url: "https://dossard.example/course/trail",
  absolute: (path: string) => new URL(path, "https://dossard.example").href,
  fallbackImage: "/og-default.png",
};

describe("aggregateRating in the event's JSON-LD", () => {
  it("is left out below the minimum number of ratings", () => {
    const few = sportsEventJsonLd({ ...event, rating: { average: 4.5, count: JSON_LD_MIN_RATINGS - 1 } }, options);
    expect(few).not.toHaveProperty("aggregateRating");
    expect(sportsEventJsonLd({ ...event, rating: { average: null, count: 0 } }, options)).not.toHaveProperty(
      "aggregateRating",
    );
  });

  it("gives the average, the count and the scale once there are enough", () => {
    const enough = sportsEventJsonLd({ ...event, rating: { average: 4.33, count: 3 } }, options);
    expect(enough.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: 4.33,
      ratingCount: 3,
      bestRating: 5,
      worstRating: 1,
    });
  });
});
