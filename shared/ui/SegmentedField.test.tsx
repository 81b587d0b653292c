import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FieldLabel } from "./FieldLabel.tsx";
import { type Segment, SegmentedField } from "./SegmentedField.tsx";

type Part = "a" | "b";

const segment = (part: Part, overrides: Partial<Segment<Part>> = {}): Segment<Part> => ({
  part,
  label: `Part ${part}`,
  placeholder: "00",
  width: "w-12",
  value: "",
  invalid: false,
  hintKeys: [part],
  ...overrides,
});

describe("SegmentedField", () => {
  it("labels the group and its inputs and shows the separator as decoration", () => {
    const { container } = render(
      <SegmentedField
        id="f"
        label="Champ"
        segments={[segment("a"), segment("b")]}
        separator=":"
        hints={[]}
        onEdit={() => {}}
        onLeave={() => {}}
      />,
    );
    expect(screen.getByRole("group", { name: "Champ" })).toHaveAttribute("id", "f");
    expect(screen.getByRole("textbox", { name: "Part a" })).toHaveAttribute("inputmode", "numeric");
    expect(screen.getByRole("textbox", { name: "Part b" })).not.toHaveAttribute("aria-invalid");
    expect(container.querySelector('[aria-hidden="true"]')).toHaveTextContent(":");
  });

  it("flags an invalid input and points it to its hints, skipping false keys", () => {
    render(
      <SegmentedField
        id="f"
        aria-label="Champ"
        segments={[segment("a", { invalid: true, hintKeys: [false, "bounds"] }), segment("b", { hintKeys: ["b"] })]}
        separator="/"
        hints={[{ key: "bounds", text: "Hors limites" }]}
        onEdit={() => {}}
        onLeave={() => {}}
      />,
    );
    const a = screen.getByRole("textbox", { name: "Part a" });
    expect(a).toHaveAttribute("aria-invalid", "true");
    expect(a).toHaveClass("border-red-600", "text-red-900");
    expect(a).toHaveAttribute("aria-describedby", "f-bounds-hint");
    expect(document.getElementById("f-bounds-hint")).toHaveTextContent("Hors limites");
    expect(screen.getByRole("textbox", { name: "Part b" })).not.toHaveAttribute("aria-describedby");
  });

  it("reports trimmed edits and whether the focus left the whole field", async () => {
    const user = userEvent.setup();
    const onEdit = vi.fn();
    const onLeave = vi.fn();
    render(
      <>
        <SegmentedField
          id="f"
          aria-label="Champ"
          segments={[segment("a"), segment("b")]}
          separator=":"
          hints={[]}
          onEdit={onEdit}
          onLeave={onLeave}
        />
        <button type="button">Après</button>
      </>,
    );
    await user.type(screen.getByRole("textbox", { name: "Part a" }), " ");
    expect(onEdit).toHaveBeenLastCalledWith("a", "");
    await user.tab();
    expect(onLeave).toHaveBeenLastCalledWith("a", false);
    await user.tab();
    expect(onLeave).toHaveBeenLastCalledWith("b", true);
  });

  it("carries the value in a hidden input when named", () => {
    const { container } = render(
      <SegmentedField
        id="f"
        aria-label="Champ"
        name="v"
        hiddenValue={null}
        segments={[segment("a")]}
        separator=":"
        hints={[]}
        onEdit={() => {}}
        onLeave={() => {}}
      />,
    );
    expect(container.querySelector<HTMLInputElement>("input[name=v]")).toHaveValue("");
  });
});

describe("FieldLabel", () => {
  it("renders a visible label, else a screen-reader-only one, else nothing", () => {
    const { rerender, container } = render(<FieldLabel id="l" label="Course" hiddenLabel="Ignoré" />);
    expect(container.querySelector("#l")).toHaveTextContent("Course");
    expect(container.querySelector("#l")).not.toHaveClass("sr-only");
    rerender(<FieldLabel id="l" hiddenLabel="Course" />);
    expect(container.querySelector("#l")).toHaveClass("sr-only");
    rerender(<FieldLabel id="l" />);
    expect(container).toBeEmptyDOMElement();
  });
});
