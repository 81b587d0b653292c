import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { Select, type SelectOption } from "./Select.tsx";

const sports: SelectOption[] = [
  { value: "running", label: "Course à pied", prefix: "icon-running" },
  { value: "trail", label: "Trail" },
  { value: "mtb", label: "VTT", disabled: true },
  { value: "swimrun", label: "Swimrun" },
  { value: "cycling", label: "Cyclisme" },
];

const hiddenValues = (container: HTMLElement, name: string) =>
  [...container.querySelectorAll<HTMLInputElement>(`input[type=hidden][name="${name}"]`)].map((input) => input.value);

describe("Select (single)", () => {
  it("is a labelled combobox that opens a listbox of options", async () => {
    const user = userEvent.setup();
    render(<Select label="Sport" options={sports} />);
    const combobox = screen.getByRole("combobox", { name: "Sport" });
    expect(combobox).toHaveAttribute("aria-expanded", "false");
    expect(combobox).toHaveTextContent("Sélectionner…");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();

    await user.click(combobox);
    expect(combobox).toHaveAttribute("aria-expanded", "true");
    const listbox = screen.getByRole("listbox", { name: "Sport" });
    expect(combobox).toHaveAttribute("aria-controls", listbox.id);
    expect(
      within(listbox)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["Course à pied", "Trail", "VTT", "Swimrun", "Cyclisme"]);
    expect(screen.getByRole("option", { name: "VTT" })).toHaveAttribute("aria-disabled", "true");
  });

  it("closes after a single choice and reports the value", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(<Select label="Sport" name="sport" options={sports} onChange={onChange} />);
    await user.click(screen.getByRole("combobox"));
    await user.click(screen.getByRole("option", { name: "Trail" }));

    expect(onChange).toHaveBeenCalledWith("trail", sports[1]);
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(screen.getByRole("combobox")).toHaveAttribute("aria-expanded", "false");
    expect(screen.getByRole("combobox")).toHaveTextContent("Trail");
    expect(screen.getByRole("combobox")).toHaveFocus();
    expect(hiddenValues(container, "sport")).toEqual(["trail"]);

    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("option", { name: "Trail" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("option", { name: "Swimrun" })).toHaveAttribute("aria-selected", "false");
  });

  it("ignores a disabled option", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Select label="Sport" options={sports} onChange={onChange} />);
    await user.click(screen.getByRole("combobox"));
    await user.click(screen.getByRole("option", { name: "VTT" }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole("listbox")).toBeInTheDocument();
  });

  it("works with the keyboard: arrows skip disabled options, Enter picks, Escape closes", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Select label="Sport" options={sports} onChange={onChange} />);
    const combobox = screen.getByRole("combobox");
    await user.tab();
    expect(combobox).toHaveFocus();

    await user.keyboard("{ArrowDown}");
    expect(combobox).toHaveAttribute("aria-expanded", "true");
    const active = () => document.getElementById(combobox.getAttribute("aria-activedescendant") ?? "");
    expect(active()).toHaveTextContent("Course à pied");

    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(active()).toHaveTextContent("Swimrun");
    await user.keyboard("{ArrowUp}");
    expect(active()).toHaveTextContent("Trail");
    await user.keyboard("{End}");
    expect(active()).toHaveTextContent("Cyclisme");
    await user.keyboard("{Home}");
    expect(active()).toHaveTextContent("Course à pied");

    await user.keyboard("{Escape}");
    expect(combobox).toHaveAttribute("aria-expanded", "false");
    expect(onChange).not.toHaveBeenCalled();

    await user.keyboard("{Enter}{ArrowDown}{Enter}");
    expect(onChange).toHaveBeenCalledWith("trail", sports[1]);
    expect(combobox).toHaveAttribute("aria-expanded", "false");
    expect(combobox).toHaveFocus();
  });

  it("opens on the current value when reopened", async () => {
    const user = userEvent.setup();
    render(<Select label="Sport" options={sports} defaultValue="swimrun" />);
    const combobox = screen.getByRole("combobox");
    expect(combobox).toHaveTextContent("Swimrun");
    combobox.focus();
    await user.keyboard(" ");
    expect(document.getElementById(combobox.getAttribute("aria-activedescendant") ?? "")).toHaveTextContent("Swimrun");
  });

  it("closes when clicking outside", async () => {
    const user = userEvent.setup();
    render(
      <>
        <Select label="Sport" options={sports} />
        <button type="button">Ailleurs</button>
      </>,
    );
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("listbox")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Ailleurs" }));
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
  });

  it("renders an option prefix as a decorative icon", async () => {
    const user = userEvent.setup();
    render(<Select label="Sport" options={sports} defaultValue="running" />);
    const shown = screen.getByRole("combobox").querySelector("i.icon-running");
    expect(shown).toHaveAttribute("aria-hidden", "true");
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("option", { name: "Course à pied" }).querySelector("i.icon-running")).not.toBeNull();
  });

  it("offers a 'none' choice labelled by nullValueText", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <Select
        label="Sport"
        options={sports}
        defaultValue="trail"
        nullValueText="Tous les sports"
        onChange={onChange}
      />,
    );
    await user.click(screen.getByRole("combobox"));
    await user.click(screen.getByRole("option", { name: "Tous les sports" }));
    expect(onChange).toHaveBeenCalledWith(null, null);
    expect(screen.getByRole("combobox")).toHaveTextContent("Tous les sports");
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("option", { name: "Tous les sports" })).toHaveAttribute("aria-selected", "true");
  });

  it("clears the value with the clear button", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(
      <Select label="Sport" name="sport" options={sports} defaultValue="trail" clearable onChange={onChange} />,
    );
    await user.click(screen.getByRole("button", { name: "Effacer la sélection" }));
    expect(onChange).toHaveBeenCalledWith(null, null);
    expect(screen.getByRole("combobox")).toHaveTextContent("Sélectionner…");
    expect(hiddenValues(container, "sport")).toEqual([""]);
    expect(screen.queryByRole("button", { name: "Effacer la sélection" })).not.toBeInTheDocument();
  });

  it("follows a controlled value", () => {
    const { rerender } = render(<Select label="Sport" options={sports} value="trail" />);
    expect(screen.getByRole("combobox")).toHaveTextContent("Trail");
    rerender(<Select label="Sport" options={sports} value="cycling" />);
    expect(screen.getByRole("combobox")).toHaveTextContent("Cyclisme");
    rerender(<Select label="Sport" options={sports} value={null} placeholder="Choisir un sport" />);
    expect(screen.getByRole("combobox")).toHaveTextContent("Choisir un sport");
  });

  it("cannot be opened when disabled", async () => {
    const user = userEvent.setup();
    render(<Select label="Sport" options={sports} disabled />);
    const combobox = screen.getByRole("combobox");
    expect(combobox).toHaveAttribute("aria-disabled", "true");
    expect(combobox).toHaveAttribute("tabindex", "-1");
    await user.click(combobox);
    expect(combobox).toHaveAttribute("aria-expanded", "false");
  });

  it("takes its accessible name from aria-label when there is no visible label", () => {
    render(<Select aria-label="Choisir une région" options={sports} />);
    expect(screen.getByRole("combobox", { name: "Choisir une région" })).toBeInTheDocument();
  });
});

