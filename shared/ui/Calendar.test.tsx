import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { createI18n } from "../i18n/index.ts";
import { Calendar, calendarTypeFor } from "./Calendar.tsx";
import { toIsoDate } from "./date-range.ts";

const june2025 = new Date(2025, 5, 1);
const weekdayTitles = (container: HTMLElement) =>
  [...container.querySelectorAll(".react-calendar__month-view__weekdays abbr")].map((abbr) =>
    abbr.getAttribute("title"),
  );

describe("Calendar", () => {
  it("starts weeks on Monday in French and in English (ISO weeks, spec §9)", () => {
    expect(calendarTypeFor("fr")).toBe("iso8601");
    expect(calendarTypeFor("en")).toBe("iso8601");

    const { container, unmount } = render(<Calendar defaultActiveStartDate={june2025} />);
    expect(weekdayTitles(container)[0]).toBe("lundi");
    expect(weekdayTitles(container)[6]).toBe("dimanche");
    unmount();

    const en = render(
      <I18nextProvider i18n={createI18n("en")}>
        <Calendar defaultActiveStartDate={june2025} />
      </I18nextProvider>,
    );
    expect(weekdayTitles(en.container)[0]).toBe("Monday");
    expect(weekdayTitles(en.container)[6]).toBe("Sunday");
    // 1 June 2025 is a Sunday: the last day of the first row.
    const firstRow = [...en.container.querySelectorAll(".react-calendar__month-view__days__day")].slice(0, 7);
    expect(firstRow.map((day) => day.querySelector("abbr")?.getAttribute("aria-label"))).toEqual([
      "26 May 2025",
      "27 May 2025",
      "28 May 2025",
      "29 May 2025",
      "30 May 2025",
      "31 May 2025",
      "1 June 2025",
    ]);
    expect(screen.getByRole("button", { name: "Previous month" })).toBeInTheDocument();
  });

  it("has translated navigation labels that follow the view, from month up to century", async () => {
    const user = userEvent.setup();
    render(<Calendar defaultActiveStartDate={june2025} />);
    expect(screen.getByRole("group", { name: "Calendrier" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Mois précédent" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Mois suivant" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Année précédente" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Année suivante" })).toBeInTheDocument();

    const zoomOut = () => screen.getByRole("button", { name: /\(vue d'ensemble\)$/ });
    expect(zoomOut()).toHaveTextContent("juin 2025");
    await user.click(zoomOut());
    expect(screen.getByRole("button", { name: "Année précédente" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Décennie précédente" })).toBeInTheDocument();

    expect(zoomOut()).toHaveTextContent("2025");
    await user.click(zoomOut());
    expect(screen.getByRole("button", { name: "Décennie suivante" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Siècle suivant" })).toBeInTheDocument();

    expect(zoomOut()).toHaveTextContent("2021 – 2030");
    await user.click(zoomOut());
    expect(screen.getByRole("button", { name: "Siècle précédent" })).toBeInTheDocument();
    expect(zoomOut()).toHaveTextContent("2001 – 2100");
    expect(zoomOut()).toBeDisabled();
  });

  it("reports a clicked day", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Calendar defaultActiveStartDate={june2025} onChange={onChange} />);
    await user.click(screen.getByRole("button", { name: "18 juin 2025" }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(toIsoDate(onChange.mock.calls[0][0])).toBe("2025-06-18");
  });

  it("reports a range once both ends are picked", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Calendar defaultActiveStartDate={june2025} selectRange onChange={onChange} />);
    await user.click(screen.getByRole("button", { name: "10 juin 2025" }));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "14 juin 2025" }));
    const [start, end] = onChange.mock.calls[0][0] as [Date, Date];
    expect([toIsoDate(start), toIsoDate(end)]).toEqual(["2025-06-10", "2025-06-14"]);
  });

  it("disables days outside min and max dates", () => {
    render(
      <Calendar defaultActiveStartDate={june2025} minDate={new Date(2025, 5, 10)} maxDate={new Date(2025, 5, 20)} />,
    );
    expect(screen.getByRole("button", { name: "9 juin 2025" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "10 juin 2025" })).not.toBeDisabled();
    expect(screen.getByRole("button", { name: "20 juin 2025" })).not.toBeDisabled();
    expect(screen.getByRole("button", { name: "21 juin 2025" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Mois précédent" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Mois suivant" })).toBeDisabled();
  });
});
