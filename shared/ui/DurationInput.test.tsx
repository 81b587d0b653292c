import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DurationInput } from "./DurationInput.tsx";

const field = (name: "Heures" | "Minutes" | "Secondes") => screen.getByRole("textbox", { name });

describe("DurationInput", () => {
  it("shows labelled hours, minutes and seconds fields in a named group", () => {
    render(<DurationInput label="Temps" value={3723} />);
    expect(screen.getByRole("group", { name: "Temps" })).toBeInTheDocument();
    expect(field("Heures")).toHaveValue("01");
    expect(field("Minutes")).toHaveValue("02");
    expect(field("Secondes")).toHaveValue("03");
  });

  it("reports the duration in seconds", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(<DurationInput label="Temps" name="time" onChange={onChange} />);
    await user.type(field("Heures"), "1");
    await user.type(field("Minutes"), "2");
    await user.type(field("Secondes"), "3");
    expect(onChange).toHaveBeenLastCalledWith(3723);
    expect(container.querySelector<HTMLInputElement>("input[name=time]")).toHaveValue("3723");
  });

  it("counts empty parts as 00", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DurationInput label="Temps" onChange={onChange} />);
    await user.type(field("Minutes"), "5");
    expect(onChange).toHaveBeenLastCalledWith(300);
  });

  it("reports an all-zero duration as null", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DurationInput label="Temps" defaultValue={60} onChange={onChange} />);
    await user.clear(field("Minutes"));
    expect(onChange).toHaveBeenLastCalledWith(null);
    await user.type(field("Secondes"), "0");
    await user.type(field("Heures"), "{Backspace}{Backspace}00");
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it("ignores hours above 999 and flags the field with a hint, not colour alone", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DurationInput label="Temps" onChange={onChange} />);
    await user.type(field("Heures"), "1000");

    expect(onChange).toHaveBeenLastCalledWith(100 * 3600);
    expect(onChange).not.toHaveBeenCalledWith(1000 * 3600);
    const hours = field("Heures");
    expect(hours).toHaveValue("1000");
    expect(hours).toHaveAttribute("aria-invalid", "true");
    expect(hours).toHaveClass("border-red-600", "text-red-900");
    const hint = document.getElementById(hours.getAttribute("aria-describedby") ?? "");
    expect(hint).toHaveTextContent("Heures : de 0 à 999, 3 chiffres au plus. Saisie ignorée.");

    await user.tab();
    expect(hours).toHaveValue("100");
    expect(hours).not.toHaveAttribute("aria-invalid");
    expect(hours).not.toHaveClass("border-red-600");
  });

  it("honours a custom hour maximum", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DurationInput label="Temps" maxHours={24} onChange={onChange} />);
    await user.type(field("Heures"), "25");
    expect(onChange).toHaveBeenLastCalledWith(2 * 3600);
    expect(field("Heures")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Heures : de 0 à 24, 3 chiffres au plus. Saisie ignorée.")).toBeInTheDocument();
  });

  it("rejects 60 minutes and 60 seconds", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DurationInput label="Temps" onChange={onChange} />);
    await user.type(field("Minutes"), "60");
    expect(onChange).toHaveBeenLastCalledWith(6 * 60);
    expect(field("Minutes")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("Minutes : de 0 à 59. Saisie ignorée.")).toBeInTheDocument();

    await user.type(field("Secondes"), "60");
    // Leaving the minutes put back their last valid text.
    expect(field("Minutes")).toHaveValue("6");
    expect(field("Minutes")).not.toHaveAttribute("aria-invalid");
    expect(onChange).toHaveBeenLastCalledWith(6 * 60 + 6);
    expect(field("Secondes")).toHaveAttribute("aria-invalid", "true");

    await user.keyboard("{Backspace}");
    expect(field("Secondes")).not.toHaveAttribute("aria-invalid");
    expect(onChange.mock.calls).toEqual([[6 * 60], [6 * 60 + 6]]);
  });

  it("rejects more than two minute characters and non-digits", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DurationInput label="Temps" onChange={onChange} />);
    await user.type(field("Minutes"), "005");
    expect(field("Minutes")).toHaveAttribute("aria-invalid", "true");
    expect(onChange).not.toHaveBeenCalledWith(5 * 60);
    await user.clear(field("Secondes"));
    await user.type(field("Secondes"), "a");
    expect(field("Secondes")).toHaveAttribute("aria-invalid", "true");
  });

  it("follows a controlled value", () => {
    const { rerender } = render(<DurationInput aria-label="Temps" value={3723} />);
    expect(screen.getByRole("group", { name: "Temps" })).toBeInTheDocument();
    rerender(<DurationInput aria-label="Temps" value={45} />);
    expect(field("Heures")).toHaveValue("00");
    expect(field("Secondes")).toHaveValue("45");
    rerender(<DurationInput aria-label="Temps" value={null} />);
    expect(field("Heures")).toHaveValue("");
  });
});
