import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { CourseDetail } from "../event-detail.contract.ts";
import { CourseCard } from "./CourseCard.tsx";
import { hasStartTime } from "./event-format.ts";

const course = (startAt: string | null, elevationGain: number | null = 1_200): CourseDetail => ({
  id: 1,
  name: "Trail des Crêtes",
  type: "race",
  distance: 25_000,
  duration: null,
  elevationGain,
  startAt,
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
});
const oneDay = { startDate: "2027-06-12", endDate: "2027-06-12", timeZone: "Europe/Paris" };
const weekend = { startDate: "2027-06-12", endDate: "2027-06-13", timeZone: "Europe/Paris" };

/** The "Départ" figure of the card. */
function start() {
  const label = screen.getByText("Départ");
  return within(label.closest("div") as HTMLElement).getByRole("definition").textContent;
}

describe("a course's start", () => {
  it("shows the time in the event's time zone", () => {
    render(<CourseCard course={course("2027-06-12T05:30:00Z")} event={oneDay} locale="fr" />);
    expect(start()).toBe("07:30");
  });

  it("says the time is to be confirmed when the course was saved without one, never 00:00", () => {
    render(<CourseCard course={course("2027-06-11T22:00:00Z")} event={oneDay} locale="fr" />);
    expect(start()).toBe("Horaire à préciser");
  });

  it("shows only the day of a course without a time on a several-day event", () => {
    render(<CourseCard course={course("2027-06-12T22:00:00Z")} event={weekend} locale="fr" />);
    expect(start()).toBe("dim. 13 juin");
  });

  it("reads midnight in the place's own time zone", () => {
    expect(hasStartTime("2027-06-11T22:00:00Z", "Europe/Paris")).toBe(false);
    expect(hasStartTime("2027-06-11T22:00:00Z", "America/Cayenne")).toBe(true);
    expect(hasStartTime(null, "Europe/Paris")).toBe(false);
  });
});

describe("a course's elevation gain", () => {
  /** The "Dénivelé positif" figure of the card. */
  const gain = (label: string) =>
    within(screen.getByText(label).closest("div") as HTMLElement).getByRole("definition").textContent;

  it("shows the metres when known", () => {
    render(<CourseCard course={course(null)} event={oneDay} locale="fr" />);
    expect(gain("Dénivelé positif")).toMatch(/^D\+\s1\s200\sm$/);
  });

  it("says unknown, never 0 m, when the course has none (a track without elevations)", () => {
    render(<CourseCard course={course(null, null)} event={oneDay} locale="fr" />);
    expect(gain("Dénivelé positif")).toBe("Inconnu");
  });
});
