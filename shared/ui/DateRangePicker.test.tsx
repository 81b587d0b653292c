import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { createI18n } from "../i18n/index.ts";
import { DateRangePicker } from "./DateRangePicker.tsx";

// Sunday 22 June 2025: its ISO week runs from Monday 16 to Sunday 22.
const sunday = new Date(2025, 5, 22, 15, 0);
// Wednesday 18 June 2025.
const wednesday = new Date(2025, 5, 18, 9, 0);

const trigger = () => screen.getByRole("button", { name: /Dates/ });
const quickNames = () =>
  within(screen.getByRole("group", { name: "Périodes rapides" }))
    .getAllByRole("button")
    .map((button) => button.textContent);

describe("DateRangePicker", () => {
  it("is closed until its trigger is pressed", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} />);
    expect(trigger()).toHaveAttribute("aria-expanded", "false");
    expect(trigger()).toHaveTextContent("Choisir des dates");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    await user.click(trigger());
    expect(trigger()).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("dialog", { name: "Choix des dates" })).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Calendrier" })).toBeInTheDocument();
  });

  it("closes on Escape and gives the focus back to the trigger", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} />);
    await user.click(trigger());
    expect(screen.getByRole("button", { name: "Cette semaine" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(trigger()).toHaveFocus();
  });

  it("shows this/next shortcuts by default and hides previous ones", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} />);
    await user.click(trigger());
    expect(quickNames()).toEqual(["Cette semaine", "Semaine prochaine", "Ce mois-ci", "Mois prochain"]);
  });

  it("shows this/previous shortcuts in past-only mode and hides next ones", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} future={false} />);
    await user.click(trigger());
    expect(quickNames()).toEqual(["Cette semaine", "Ce mois-ci", "Semaine dernière", "Mois dernier"]);
  });

  it("applies an ISO-week quick range (a Sunday belongs to the previous Monday's week) and closes", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(<DateRangePicker label="Dates" name="dates" today={sunday} onChange={onChange} />);
    await user.click(trigger());
    await user.click(screen.getByRole("button", { name: "Cette semaine" }));

    expect(onChange).toHaveBeenCalledWith({ startDate: "2025-06-16", endDate: "2025-06-22" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(trigger()).toHaveTextContent("16/06/25 – 22/06/25");
    expect(container.querySelector<HTMLInputElement>("input[name=dates]")).toHaveValue("2025-06-16|2025-06-22");

    await user.click(trigger());
    await user.click(screen.getByRole("button", { name: "Mois prochain" }));
    expect(onChange).toHaveBeenLastCalledWith({ startDate: "2025-07-01", endDate: "2025-07-31" });
  });

  it("highlights the shortcut equal to the current range", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} value="2025-06-23|2025-06-29" />);
    await user.click(trigger());
    const next = screen.getByRole("button", { name: "Semaine prochaine" });
    expect(next).toHaveAttribute("aria-pressed", "true");
    expect(next).toHaveClass("bg-blue-700", "underline");
    expect(screen.getByRole("button", { name: "Cette semaine" })).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByRole("button", { name: "Ce mois-ci" })).toHaveAttribute("aria-pressed", "false");
  });

  it("accepts a pair, a pipe string or an object as value", () => {
    const { rerender } = render(<DateRangePicker label="Dates" today={sunday} value={["2025-03-07", "2025-03-09"]} />);
    expect(trigger()).toHaveTextContent("07/03/25 – 09/03/25");
    rerender(<DateRangePicker label="Dates" today={sunday} value="2025-04-01|2025-04-30" />);
    expect(trigger()).toHaveTextContent("01/04/25 – 30/04/25");
    rerender(
      <DateRangePicker label="Dates" today={sunday} value={{ startDate: "2025-05-02", endDate: "2025-05-04" }} />,
    );
    expect(trigger()).toHaveTextContent("02/05/25 – 04/05/25");
    rerender(<DateRangePicker label="Dates" today={sunday} value={null} />);
    expect(trigger()).toHaveTextContent("Choisir des dates");
  });

  it("picks a range in the calendar, reports both ends as YYYY-MM-DD and closes", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateRangePicker label="Dates" today={sunday} onChange={onChange} />);
    await user.click(trigger());
    await user.click(screen.getByRole("button", { name: "10 juin 2025" }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole("dialog")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "14 juin 2025" }));
    expect(onChange).toHaveBeenCalledWith({ startDate: "2025-06-10", endDate: "2025-06-14" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(trigger()).toHaveTextContent("10/06/25 – 14/06/25");
  });

  it("allows one date only in single mode", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateRangePicker label="Dates" today={sunday} single onChange={onChange} />);
    expect(trigger()).toHaveTextContent("Choisir une date");
    await user.click(trigger());
    expect(screen.queryByRole("group", { name: "Périodes rapides" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "12 juin 2025" }));
    expect(onChange).toHaveBeenCalledWith({ startDate: "2025-06-12", endDate: "2025-06-12" });
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(trigger()).toHaveTextContent("12/06/25");
    expect(trigger()).not.toHaveTextContent("–");
  });

  it("starts on 2017-01-01 by default", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} value="2017-01-02|2017-01-03" />);
    await user.click(trigger());
    expect(screen.getByRole("button", { name: "31 décembre 2016" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "1 janvier 2017" })).not.toBeDisabled();
  });

  it("starts on minDate when given", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={sunday} minDate="2025-06-05" />);
    await user.click(trigger());
    expect(screen.getByRole("button", { name: "4 juin 2025" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "5 juin 2025" })).not.toBeDisabled();
  });

  it("with future=true runs from today to today + 5 years", async () => {
    const user = userEvent.setup();
    const { unmount } = render(<DateRangePicker label="Dates" today={wednesday} future />);
    await user.click(trigger());
    expect(screen.getByRole("button", { name: "17 juin 2025" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "18 juin 2025" })).not.toBeDisabled();
    unmount();

    render(<DateRangePicker label="Dates" today={wednesday} future value="2030-06-10|2030-06-12" />);
    await user.click(trigger());
    expect(screen.getByRole("button", { name: "18 juin 2030" })).not.toBeDisabled();
    expect(screen.getByRole("button", { name: "19 juin 2030" })).toBeDisabled();
  });

  it("clamps a future quick range to today", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateRangePicker label="Dates" today={wednesday} future onChange={onChange} />);
    await user.click(trigger());
    await user.click(screen.getByRole("button", { name: "Cette semaine" }));
    expect(onChange).toHaveBeenCalledWith({ startDate: "2025-06-18", endDate: "2025-06-22" });
  });

  it("with future=false ends today", async () => {
    const user = userEvent.setup();
    render(<DateRangePicker label="Dates" today={wednesday} future={false} />);
    await user.click(trigger());
    expect(screen.getByRole("button", { name: "18 juin 2025" })).not.toBeDisabled();
    expect(screen.getByRole("button", { name: "19 juin 2025" })).toBeDisabled();
  });

  it("empties the value and triggers a reset with the clear icon", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const onReset = vi.fn();
    const { container } = render(
      <DateRangePicker
        label="Dates"
        name="dates"
        today={sunday}
        defaultValue="2025-06-01|2025-06-05"
        onChange={onChange}
        onReset={onReset}
      />,
    );
    await user.click(screen.getByRole("button", { name: "Effacer les dates" }));
    expect(onChange).toHaveBeenCalledWith(null);
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(trigger()).toHaveTextContent("Choisir des dates");
    expect(container.querySelector<HTMLInputElement>("input[name=dates]")).toHaveValue("");
    expect(screen.queryByRole("button", { name: "Effacer les dates" })).not.toBeInTheDocument();
  });

  it("labels dates yy-MM-dd in English", () => {
    render(
      <I18nextProvider i18n={createI18n("en")}>
        <DateRangePicker label="Dates" today={sunday} value="2025-03-07|2025-03-09" />
      </I18nextProvider>,
    );
    expect(trigger()).toHaveTextContent("25-03-07 – 25-03-09");
    expect(screen.getByRole("button", { name: "Clear dates" })).toBeInTheDocument();
  });
});