describe("Select (search)", () => {
  const places: SelectOption[] = [
    { value: "idf", label: "Île-de-France" },
    { value: "evry", label: "Évry-Courcouronnes" },
    { value: "lyon", label: "Lyon" },
  ];

  it("filters options ignoring case and accents", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Select label="Lieu" options={places} searchable onChange={onChange} />);
    await user.click(screen.getByRole("combobox"));
    const search = screen.getByRole("searchbox", { name: "Filtrer les options" });
    expect(search).toHaveFocus();

    await user.type(search, "EVRY");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Évry-Courcouronnes"]);
    await user.clear(search);
    await user.type(search, "ile");
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Île-de-France"]);

    await user.keyboard("{Enter}");
    expect(onChange).toHaveBeenCalledWith("idf", places[0]);
    expect(screen.getByRole("combobox")).toHaveFocus();
  });

  it("shows the translated no-option text when nothing matches", async () => {
    const user = userEvent.setup();
    render(<Select label="Lieu" options={places} searchable />);
    await user.click(screen.getByRole("combobox"));
    await user.type(screen.getByRole("searchbox"), "zzz");
    expect(screen.queryAllByRole("option")).toHaveLength(0);
    expect(screen.getByRole("status")).toHaveTextContent("Aucune option");
  });

  it("uses emptyMessage when given", async () => {
    const user = userEvent.setup();
    render(<Select label="Lieu" options={[]} emptyMessage="Choisissez d'abord une région" />);
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("status")).toHaveTextContent("Choisissez d'abord une région");
  });
});

describe("Select (multiple)", () => {
  it("stays open, shows choices as tags and removing the last one empties the value", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(<Select label="Sports" name="sports" options={sports} multiple onChange={onChange} />);
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("listbox")).toHaveAttribute("aria-multiselectable", "true");

    await user.click(screen.getByRole("option", { name: "Trail" }));
    await user.click(screen.getByRole("option", { name: "Swimrun" }));
    expect(screen.getByRole("listbox")).toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith(["trail", "swimrun"], [sports[1], sports[3]]);
    expect(screen.getByRole("option", { name: "Trail" })).toHaveAttribute("aria-selected", "true");

    const tags = screen.getByRole("list", { name: "Choix effectués" });
    expect(
      within(tags)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["Trail", "Swimrun"]);
    expect(screen.getByRole("combobox")).toHaveTextContent("2 éléments sélectionnés");
    expect(hiddenValues(container, "sports")).toEqual(["trail", "swimrun"]);

    await user.click(screen.getByRole("button", { name: "Retirer « Trail »" }));
    expect(onChange).toHaveBeenLastCalledWith(["swimrun"], [sports[3]]);
    await user.click(screen.getByRole("button", { name: "Retirer « Swimrun »" }));
    expect(onChange).toHaveBeenLastCalledWith([], []);
    expect(screen.queryByRole("list", { name: "Choix effectués" })).not.toBeInTheDocument();
    expect(screen.getByRole("combobox")).toHaveTextContent("Sélectionner…");
    expect(hiddenValues(container, "sports")).toEqual([]);
  });

  it("toggles a chosen option off from the list", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Select label="Sports" options={sports} multiple defaultValue={["trail"]} onChange={onChange} />);
    await user.click(screen.getByRole("combobox"));
    await user.click(screen.getByRole("option", { name: "Trail" }));
    expect(onChange).toHaveBeenLastCalledWith([], []);
  });

  it("colours tags and the selection with the chosen palette colour (blue by default)", async () => {
    const { unmount } = render(<Select label="Sports" options={sports} multiple defaultValue={["trail"]} />);
    expect(screen.getByRole("listitem")).toHaveClass("bg-blue-100", "text-blue-900");
    unmount();
    render(<Select label="Sports" options={sports} multiple defaultValue={["trail"]} color="rose" />);
    expect(screen.getByRole("listitem")).toHaveClass("bg-rose-100", "text-rose-900");
    expect(screen.getByRole("option", { hidden: true, name: "Trail" })).toHaveClass("text-rose-900");
  });
});

