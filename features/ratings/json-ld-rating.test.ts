import { describe, expect, it } from "vitest";
import { JSON_LD_MIN_RATINGS } from "../../shared/constants.ts";
import { sportsEventJsonLd } from "../events/components/json-ld.ts";
import { SAMPLE_EVENT } from "../events/event-detail.fixture.ts";

const event = SAMPLE_EVENT;

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
