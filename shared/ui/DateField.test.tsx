import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { createI18n } from "../i18n/index.ts";
import { DateField } from "./DateField.tsx";

const part = (name: string) => screen.getByRole("textbox", { name });

async function typeDate(day: string, month: string, year: string) {
  const user = userEvent.setup();
  await user.type(part("Jour"), day);
  await user.type(part("Mois"), month);
  await user.type(part("Année"), year);
  return user;
}

describe("DateField", () => {
  it("shows day, month and year inputs in French order inside a named group", () => {
    render(<DateField label="Date de naissance" />);
    expect(screen.getByRole("group", { name: "Date de naissance" })).toBeInTheDocument();
    expect(screen.getAllByRole("textbox").map((input) => input.getAttribute("aria-label"))).toEqual([
      "Jour",
      "Mois",
      "Année",
    ]);
    expect(part("Année")).toHaveAttribute("placeholder", "AAAA");
  });

  it("reports YYYY-MM-DD once the date is complete", async () => {
    const onChange = vi.fn();
    const { container } = render(<DateField label="Date" name="date" onChange={onChange} />);
    await typeDate("7", "3", "2025");
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith("2025-03-07");
    expect(container.querySelector<HTMLInputElement>("input[name=date]")).toHaveValue("2025-03-07");
  });

  it("reports null when a part is emptied", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateField label="Date" defaultValue="2025-03-07" onChange={onChange} />);
    expect(part("Jour")).toHaveValue("07");
    await user.clear(part("Jour"));
    expect(onChange).toHaveBeenCalledWith(null);
  });

  it("rejects month 13 with a hint and puts back the last valid month on leaving", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateField label="Date" defaultValue="2025-03-07" onChange={onChange} />);
    await user.clear(part("Mois"));
    await user.type(part("Mois"), "13");
    expect(onChange).toHaveBeenLastCalledWith("2025-01-07");
    expect(onChange).not.toHaveBeenCalledWith(expect.stringMatching(/-13-/));
    expect(part("Mois")).toHaveAttribute("aria-invalid", "true");
    expect(part("Mois")).toHaveClass("border-red-600");
    const hint = document.getElementById(part("Mois").getAttribute("aria-describedby") ?? "");
    expect(hint).toHaveTextContent("Mois entre 1 et 12.");

    await user.click(document.body);
    expect(part("Mois")).toHaveValue("1");
    expect(part("Mois")).not.toHaveAttribute("aria-invalid");
  });

  it("rejects year 275761 and accepts 275760", async () => {
    const onChange = vi.fn();
    render(<DateField label="Date" onChange={onChange} />);
    const user = await typeDate("1", "1", "275761");
    expect(onChange).toHaveBeenLastCalledWith("27576-01-01");
    expect(part("Année")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Année entre 1 et 275760.")).toBeInTheDocument();
    await user.type(part("Année"), "{Backspace}0");
    expect(part("Année")).not.toHaveAttribute("aria-invalid");
    expect(onChange).toHaveBeenLastCalledWith("275760-01-01");
  });

  it("honours the number of days in the month", async () => {
    const onChange = vi.fn();
    render(<DateField label="Date" onChange={onChange} />);
    const user = await typeDate("31", "4", "2025");
    expect(onChange).not.toHaveBeenCalled();
    expect(part("Jour")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Le 31 avril n'existe pas.")).toBeInTheDocument();

    await user.clear(part("Jour"));
    await user.type(part("Jour"), "29");
    await user.clear(part("Mois"));
    await user.type(part("Mois"), "2");
    // Typing 2 then 29 in April was reported, emptying the month reported null, and 29/02/2025 is ignored.
    expect(onChange.mock.calls).toEqual([["2025-04-02"], ["2025-04-29"], [null]]);
    expect(part("Jour")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Le 29 février 2025 n'existe pas : 2025 n'est pas bissextile.")).toBeInTheDocument();

    await user.clear(part("Année"));
    await user.type(part("Année"), "2024");
    expect(onChange).toHaveBeenLastCalledWith("2024-02-29");
    expect(part("Jour")).not.toHaveAttribute("aria-invalid");
  });

  it("keeps the date between min and max", async () => {
    const onChange = vi.fn();
    render(<DateField label="Date" min="2020-01-01" max="2020-12-31" onChange={onChange} />);
    const user = await typeDate("15", "6", "2021");
    expect(onChange).not.toHaveBeenCalled();
    for (const name of ["Jour", "Mois", "Année"]) expect(part(name)).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("La date doit être comprise entre le 01/01/20 et le 31/12/20.")).toBeInTheDocument();

    await user.type(part("Année"), "{Backspace}0");
    expect(onChange).toHaveBeenLastCalledWith("2020-06-15");
    expect(part("Année")).not.toHaveAttribute("aria-invalid");
  });

  it("says which bound is broken when only one is given", async () => {
    render(<DateField label="Date" min={new Date(2020, 0, 1)} />);
    await typeDate("31", "12", "2019");
    expect(screen.getByText("La date doit être au plus tôt le 01/01/20.")).toBeInTheDocument();
  });

  it("follows a controlled value", () => {
    const { rerender } = render(<DateField aria-label="Date" value="2025-03-07" />);
    expect(screen.getByRole("group", { name: "Date" })).toBeInTheDocument();
    rerender(<DateField aria-label="Date" value="2024-12-25" />);
    expect(part("Jour")).toHaveValue("25");
    expect(part("Mois")).toHaveValue("12");
    expect(part("Année")).toHaveValue("2024");
    rerender(<DateField aria-label="Date" value={null} />);
    expect(part("Année")).toHaveValue("");
  });

  it("moves to the next box once one is full, and back with Backspace in an empty box", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateField label="Date" onChange={onChange} />);
    await user.click(part("Jour"));
    await user.keyboard("14062026");
    expect(onChange).toHaveBeenLastCalledWith("2026-06-14");
    expect(part("Année")).toHaveFocus();
    // Backspace empties the year, then goes back to the month, empties it, then back to the day.
    await user.keyboard("{Backspace}{Backspace}{Backspace}{Backspace}");
    expect(part("Année")).toHaveValue("");
    await user.keyboard("{Backspace}");
    expect(part("Mois")).toHaveFocus();
    await user.keyboard("{Backspace}{Backspace}{Backspace}");
    expect(part("Mois")).toHaveValue("");
    expect(part("Jour")).toHaveFocus();
    expect(part("Jour")).toHaveValue("14");
    // A day from 4 or a month from 2 cannot take a second digit: the box is full at once.
    await user.clear(part("Jour"));
    await user.keyboard("7");
    expect(part("Mois")).toHaveFocus();
    await user.keyboard("3");
    expect(part("Année")).toHaveFocus();
    await user.keyboard("2026");
    expect(onChange).toHaveBeenLastCalledWith("2026-03-07");
    // "1" may still become 10, 11 or 12: the month waits for its second digit.
    await user.clear(part("Mois"));
    await user.keyboard("1");
    expect(part("Mois")).toHaveFocus();
  });

  it.each([
    ["14/06/2026", "Jour"],
    ["2026-06-14", "Mois"],
    ["14.06.2026", "Année"],
  ])("fills the three boxes from %s pasted into the %s box", async (text, box) => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateField label="Date" name="date" onChange={onChange} />);
    await user.click(part(box));
    await user.paste(text);
    expect([part("Jour"), part("Mois"), part("Année")].map((input) => (input as HTMLInputElement).value)).toEqual([
      "14",
      "06",
      "2026",
    ]);
    expect(onChange).toHaveBeenCalledExactlyOnceWith("2026-06-14");
  });

  it("explains a pasted date that does not exist, in words announced to screen readers", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateField label="Date" onChange={onChange} />);
    await user.click(part("Jour"));
    await user.paste("31/02/2026");
    expect(onChange).not.toHaveBeenCalled();
    expect(part("Jour")).toHaveAttribute("aria-invalid", "true");
    expect(part("Jour")).toHaveAccessibleDescription("Le 31 février n'existe pas.");
    expect(screen.getByText("Le 31 février n'existe pas.").closest("[aria-live]")).toHaveAttribute(
      "aria-live",
      "polite",
    );
    await user.clear(part("Jour"));
    await user.type(part("Jour"), "32");
    expect(part("Jour")).toHaveAccessibleDescription("Jour entre 1 et 28.");
  });

  it("leaves text that is not a whole date to the box it was pasted into", async () => {
    const user = userEvent.setup();
    render(<DateField label="Date" />);
    await user.click(part("Mois"));
    await user.paste("6");
    expect(part("Mois")).toHaveValue("6");
    expect(part("Jour")).toHaveValue("");
  });

  it("explains in English too", async () => {
    const user = userEvent.setup();
    render(
      <I18nextProvider i18n={createI18n("en")}>
        <DateField label="Date" />
      </I18nextProvider>,
    );
    await user.click(part("Year"));
    await user.paste("2026-02-30");
    expect(part("Day")).toHaveAccessibleDescription("There is no 30 February.");
    await user.clear(part("Day"));
    await user.type(part("Day"), "29");
    expect(part("Day")).toHaveAccessibleDescription("There is no 29 February 2026: 2026 is not a leap year.");
    await user.clear(part("Month"));
    await user.type(part("Month"), "13");
    expect(part("Month")).toHaveAccessibleDescription("Month between 1 and 12.");
  });

  it("uses year, month, day order in English", () => {
    render(
      <I18nextProvider i18n={createI18n("en")}>
        <DateField label="Date" />
      </I18nextProvider>,
    );
    expect(screen.getAllByRole("textbox").map((input) => input.getAttribute("aria-label"))).toEqual([
      "Year",
      "Month",
      "Day",
    ]);
  });
});
