import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { NBSP } from "../../../shared/format.ts";
import { createI18n } from "../../../shared/i18n/index.ts";
import type { CalendarEntry, CalendarResponse } from "../engagement.contract.ts";
import { PlanningView } from "./PlanningView.tsx";

function entry(id: number, day: string, course: Partial<CalendarEntry["course"]>): CalendarEntry {
  return {
    id,
    courseId: 100 + id,
    eventId: 200 + id,
    status: "planned",
    shown: "planned",
    past: false,
    targetTime: null,
    course: { name: "Course", distance: null, duration: null, elevationGain: null, startAt: null, ...course },
    event: {
      slug: `course-${id}`,
      name: `Course ${id}`,
      sport: "running",
      startDate: day,
      endDate: day,
      city: "Sarcelles",
      departmentCode: "95",
      cancelled: false,
      postponed: false,
    },
  };
}

/** Three races in February 2027 (seen from November 2026) and one without a distance in 2028. */
const data: CalendarResponse = {
  entries: [
    entry(1, "2027-02-07", { name: "5 km", distance: 5000, elevationGain: 11 }),
    entry(2, "2027-02-09", { name: "8 km", distance: 8000, elevationGain: 11 }),
    entry(3, "2027-02-13", { name: "Le Trail des Cimes – 35 km", distance: 35000, elevationGain: 1250 }),
    entry(4, "2028-03-05", { name: "Marche nordique" }),
  ],
  months: [
    { month: "2027-02", races: 3, distance: 48000, elevationGain: 1272 },
    { month: "2028-03", races: 1, distance: 0, elevationGain: 0 },
  ],
  years: [
    { year: "2027", races: 3, distance: 48000, elevationGain: 1272 },
    { year: "2028", races: 1, distance: 0, elevationGain: 0 },
  ],
};

function renderPlanning(locale: "fr" | "en" = "fr", feedUrl: string | null = null) {
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: <PlanningView data={data} feedUrl={feedUrl} locale={locale} today="2026-11-28" />,
      },
    ],
    { initialEntries: ["/user/planning"] },
  );
  return render(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

const totals = () => screen.getByRole("region", { name: /^(Totaux|Totals) / });
const figures = () =>
  within(totals())
    .getAllByRole("definition")
    .map((dd) => dd.textContent);

describe("the planning", () => {
  it("totals the year the calendar shows, the next race's at first, then the one the member moves to", async () => {
    const user = userEvent.setup();
    renderPlanning();
    // Seen in November 2026, the season shown is February 2027's.
    const shown = () => screen.getByRole("button", { name: /\(vue d'ensemble\)$/ }).textContent;
    expect(shown()).toBe("février 2027 (vue d'ensemble)");
    expect(within(totals()).getByRole("heading")).toHaveTextContent("Totaux 2027");
    expect(figures()).toEqual(["3", `48${NBSP}km`, `D+${NBSP}1\u202f272${NBSP}m`]);
    // A year on: 2028, whose race has no distance, reads 0 km, not 0 m.
    await user.click(screen.getByRole("button", { name: "Année suivante" }));
    expect(within(totals()).getByRole("heading")).toHaveTextContent("Totaux 2028");
    expect(figures()).toEqual(["1", `0${NBSP}km`, `D+${NBSP}0${NBSP}m`]);
    expect(screen.getAllByTestId("planning-month")[1]?.textContent).toBe(
      `mars 20281 course0${NBSP}kmD+${NBSP}0${NBSP}m`,
    );
    // Back a month at a time into 2027.
    await user.click(screen.getByRole("button", { name: "Année précédente" }));
    await user.click(screen.getByRole("button", { name: "Mois précédent" }));
    expect(shown()).toBe("janvier 2027 (vue d'ensemble)");
    expect(within(totals()).getByRole("heading")).toHaveTextContent("Totaux 2027");
  });

  it("writes a course's distance once, whether or not its name gives it", () => {
    renderPlanning();
    const lines = within(screen.getByTestId("planning-list"))
      .getAllByRole("article")
      .map((article) => article.querySelectorAll("p")[1]?.textContent);
    expect(lines).toEqual([
      `5 km · D+${NBSP}11${NBSP}m · Sarcelles`,
      `8 km · D+${NBSP}11${NBSP}m · Sarcelles`,
      `Le Trail des Cimes – 35 km · D+${NBSP}1\u202f250${NBSP}m · Sarcelles`,
      "Marche nordique · Sarcelles",
    ]);
  });

  it("adds the feed to Google, Apple or Outlook in one click", () => {
    const url = "https://dossard.example/api/user/calendar.ics?token=abc_123";
    renderPlanning("en", url);
    const apps = screen.getByTestId("planning-feed-apps");
    expect(within(apps).getByRole("link", { name: "Google Calendar (new tab)" })).toHaveAttribute(
      "href",
      "https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Fdossard.example%2Fapi%2Fuser%2Fcalendar.ics%3Ftoken%3Dabc_123",
    );
    expect(within(apps).getByRole("link", { name: "Apple Calendar" })).toHaveAttribute(
      "href",
      "webcal://dossard.example/api/user/calendar.ics?token=abc_123",
    );
    expect(within(apps).getByRole("link", { name: "Outlook (new tab)" })).toHaveAttribute(
      "href",
      "https://outlook.live.com/calendar/0/addfromweb?url=https%3A%2F%2Fdossard.example%2Fapi%2Fuser%2Fcalendar.ics%3Ftoken%3Dabc_123&name=My%20Dossard%20planning",
    );
    expect(screen.getByLabelText("iCalendar address of my planning")).toHaveValue(url);
  });

  it("starts the English calendar's weeks on Monday", () => {
    renderPlanning("en");
    const weekdays = [...document.querySelectorAll(".react-calendar__month-view__weekdays abbr")];
    expect(weekdays.map((abbr) => abbr.getAttribute("title"))).toEqual([
      "Monday",
      "Tuesday",
      "Wednesday",
      "Thursday",
      "Friday",
      "Saturday",
      "Sunday",
    ]);
  });
});