describe("Select settings", () => {
  it("applies size, height and optionClass", async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Select label="Sport" options={sports} />);
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("listbox")).toHaveClass("max-h-72");
    unmount();

    render(<Select label="Sport" options={sports} size="sm" height="max-h-40" optionClass="uppercase" />);
    await user.click(screen.getByRole("combobox"));
    expect(screen.getByRole("listbox")).toHaveClass("max-h-40");
    expect(screen.getByRole("listbox")).not.toHaveClass("max-h-72");
    expect(screen.getByRole("option", { name: "Trail" })).toHaveClass("uppercase", "text-sm");
  });

  it("submits its value with a plain HTML form", async () => {
    const user = userEvent.setup();
    let submitted: FormData | null = null;
    render(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submitted = new FormData(event.currentTarget);
        }}
      >
        <Select label="Sport" name="sport" options={sports} />
        <Select label="Autres" name="others" options={sports} multiple defaultValue={["trail", "cycling"]} />
        <button type="submit">Envoyer</button>
      </form>,
    );
    await user.click(screen.getByRole("combobox", { name: "Sport" }));
    await user.click(screen.getByRole("option", { name: "Swimrun" }));
    await user.click(screen.getByRole("button", { name: "Envoyer" }));
    expect(submitted).not.toBeNull();
    expect((submitted as unknown as FormData).get("sport")).toBe("swimrun");
    expect((submitted as unknown as FormData).getAll("others")).toEqual(["trail", "cycling"]);
  });
});

const departments: SelectOption[] = [
  { value: "75", label: "Paris", parent: "idf" },
  { value: "91", label: "Essonne", parent: "idf" },
  { value: "69", label: "Rhône", parent: "ara" },
];

function Dependent({ onChange }: { onChange: (value: unknown) => void }) {
  const [region, setRegion] = useState<string>("idf");
  const [department, setDepartment] = useState<string | number | null>("91");
  return (
    <>
      <button type="button" onClick={() => setRegion("ara")}>
        Auvergne
      </button>
      <Select
        label="Département"
        options={departments}
        parentValue={region}
        value={department}
        onChange={(value) => {
          onChange(value);
          setDepartment(value);
        }}
      />
    </>
  );
}

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

describe("Select dependent list (parentValue)", () => {
  it("resets the value to empty and reports it when the parent value changes", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Dependent onChange={onChange} />);
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole("combobox")).toHaveTextContent("Essonne");

    await user.click(screen.getByRole("combobox"));
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Paris", "Essonne"]);
    await user.keyboard("{Escape}");

    await user.click(screen.getByRole("button", { name: "Auvergne" }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith(null);
    expect(screen.getByRole("combobox")).toHaveTextContent("Sélectionner…");
    await user.click(screen.getByRole("combobox"));
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual(["Rhône"]);
  });
});

describe("Select option links", () => {
  const pages: SelectOption[] = [
    { value: "home", label: "Accueil", link: "/" },
    { value: "races", label: "Courses", link: "/courses" },
  ];

  it("navigates with an injected navigate function", async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    render(<Select label="Aller à" options={pages} navigate={navigate} />);
    await user.click(screen.getByRole("combobox"));
    await user.click(screen.getByRole("option", { name: "Courses" }));
    expect(navigate).toHaveBeenCalledWith("/courses");
  });

  it("navigates with the router when rendered inside one", async () => {
    const user = userEvent.setup();
    const page = (
      <>
        <Select label="Aller à" options={pages} />
        <Where />
      </>
    );
    const router = createMemoryRouter(
      [
        { path: "/", element: page },
        { path: "/courses", element: page },
      ],
      { initialEntries: ["/"] },
    );
    render(<RouterProvider router={router} />);
    await user.click(screen.getByRole("combobox"));
    await user.click(screen.getByRole("option", { name: "Courses" }));
    expect(await screen.findByText("/courses")).toBeInTheDocument();
  });
});
