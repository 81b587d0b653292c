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
    expect(hint).toHaveTextContent("Mois : de 1 à 12.");

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
    expect(screen.getByText("Année : de 1 à 275760.")).toBeInTheDocument();
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
    expect(screen.getByText("Jour : de 1 à 30.")).toBeInTheDocument();

    await user.clear(part("Jour"));
    await user.type(part("Jour"), "29");
    await user.clear(part("Mois"));
    await user.type(part("Mois"), "2");
    // Typing 2 then 29 in April was reported, emptying the month reported null, and 29/02/2025 is ignored.
    expect(onChange.mock.calls).toEqual([["2025-04-02"], ["2025-04-29"], [null]]);
    expect(part("Jour")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Jour : de 1 à 28.")).toBeInTheDocument();

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
